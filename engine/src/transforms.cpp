#include "clusterlens/transforms.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <charconv>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

#include "clusterlens/errors.hpp"

namespace clusterlens {
namespace {

/// Applies f(value, column) to every listed column, in double precision, keeping `exact` in step.
template <typename F>
Dataset mapColumns(const Dataset& in, const std::vector<std::size_t>& columns, F f) {
    Dataset out = in;
    std::vector<char> selected(in.d, columns.empty() ? 1 : 0);
    for (std::size_t c : columns) {
        if (c >= in.d) throw InvalidInput("column " + std::to_string(c + 1) + " does not exist (D = " + std::to_string(in.d) + ")");
        selected[c] = 1;
    }
    const bool exact = in.exact.size() == in.values.size();
    for (std::size_t i = 0; i < in.n; ++i) {
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

} // namespace

Dataset asinhTransform(const Dataset& in, double cofactor, const std::vector<std::size_t>& columns) {
    if (!(cofactor > 0) || !std::isfinite(cofactor))
        throw InvalidInput("--transform asinh: the cofactor must be a positive number, got " + std::to_string(cofactor));
    Dataset out = mapColumns(in, columns, [cofactor](double v, std::size_t) { return std::asinh(v / cofactor); });
    char buf[64];
    std::snprintf(buf, sizeof buf, "asinh(cofactor=%g)", cofactor);
    out.provenance.steps.emplace_back(buf);
    return out;
}

Dataset zscoreTransform(const Dataset& in) {
    std::vector<double> mean(in.d, 0.0), sd(in.d, 0.0);
    const auto v = in.valuesAsDouble();
    for (std::size_t i = 0; i < in.n; ++i)
        for (std::size_t j = 0; j < in.d; ++j) mean[j] += v[i * in.d + j];
    for (double& m : mean) m /= static_cast<double>(std::max<std::size_t>(in.n, 1));
    for (std::size_t i = 0; i < in.n; ++i)
        for (std::size_t j = 0; j < in.d; ++j) sd[j] += (v[i * in.d + j] - mean[j]) * (v[i * in.d + j] - mean[j]);
    for (double& s : sd) s = in.n > 1 ? std::sqrt(s / static_cast<double>(in.n - 1)) : 0.0;
    Dataset out = mapColumns(in, {}, [&](double x, std::size_t j) { return sd[j] > 0 ? (x - mean[j]) / sd[j] : 0.0; });
    out.provenance.steps.emplace_back("zscore");
    return out;
}

Dataset selectColumns(const Dataset& in, const std::vector<std::size_t>& columns) {
    if (columns.empty()) throw InvalidInput("--columns: no columns selected");
    std::set<std::size_t> seen;
    for (std::size_t c : columns) {
        if (c >= in.d) throw InvalidInput("--columns: column " + std::to_string(c + 1) + " does not exist (D = " + std::to_string(in.d) + ")");
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
        if (index < 0) throw InvalidInput("--columns: no feature named '" + name + "' (use a name or a 1-based number)");
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
        std::copy_n(in.values.begin() + static_cast<std::ptrdiff_t>(i * in.d), in.d, out.values.begin() + static_cast<std::ptrdiff_t>(k * in.d));
        if (exact) std::copy_n(in.exact.begin() + static_cast<std::ptrdiff_t>(i * in.d), in.d, out.exact.begin() + static_cast<std::ptrdiff_t>(k * in.d));
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
            std::copy_n(e.values.begin() + static_cast<std::ptrdiff_t>(keep[k] * e.d), e.d, kept.begin() + static_cast<std::ptrdiff_t>(k * e.d));
        e.values = std::move(kept);
        e.n = m;
    }
    out.provenance.steps.push_back("subsample(" + std::to_string(m) + ", seed=" + std::to_string(seed) + ")");
    return out;
}

Dataset applyTransformSpec(const Dataset& in, const std::string& spec) {
    if (spec == "zscore") return zscoreTransform(in);
    if (spec == "asinh") return asinhTransform(in, 5.0);
    if (spec.rfind("asinh:", 0) == 0) {
        const std::string number = spec.substr(6);
        double cofactor = 0;
        auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), cofactor);
        if (ec != std::errc() || ptr != number.data() + number.size())
            throw InvalidInput("--transform: '" + number + "' is not a cofactor (example: asinh:150)");
        return asinhTransform(in, cofactor);
    }
    throw InvalidInput("--transform: unknown transform '" + spec + "' (expected asinh:COFACTOR or zscore)");
}

} // namespace clusterlens
