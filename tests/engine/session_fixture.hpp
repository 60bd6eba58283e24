#pragma once
// Sessions for the session tests: one with every kind of object (names with '/', unicode, a
// population run, embedded data), and a field-by-field comparison that treats doubles bit for bit.

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
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
        sizes[static_cast<std::size_t>(created)] = sizes[static_cast<std::size_t>(a)] + sizes[static_cast<std::size_t>(b)];
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

inline bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}
inline bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline void expectSameInfo(const ResultInfo& a, const ResultInfo& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.description, b.description);
    EXPECT_EQ(a.features, b.features);
    EXPECT_EQ(a.transform, b.transform);
    EXPECT_EQ(a.population, b.population);
    EXPECT_EQ(a.members, b.members);
}

inline void expectSameData(const DatasetReference& a, const DatasetReference& b) {
    EXPECT_EQ(a.path, b.path);
    EXPECT_EQ(a.fileSize, b.fileSize);
    EXPECT_EQ(a.sha256, b.sha256);
    EXPECT_EQ(a.n, b.n);
    EXPECT_EQ(a.d, b.d);
    EXPECT_EQ(a.features, b.features);
    EXPECT_EQ(a.read.columns, b.read.columns);
    EXPECT_EQ(a.read.transform, b.read.transform);
    ASSERT_EQ(a.read.cofactors.size(), b.read.cofactors.size());
    for (std::size_t i = 0; i < a.read.cofactors.size(); ++i) {
        EXPECT_EQ(a.read.cofactors[i].channel, b.read.cofactors[i].channel);
        EXPECT_TRUE(sameBits(a.read.cofactors[i].cofactor, b.read.cofactors[i].cofactor));
    }
    EXPECT_EQ(a.read.compensate, b.read.compensate);
    EXPECT_EQ(a.read.h5Dataset, b.read.h5Dataset);
    EXPECT_EQ(a.read.embedding, b.read.embedding);
    EXPECT_EQ(a.read.labelColumn, b.read.labelColumn);
    EXPECT_EQ(a.read.subsample, b.read.subsample);
    EXPECT_EQ(a.read.seed, b.read.seed);
    ASSERT_EQ(a.embedded.has_value(), b.embedded.has_value());
    if (!a.embedded) return;
    EXPECT_EQ(a.embedded->features, b.embedded->features);
    ASSERT_EQ(a.embedded->values.size(), b.embedded->values.size());
    EXPECT_EQ(0, std::memcmp(a.embedded->values.data(), b.embedded->values.data(), a.embedded->values.size() * sizeof(float)));
}

inline void expectSameResults(const Session& a, const Session& b) {
    ASSERT_EQ(a.linkages.size(), b.linkages.size());
    for (std::size_t i = 0; i < a.linkages.size(); ++i) {
        expectSameInfo(a.linkages[i].info, b.linkages[i].info);
        const Linkage &x = a.linkages[i].linkage, &y = b.linkages[i].linkage;
        EXPECT_EQ(x.leafCount, y.leafCount);
        ASSERT_EQ(x.merges.size(), y.merges.size());
        for (std::size_t r = 0; r < x.merges.size(); ++r) {
            EXPECT_EQ(x.merges[r].a, y.merges[r].a);
            EXPECT_EQ(x.merges[r].b, y.merges[r].b);
            EXPECT_EQ(x.merges[r].size, y.merges[r].size);
            EXPECT_TRUE(sameBits(x.merges[r].height, y.merges[r].height)) << "linkage " << i << " row " << r;
        }
    }
    ASSERT_EQ(a.labelings.size(), b.labelings.size());
    for (std::size_t i = 0; i < a.labelings.size(); ++i) {
        expectSameInfo(a.labelings[i].info, b.labelings[i].info);
        EXPECT_EQ(a.labelings[i].labels, b.labelings[i].labels);
        EXPECT_EQ(a.labelings[i].clusterNames, b.labelings[i].clusterNames);
        EXPECT_EQ(a.labelings[i].clusterColours, b.labelings[i].clusterColours);
    }
    ASSERT_EQ(a.dpc.size(), b.dpc.size());
    for (std::size_t i = 0; i < a.dpc.size(); ++i) {
        const DpcResult &x = a.dpc[i], &y = b.dpc[i];
        expectSameInfo(x.info, y.info);
        EXPECT_TRUE(sameBits(x.dc, y.dc) && sameBits(x.dcPercent, y.dcPercent));
        EXPECT_EQ(x.dcMethod, y.dcMethod);
        EXPECT_EQ(x.kernel, y.kernel);
        EXPECT_TRUE(sameBits(x.rho, y.rho) && sameBits(x.delta, y.delta) && sameBits(x.gamma, y.gamma));
        EXPECT_EQ(x.nearestHigher, y.nearestHigher);
        EXPECT_EQ(x.peaks, y.peaks);
        EXPECT_EQ(x.halo, y.halo);
    }
    ASSERT_EQ(a.vat.size(), b.vat.size());
    for (std::size_t i = 0; i < a.vat.size(); ++i) {
        expectSameInfo(a.vat[i].info, b.vat[i].info);
        EXPECT_EQ(a.vat[i].metric, b.vat[i].metric);
        EXPECT_EQ(a.vat[i].order, b.vat[i].order);
        EXPECT_TRUE(sameBits(a.vat[i].cut, b.vat[i].cut));
    }
}

inline void expectSameSession(const Session& a, const Session& b) {
    expectSameData(a.data, b.data);
    expectSameResults(a, b);
    ASSERT_EQ(a.comparisons.size(), b.comparisons.size());
    for (std::size_t i = 0; i < a.comparisons.size(); ++i) {
        const ComparisonResult &x = a.comparisons[i], &y = b.comparisons[i];
        expectSameInfo(x.info, y.info);
        EXPECT_EQ(x.labelingA, y.labelingA);
        EXPECT_EQ(x.labelingB, y.labelingB);
        EXPECT_EQ(x.matching, y.matching);
        EXPECT_TRUE(sameBits(x.ari, y.ari) && sameBits(x.nmi, y.nmi) && sameBits(x.fMeasure, y.fMeasure));
        ASSERT_EQ(x.pairs.size(), y.pairs.size());
        for (std::size_t p = 0; p < x.pairs.size(); ++p) {
            EXPECT_EQ(x.pairs[p].a, y.pairs[p].a);
            EXPECT_EQ(x.pairs[p].b, y.pairs[p].b);
            EXPECT_TRUE(sameBits(x.pairs[p].f1, y.pairs[p].f1));
        }
    }
    ASSERT_EQ(a.populations.size(), b.populations.size());
    for (std::size_t i = 0; i < a.populations.size(); ++i) {
        const Population &x = a.populations[i], &y = b.populations[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.parent, y.parent);
        EXPECT_EQ(x.colour, y.colour);
        EXPECT_EQ(x.visible, y.visible);
        EXPECT_EQ(x.definition, y.definition);
        EXPECT_EQ(x.members, y.members);
    }
    EXPECT_EQ(a.viewState, b.viewState);
}

}  // namespace clusterlens::test
