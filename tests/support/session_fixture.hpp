#pragma once
// Sessions for the engine and GUI session tests: one with every kind of object (names with '/', unicode,
// a population run, embedded data), and a field-by-field comparison that treats doubles bit for bit and
// names the first field that differs (so GoogleTest and Qt Test report it alike).

#include <algorithm>
#include <cstring>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "clusterlens/session/population.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens::test {

/// A random valid linkage over `leaves` leaves: merges random pairs of the clusters alive.
inline Linkage randomLinkage(std::size_t leaves, std::mt19937_64& rng) {
    Linkage linkage;
    linkage.leafCount = leaves;
    std::vector<std::int64_t> alive(leaves), sizes(2 * leaves - 1, 1);
    for (std::size_t i = 0; i < leaves; ++i) alive[i] = static_cast<std::int64_t>(i);
    std::uniform_real_distribution<double> height(0.0, 10.0);
    for (std::size_t row = 0; row + 1 < leaves; ++row) {
        std::uniform_int_distribution<std::size_t> pick(0, alive.size() - 1);
        std::size_t i = pick(rng), j = pick(rng);
        while (j == i) j = pick(rng);
        const std::int64_t a = std::min(alive[i], alive[j]), b = std::max(alive[i], alive[j]);
        const auto created = static_cast<std::int64_t>(leaves + row);
        sizes[static_cast<std::size_t>(created)] =
            sizes[static_cast<std::size_t>(a)] + sizes[static_cast<std::size_t>(b)];
        linkage.merges.push_back({a, b, height(rng), sizes[static_cast<std::size_t>(created)]});
        alive.erase(alive.begin() + static_cast<std::ptrdiff_t>(std::max(i, j)));
        alive.erase(alive.begin() + static_cast<std::ptrdiff_t>(std::min(i, j)));
        alive.push_back(created);
    }
    return linkage;
}

inline std::vector<double> randomDoubles(std::size_t count, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> value(-1e3, 1e3);
    std::vector<double> out(count);
    for (double& v : out) v = value(rng);
    return out;
}

/// Every kind of object, over n = 40 events x d = 3 features.
inline Session richSession(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Session s;
    s.data.path = "/data/experiment 1/AriaFile1.fcs";
    s.data.fileSize = 123456789;
    s.data.sha256 = std::string(64, 'a');
    s.data.read = {{"FSC-A", "CD3 ü"}, "asinh:150", {{"CD3 ü", 5.5}}, true, "/matrix", "X_umap", "class", 40, 7};
    s.data.n = 40;
    s.data.d = 3;
    s.data.features = {"FSC-A", "CD3 ü", "CD4/CD8"};
    const Members population = {1, 2, 3, 5, 8, 13, 21, 34};

    ResultInfo all{"MHCA centroid t=0.5", "on all events", s.data.features, "asinh:150", "", {}};
    ResultInfo onPopulation{"T cells / CD4+ (Ω)", "population run", {"CD3 ü"}, "", "T/cells", population};
    s.linkages.push_back({all, randomLinkage(40, rng)});
    s.linkages.push_back({onPopulation, randomLinkage(population.size(), rng)});

    std::vector<std::int32_t> labels(40);
    for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<std::int32_t>(i % 4) - 1;
    all.name = "k-means k=3 seed 1";
    s.labelings.push_back({all, labels, {"noise? no: A", "B/β", "C"}, {"#1f77b4", "#FF7F0E", "#2ca02c"}});
    onPopulation.name = "labels on a population";
    s.labelings.push_back({onPopulation, scatterLabels({0, 1, 0, 1, 2, 2, -1, 0}, population, 40), {}, {}});

    DpcResult dpc;
    dpc.info = onPopulation;
    dpc.info.name = "DPC dc=2% cutoff";
    dpc.dc = 0.1 + 1e-17;
    dpc.dcPercent = 2.0;
    dpc.dcMethod = "exact";
    dpc.kernel = "cutoff";
    dpc.rho = randomDoubles(population.size(), rng);
    dpc.delta = randomDoubles(population.size(), rng);
    dpc.gamma = randomDoubles(population.size(), rng);
    dpc.nearestHigher = {-1, 1, 1, 2, 3, 5, 8, 13};
    dpc.peaks = {1, 21};
    dpc.halo = {0, 0, 1, 0, 0, 1, 1, 0};
    s.dpc.push_back(dpc);

    VatEntry vat{all, "euclidean", {}, randomDoubles(40, rng)};
    vat.info.name = "VAT euclidean";
    vat.cut[0] = 0.0;
    for (std::size_t i = 0; i < 40; ++i) vat.order.push_back(static_cast<std::int64_t>((i * 7) % 40));
    s.vat.push_back(vat);

    ComparisonResult comparison;
    comparison.info.name = "k-means vs population labels";
    comparison.labelingA = "k-means k=3 seed 1";
    comparison.labelingB = "labels on a population";
    comparison.matching = "greedy";
    comparison.ari = 0.123456789012345678;
    comparison.nmi = 1.0 / 3.0;
    comparison.fMeasure = 2.0 / 7.0;
    comparison.pairs = {{0, 1, 0.5}, {2, 0, 1.0 / 9.0}};
    s.comparisons.push_back(comparison);

    s.populations.push_back({"T/cells", "", "#00ff00", true, "gate on CD3 vs CD4", population});
    s.populations.push_back({"CD4 ⊂ T", "T/cells", "#0000FF", false, "clusters 1,3 of MHCA k=5", {2, 3, 21}});
    s.populations.push_back({"empty", "", "#808080", true, "", {}});
    s.viewState = R"({"axes":["FSC-A","CD3 ü"],"zoom":1.5,"dock":"AAAA/+8="})";
    return s;
}

/// Collects the first field in which two sessions differ; doubles are compared bit for bit.
class SessionDiff {
public:
    /// "" when every compared field is equal, else "FIELD differs" (with both values where they print).
    const std::string& first() const { return m_first; }

    template <typename T>
    void same(const std::string& field, const T& a, const T& b) {
        if (!m_first.empty() || equal(a, b)) return;
        m_first = field + " differs";
        if constexpr (requires(std::ostream & out, const T& value) { out << value; })
            m_first += ": " + printed(a) + " vs " + printed(b);
    }

private:
    template <typename T>
    static bool equal(const T& a, const T& b) {
        if constexpr (std::is_floating_point_v<T>)
            return std::memcmp(&a, &b, sizeof a) == 0;
        else if constexpr (std::is_same_v<T, std::vector<double>> || std::is_same_v<T, std::vector<float>>)
            return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof a[0]) == 0);
        else
            return a == b;
    }
    template <typename T>
    static std::string printed(const T& value) {
        std::ostringstream out;
        out.precision(17);
        out << value;
        return out.str();
    }

    std::string m_first;
};

inline void diffInfo(SessionDiff& diff, const std::string& at, const ResultInfo& a, const ResultInfo& b) {
    diff.same(at + ".name", a.name, b.name);
    diff.same(at + ".description", a.description, b.description);
    diff.same(at + ".features", a.features, b.features);
    diff.same(at + ".transform", a.transform, b.transform);
    diff.same(at + ".population", a.population, b.population);
    diff.same(at + ".members", a.members, b.members);
}

inline void diffData(SessionDiff& diff, const DatasetReference& a, const DatasetReference& b) {
    diff.same("data.path", a.path, b.path);
    diff.same("data.fileSize", a.fileSize, b.fileSize);
    diff.same("data.sha256", a.sha256, b.sha256);
    diff.same("data.n", a.n, b.n);
    diff.same("data.d", a.d, b.d);
    diff.same("data.features", a.features, b.features);
    diff.same("data.read.columns", a.read.columns, b.read.columns);
    diff.same("data.read.transform", a.read.transform, b.read.transform);
    diff.same("data.read.cofactors.size", a.read.cofactors.size(), b.read.cofactors.size());
    for (std::size_t i = 0; i < std::min(a.read.cofactors.size(), b.read.cofactors.size()); ++i) {
        const std::string at = "data.read.cofactors[" + std::to_string(i) + "]";
        diff.same(at + ".channel", a.read.cofactors[i].channel, b.read.cofactors[i].channel);
        diff.same(at + ".cofactor", a.read.cofactors[i].cofactor, b.read.cofactors[i].cofactor);
    }
    diff.same("data.read.compensate", a.read.compensate, b.read.compensate);
    diff.same("data.read.h5Dataset", a.read.h5Dataset, b.read.h5Dataset);
    diff.same("data.read.embedding", a.read.embedding, b.read.embedding);
    diff.same("data.read.labelColumn", a.read.labelColumn, b.read.labelColumn);
    diff.same("data.read.subsample", a.read.subsample, b.read.subsample);
    diff.same("data.read.seed", a.read.seed, b.read.seed);
    diff.same("data.embedded", a.embedded.has_value(), b.embedded.has_value());
    if (!a.embedded || !b.embedded) return;
    diff.same("data.embedded.features", a.embedded->features, b.embedded->features);
    diff.same("data.embedded.values", a.embedded->values, b.embedded->values);
}

inline void diffLinkages(SessionDiff& diff, const Session& a, const Session& b) {
    diff.same("linkages.size", a.linkages.size(), b.linkages.size());
    for (std::size_t i = 0; i < std::min(a.linkages.size(), b.linkages.size()); ++i) {
        const std::string at = "linkages[" + std::to_string(i) + "]";
        diffInfo(diff, at + ".info", a.linkages[i].info, b.linkages[i].info);
        const Linkage &x = a.linkages[i].linkage, &y = b.linkages[i].linkage;
        diff.same(at + ".leafCount", x.leafCount, y.leafCount);
        diff.same(at + ".merges.size", x.merges.size(), y.merges.size());
        for (std::size_t r = 0; r < std::min(x.merges.size(), y.merges.size()); ++r) {
            const std::string row = at + ".merges[" + std::to_string(r) + "]";
            diff.same(row + ".a", x.merges[r].a, y.merges[r].a);
            diff.same(row + ".b", x.merges[r].b, y.merges[r].b);
            diff.same(row + ".height", x.merges[r].height, y.merges[r].height);
            diff.same(row + ".size", x.merges[r].size, y.merges[r].size);
        }
    }
}

inline void diffFlatResults(SessionDiff& diff, const Session& a, const Session& b) {
    diff.same("labelings.size", a.labelings.size(), b.labelings.size());
    for (std::size_t i = 0; i < std::min(a.labelings.size(), b.labelings.size()); ++i) {
        const std::string at = "labelings[" + std::to_string(i) + "]";
        diffInfo(diff, at + ".info", a.labelings[i].info, b.labelings[i].info);
        diff.same(at + ".labels", a.labelings[i].labels, b.labelings[i].labels);
        diff.same(at + ".clusterNames", a.labelings[i].clusterNames, b.labelings[i].clusterNames);
        diff.same(at + ".clusterColours", a.labelings[i].clusterColours, b.labelings[i].clusterColours);
    }
    diff.same("dpc.size", a.dpc.size(), b.dpc.size());
    for (std::size_t i = 0; i < std::min(a.dpc.size(), b.dpc.size()); ++i) {
        const std::string at = "dpc[" + std::to_string(i) + "]";
        const DpcResult &x = a.dpc[i], &y = b.dpc[i];
        diffInfo(diff, at + ".info", x.info, y.info);
        diff.same(at + ".dc", x.dc, y.dc);
        diff.same(at + ".dcPercent", x.dcPercent, y.dcPercent);
        diff.same(at + ".dcMethod", x.dcMethod, y.dcMethod);
        diff.same(at + ".kernel", x.kernel, y.kernel);
        diff.same(at + ".rho", x.rho, y.rho);
        diff.same(at + ".delta", x.delta, y.delta);
        diff.same(at + ".gamma", x.gamma, y.gamma);
        diff.same(at + ".nearestHigher", x.nearestHigher, y.nearestHigher);
        diff.same(at + ".peaks", x.peaks, y.peaks);
        diff.same(at + ".halo", x.halo, y.halo);
    }
    diff.same("vat.size", a.vat.size(), b.vat.size());
    for (std::size_t i = 0; i < std::min(a.vat.size(), b.vat.size()); ++i) {
        const std::string at = "vat[" + std::to_string(i) + "]";
        diffInfo(diff, at + ".info", a.vat[i].info, b.vat[i].info);
        diff.same(at + ".metric", a.vat[i].metric, b.vat[i].metric);
        diff.same(at + ".order", a.vat[i].order, b.vat[i].order);
        diff.same(at + ".cut", a.vat[i].cut, b.vat[i].cut);
    }
}

inline void diffComparisonsAndPopulations(SessionDiff& diff, const Session& a, const Session& b) {
    diff.same("comparisons.size", a.comparisons.size(), b.comparisons.size());
    for (std::size_t i = 0; i < std::min(a.comparisons.size(), b.comparisons.size()); ++i) {
        const std::string at = "comparisons[" + std::to_string(i) + "]";
        const ComparisonResult &x = a.comparisons[i], &y = b.comparisons[i];
        diffInfo(diff, at + ".info", x.info, y.info);
        diff.same(at + ".labelingA", x.labelingA, y.labelingA);
        diff.same(at + ".labelingB", x.labelingB, y.labelingB);
        diff.same(at + ".matching", x.matching, y.matching);
        diff.same(at + ".ari", x.ari, y.ari);
        diff.same(at + ".nmi", x.nmi, y.nmi);
        diff.same(at + ".fMeasure", x.fMeasure, y.fMeasure);
        diff.same(at + ".pairs.size", x.pairs.size(), y.pairs.size());
        for (std::size_t p = 0; p < std::min(x.pairs.size(), y.pairs.size()); ++p) {
            const std::string pair = at + ".pairs[" + std::to_string(p) + "]";
            diff.same(pair + ".a", x.pairs[p].a, y.pairs[p].a);
            diff.same(pair + ".b", x.pairs[p].b, y.pairs[p].b);
            diff.same(pair + ".f1", x.pairs[p].f1, y.pairs[p].f1);
        }
    }
    diff.same("populations.size", a.populations.size(), b.populations.size());
    for (std::size_t i = 0; i < std::min(a.populations.size(), b.populations.size()); ++i) {
        const std::string at = "populations[" + std::to_string(i) + "]";
        const Population &x = a.populations[i], &y = b.populations[i];
        diff.same(at + ".name", x.name, y.name);
        diff.same(at + ".parent", x.parent, y.parent);
        diff.same(at + ".colour", x.colour, y.colour);
        diff.same(at + ".visible", x.visible, y.visible);
        diff.same(at + ".definition", x.definition, y.definition);
        diff.same(at + ".members", x.members, y.members);
    }
}

/// The first field in which `a` and `b` differ ("" when none does): the data reference, every result,
/// population and, unless `withViewState` is false (a window that autosaves re-captures its own), the
/// view state. Doubles are compared bit for bit.
inline std::string sessionDifference(const Session& a, const Session& b, bool withViewState = true) {
    SessionDiff diff;
    diffData(diff, a.data, b.data);
    diffLinkages(diff, a, b);
    diffFlatResults(diff, a, b);
    diffComparisonsAndPopulations(diff, a, b);
    if (withViewState) diff.same("viewState", a.viewState, b.viewState);
    return diff.first();
}

}  // namespace clusterlens::test
