// Benchmark cases for comparing clusterings: the linear assignment problem (Hungarian at k = 1000
// and 5000, greedy at k = 5000, uniform random costs), point heights of a random valid linkage of
// 1M leaves, and contingency table + ARI + NMI of two labelings of 1M points. For the assignment
// cases n is k (rows of the cost matrix), so "points/s" reads as rows per second.

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/compare/assignment.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/point_heights.hpp"

namespace {

using clusterlens::bench::BenchCase;
using clusterlens::bench::Registry;
using clusterlens::bench::shortCount;

constexpr std::uint64_t kSeed = 20261121;

/// k x k costs uniform in [0, 1), generated once per k.
const std::vector<double>& randomCosts(std::size_t k) {
    static std::map<std::size_t, std::vector<double>> cache;
    auto it = cache.find(k);
    if (it == cache.end()) {
        std::mt19937_64 rng(kSeed + k);
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        std::vector<double> cost(k * k);
        for (double& c : cost) c = uniform(rng);
        it = cache.emplace(k, std::move(cost)).first;
    }
    return it->second;
}

/// A random binary tree over n leaves in scipy's convention: each merge joins two clusters drawn
/// uniformly from the active ones, at a height that grows with the merge index plus noise.
const clusterlens::Linkage& randomLinkage(std::size_t n) {
    static std::map<std::size_t, clusterlens::Linkage> cache;
    auto it = cache.find(n);
    if (it != cache.end()) return it->second;
    std::mt19937_64 rng(kSeed);
    std::uniform_real_distribution<double> jitter(0.0, 0.5);
    std::vector<std::int64_t> active(n), sizes(2 * n - 1, 1);
    for (std::size_t i = 0; i < n; ++i) active[i] = static_cast<std::int64_t>(i);
    clusterlens::Linkage linkage;
    linkage.leafCount = n;
    linkage.merges.reserve(n - 1);
    const auto take = [&](std::size_t count) {
        std::uniform_int_distribution<std::size_t> pick(0, count - 1);
        const std::size_t slot = pick(rng);
        const std::int64_t id = active[slot];
        active[slot] = active[count - 1];  // swap-remove keeps the draw O(1)
        return id;
    };
    for (std::size_t row = 0; row + 1 < n; ++row) {
        const std::size_t count = n - row;
        const std::int64_t a = take(count), b = take(count - 1);
        const auto id = static_cast<std::int64_t>(n + row);
        sizes[static_cast<std::size_t>(id)] = sizes[static_cast<std::size_t>(a)] + sizes[static_cast<std::size_t>(b)];
        linkage.merges.push_back({std::min(a, b), std::max(a, b), static_cast<double>(row) / n + jitter(rng),
                                  sizes[static_cast<std::size_t>(id)]});
        active[count - 2] = id;
    }
    linkage.validate("random benchmark linkage");
    return cache.emplace(n, std::move(linkage)).first->second;
}

/// Two labelings of n points: A with 20 clusters, B = A with 10 % of the points moved to one of
/// 25 clusters at random, so the table has a strong diagonal and scattered off-diagonal counts.
const std::pair<std::vector<std::int32_t>, std::vector<std::int32_t>>& randomLabelings(std::size_t n) {
    static std::map<std::size_t, std::pair<std::vector<std::int32_t>, std::vector<std::int32_t>>> cache;
    auto it = cache.find(n);
    if (it != cache.end()) return it->second;
    std::mt19937_64 rng(kSeed);
    std::uniform_int_distribution<std::int32_t> clusterA(0, 19), clusterB(0, 24);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    std::vector<std::int32_t> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = clusterA(rng);
        b[i] = coin(rng) < 0.1 ? clusterB(rng) : (a[i] * 7 + 3) % 20;  // a renaming of A
    }
    return cache.emplace(n, std::make_pair(std::move(a), std::move(b))).first->second;
}

void addAssignment(Registry& registry, const std::string& method, std::size_t k) {
    const bool hungarian = method == "hungarian";
    registry.add(BenchCase{method + " assignment k=" + std::to_string(k) + " random costs", "cpu", k, 0,
                           [k, hungarian] {
                               const auto& cost = randomCosts(k);
                               const auto rows = hungarian ? clusterlens::hungarianAssignment(cost, k, k)
                                                           : clusterlens::greedyAssignment(cost, k, k);
                               if (rows.size() != k) throw std::runtime_error("assignment lost rows");
                           },
                           [k] { randomCosts(k); }, 0, k >= 5000 ? 1 : 3});
}

const clusterlens::bench::Registrar registrar([](Registry& registry) {
    addAssignment(registry, "hungarian", 1000);
    addAssignment(registry, "hungarian", 5000);
    addAssignment(registry, "greedy", 5000);

    constexpr std::size_t n = 1'000'000;
    registry.add(BenchCase{"point heights " + shortCount(n) + " random tree", "cpu", n, 0,
                           [] { clusterlens::pointHeights(randomLinkage(n)); }, [] { randomLinkage(n); }, 1, 0});
    registry.add(BenchCase{"contingency+ARI+NMI " + shortCount(n) + " 20x25 clusters", "cpu", n, 0,
                           [] {
                               const auto& [a, b] = randomLabelings(n);
                               const auto table = clusterlens::contingencyTable(a, b);
                               clusterlens::adjustedRandIndex(table);
                               clusterlens::normalizedMutualInformation(table);
                           },
                           [] { randomLabelings(n); }, 1, 0});
});

}  // namespace
