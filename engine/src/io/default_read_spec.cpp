#include "clusterlens/io/default_read_spec.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "clusterlens/pca.hpp"
#include "io/cancel_points.hpp"

namespace clusterlens {
namespace {

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

bool isUpper(char c) {
    return c >= 'A' && c <= 'Z';
}
bool isLower(char c) {
    return c >= 'a' && c <= 'z';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

/// Length of the element symbol (an uppercase letter, maybe a lowercase one) at `from`, or 0.
std::size_t symbolAt(const std::string& text, std::size_t from) {
    if (from >= text.size() || !isUpper(text[from])) return 0;
    return from + 1 < text.size() && isLower(text[from + 1]) ? 2 : 1;
}

std::size_t digitsAt(const std::string& text, std::size_t from) {
    std::size_t end = from;
    while (end < text.size() && isDigit(text[end])) ++end;
    return end - from;
}

/// "Ir191" or "191Ir", with a mass a CyTOF measures (75..209).
bool isIsotope(const std::string& text) {
    if (text.empty()) return false;
    const bool massFirst = isDigit(text[0]);
    const std::size_t massLength = massFirst ? digitsAt(text, 0) : digitsAt(text, symbolAt(text, 0));
    const std::size_t symbolLength = massFirst ? symbolAt(text, massLength) : symbolAt(text, 0);
    if (symbolLength == 0 || massLength < 2 || massLength > 3 || symbolLength + massLength != text.size()) return false;
    const int mass = std::stoi(text.substr(massFirst ? 0 : symbolLength, massLength));
    return mass >= 75 && mass <= 209;
}

bool isCountMatrix(const Dataset& data) {
    const std::string& format = data.provenance.format;
    return (format == "h5ad" || format == "10x-h5") && data.provenance.detail.rfind("obsm/", 0) != 0;
}

bool holdsRawCounts(const Dataset& data, const JobControl* control) {
    for (std::size_t i = 0; i < data.n; ++i) {
        detail::cancelPoint(control, i);
        const auto row = data.values.begin() + static_cast<std::ptrdiff_t>(i * data.d);
        if (!std::all_of(row, row + static_cast<std::ptrdiff_t>(data.d),
                         [](float v) { return std::isfinite(v) && v >= 0.0f && v == std::trunc(v); }))
            return false;
    }
    return true;
}

/// Column variances of log1p(counts scaled to the median non-zero total) when `counts`, else of the
/// values as they are. Divisor n - 1 (0 for n < 2).
std::vector<double> columnVariances(const Dataset& data, bool counts, const JobControl* control) {
    std::vector<double> scale(data.n, 1.0);
    if (counts) {
        std::vector<double> totals(data.n, 0.0), positive;
        for (std::size_t i = 0; i < data.n; ++i) {
            detail::cancelPoint(control, i);
            for (std::size_t j = 0; j < data.d; ++j) totals[i] += data.values[i * data.d + j];
        }
        for (double t : totals)
            if (t > 0) positive.push_back(t);
        std::sort(positive.begin(), positive.end());
        const std::size_t m = positive.size() / 2;
        const double target = positive.empty()           ? 1.0
                              : positive.size() % 2 == 1 ? positive[m]
                                                         : (positive[m - 1] + positive[m]) / 2.0;
        for (std::size_t i = 0; i < data.n; ++i) scale[i] = totals[i] > 0 ? target / totals[i] : 1.0;
    }
    std::vector<double> sum(data.d, 0.0), squares(data.d, 0.0);
    for (std::size_t i = 0; i < data.n; ++i) {
        detail::cancelPoint(control, i);
        for (std::size_t j = 0; j < data.d; ++j) {
            const double v = data.values[i * data.d + j];
            const double y = counts ? std::log1p(v * scale[i]) : v;
            sum[j] += y;
            squares[j] += y * y;
        }
    }
    std::vector<double> variance(data.d, 0.0);
    if (data.n < 2) return variance;
    for (std::size_t j = 0; j < data.d; ++j) {
        const double n = static_cast<double>(data.n);
        variance[j] = std::max(0.0, (squares[j] - sum[j] * sum[j] / n) / (n - 1));
    }
    return variance;
}

/// The first embedding named X_umap, X_tsne, X_pca (in that order, any case), else any other, with
/// at least two components; nullptr when there is none.
const Embedding* preferredEmbedding(const Dataset& data) {
    for (const char* name : {"x_umap", "x_tsne", "x_pca"})
        for (const Embedding& e : data.embeddings)
            if (lower(e.name) == name && e.d >= 2) return &e;
    for (const Embedding& e : data.embeddings)
        if (e.d >= 2) return &e;
    return nullptr;
}

DefaultScatter featureAxes(const Dataset& data, std::size_t x, std::size_t y) {
    DefaultScatter scatter;
    scatter.x = x;
    scatter.y = y;
    scatter.xName = x < data.features.size() ? data.features[x] : "";
    scatter.yName = y < data.features.size() ? data.features[y] : "";
    return scatter;
}

DefaultScatter chooseScatter(const Dataset& data, DataKind kind, bool rawCounts, const JobControl* control) {
    if (const Embedding* e = preferredEmbedding(data)) {
        DefaultScatter scatter{e->name, 0, 1, e->name + " 1", e->name + " 2"};
        return scatter;
    }
    if (data.d < 2) return featureAxes(data, 0, 0);
    if (kind == DataKind::CountMatrix) {
        const std::vector<double> variance = columnVariances(data, rawCounts, control);
        std::vector<std::size_t> order(data.d);
        for (std::size_t j = 0; j < data.d; ++j) order[j] = j;
        std::partial_sort(order.begin(), order.begin() + 2, order.end(), [&](std::size_t a, std::size_t b) {
            return variance[a] > variance[b] || (variance[a] == variance[b] && a < b);
        });
        return featureAxes(data, order[0], order[1]);
    }
    std::vector<std::size_t> measured;
    for (std::size_t j = 0; j < data.d && measured.size() < 2; ++j)
        if (!isTimeLikeChannel(data.features[j])) measured.push_back(j);
    return measured.size() == 2 ? featureAxes(data, measured[0], measured[1]) : featureAxes(data, 0, 1);
}

/// FCS: flow or mass cytometry, time-like channels out, compensation when a matrix exists.
void proposeCytometry(const Dataset& data, DefaultReadSpec& spec) {
    const std::string detail = lower(data.provenance.detail);
    std::string evidence;
    for (const char* cytometer : {"cytof", "helios", "hyperion"})
        if (detail.find(cytometer) != std::string::npos) evidence = "$CYT";
    for (std::size_t j = 0; j < data.d && evidence.empty(); ++j)
        if (isMassChannel(data.features[j])) evidence = data.features[j];
    const bool mass = !evidence.empty();
    spec.kind = mass ? DataKind::MassCytometry : DataKind::FlowCytometry;
    spec.read.transform = mass ? "asinh:5" : "asinh:150";
    for (const std::string& feature : data.features) {
        if (isTimeLikeChannel(feature))
            spec.excluded.push_back(feature);
        else
            spec.read.columns.push_back(feature);
    }
    if (spec.excluded.empty() || spec.read.columns.empty()) spec.read.columns.clear();
    spec.read.compensate = detail.find("spillover matrix present") != std::string::npos ||
                           detail.find("compensated with") != std::string::npos;
    spec.reason =
        mass ? "mass cytometry (" + evidence + "): arcsinh cofactor 5" : "flow cytometry: arcsinh cofactor 150";
    if (!spec.excluded.empty())
        spec.reason += "; left out: " + std::to_string(spec.excluded.size()) + " time-like channel" +
                       (spec.excluded.size() == 1 ? "" : "s");
    if (spec.read.compensate) spec.reason += "; compensated with the file's spillover matrix";
}

void proposeCounts(const Dataset& data, bool rawCounts, DefaultReadSpec& spec) {
    spec.kind = DataKind::CountMatrix;
    const bool pca = data.d > 100 && data.d <= kPcaMaxFeatures && data.n >= 2;
    spec.read.transform = rawCounts ? "normalize-total,log1p" : "";
    if (pca) spec.read.transform += std::string(rawCounts ? "," : "") + "pca:50";
    spec.reason =
        rawCounts ? "count matrix: normalise-total and log1p" : "count matrix already normalised (not whole numbers)";
    if (pca)
        spec.reason += ", PCA to 50 components";
    else if (data.d > kPcaMaxFeatures)
        spec.reason += "; no PCA above " + std::to_string(kPcaMaxFeatures) + " features";
}

}  // namespace

bool isTimeLikeChannel(const std::string& name) {
    static const std::set<std::string> kNames = {"time",        "eventlength", "celllength", "center",  "offset",
                                                 "width",       "residual",    "beaddist",   "filenum", "event",
                                                 "eventnumber", "eventno",     "originalid"};
    std::string key;
    for (char c : name)
        if (c != ' ' && c != '_' && c != '#') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return kNames.count(key) != 0;
}

bool isMassChannel(const std::string& name) {
    std::string text = name;
    for (const char* suffix : {"Di", "Dd"})
        if (text.size() > 2 && text.compare(text.size() - 2, 2, suffix) == 0) {
            text.resize(text.size() - 2);
            if (!text.empty() && text.back() == '_') text.pop_back();
            break;
        }
    if (text.size() > 2 && text.front() == '(' && text.back() == ')') text = text.substr(1, text.size() - 2);
    return isIsotope(text);
}

DefaultReadSpec proposeReadSpec(const Dataset& data, const JobControl* control) {
    DefaultReadSpec spec;
    const bool rawCounts = isCountMatrix(data) && holdsRawCounts(data, control);
    if (data.provenance.format == "fcs")
        proposeCytometry(data, spec);
    else if (isCountMatrix(data))
        proposeCounts(data, rawCounts, spec);
    else
        spec.reason = "table: no transform";
    spec.scatter = chooseScatter(data, spec.kind, rawCounts, control);
    return spec;
}

}  // namespace clusterlens
