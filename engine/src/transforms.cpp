#include "clusterlens/transforms.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <random>
#include <set>

#include "clusterlens/errors.hpp"
#include "clusterlens/pca.hpp"
#include "io/cancel_points.hpp"

namespace clusterlens {
namespace {

/// Applies f(value, column) to every listed column, in double precision, keeping `exact` in step.
template <typename F>
Dataset mapColumns(const Dataset& in, const std::vector<std::size_t>& columns, const JobControl* control, F f) {
    Dataset out = in;
    std::vector<char> selected(in.d, columns.empty() ? 1 : 0);
    for (std::size_t c : columns) {
        if (c >= in.d)
            throw InvalidInput("column " + std::to_string(c + 1) + " does not exist (D = " + std::to_string(in.d) +
                               ")");
        selected[c] = 1;
    }
    const bool exact = in.exact.size() == in.values.size();
    for (std::size_t i = 0; i < in.n; ++i) {
        detail::cancelPoint(control, i);
        for (std::size_t j = 0; j < in.d; ++j) {
            if (!selected[j]) continue;
            const std::size_t k = i * in.d + j;
            const double v = f(exact ? in.exact[k] : static_cast<double>(in.values[k]), j);
            out.values[k] = static_cast<float>(v);
            if (exact) out.exact[k] = v;
        }
    }
    return out;
}

}  // namespace

Dataset asinhTransform(const Dataset& in, double cofactor, const std::vector<std::size_t>& columns,
                       const JobControl* control) {
    if (!(cofactor > 0) || !std::isfinite(cofactor))
        throw InvalidInput("--transform asinh: the cofactor must be a positive number, got " +
                           std::to_string(cofactor));
    Dataset out =
        mapColumns(in, columns, control, [cofactor](double v, std::size_t) { return std::asinh(v / cofactor); });
    char buf[64];
    std::snprintf(buf, sizeof buf, "asinh(cofactor=%g)", cofactor);
    out.provenance.steps.emplace_back(buf);
    return out;
}

Dataset zscoreTransform(const Dataset& in, const JobControl* control) {
    std::vector<double> mean(in.d, 0.0), sd(in.d, 0.0);
    const auto v = in.valuesAsDouble();
    for (std::size_t i = 0; i < in.n; ++i) {
        detail::cancelPoint(control, i);
        for (std::size_t j = 0; j < in.d; ++j) mean[j] += v[i * in.d + j];
    }
    for (double& m : mean) m /= static_cast<double>(std::max<std::size_t>(in.n, 1));
    for (std::size_t i = 0; i < in.n; ++i) {
        detail::cancelPoint(control, i);
        for (std::size_t j = 0; j < in.d; ++j) sd[j] += (v[i * in.d + j] - mean[j]) * (v[i * in.d + j] - mean[j]);
    }
    for (double& s : sd) s = in.n > 1 ? std::sqrt(s / static_cast<double>(in.n - 1)) : 0.0;
    Dataset out =
        mapColumns(in, {}, control, [&](double x, std::size_t j) { return sd[j] > 0 ? (x - mean[j]) / sd[j] : 0.0; });
    out.provenance.steps.emplace_back("zscore");
    return out;
}

Dataset normalizeTotal(const Dataset& in, std::optional<double> targetSum, const JobControl* control) {
    if (targetSum && !(*targetSum > 0 && std::isfinite(*targetSum)))
        throw InvalidInput("--transform normalize-total: the target sum must be a positive number, got " +
                           std::to_string(*targetSum));
    const std::vector<double> v = in.valuesAsDouble();
    std::vector<double> totals(in.n, 0.0);
    for (std::size_t i = 0; i < in.n; ++i) {
        detail::cancelPoint(control, i);
        for (std::size_t j = 0; j < in.d; ++j) totals[i] += v[i * in.d + j];
    }
    double target = targetSum.value_or(0.0);
    if (!targetSum) {
        std::vector<double> positive;
        std::copy_if(totals.begin(), totals.end(), std::back_inserter(positive), [](double t) { return t > 0; });
        if (positive.empty()) throw InvalidInput("--transform normalize-total: every cell's values sum to 0 or less");
        // numpy's median: the mean of the two middle values of an even count.
        const auto middle = positive.begin() + static_cast<std::ptrdiff_t>(positive.size() / 2);
        std::nth_element(positive.begin(), middle, positive.end());
        target = *middle;
        if (positive.size() % 2 == 0) target = (target + *std::max_element(positive.begin(), middle)) / 2.0;
    }
    std::vector<double> scale(in.n, 1.0);
    for (std::size_t i = 0; i < in.n; ++i) scale[i] = totals[i] != 0.0 ? target / totals[i] : 1.0;
    Dataset out = in;
    const bool exact = in.exact.size() == in.values.size() && !in.exact.empty();
    for (std::size_t i = 0; i < in.n; ++i) {
        detail::cancelPoint(control, i);
        for (std::size_t j = 0; j < in.d; ++j) {
            const std::size_t k = i * in.d + j;
            out.values[k] = static_cast<float>(v[k] * scale[i]);
            if (exact) out.exact[k] = v[k] * scale[i];
        }
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "normalize_total(target_sum=%g)", target);
    out.provenance.steps.emplace_back(buf);
    return out;
}

Dataset log1pTransform(const Dataset& in, const JobControl* control) {
    Dataset out = mapColumns(in, {}, control, [](double v, std::size_t j) {
        if (!(v > -1.0))
            throw InvalidInput("--transform log1p: value " + std::to_string(v) + " in column " + std::to_string(j + 1) +
                               " is not above -1 (log1p is for counts)");
        return std::log1p(v);
    });
    out.provenance.steps.emplace_back("log1p");
    return out;
}

Dataset selectColumns(const Dataset& in, const std::vector<std::size_t>& columns) {
    if (columns.empty()) throw InvalidInput("--columns: no columns selected");
    std::set<std::size_t> seen;
    for (std::size_t c : columns) {
        if (c >= in.d)
            throw InvalidInput("--columns: column " + std::to_string(c + 1) +
                               " does not exist (D = " + std::to_string(in.d) + ")");
        if (!seen.insert(c).second) throw InvalidInput("--columns: column '" + in.features[c] + "' is listed twice");
    }
    Dataset out = in;
    out.d = columns.size();
    out.features.clear();
    out.descriptions.clear();
    for (std::size_t c : columns) {
        out.features.push_back(in.features[c]);
        if (!in.descriptions.empty()) out.descriptions.push_back(in.descriptions[c]);
    }
    out.values.assign(in.n * out.d, 0.0f);
    const bool exact = in.exact.size() == in.values.size();
    out.exact.assign(exact ? in.n * out.d : 0, 0.0);
    for (std::size_t i = 0; i < in.n; ++i) {
        for (std::size_t k = 0; k < columns.size(); ++k) {
            out.values[i * out.d + k] = in.values[i * in.d + columns[k]];
            if (exact) out.exact[i * out.d + k] = in.exact[i * in.d + columns[k]];
        }
    }
    std::string step = "columns(";
    for (std::size_t k = 0; k < out.features.size(); ++k) step += (k ? "," : "") + out.features[k];
    out.provenance.steps.push_back(step + ")");
    return out;
}

std::vector<std::size_t> resolveColumns(const Dataset& in, const std::vector<std::string>& names) {
    std::vector<std::size_t> columns;
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
        return s;
    };
    for (const std::string& name : names) {
        long index = in.featureIndex(name);
        for (std::size_t j = 0; index < 0 && j < in.d; ++j)
            if (lower(in.features[j]) == lower(name)) index = static_cast<long>(j);
        if (index < 0) {
            std::size_t number = 0;
            auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), number);
            if (ec == std::errc() && ptr == name.data() + name.size() && number >= 1 && number <= in.d)
                index = static_cast<long>(number - 1);
        }
        for (const Annotation& a : in.annotations)
            if (index < 0 && lower(a.name) == lower(name))
                throw InvalidInput("--columns: '" + name +
                                   "' is a text column, kept as an annotation; --columns selects among the numeric "
                                   "columns (see `info`)");
        if (index < 0)
            throw InvalidInput("--columns: no feature named '" + name + "' (use a name or a 1-based number)");
        columns.push_back(static_cast<std::size_t>(index));
    }
    return columns;
}

std::vector<std::size_t> subsampleIndices(std::size_t n, std::size_t m, std::uint64_t seed) {
    if (m >= n) {
        std::vector<std::size_t> all(n);
        std::iota(all.begin(), all.end(), std::size_t{0});
        return all;
    }
    // Selection sampling (Knuth, TAOCP vol. 2, Algorithm S): one pass, keeps input order.
    std::mt19937_64 rng(seed);
    std::vector<std::size_t> keep;
    keep.reserve(m);
    for (std::size_t i = 0; i < n && keep.size() < m; ++i) {
        const std::size_t remaining = n - i, needed = m - keep.size();
        if (std::uniform_int_distribution<std::size_t>(0, remaining - 1)(rng) < needed) keep.push_back(i);
    }
    return keep;
}

Dataset subsample(const Dataset& in, std::size_t m, std::uint64_t seed) {
    if (m == 0) throw InvalidInput("--subsample: the sample size must be at least 1");
    if (m >= in.n) return in;
    const std::vector<std::size_t> keep = subsampleIndices(in.n, m, seed);
    Dataset out = in;
    out.n = m;
    const bool exact = in.exact.size() == in.values.size();
    out.values.resize(m * in.d);
    out.exact.resize(exact ? m * in.d : 0);
    if (!in.labels.empty()) out.labels.resize(m);
    if (!in.pointNames.empty()) out.pointNames.resize(m);
    for (std::size_t k = 0; k < m; ++k) {
        const std::size_t i = keep[k];
        std::copy_n(in.values.begin() + static_cast<std::ptrdiff_t>(i * in.d), in.d,
                    out.values.begin() + static_cast<std::ptrdiff_t>(k * in.d));
        if (exact)
            std::copy_n(in.exact.begin() + static_cast<std::ptrdiff_t>(i * in.d), in.d,
                        out.exact.begin() + static_cast<std::ptrdiff_t>(k * in.d));
        if (!in.labels.empty()) out.labels[k] = in.labels[i];
        if (!in.pointNames.empty()) out.pointNames[k] = in.pointNames[i];
    }
    for (Annotation& a : out.annotations) {
        if (a.values.empty()) continue;
        std::vector<std::string> kept(m);
        for (std::size_t k = 0; k < m; ++k) kept[k] = a.values[keep[k]];
        a.values = std::move(kept);
    }
    for (Embedding& e : out.embeddings) {
        std::vector<float> kept(m * e.d);
        for (std::size_t k = 0; k < m; ++k)
            std::copy_n(e.values.begin() + static_cast<std::ptrdiff_t>(keep[k] * e.d), e.d,
                        kept.begin() + static_cast<std::ptrdiff_t>(k * e.d));
        e.values = std::move(kept);
        e.n = m;
    }
    out.provenance.steps.push_back("subsample(" + std::to_string(m) + ", seed=" + std::to_string(seed) + ")");
    return out;
}

namespace {

/// The number after "NAME:" in a step, or nullopt for a bare "NAME"; throws naming the step.
std::optional<double> stepNumber(const std::string& step, const std::string& name, const char* example) {
    if (step == name) return std::nullopt;
    const std::string number = step.substr(name.size() + 1);
    double value = 0;
    auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || ptr != number.data() + number.size())
        throw InvalidInput("--transform: '" + number + "' is not a number (example: " + example + ")");
    return value;
}

bool isStep(const std::string& step, const std::string& name) {
    return step == name || step.rfind(name + ":", 0) == 0;
}

Dataset applyStep(const Dataset& in, const std::string& step, const JobControl* control) {
    if (step == "zscore") return zscoreTransform(in, control);
    if (step == "log1p") return log1pTransform(in, control);
    if (isStep(step, "asinh"))
        return asinhTransform(in, stepNumber(step, "asinh", "asinh:150").value_or(5.0), {}, control);
    if (isStep(step, "normalize-total"))
        return normalizeTotal(in, stepNumber(step, "normalize-total", "normalize-total:1e4"), control);
    if (step.rfind("pca:", 0) == 0) {
        const double k = stepNumber(step, "pca", "pca:50").value_or(0.0);
        if (!(k >= 1 && k == std::trunc(k) && k <= 1e9))
            throw InvalidInput("--transform pca:K: K must be a whole number of components, got '" + step.substr(4) +
                               "'");
        return pcaTransform(in, static_cast<std::size_t>(k), control);
    }
    throw InvalidInput(
        "--transform: unknown transform '" + step +
        "' (expected asinh:COFACTOR, zscore, normalize-total[:TARGET], log1p or pca:K, joined by commas)");
}

}  // namespace

Dataset applyTransformSpec(const Dataset& in, const std::string& spec, const JobControl* control) {
    std::vector<std::string> steps;
    for (std::size_t start = 0;;) {
        const std::size_t comma = spec.find(',', start);
        steps.push_back(spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    for (const std::string& step : steps)
        if (step.empty()) throw InvalidInput("--transform: empty step in '" + spec + "'");
    Dataset out = applyStep(in, steps[0], control);
    for (std::size_t k = 1; k < steps.size(); ++k) out = applyStep(out, steps[k], control);
    return out;
}

}  // namespace clusterlens
