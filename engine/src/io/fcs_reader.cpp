// FCS 2.0 / 3.0 / 3.1 list-mode reader: decodes the events of fcs_file.hpp's RawFile into a Dataset.
// Scaling and compensation follow the FCS 3.1 standard (Spidlen et al., Cytometry A 77A:97-100, 2010).

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "cancel_points.hpp"
#include "fcs_file.hpp"

namespace clusterlens {
namespace {

using fcs::Keywords;
using fcs::Layout;
using fcs::Parameter;

std::uint64_t loadUnsigned(const unsigned char* bytes, unsigned width, bool bigEndian) {
    std::uint64_t value = 0;
    for (unsigned b = 0; b < width; ++b) {
        const unsigned shift = 8 * (bigEndian ? width - 1 - b : b);
        value |= static_cast<std::uint64_t>(bytes[b]) << shift;
    }
    return value;
}

/// Integer channel values to measurement scale: log amplification 10^(f1*x/range)*f2, else x/gain
/// (FCS 3.1, $PnE and $PnG).
double scaleInteger(std::uint64_t raw, const Parameter& p) {
    const double x = static_cast<double>(raw & p.mask);
    if (p.decades > 0) return std::pow(10.0, p.decades * x / p.range) * p.logOffset;
    return p.gain == 1 ? x : x / p.gain;
}

void decodeEvents(const std::string& raw, const Layout& layout, Dataset& data, const JobControl* control) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(raw.data());
    data.values.resize(data.n * data.d);
    if (layout.type == 'D') data.exact.resize(data.n * data.d);
    std::size_t at = 0;
    for (std::size_t k = 0; k < data.n * data.d; ++k) {
        if (k % data.d == 0) detail::cancelPoint(control, k / data.d);
        const Parameter& p = layout.params[k % data.d];
        const std::uint64_t word = loadUnsigned(bytes + at, p.bytes, layout.bigEndian);
        at += p.bytes;
        if (layout.type == 'F') {
            data.values[k] = std::bit_cast<float>(static_cast<std::uint32_t>(word));
        } else if (layout.type == 'D') {
            data.exact[k] = std::bit_cast<double>(word);
            data.values[k] = static_cast<float>(data.exact[k]);
        } else {
            data.values[k] = static_cast<float>(scaleInteger(word, p));
        }
    }
}

/// Inverse by Gauss-Jordan elimination with partial pivoting; false when (numerically) singular.
bool invert(std::vector<double> a, std::size_t n, std::vector<double>& inverse) {
    inverse.assign(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) inverse[i * n + i] = 1.0;
    double scale = 0;
    for (double v : a) scale = std::max(scale, std::abs(v));
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
            if (std::abs(a[r * n + col]) > std::abs(a[pivot * n + col])) pivot = r;
        if (!(std::abs(a[pivot * n + col]) > 1e-12 * scale)) return false;
        for (std::size_t c = 0; c < n; ++c) {
            std::swap(a[col * n + c], a[pivot * n + c]);
            std::swap(inverse[col * n + c], inverse[pivot * n + c]);
        }
        const double diag = a[col * n + col];
        for (std::size_t c = 0; c < n; ++c) {
            a[col * n + c] /= diag;
            inverse[col * n + c] /= diag;
        }
        for (std::size_t r = 0; r < n; ++r) {
            const double factor = a[r * n + col];
            if (r == col || factor == 0) continue;
            for (std::size_t c = 0; c < n; ++c) {
                a[r * n + c] -= factor * a[col * n + c];
                inverse[r * n + c] -= factor * inverse[col * n + c];
            }
        }
    }
    return true;
}

/// Compensation: each event's detector vector r (matrix order) becomes r * S^-1, S the spillover
/// matrix whose rows are the source detectors (FCS 3.1, $SPILLOVER).
void compensate(const std::string& path, const fcs::Spillover& spill, Dataset& data, const JobControl* control) {
    const std::string position = "TEXT keyword " + spill.keyword;
    const std::size_t m = spill.names.size();
    std::vector<std::size_t> columns;
    for (const std::string& name : spill.names) {
        const long j = data.featureIndex(name);
        if (j < 0)
            throwFileError(path, position, "detector '" + name + "' is not a parameter name ($PnN) of this file");
        for (std::size_t seen : columns)
            if (seen == static_cast<std::size_t>(j))
                throwFileError(path, position, "detector '" + name + "' is listed twice");
        columns.push_back(static_cast<std::size_t>(j));
    }
    std::vector<double> inverse;
    if (!invert(spill.matrix, m, inverse))
        throwFileError(path, position, "the spillover matrix is singular and cannot be inverted");
    std::vector<double> in(m), out(m);
    const bool exact = !data.exact.empty();
    for (std::size_t i = 0; i < data.n; ++i) {
        detail::cancelPoint(control, i);
        const std::size_t row = i * data.d;
        for (std::size_t a = 0; a < m; ++a)
            in[a] = exact ? data.exact[row + columns[a]] : data.values[row + columns[a]];
        for (std::size_t b = 0; b < m; ++b) {
            double sum = 0;
            for (std::size_t a = 0; a < m; ++a) sum += in[a] * inverse[a * m + b];
            out[b] = sum;
        }
        for (std::size_t b = 0; b < m; ++b) {
            data.values[row + columns[b]] = static_cast<float>(out[b]);
            if (exact) data.exact[row + columns[b]] = out[b];
        }
    }
}

std::string describe(const fcs::Header& header, const Keywords& keywords) {
    std::string detail = "FCS " + header.version + ", $DATATYPE " + *keywords.find("$DATATYPE") + ", $BYTEORD " +
                         *keywords.find("$BYTEORD");
    if (const std::string* cytometer = keywords.find("$CYT")) detail += ", $CYT " + *cytometer;
    return detail;
}

void applySpillover(const std::string& path, const Keywords& keywords, const ReadOptions& options, Dataset& data) {
    if (!options.compensate) {
        // The matrix matters only when applied: a malformed one must not make the events unreadable.
        std::optional<fcs::Spillover> spill;
        try {
            spill = fcs::findSpillover(path, keywords);
        } catch (const InvalidInput& e) {
            data.warnings.push_back(std::string("the spillover matrix is malformed and cannot be used: ") + e.what());
        }
        if (spill)
            data.provenance.detail += ", " + spill->keyword + " " + std::to_string(spill->names.size()) + "x" +
                                      std::to_string(spill->names.size()) + " spillover matrix present (not applied)";
        return;
    }
    const std::optional<fcs::Spillover> spill = fcs::findSpillover(path, keywords);
    if (!spill) {
        data.warnings.push_back(
            "compensation was requested but the file has no $SPILLOVER, SPILL or $COMP "
            "matrix; the data are not compensated");
        return;
    }
    compensate(path, *spill, data, options.control);
    data.provenance.detail += ", compensated with " + spill->keyword;
    data.provenance.steps.push_back("compensation(" + spill->keyword + ", " + std::to_string(spill->names.size()) +
                                    " detectors)");
}

/// The events of `raw` on the measurement scale: float and double data as stored, integer data
/// through $PnR bit masks, $PnE log amplification and $PnG gain; compensated when options.compensate.
Dataset decodeFcs(const fcs::RawFile& raw, const ReadOptions& options) {
    Dataset data;
    data.warnings = raw.warnings;
    data.n = raw.events;
    data.d = raw.layout.params.size();
    decodeEvents(raw.data, raw.layout, data, options.control);
    bool anyDescription = false;
    for (const Parameter& p : raw.layout.params) {
        data.features.push_back(p.name);
        data.descriptions.push_back(p.description);
        anyDescription = anyDescription || !p.description.empty();
    }
    if (!anyDescription) data.descriptions.clear();
    data.provenance.path = raw.path;
    data.provenance.format = "fcs";
    data.provenance.detail = describe(raw.header, raw.keywords);
    applySpillover(raw.path, raw.keywords, options, data);
    return data;
}

}  // namespace

Dataset readFcs(const std::string& path, const ReadOptions& options) {
    return decodeFcs(fcs::readRawFile(path, options), options);
}

}  // namespace clusterlens
