// Density-peaks clustering (Rodriguez & Laio 2014) on the clustering benchmark sets used in the DPC
// papers: Gaussian kernel, dc at the exact 2 % percentile, the K points of largest gamma as peaks with
// K = the true number of clusters, then the adjusted Rand index against the reference labels
// (labels0; none of these sets has noise points). Every value is printed.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

struct Case {
    std::string file;
    std::size_t clusters;
    double minimumAri;
};

struct Outcome {
    double ari = 0.0;
    std::size_t suggested = 0;
    DensityPeaksResult result;
};

Outcome runCase(const Case& c) {
    const Dataset data = readDataset(test::dataPath("benchmarks/sipu/" + c.file + ".data.gz"));
    EXPECT_EQ(data.labels.size(), data.n) << c.file << ": labels0 not attached";
    DensityPeaksOptions options;
    options.kernel = DensityKernel::Gaussian;
    options.dcPercent = 2.0;
    Outcome out;
    out.result = densityPeaksCpu(data.values.data(), data.n, data.d, options);
    const std::vector<std::int32_t> labels = assignFromPeaks(out.result, peaksTopK(out.result, c.clusters));
    out.ari = adjustedRandIndex(contingencyTable(labels, data.labels));
    out.suggested = suggestPeakCount(out.result);
    std::printf("[dpc golden] %-12s n=%-6zu K=%-3zu dc=%.6g (%s, %d passes) ARI=%.4f suggested K=%zu\n", c.file.c_str(),
                data.n, c.clusters, out.result.dc.value, out.result.dc.method.c_str(), out.result.dc.passes, out.ari,
                out.suggested);
    return out;
}

}  // namespace

TEST(DensityPeaksBenchmarks, TopKByGammaRecoversTheReferenceClusters) {
    // Plain DPC separates the Gaussian clusters of r15, d31, a1 and unbalance; on s3 (strong overlap)
    // it reaches about 0.7 and on aggregation (touching non-convex shapes) it splits a shape.
    const std::vector<Case> cases = {
        {"r15", 15, 0.9},      {"d31", 31, 0.9}, {"a1", 20, 0.9},
        {"unbalance", 8, 0.9}, {"s3", 15, 0.6},  {"aggregation", 7, 0.5},
    };
    for (const Case& c : cases) {
        const Outcome out = runCase(c);
        EXPECT_GE(out.ari, c.minimumAri) << c.file;
    }
}

TEST(DensityPeaksBenchmarks, HaloKeepsCoreLabelsAndMarksOnlyBorderPoints) {
    const Dataset data = readDataset(test::dataPath("benchmarks/sipu/r15.data.gz"));
    DensityPeaksOptions options;
    const DensityPeaksResult result = densityPeaksCpu(data.values.data(), data.n, data.d, options);
    const std::vector<std::int32_t> labels = assignFromPeaks(result, peaksTopK(result, 15));
    const std::vector<std::int32_t> halo =
        applyHaloCpu(data.values.data(), data.n, data.d, result, labels, result.dc.value);
    std::size_t noise = 0;
    for (std::size_t i = 0; i < data.n; ++i) {
        if (halo[i] == -1) {
            ++noise;
            continue;
        }
        EXPECT_EQ(halo[i], labels[i]) << "point " << i;
    }
    std::printf("[dpc golden] r15 halo: %zu of %zu points in the halo\n", noise, data.n);
    EXPECT_LT(noise, data.n / 2);
    for (const std::int64_t peak : peaksTopK(result, 15)) EXPECT_NE(halo[static_cast<std::size_t>(peak)], -1);
}
