// MHCA (CPU): every merge replayed against a naive recomputation of all cluster-pair distances from
// the definitions in DESIGN.md (section MHCA), option validation, apriori groups, fixNonMonotHca.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/fix_monotonic.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/job_control.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

std::vector<double> randomData(std::size_t n, std::size_t d, std::mt19937_64& rng) {
    // A few elongated blobs, so that Mahalanobis distances differ from Euclidean ones.
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_int_distribution<int> blob(0, 2);
    std::vector<double> x(n * d);
    for (std::size_t i = 0; i < n; ++i) {
        const int b = blob(rng);
        for (std::size_t j = 0; j < d; ++j)
            x[i * d + j] =
                6.0 * b * (j == 0 ? 1.0 : 0.3) + normal(rng) * (j == static_cast<std::size_t>(b) % d ? 3.0 : 0.7);
    }
    return x;
}

/// Cholesky of a symmetric matrix, reducing each entry by l_ik·l_jk one k at a time and multiplying
/// by the reciprocal pivot (LAPACK's order): a singular covariance (fewer than d+1 members) then
/// fails or succeeds exactly as in mhca, which changes its shape completely.
bool cholesky(std::vector<double>& a, std::size_t d) {
    for (std::size_t k = 0; k < d; ++k) {
        if (!(a[k * d + k] > 0.0)) return false;
        a[k * d + k] = std::sqrt(a[k * d + k]);
        const double r = 1.0 / a[k * d + k];
        for (std::size_t i = k + 1; i < d; ++i) a[i * d + k] *= r;
        for (std::size_t j = k + 1; j < d; ++j)
            for (std::size_t i = j; i < d; ++i) a[i * d + j] -= a[j * d + k] * a[i * d + k];
    }
    for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = i + 1; j < d; ++j) a[i * d + j] = 0.0;
    return true;
}

/// The shape of one cluster per DESIGN.md: Σ' as a Cholesky factor (empty = identity) and det(Σ')^(1/d).
struct Shape {
    std::vector<double> factor;
    double detRoot = 1.0;
};

struct Model {
    const std::vector<double>& x;
    std::size_t n, d;
    MhcaOptions options;

    double weight(std::size_t size) const {
        if (size <= 2) return 0.0;
        return std::min(1.0, static_cast<double>(size) / (static_cast<double>(n) * options.threshold));
    }

    Shape shape(const std::vector<std::size_t>& members) const {
        Shape s;
        const double wf = weight(members.size());
        const bool euclidLike =
            options.subthreshold == SubthresholdMode::Euclid || options.subthreshold == SubthresholdMode::EuclidMahal;
        if (members.size() <= 1 || (euclidLike && wf < 1.0)) return s;
        std::vector<double> cov(d * d, 0.0), mean(d, 0.0);
        if (members.size() == 2) {
            for (std::size_t j = 0; j < d; ++j) cov[j * d + j] = 1.0;
        } else {
            const double r = static_cast<double>(members.size());
            for (std::size_t j = 0; j < d; ++j) {
                double sum = 0.0;
                for (std::size_t m : members) sum += x[m * d + j];
                mean[j] = sum / r;
            }
            for (std::size_t i = 0; i < d; ++i)
                for (std::size_t j = i; j < d; ++j) {
                    double sum = 0.0;
                    for (std::size_t m : members) sum += (x[m * d + i] - mean[i]) * (x[m * d + j] - mean[j]);
                    cov[i * d + j] = cov[j * d + i] = sum / (r - 1.0);
                }
        }
        double mf = 1.0;
        if (options.subthreshold != SubthresholdMode::Mahal0) {
            std::vector<double> l = cov;
            if (cholesky(l, d)) {
                double det = 1.0;
                for (std::size_t i = 0; i < d; ++i) det *= l[i * d + i];
                mf = std::pow(det, 2.0 / static_cast<double>(d));
            }
        }
        if (wf < 1.0)
            for (std::size_t i = 0; i < d; ++i)
                for (std::size_t j = 0; j < d; ++j)
                    cov[i * d + j] = wf * cov[i * d + j] + (i == j ? (1.0 - wf) * mf : 0.0);
        if (!cholesky(cov, d)) return s;
        double det = 1.0;
        for (std::size_t i = 0; i < d; ++i) det *= cov[i * d + i];
        s.factor = cov;
        s.detRoot = std::pow(det, 2.0 / static_cast<double>(d));
        return s;
    }

    std::vector<double> centroid(const std::vector<std::size_t>& members) const {
        std::vector<double> c(d, 0.0);
        for (std::size_t m : members)
            for (std::size_t j = 0; j < d; ++j) c[j] += x[m * d + j];
        for (double& v : c) v /= static_cast<double>(members.size());
        return c;
    }

    /// sqrt((p-μ)ᵀ Σ'^-1 (p-μ)), by forward substitution with the factor; unit determinant when normalized.
    static double mahalanobis(const double* p, const std::vector<double>& mu, const Shape& s, bool normalized,
                              bool identity, std::size_t d) {
        std::vector<double> z(d);
        for (std::size_t j = 0; j < d; ++j) z[j] = p[j] - mu[j];
        if (!identity && !s.factor.empty()) {
            for (std::size_t i = 0; i < d; ++i) {
                for (std::size_t k = 0; k < i; ++k) z[i] -= s.factor[i * d + k] * z[k];
                z[i] /= s.factor[i * d + i];
            }
        }
        double q = 0.0;
        for (double v : z) q += v * v;
        if (normalized && !identity && !s.factor.empty()) q *= s.detRoot;
        return std::sqrt(q);
    }

    /// d(A,B) = ½(mean_{b∈B} m(b,A) + mean_{a∈A} m(a,B)) (FMD) or with the centroids only (CMD).
    double distance(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b, bool normalized,
                    bool identity) const {
        const Shape sa = shape(a), sb = shape(b);
        const std::vector<double> ca = centroid(a), cb = centroid(b);
        auto meanTo = [&](const std::vector<std::size_t>& from, const std::vector<double>& cFrom,
                          const std::vector<double>& mu, const Shape& s) {
            if (options.variant == MhcaVariant::Centroid)
                return mahalanobis(cFrom.data(), mu, s, normalized, identity, d);
            double sum = 0.0;
            for (std::size_t m : from) sum += mahalanobis(&x[m * d], mu, s, normalized, identity, d);
            return sum / static_cast<double>(from.size());
        };
        return 0.5 * (meanTo(b, cb, ca, sa) + meanTo(a, ca, cb, sb));
    }
};

/// Replays the linkage: before each merge, the merged pair must have the smallest distance among all
/// pairs of current clusters, and the merge height must equal it.
void expectEveryMergeIsTheMinimum(const std::vector<double>& x, std::size_t n, std::size_t d,
                                  const MhcaOptions& options, const Linkage& linkage, const std::string& label) {
    Model model{x, n, d, options};
    std::map<std::int64_t, std::vector<std::size_t>> clusters;  // id -> members, first cluster's first
    for (std::size_t i = 0; i < n; ++i) clusters[static_cast<std::int64_t>(i)] = {i};
    for (std::size_t step = 0; step < linkage.merges.size(); ++step) {
        bool anySub = false;
        for (const auto& [id, m] : clusters) anySub = anySub || model.weight(m.size()) < 1.0;
        const bool normalized = anySub || options.normalize;
        const bool identity = anySub && options.subthreshold == SubthresholdMode::Euclid;
        double best = std::numeric_limits<double>::infinity();
        for (auto i = clusters.begin(); i != clusters.end(); ++i)
            for (auto j = std::next(i); j != clusters.end(); ++j)
                best = std::min(best, model.distance(i->second, j->second, normalized, identity));
        const Merge& merge = linkage.merges[step];
        ASSERT_TRUE(clusters.count(merge.a) && clusters.count(merge.b)) << label << " step " << step;
        std::vector<std::size_t> first = clusters[merge.a], second = clusters[merge.b];
        const double merged = model.distance(first, second, normalized, identity);
        EXPECT_LE(merged, best * (1.0 + 1e-6) + 1e-12)
            << label << " step " << step << ": merged pair is not the closest";
        EXPECT_NEAR(merge.height, merged, 1e-6 * merged + 1e-12) << label << " step " << step;
        EXPECT_EQ(merge.size, static_cast<std::int64_t>(first.size() + second.size())) << label << " step " << step;
        // mhca lists the members of the cluster with the earlier first point first.
        if (*std::min_element(second.begin(), second.end()) < *std::min_element(first.begin(), first.end()))
            std::swap(first, second);
        first.insert(first.end(), second.begin(), second.end());
        clusters.erase(merge.a);
        clusters.erase(merge.b);
        clusters[static_cast<std::int64_t>(n + step)] = first;
    }
}

}  // namespace

TEST(Mhca, EveryMergeIsTheClosestPairOnRandomData) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "[ seed ] " << seed << " (set CLUSTERLENS_TEST_SEED to replay)\n";
    std::mt19937_64 rng(seed);
    const SubthresholdMode modes[] = {SubthresholdMode::Mahal, SubthresholdMode::Mahal0, SubthresholdMode::Euclid,
                                      SubthresholdMode::EuclidMahal};
    const double thresholds[] = {0.3, 0.5, 0.8};
    for (int round = 0; round < 48; ++round) {
        const std::size_t n = std::uniform_int_distribution<std::size_t>(12, 40)(rng);
        const std::size_t d = std::uniform_int_distribution<std::size_t>(2, 4)(rng);
        MhcaOptions options;
        options.variant = round % 2 ? MhcaVariant::Centroid : MhcaVariant::Full;
        options.subthreshold = modes[(round / 2) % 4];
        options.normalize = (round / 8) % 2 == 1;
        options.threshold = thresholds[(round / 16) % 3];
        const std::vector<double> x = randomData(n, d, rng);
        const Linkage linkage = mhcaCpu(x.data(), n, d, options);
        ASSERT_EQ(linkage.leafCount, n);
        ASSERT_EQ(linkage.merges.size(), n - 1);
        EXPECT_NO_THROW(linkage.validate("mhca"));
        const std::string label =
            "round " + std::to_string(round) + " (n=" + std::to_string(n) + ", d=" + std::to_string(d) + ", " +
            mhcaVariantName(options.variant) + ", " + subthresholdModeName(options.subthreshold) +
            (options.normalize ? ", normalize" : "") + ", threshold " + std::to_string(options.threshold) + ")";
        expectEveryMergeIsTheMinimum(x, n, d, options, linkage, label);
    }
}

// Rows with many later partners: their runner-up lists overflow, so the bound of the partners left
// out decides whether a stale row is answered from its list or rescanned. Also on a lattice, whose
// equal distances make the list's ties and the bound's strictness matter.
TEST(Mhca, EveryMergeIsTheClosestPairWhenRowsOutgrowTheirRunners) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "[ seed ] " << seed << " (set CLUSTERLENS_TEST_SEED to replay)\n";
    std::mt19937_64 rng(seed);
    for (int round = 0; round < 4; ++round) {
        const std::size_t d = 3;
        std::vector<double> x;
        std::size_t n = 0;
        if (round < 2) {  // tight clumps of 12 (more than a row's runners-up), far apart
            n = 24 * 12;
            std::normal_distribution<double> normal(0.0, 1.0);
            for (std::size_t c = 0; c < 24; ++c) {
                double centre[3];
                for (double& v : centre) v = 40.0 * normal(rng);
                for (std::size_t i = 0; i < 12; ++i)
                    for (double v : centre) x.push_back(v + 0.5 * normal(rng));
            }
        } else {
            n = 6 * 6 * 6;  // lattice with unit spacing, shuffled
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t k = 0, r = i; k < d; ++k, r /= 6) x.push_back(static_cast<double>(r % 6));
            std::vector<std::size_t> order(n);
            for (std::size_t i = 0; i < n; ++i) order[i] = i;
            std::shuffle(order.begin(), order.end(), rng);
            std::vector<double> shuffled(n * d);
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t k = 0; k < d; ++k) shuffled[i * d + k] = x[order[i] * d + k];
            x = shuffled;
        }
        MhcaOptions options;
        options.variant = MhcaVariant::Centroid;
        options.subthreshold = round % 2 ? SubthresholdMode::Euclid : SubthresholdMode::Mahal;
        const Linkage linkage = mhcaCpu(x.data(), n, d, options);
        ASSERT_EQ(linkage.merges.size(), n - 1);
        expectEveryMergeIsTheMinimum(x, n, d, options, linkage,
                                     "round " + std::to_string(round) + (round < 2 ? " (clumps)" : " (lattice)"));
    }
}

TEST(Mhca, SwitchesToUnnormalisedShapesWhenEveryClusterReachesTheThreshold) {
    // Two elongated blobs of 10 points, threshold 0.4 (8 points): the last merge joins two clusters
    // at the threshold, whose distance mhca recomputes with Σ'^-1 unscaled unless `normalize`.
    std::mt19937_64 rng(19);
    std::normal_distribution<double> normal(0.0, 1.0);
    const std::size_t n = 20, d = 2;
    std::vector<double> x(n * d);
    for (std::size_t i = 0; i < n; ++i) {
        const bool second = i >= 10;
        x[i * d] = (second ? 20.0 : 0.0) + normal(rng) * (second ? 0.5 : 2.0);
        x[i * d + 1] = normal(rng) * (second ? 2.0 : 0.5);
    }
    for (SubthresholdMode mode : {SubthresholdMode::Mahal, SubthresholdMode::Euclid}) {
        std::vector<double> top;
        for (bool normalize : {false, true}) {
            MhcaOptions options;
            options.threshold = 0.4;
            options.subthreshold = mode;
            options.normalize = normalize;
            const Linkage linkage = mhcaCpu(x.data(), n, d, options);
            const Merge& last = linkage.merges.back();
            ASSERT_GE(last.a, static_cast<std::int64_t>(n));
            EXPECT_EQ(linkage.merges[static_cast<std::size_t>(last.a) - n].size, 10);
            EXPECT_EQ(linkage.merges[static_cast<std::size_t>(last.b) - n].size, 10);
            expectEveryMergeIsTheMinimum(x, n, d, options, linkage,
                                         std::string(subthresholdModeName(mode)) + (normalize ? " normalize" : ""));
            top.push_back(linkage.merges.back().height);
        }
        EXPECT_GT(std::fabs(top[0] - top[1]), 1e-3 * top[1]) << subthresholdModeName(mode);
    }
}

TEST(Mhca, TwoPointsMergeAtTheirEuclideanDistance) {
    const std::vector<double> x = {0.0, 0.0, 3.0, 4.0};
    const Linkage linkage = mhcaCpu(x.data(), 2, 2, MhcaOptions{});
    ASSERT_EQ(linkage.merges.size(), 1u);
    EXPECT_EQ(linkage.merges[0].a, 0);
    EXPECT_EQ(linkage.merges[0].b, 1);
    EXPECT_DOUBLE_EQ(linkage.merges[0].height, 5.0);
    EXPECT_EQ(linkage.merges[0].size, 2);
}

TEST(Mhca, ResultDoesNotDependOnRepetitionOrThreads) {
    std::mt19937_64 rng(7);
    const std::size_t n = 300, d = 3;
    const std::vector<double> x = randomData(n, d, rng);
    MhcaOptions options;
    const Linkage first = mhcaCpu(x.data(), n, d, options);
    const Linkage second = mhcaCpu(x.data(), n, d, options);
    for (std::size_t i = 0; i < first.merges.size(); ++i) {
        EXPECT_EQ(first.merges[i].a, second.merges[i].a);
        EXPECT_EQ(first.merges[i].b, second.merges[i].b);
        EXPECT_EQ(first.merges[i].height, second.merges[i].height);
    }
}

TEST(Mhca, AprioriGroupsAreClusteredFirst) {
    std::mt19937_64 rng(11);
    const std::size_t n = 30, d = 2;
    const std::vector<double> x = randomData(n, d, rng);
    MhcaOptions options;
    options.apriori.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) options.apriori[i] = i < 10 ? 4 : (i < 22 ? 2 : (i == 25 ? 9 : 0));
    const Linkage linkage = mhcaCpu(x.data(), n, d, options);
    ASSERT_NO_THROW(linkage.validate("mhca apriori"));
    // The first 9 + 11 merges stay inside the groups {0..9} and {10..21}.
    std::vector<std::int64_t> group(2 * n - 1, -1);
    for (std::size_t i = 0; i < n; ++i) group[i] = options.apriori[i] == 4 ? 4 : (options.apriori[i] == 2 ? 2 : -1);
    for (std::size_t s = 0; s < 20; ++s) {
        const Merge& m = linkage.merges[s];
        ASSERT_GE(group[m.a], 0) << "merge " << s << " leaves the apriori groups";
        EXPECT_EQ(group[m.a], group[m.b]) << "merge " << s << " joins two apriori groups";
        group[n + s] = group[m.a];
    }
}

TEST(Mhca, TrivialAprioriGroupsAreIgnored) {
    std::mt19937_64 rng(5);
    const std::size_t n = 20, d = 3;
    const std::vector<double> x = randomData(n, d, rng);
    const Linkage plain = mhcaCpu(x.data(), n, d, MhcaOptions{});
    for (std::int32_t kind = 0; kind < 3; ++kind) {
        MhcaOptions options;
        for (std::size_t i = 0; i < n; ++i)
            options.apriori.push_back(kind == 0 ? 0 : (kind == 1 ? 3 : static_cast<std::int32_t>(i + 1)));
        const Linkage withGroups = mhcaCpu(x.data(), n, d, options);
        for (std::size_t s = 0; s < plain.merges.size(); ++s) {
            EXPECT_EQ(withGroups.merges[s].a, plain.merges[s].a) << "kind " << kind;
            EXPECT_EQ(withGroups.merges[s].b, plain.merges[s].b) << "kind " << kind;
            EXPECT_EQ(withGroups.merges[s].height, plain.merges[s].height) << "kind " << kind;
        }
    }
}

TEST(Mhca, BadInputsAreRefusedWithTheOptionNamed) {
    const std::vector<double> x = {0, 0, 1, 1, 2, 0};
    MhcaOptions ok;
    EXPECT_THROW(mhcaCpu(x.data(), 1, 2, ok), InvalidInput);
    EXPECT_THROW(mhcaCpu(x.data(), 3, 0, ok), InvalidInput);
    std::vector<double> bad = x;
    bad[3] = std::nan("");
    EXPECT_THROW(mhcaCpu(bad.data(), 3, 2, ok), NonFiniteInput);
    bad[3] = INFINITY;
    EXPECT_THROW(mhcaCpu(bad.data(), 3, 2, ok), NonFiniteInput);
    for (double t : {0.0, -0.5, 1.5, std::nan("")}) {
        MhcaOptions o;
        o.threshold = t;
        try {
            mhcaCpu(x.data(), 3, 2, o);
            ADD_FAILURE() << "threshold " << t << " accepted";
        } catch (const InvalidInput& e) {
            EXPECT_NE(std::string(e.what()).find("--threshold"), std::string::npos) << e.what();
        }
    }
    MhcaOptions shortGroups;
    shortGroups.apriori = {1, 1};
    try {
        mhcaCpu(x.data(), 3, 2, shortGroups);
        ADD_FAILURE() << "apriori of the wrong length accepted";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("--apriori"), std::string::npos) << e.what();
    }
    MhcaOptions negative;
    negative.apriori = {1, -1, 1};
    EXPECT_THROW(mhcaCpu(x.data(), 3, 2, negative), InvalidInput);
    MhcaOptions threshOne;
    threshOne.threshold = 1.0;
    EXPECT_NO_THROW(mhcaCpu(x.data(), 3, 2, threshOne));
}

TEST(Mhca, ParsesCliSpellings) {
    EXPECT_EQ(parseMhcaVariant("full"), MhcaVariant::Full);
    EXPECT_EQ(parseMhcaVariant("centroid"), MhcaVariant::Centroid);
    EXPECT_EQ(parseSubthresholdMode("mahal"), SubthresholdMode::Mahal);
    EXPECT_EQ(parseSubthresholdMode("mahal0"), SubthresholdMode::Mahal0);
    EXPECT_EQ(parseSubthresholdMode("euclid"), SubthresholdMode::Euclid);
    EXPECT_EQ(parseSubthresholdMode("euclid-mahal"), SubthresholdMode::EuclidMahal);
    for (SubthresholdMode m :
         {SubthresholdMode::Mahal, SubthresholdMode::Mahal0, SubthresholdMode::Euclid, SubthresholdMode::EuclidMahal})
        EXPECT_EQ(parseSubthresholdMode(subthresholdModeName(m)), m);
    try {
        parseMhcaVariant("quick");
        ADD_FAILURE();
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("--variant"), std::string::npos);
    }
    try {
        parseSubthresholdMode("manhattan");
        ADD_FAILURE();
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("--subthreshold"), std::string::npos);
    }
}

TEST(Mhca, CancelStopsAndProgressReachesOne) {
    std::mt19937_64 rng(3);
    const std::size_t n = 200, d = 2;
    const std::vector<double> x = randomData(n, d, rng);
    JobControl done;
    mhcaCpu(x.data(), n, d, MhcaOptions{}, &done);
    EXPECT_DOUBLE_EQ(done.progress(), 1.0);
    JobControl cancelled;
    cancelled.cancel();
    EXPECT_THROW(mhcaCpu(x.data(), n, d, MhcaOptions{}, &cancelled), Cancelled);
}

TEST(FixNonMonotonic, EpsRaisesDropsJustAboveTheLastHeight) {
    EXPECT_EQ(fixNonMonotonicHeights({1, 2, 3, 2, 2, 6}), (std::vector<double>{1, 2, 3, 3.5, 4, 6}));
    EXPECT_EQ(fixNonMonotonicHeights({1, 2, 3, 2, 2, 6}, MonotonicFix::Eps, 0.1)[3], 3.1);
    EXPECT_DOUBLE_EQ(fixNonMonotonicHeights({1, 2, 3, 2, 2, 6}, MonotonicFix::Eps, 0.1)[4], 3.2);
    EXPECT_EQ(fixNonMonotonicHeights({1, 0}), (std::vector<double>{1, 2}));
    EXPECT_EQ(fixNonMonotonicHeights({1, 2, 3, 2, 2, 6, 7, 2, 2, 10}),
              (std::vector<double>{1, 2, 3, 3.5, 4, 6, 7, 7.5, 8, 10}));
    EXPECT_EQ(fixNonMonotonicHeights({1, 1, 2}), (std::vector<double>{1, 1, 2}));
}

TEST(FixNonMonotonic, HalfwaySpreadsDropsBetweenNeighbours) {
    EXPECT_EQ(fixNonMonotonicHeights({1, 2, 3, 2, 2, 6}, MonotonicFix::Halfway),
              (std::vector<double>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(fixNonMonotonicHeights({1, 2, 3, 2, 2, 6, 7, 2, 2, 10}, MonotonicFix::Halfway),
              (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    EXPECT_EQ(fixNonMonotonicHeights({1, 3, 2}, MonotonicFix::Halfway), (std::vector<double>{1, 3, 5}));
}

TEST(Linkage, InversionsAreMergesBelowAClusterTheyJoinNotDecreasingRows) {
    Linkage linkage;
    linkage.leafCount = 4;
    // Row 1 is lower than row 0 but joins two leaves: no inversion. Row 2 joins row 0's cluster (2.0)
    // at 1.5: one inversion, which the fix removes.
    linkage.merges = {{0, 1, 2.0, 2}, {2, 3, 1.0, 2}, {4, 5, 1.5, 4}};
    EXPECT_EQ(linkage.inversionCount(), 1u);
    EXPECT_EQ(fixNonMonotonic(linkage).inversionCount(), 0u);
    linkage.merges[2].height = 3.0;
    EXPECT_EQ(linkage.inversionCount(), 0u);
}

TEST(FixNonMonotonic, LinkageKeepsTheTreeAndFixesHeights) {
    Linkage linkage;
    linkage.leafCount = 4;
    linkage.merges = {{0, 1, 2.0, 2}, {2, 3, 1.0, 2}, {4, 5, 3.0, 4}};
    const Linkage fixed = fixNonMonotonic(linkage);
    EXPECT_EQ(fixed.merges[1].height, 3.0);  // 2 + eps, eps = half the smallest rise (2)
    EXPECT_EQ(fixed.merges[2].a, 4);
    EXPECT_EQ(fixed.merges[2].size, 4);
    EXPECT_THROW(parseMonotonicFix("sort"), InvalidInput);
    EXPECT_EQ(parseMonotonicFix("halfway"), MonotonicFix::Halfway);
}
