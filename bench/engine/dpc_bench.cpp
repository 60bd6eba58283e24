// Density-peaks clustering benchmark cases: rho + delta at 1M x 14 and 500K x 57 (cytometry-like
// data, Gaussian kernel; also the cutoff kernel) with dc given, at 10M x 14 on 1, 2 and 4 GPUs (and at
// 4M x 14 as 4 shares on one GPU: the cost of the shares' collectives), with the exact and with
// the sampled 2 % percentile; birch1 (100K x 2, sipu battery) end to end by brute force, and its cutoff rho + delta
// with and without the grid index (the index decision, see docs); CPU twins on 20K points (their time grows as n²:
// multiply by (N / 20K)² to extrapolate); the O(n) re-assignment after a peak change at 1M points. Every run also
// prints its stage times (CUDA events on the GPU) to stderr as "[dpc stages]". birch1 is read from
// $CLUSTERLENS_DATA_DIR or ../shared/data (the case is left out when missing).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/io/read_dataset.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/density_peaks_cuda.hpp"
#endif

namespace {

using clusterlens::DensityPeaksOptions;
using clusterlens::DensityPeaksResult;
using clusterlens::bench::BenchCase;
using clusterlens::bench::cytometryData;
using clusterlens::bench::Registry;
using clusterlens::bench::shortCount;

enum class DcMode { Given, Exact, Sampled, GivenCutoff, ExactCutoff };

/// The 2 % percentile of 10^6 random pairwise distances: the dc handed to the "dc given" cases.
double sampledDc(const clusterlens::Dataset& data) {
    static std::map<const clusterlens::Dataset*, double> cache;
    const auto it = cache.find(&data);
    if (it != cache.end()) return it->second;
    std::mt19937_64 rng(7);
    std::vector<double> sample(1000000);
    for (double& s : sample) {
        const std::size_t i = rng() % data.n;
        std::size_t j = rng() % (data.n - 1);
        if (j >= i) ++j;
        double e = 0.0;
        for (std::size_t k = 0; k < data.d; ++k) {
            const double diff = static_cast<double>(data.at(i, k)) - static_cast<double>(data.at(j, k));
            e += diff * diff;
        }
        s = e;
    }
    const auto nth = sample.begin() + static_cast<std::ptrdiff_t>(sample.size() / 50);
    std::nth_element(sample.begin(), nth, sample.end());
    return cache[&data] = std::sqrt(*nth);
}

DensityPeaksOptions optionsFor(const clusterlens::Dataset& data, DcMode mode, clusterlens::SpatialIndex index) {
    DensityPeaksOptions o;
    o.index = index;
    o.kernel = mode == DcMode::GivenCutoff || mode == DcMode::ExactCutoff ? clusterlens::DensityKernel::Cutoff
                                                                          : clusterlens::DensityKernel::Gaussian;
    if (mode == DcMode::Given || mode == DcMode::GivenCutoff) o.dc = sampledDc(data);
    o.exactPercentile = mode != DcMode::Sampled;
    return o;
}

void printStages(const std::string& workload, const std::string& backend, const DensityPeaksResult& r) {
    std::fprintf(stderr, "\n[dpc stages] %s [%s]: dc %.4f s (%s, %d passes), rho %.4f s, delta %.4f s\n",
                 workload.c_str(), backend.c_str(), r.secondsDc, r.dc.method.c_str(), r.dc.passes, r.secondsRho,
                 r.secondsDelta);
}

using Runner = DensityPeaksResult (*)(const float*, std::size_t, std::size_t, const DensityPeaksOptions&,
                                      clusterlens::JobControl*);

struct Shape {
    std::size_t n;
    std::size_t d;
};

/// How a case spreads the passes: over the first `gpus` devices, or as `sharesOnFirst` shares all on
/// device 0 (what the shares' host collectives cost, against the same device alone).
struct Spread {
    int gpus = 0;
    int sharesOnFirst = 0;
};

void addCase(Registry& registry, const std::string& workload, const std::string& backend, Runner runner,
             const clusterlens::Dataset* (*data)(), Shape shape, DcMode mode, int warmUp, int maxRepeat,
             clusterlens::SpatialIndex index = clusterlens::SpatialIndex::Auto, Spread spread = {}) {
    registry.add(BenchCase{workload, backend, shape.n, shape.d,
                           [=] {
                               const clusterlens::Dataset& x = *data();
                               DensityPeaksOptions options = optionsFor(x, mode, index);
                               // The first `gpus` devices (the bench skips the case when fewer exist).
                               if (spread.gpus > 0)
                                   options.cudaDevices = clusterlens::parseGpus(std::to_string(spread.gpus));
                               if (spread.sharesOnFirst > 0)
                                   options.cudaDevices.assign(static_cast<std::size_t>(spread.sharesOnFirst), 0);
                               printStages(workload, backend, runner(x.values.data(), x.n, x.d, options, nullptr));
                           },
                           [=] {
                               const clusterlens::Dataset& x = *data();
                               sampledDc(x);
                           },
                           warmUp, maxRepeat, std::max(spread.gpus, 1)});
}

template <std::size_t N, std::size_t D>
const clusterlens::Dataset* cytometry() {
    return &cytometryData(N, D);
}

std::string dataDirectory() {
    const char* env = std::getenv("CLUSTERLENS_DATA_DIR");
    return env ? env : "../shared/data";
}

const clusterlens::Dataset* birch1() {
    static const clusterlens::Dataset data =
        clusterlens::readDataset(dataDirectory() + "/benchmarks/sipu/birch1.data.gz");
    return &data;
}

/// A decision graph of n points with the structure of a real one (a density order, each point
/// linked to an earlier point of it) for the re-assignment timing.
const DensityPeaksResult& syntheticResult(std::size_t n) {
    static std::map<std::size_t, DensityPeaksResult> cache;
    auto it = cache.find(n);
    if (it != cache.end()) return it->second;
    std::mt19937_64 rng(3);
    DensityPeaksResult r;
    r.densityOrder.resize(n);
    std::iota(r.densityOrder.begin(), r.densityOrder.end(), std::int64_t{0});
    std::shuffle(r.densityOrder.begin(), r.densityOrder.end(), rng);
    r.rho.resize(n);
    r.delta.resize(n);
    r.gamma.resize(n);
    r.nearestHigher.resize(n);
    for (std::size_t p = 0; p < n; ++p) {
        const auto i = static_cast<std::size_t>(r.densityOrder[p]);
        r.rho[i] = static_cast<double>(n - p);
        r.nearestHigher[i] = p == 0 ? -1 : r.densityOrder[rng() % p];
        r.delta[i] = static_cast<double>(rng() % 1000 + 1);
        r.gamma[i] = r.rho[i] * r.delta[i];
    }
    return cache.emplace(n, std::move(r)).first->second;
}

void addReassignment(Registry& registry, std::size_t n, std::size_t peaks) {
    const std::string count = shortCount(n);
    registry.add(BenchCase{"dpc reassign " + count + " (" + std::to_string(peaks) + " peaks)", "cpu", n, 0,
                           [n, peaks] {
                               const DensityPeaksResult& r = syntheticResult(n);
                               std::vector<std::int64_t> chosen(r.densityOrder.begin(),
                                                                r.densityOrder.begin() + static_cast<long>(peaks));
                               clusterlens::assignFromPeaks(r, chosen);
                           },
                           [n] { syntheticResult(n); }, 2, 0});
    registry.add(BenchCase{"dpc peaks top-" + std::to_string(peaks) + " " + count, "cpu", n, 0,
                           [n, peaks] { clusterlens::peaksTopK(syntheticResult(n), peaks); },
                           [n] { syntheticResult(n); }, 2, 0});
}

const clusterlens::bench::Registrar registrar([](Registry& registry) {
    const Shape small{20000, 14};
    const Shape smallWide{20000, 57};
    const Shape birch{100000, 2};
#ifdef CLUSTERLENS_HAVE_CUDA
    const Shape large{1000000, 14};
    const Shape wide{500000, 57};
    const Runner gpu = &clusterlens::densityPeaksCuda;
    addCase(registry, "dpc rho+delta 1Mx14 (dc given)", "cuda", gpu, &cytometry<1000000, 14>, large, DcMode::Given, 1,
            3);
    addCase(registry, "dpc exact-dc+rho+delta 1Mx14", "cuda", gpu, &cytometry<1000000, 14>, large, DcMode::Exact, 1, 3);
    addCase(registry, "dpc sampled-dc+rho+delta 1Mx14", "cuda", gpu, &cytometry<1000000, 14>, large, DcMode::Sampled, 1,
            3);
    addCase(registry, "dpc rho+delta 500Kx57 (dc given)", "cuda", gpu, &cytometry<500000, 57>, wide, DcMode::Given, 1,
            3);
    addCase(registry, "dpc exact-dc+rho+delta 500Kx57", "cuda", gpu, &cytometry<500000, 57>, wide, DcMode::Exact, 1, 3);
    addCase(registry, "dpc cutoff rho+delta 1Mx14 (dc given)", "cuda", gpu, &cytometry<1000000, 14>, large,
            DcMode::GivenCutoff, 1, 3);
    addCase(registry, "dpc cutoff rho+delta 500Kx57 (dc given)", "cuda", gpu, &cytometry<500000, 57>, wide,
            DcMode::GivenCutoff, 1, 3);
    // Spread over 1, 2 and 4 GPUs (DensityPeaksOptions::cudaDevices, `dpc --gpus N`): the scaling.
    const Shape huge{10000000, 14};
    for (const int gpus : {1, 2, 4})
        addCase(registry, "dpc rho+delta 10Mx14 (dc given), " + std::to_string(gpus) + " GPU" + (gpus > 1 ? "s" : ""),
                "cuda", gpu, &cytometry<10000000, 14>, huge, DcMode::Given, 0, 1, clusterlens::SpatialIndex::Auto,
                Spread{gpus, 0});
    const Shape mid4{4000000, 14};
    for (const int gpus : {1, 2, 4})
        addCase(registry, "dpc rho+delta 4Mx14 (dc given), " + std::to_string(gpus) + " GPU" + (gpus > 1 ? "s" : ""),
                "cuda", gpu, &cytometry<4000000, 14>, mid4, DcMode::Given, 0, 1, clusterlens::SpatialIndex::Auto,
                Spread{gpus > 1 ? gpus : 0, 0});
    addCase(registry, "dpc rho+delta 4Mx14 (dc given), 4 shares on one GPU", "cuda", gpu, &cytometry<4000000, 14>, mid4,
            DcMode::Given, 0, 1, clusterlens::SpatialIndex::Auto, Spread{0, 4});
    addCase(registry, "dpc rho+delta 20Kx14 (dc given)", "cuda", gpu, &cytometry<20000, 14>, small, DcMode::Given, 1,
            0);
    addCase(registry, "dpc rho+delta 20Kx57 (dc given)", "cuda", gpu, &cytometry<20000, 57>, smallWide, DcMode::Given,
            1, 0);
#endif
    const Runner cpu = &clusterlens::densityPeaksCpu;
    using clusterlens::SpatialIndex;
    addCase(registry, "dpc rho+delta 20Kx14 (dc given)", "cpu", cpu, &cytometry<20000, 14>, small, DcMode::Given, 0, 3,
            SpatialIndex::None);
    addCase(registry, "dpc rho+delta 20Kx57 (dc given)", "cpu", cpu, &cytometry<20000, 57>, smallWide, DcMode::Given, 0,
            3, SpatialIndex::None);
    // The kd-tree index without a GPU: exact dc, cutoff rho and delta.
    const Shape mid{200000, 14};
    addCase(registry, "dpc cutoff exact-dc+rho+delta 200Kx14, kd-tree", "cpu", cpu, &cytometry<200000, 14>, mid,
            DcMode::ExactCutoff, 0, 1, SpatialIndex::Tree);
    addCase(registry, "dpc cutoff rho+delta 200Kx14 (dc given), kd-tree", "cpu", cpu, &cytometry<200000, 14>, mid,
            DcMode::GivenCutoff, 0, 1, SpatialIndex::Tree);

    if (std::filesystem::exists(dataDirectory() + "/benchmarks/sipu/birch1.data.gz")) {
#ifdef CLUSTERLENS_HAVE_CUDA
        addCase(registry, "dpc birch1 100Kx2 exact-dc, brute force", "cuda", gpu, &birch1, birch, DcMode::Exact, 1, 0);
#endif
        addCase(registry, "dpc birch1 100Kx2 exact-dc, brute force", "cpu", cpu, &birch1, birch, DcMode::Exact, 0, 1);
        // The spatial-index decision: cutoff rho + delta with dc given, all pairs against the grid.
#ifdef CLUSTERLENS_HAVE_CUDA
        addCase(registry, "dpc birch1 100Kx2 cutoff rho+delta (dc given), all pairs", "cuda", gpu, &birch1, birch,
                DcMode::GivenCutoff, 1, 0, SpatialIndex::None);
#endif
        addCase(registry, "dpc birch1 100Kx2 cutoff rho+delta (dc given), all pairs", "cpu", cpu, &birch1, birch,
                DcMode::GivenCutoff, 0, 3, SpatialIndex::None);
        addCase(registry, "dpc birch1 100Kx2 cutoff rho+delta (dc given), grid", "cpu", cpu, &birch1, birch,
                DcMode::GivenCutoff, 0, 0, SpatialIndex::Grid);
    }
    addReassignment(registry, 1000000, 20);
    addReassignment(registry, 1000000, 200);
});

}  // namespace
