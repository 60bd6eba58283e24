// Host side of the GPU density-peaks clustering (Rodriguez & Laio 2014; GPU layout after CUDA-DP,
// Ge et al. 2017, without its n x n matrix): the device data, the schedule of tile pairs over the
// blocks, the batches between which a cancel is honoured, and the dc / rho / delta stages.

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "clusterlens/cluster/density_peaks_cuda.hpp"
#include "clusterlens/errors.hpp"
#include "cpu/density_peaks_math.hpp"
#include "cpu/density_peaks_schedule.hpp"
#include "cpu/density_peaks_select.hpp"
#include "cpu/thread_pool.hpp"
#include "cpu/density_peaks_cpu.hpp"
#include "cuda/kernels/density_peaks_delta_kernels.cuh"
#include "cuda/kernels/density_peaks_halo_kernels.cuh"
#include "cuda/density_peaks_rows.cuh"
#include "cuda/kernels/density_peaks_kernels.cuh"
#include "cuda/kernels/density_peaks_window_kernels.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/cuda_event.cuh"
#include "cuda/util/current_device.cuh"
#include "cuda/util/device_buffer.cuh"
#include "cuda/util/kernel_modules.cuh"
#include "cuda/util/launch_grid.cuh"
#include "share_group.hpp"

namespace clusterlens {
namespace {

using cuda::checkDevices;
using cuda::CudaEvent;
using cuda::CurrentDevice;
using cuda::DeviceBuffer;
using cuda::DpcTiles;
using cuda::gridFor;
using cuda::kDpcThreads;
using cuda::kDpcTile;
using dpc::TileSchedule;

constexpr double kLog2E = 1.4426950408889634;
constexpr double kBatchSeconds = 0.02;   // work per launch batch: a cancel waits for ≤ 2 batches
constexpr double kExactRowsBelow = 1.0;  // Gaussian rows with rho < 1 are recomputed in double

float floatBelow(double v) {
    float f = static_cast<float>(v);
    if (static_cast<double>(f) > v) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    return f;
}

float floatAbove(double v) {
    float f = static_cast<float>(v);
    if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
    return f;
}

/// Waits, when the call ends or throws, for the work it queued on the thread's stream: a cancel
/// leaves batches queued, and no work of a call outlives it (at most two batches of kBatchSeconds).
struct DrainAtExit {
    DrainAtExit() = default;
    DrainAtExit(const DrainAtExit&) = delete;
    DrainAtExit& operator=(const DrainAtExit&) = delete;
    ~DrainAtExit() { cudaStreamSynchronize(cudaStreamPerThread); }  // errors at teardown cannot be reported
};

/// Device time between consecutive marks on the stream (CUDA events).
class StageClock {
public:
    StageClock() { mark(); }
    void mark() {
        m_events.push_back(std::make_unique<CudaEvent>());
        CL_CUDA_TRY(cudaEventRecord(m_events.back()->get(), cudaStreamPerThread));
    }
    std::vector<double> seconds() const {
        CL_CUDA_TRY(cudaEventSynchronize(m_events.back()->get()));
        std::vector<double> out;
        for (std::size_t i = 1; i < m_events.size(); ++i) {
            float ms = 0.0f;
            CL_CUDA_TRY(cudaEventElapsedTime(&ms, m_events[i - 1]->get(), m_events[i]->get()));
            out.push_back(static_cast<double>(ms) * 1e-3);
        }
        return out;
    }

private:
    std::vector<std::unique_ptr<CudaEvent>> m_events;
};

/// This device's share of the passes when several devices split them (densityPeaksCuda with more
/// than one entry in cudaDevices): shard `index` of the team, which combines the shares' partial
/// results on the host. Without a team the device does all the work.
struct DpcShare {
    detail::ShareGroup* team = nullptr;
    std::size_t index = 0;

    bool first() const { return index == 0; }
    std::size_t count() const { return team ? team->size() : 1; }
};

/// Launches a schedule batch by batch, keeping one batch queued ahead; between batches it reports
/// progress (the first share only: the shares are of equal size), and while it waits for a batch it
/// honours a cancel and another share's failure (DrainAtExit then waits for the batches still queued).
class BatchLauncher {
public:
    BatchLauncher(JobControl* control, DpcShare share) : m_control(control), m_share(share) {}

    template <class Launch>
    void run(const TileSchedule& schedule, double from, double to, Launch&& launch) {
        const cudaStream_t stream = cudaStreamPerThread;
        if (schedule.units.empty()) {  // a share with no row tiles
            report(from, to, 1, 1);
            return;
        }
        DeviceBuffer<cuda::DpcUnit> d_units(schedule.units.size(), stream);
        d_units.copyFromHost(schedule.units.data(), schedule.units.size());
        CudaEvent done[2] = {CudaEvent(cudaEventDisableTiming), CudaEvent(cudaEventDisableTiming)};
        std::size_t begin = 0;
        std::uint64_t finished = 0;
        for (std::size_t b = 0; b < schedule.batchEnd.size(); ++b) {
            const std::size_t end = schedule.batchEnd[b];
            launch(d_units.data(), static_cast<int>(begin), static_cast<int>(end - begin));
            CL_CUDA_CHECK_LAUNCH();
            CL_CUDA_TRY(cudaEventRecord(done[b & 1].get(), stream));
            begin = end;
            if (b == 0) continue;
            cuda::waitForEvent(done[(b - 1) & 1].get(), m_control);
            finished += schedule.batchTiles[b - 1];
            report(from, to, finished, schedule.totalTiles);
        }
        CL_CUDA_TRY(cudaStreamSynchronize(stream));
        report(from, to, schedule.totalTiles, schedule.totalTiles);
    }

private:
    void report(double from, double to, std::uint64_t finished, std::uint64_t total) const {
        if (m_share.team) m_share.team->checkAborted();
        if (!m_control) return;
        if (m_share.first())
            m_control->setProgress(from + (to - from) * static_cast<double>(finished) / static_cast<double>(total));
        m_control->checkCancelled();
    }

    JobControl* m_control;
    DpcShare m_share;
};

/// Per-feature means (double, rounded to float): the origin of the centred copy.
std::vector<float> featureMeans(const float* x, std::size_t n, std::size_t d) {
    std::vector<double> sum(d, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < d; ++k) sum[k] += static_cast<double>(x[i * d + k]);
    std::vector<float> mean(d);
    for (std::size_t k = 0; k < d; ++k) mean[k] = static_cast<float>(sum[k] / static_cast<double>(n));
    return mean;
}

/// Everything one densityPeaksCuda call keeps on the device: the points as tiles (original values
/// for exact distances and the Gaussian sums, mean-centred values and their norms for the
/// dot-product passes), rho, the density order and the results.
class DpcDevice {
public:
    DpcDevice(const float* x, std::size_t n, std::size_t d, JobControl* control, DpcShare share = {})
        : m_n(static_cast<int>(n)),
          m_d(static_cast<int>(d)),
          m_dPad(static_cast<int>(d + (d & 1))),
          m_tileCount(static_cast<int>((n + kDpcTile - 1) / kDpcTile)),
          m_share(share),
          m_control(control),
          m_batches(control, share) {
        int device = 0;
        CL_CUDA_TRY(cudaGetDevice(&device));
        CL_CUDA_TRY(cudaDeviceGetAttribute(&m_smCount, cudaDevAttrMultiProcessorCount, device));
        CL_CUDA_TRY(cudaDeviceGetAttribute(&m_clockKhz, cudaDevAttrClockRate, device));
        const cudaStream_t stream = cudaStreamPerThread;
        d_points = DeviceBuffer<float>(n * d, stream);
        d_points.copyFromHost(x, n * d);
        const float* d_x = d_points.data();
        const std::vector<float> mean = featureMeans(x, n, d);
        DeviceBuffer<float> d_mean(d, stream);
        d_mean.copyFromHost(mean.data(), d);
        d_tiles = DeviceBuffer<float>(tileFloats(), stream);
        d_centred = DeviceBuffer<float>(tileFloats(), stream);
        cuda::dpcBuildTilesKernel<<<gridFor(tileFloats(), 256), 256, 0, stream>>>(d_x, m_n, m_d, m_dPad, m_tileCount,
                                                                                  nullptr, d_tiles.data());
        CL_CUDA_CHECK_LAUNCH();
        cuda::dpcBuildTilesKernel<<<gridFor(tileFloats(), 256), 256, 0, stream>>>(d_x, m_n, m_d, m_dPad, m_tileCount,
                                                                                  d_mean.data(), d_centred.data());
        CL_CUDA_CHECK_LAUNCH();
        d_norms = DeviceBuffer<float>(paddedPoints(), stream);
        cuda::dpcNormsKernel<<<gridFor(paddedPoints(), 256), 256, 0, stream>>>(centred(), d_norms.data());
        CL_CUDA_CHECK_LAUNCH();
        d_rho = DeviceBuffer<double>(n, stream);
        d_order = DeviceBuffer<int>(n, stream);
    }

    DpcTiles tiles() const { return DpcTiles{d_tiles.data(), m_n, m_d, m_dPad, m_tileCount}; }
    DpcTiles centred() const { return DpcTiles{d_centred.data(), m_n, m_d, m_dPad, m_tileCount}; }
    cuda::DpcGuard guard(const float* norms) const { return cuda::DpcGuard{norms, cuda::dpcGuardKappa(m_d)}; }

    /// One exact dc-selection pass (dpc::PairWindowPass).
    dpc::PairWindowCounts window(const dpc::PairWindow& w) {
        const cudaStream_t stream = cudaStreamPerThread;
        DeviceBuffer<unsigned long long> d_counts(3, stream);
        DeviceBuffer<unsigned long long> d_hist(std::max<std::size_t>(w.bins, 1), stream);
        CL_CUDA_TRY(cudaMemsetAsync(d_counts.data(), 0, d_counts.bytes(), stream));
        CL_CUDA_TRY(cudaMemsetAsync(d_hist.data(), 0, d_hist.bytes(), stream));
        if (w.collect && d_values.size() < w.capacity) d_values = DeviceBuffer<double>(w.capacity, stream);
        cuda::DpcWindowParams params{centred(),
                                     tiles(),
                                     d_points.data(),
                                     guard(d_norms.data()),
                                     floatBelow(w.lo),
                                     floatAbove(w.lo),
                                     floatBelow(w.hi),
                                     floatAbove(w.hi),
                                     w.lo,
                                     w.hi,
                                     static_cast<int>(w.bins),
                                     static_cast<double>(w.bins) / (w.hi - w.lo),
                                     static_cast<float>(static_cast<double>(w.bins) / (w.hi - w.lo)),
                                     w.collect ? 1 : 0,
                                     static_cast<unsigned long long>(w.capacity),
                                     d_counts.data(),
                                     d_hist.data(),
                                     d_values.data()};
        const std::size_t shared = sharedBytes(cuda::kDpcMaxBins * sizeof(unsigned int));
        const TileSchedule schedule = makeSchedule(cuda::dpcWindowKernel, shared, false, m_dPad + 10.0);
        const double from = std::min(m_progress, 0.25);
        m_batches.run(schedule, from, from + 0.05, [&](const cuda::DpcUnit* d_units, int offset, int count) {
            cuda::dpcWindowKernel<<<static_cast<unsigned>(count), kDpcThreads, shared, stream>>>(params, d_units,
                                                                                                 offset);
        });
        m_progress += 0.05;
        // below, inside, collected, then the histogram: every share's counts add up.
        std::vector<std::uint64_t> counts(3 + w.bins);
        d_counts.copyToHost(reinterpret_cast<unsigned long long*>(counts.data()), 3);
        if (w.bins) d_hist.copyToHost(reinterpret_cast<unsigned long long*>(counts.data() + 3), w.bins);
        const std::uint64_t collected = counts[2];
        if (m_share.team) counts = m_share.team->sum(m_share.index, counts);
        dpc::PairWindowCounts out;
        out.below = counts[0];
        out.inside = counts[1];
        out.hist.assign(counts.begin() + 3, counts.end());
        out.overflow = w.collect && counts[2] > w.capacity;
        if (w.collect && !out.overflow) {  // (the same test on every share: the sums decide)
            out.values.resize(collected);
            if (collected) d_values.copyToHost(out.values.data(), collected);
            if (m_share.team) out.values = m_share.team->gather(m_share.index, out.values);
        }
        return out;
    }

    void rho(DensityKernel kernel, double dc) {
        const cudaStream_t stream = cudaStreamPerThread;
        const std::size_t n = static_cast<std::size_t>(m_n);
        DeviceBuffer<unsigned long long> d_acc(n, stream);
        CL_CUDA_TRY(cudaMemsetAsync(d_acc.data(), 0, d_acc.bytes(), stream));
        const double dc2 = dc * dc;
        const double threshold = dpc::cutoffSquaredThreshold(dc);
        const int shift = 62 - static_cast<int>(std::ceil(std::log2(static_cast<double>(n))));
        const cuda::DpcRhoParams params{tiles(),
                                        d_points.data(),
                                        centred(),
                                        guard(d_norms.data()),
                                        static_cast<float>(std::max(-static_cast<double>(FLT_MAX), -kLog2E / dc2)),
                                        floatBelow(threshold),
                                        floatAbove(threshold),
                                        threshold,
                                        std::ldexp(1.0, shift),
                                        d_acc.data()};
        const std::size_t shared =
            sharedBytes(kDpcTile * (kDpcThreads / 32) * sizeof(float) + kDpcThreads * 8 * sizeof(double));
        const auto launch = [&](auto kernelFunction, double pairOps) {
            const TileSchedule schedule = makeSchedule(kernelFunction, shared, false, pairOps);
            m_batches.run(schedule, 0.3, 0.55, [&](const cuda::DpcUnit* d_units, int offset, int count) {
                kernelFunction<<<static_cast<unsigned>(count), kDpcThreads, shared, stream>>>(params, d_units, offset);
            });
        };
        const bool gaussian = kernel == DensityKernel::Gaussian;
        if (gaussian)
            launch(cuda::dpcRhoKernel<true>, 2.0 * m_dPad + 6.0);
        else
            launch(cuda::dpcRhoKernel<false>, m_dPad + 12.0);
        if (m_share.team) {  // the first share finishes rho from every share's sums
            std::vector<std::uint64_t> acc(n);
            d_acc.copyToHost(reinterpret_cast<unsigned long long*>(acc.data()), n);
            acc = m_share.team->sumToFirst(m_share.index, acc);
            if (m_share.first()) d_acc.copyFromHost(reinterpret_cast<const unsigned long long*>(acc.data()), n);
            CL_CUDA_TRY(cudaStreamSynchronize(stream));  // (acc is freed at return)
        }
        DeviceBuffer<int> d_rows(m_share.first() ? n : 0, stream);
        int rows = 0;
        if (m_share.first()) {
            DeviceBuffer<int> d_rowCount(1, stream);
            CL_CUDA_TRY(cudaMemsetAsync(d_rowCount.data(), 0, sizeof(int), stream));
            cuda::dpcRhoFromFixedKernel<<<gridFor(n, 256), 256, 0, stream>>>(
                d_acc.data(), m_n, std::ldexp(1.0, -shift), gaussian ? kExactRowsBelow : 0.0, d_rho.data(),
                d_rows.data(), d_rowCount.data());
            CL_CUDA_CHECK_LAUNCH();
            if (gaussian) d_rowCount.copyToHost(&rows, 1);
        }
        if (gaussian) recountSparseRows(d_rows, rows, dc2);
    }

    /// Gaussian rows listed by the first share (d_rows, `rows` of them there) recomputed from exact
    /// distances into rho; several shares split the list and the first gathers their values.
    void recountSparseRows(const DeviceBuffer<int>& d_rows, int rows, double dc2) {
        const cudaStream_t stream = cudaStreamPerThread;
        std::vector<int> list;
        if (m_share.team) {
            if (m_share.first()) {
                list.resize(static_cast<std::size_t>(rows));
                d_rows.copyToHost(list.data(), list.size());
            }
            list = m_share.team->broadcast(m_share.index, list);
            rows = static_cast<int>(list.size());
        }
        const std::size_t shares = m_share.count();
        const auto begin = static_cast<int>(static_cast<std::size_t>(rows) * m_share.index / shares);
        const auto end = static_cast<int>(static_cast<std::size_t>(rows) * (m_share.index + 1) / shares);
        DeviceBuffer<int> d_mine;  // the other shares' part of the list
        if (!m_share.first()) {
            d_mine = DeviceBuffer<int>(static_cast<std::size_t>(end - begin), stream);
            d_mine.copyFromHost(list.data() + begin, d_mine.size());
        }
        DeviceBuffer<double> d_exact(static_cast<std::size_t>(m_share.first() ? rows : end - begin), stream);
        cuda::recountGaussianRows(tiles(), d_points.data(), m_share.first() ? d_rows.data() : d_mine.data(),
                                  end - begin, 1.0 / dc2, d_exact.data(), m_control, m_share.team);
        if (m_share.team) {
            std::vector<double> mine(static_cast<std::size_t>(end - begin));
            d_exact.copyToHost(mine.data(), mine.size());
            mine = m_share.team->gatherToFirst(m_share.index, mine);
            if (!m_share.first()) return;
            d_exact.copyFromHost(mine.data(), mine.size());
            CL_CUDA_TRY(cudaStreamSynchronize(stream));  // (mine is freed at return)
        }
        if (rows == 0) return;
        cuda::dpcScatterRowsKernel<<<gridFor(static_cast<std::size_t>(rows), 256), 256, 0, stream>>>(
            d_rows.data(), d_exact.data(), rows, d_rho.data());
        CL_CUDA_CHECK_LAUNCH();
    }

    /// The density order: a stable radix sort of the indices by descending rho (by the first share,
    /// which holds rho, then copied to the others).
    void order() {
        const std::size_t n = static_cast<std::size_t>(m_n);
        if (m_share.first()) sortByDensity();
        if (!m_share.team) return;
        std::vector<int> order;
        if (m_share.first()) {
            order.resize(n);
            d_order.copyToHost(order.data(), n);
        }
        order = m_share.team->broadcast(m_share.index, order);
        if (!m_share.first()) d_order.copyFromHost(order.data(), n);
        CL_CUDA_TRY(cudaStreamSynchronize(cudaStreamPerThread));  // (order is freed at return)
    }

    void sortByDensity() {
        const cudaStream_t stream = cudaStreamPerThread;
        const std::size_t n = static_cast<std::size_t>(m_n);
        DeviceBuffer<unsigned long long> d_keys(n, stream);
        DeviceBuffer<unsigned long long> d_sortedKeys(n, stream);
        DeviceBuffer<int> d_index(n, stream);
        cuda::dpcOrderKeysKernel<<<gridFor(n, 256), 256, 0, stream>>>(d_rho.data(), m_n, d_keys.data(), d_index.data());
        CL_CUDA_CHECK_LAUNCH();
        std::size_t tempBytes = 0;
        CL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, tempBytes, d_keys.data(), d_sortedKeys.data(),
                                                    d_index.data(), d_order.data(), m_n, 0, 64, stream));
        DeviceBuffer<unsigned char> d_temp(std::max<std::size_t>(tempBytes, 1), stream);
        CL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(d_temp.data(), tempBytes, d_keys.data(), d_sortedKeys.data(),
                                                    d_index.data(), d_order.data(), m_n, 0, 64, stream));
    }

    void delta() {
        const cudaStream_t stream = cudaStreamPerThread;
        const std::size_t n = static_cast<std::size_t>(m_n);
        DeviceBuffer<float> d_sortedCentred(tileFloats(), stream);
        DeviceBuffer<float> d_sortedNorms(paddedPoints(), stream);
        DeviceBuffer<float> d_sortedPoints(n * static_cast<std::size_t>(m_d), stream);
        cuda::dpcPermuteRowsKernel<<<gridFor(n * static_cast<std::size_t>(m_d), 256), 256, 0, stream>>>(
            d_points.data(), d_order.data(), m_n, m_d, d_sortedPoints.data());
        CL_CUDA_CHECK_LAUNCH();
        cuda::dpcPermuteTilesKernel<<<gridFor(tileFloats(), 256), 256, 0, stream>>>(centred(), d_order.data(),
                                                                                    d_sortedCentred.data());
        CL_CUDA_CHECK_LAUNCH();
        cuda::dpcPermuteNormsKernel<<<gridFor(paddedPoints(), 256), 256, 0, stream>>>(
            d_norms.data(), d_order.data(), m_n, static_cast<int>(paddedPoints()), d_sortedNorms.data());
        CL_CUDA_CHECK_LAUNCH();
        const std::size_t shared = sharedBytes(kDpcThreads * 8 * (sizeof(double) + sizeof(int)));
        const TileSchedule schedule = makeSchedule(cuda::dpcDeltaKernel, shared, true, m_dPad + 4.0);
        DeviceBuffer<double> d_partE(static_cast<std::size_t>(schedule.parts) * kDpcTile, stream);
        DeviceBuffer<int> d_partJ(static_cast<std::size_t>(schedule.parts) * kDpcTile, stream);
        const cuda::DpcDeltaParams params{DpcTiles{d_sortedCentred.data(), m_n, m_d, m_dPad, m_tileCount},
                                          DpcTiles{nullptr, m_n, m_d, m_dPad, m_tileCount},
                                          d_sortedPoints.data(),
                                          guard(d_sortedNorms.data()),
                                          d_order.data(),
                                          d_partE.data(),
                                          d_partJ.data()};
        m_batches.run(schedule, 0.6, 1.0, [&](const cuda::DpcUnit* d_units, int offset, int count) {
            cuda::dpcDeltaKernel<<<static_cast<unsigned>(count), kDpcThreads, shared, stream>>>(params, d_units,
                                                                                                offset);
        });
        if (m_share.team && !gatherParts(schedule.partBegin, d_partE, d_partJ)) return;  // the first share merges
        DeviceBuffer<int> d_partBegin(schedule.partBegin.size(), stream);
        d_partBegin.copyFromHost(schedule.partBegin.data(), schedule.partBegin.size());
        d_delta = DeviceBuffer<double>(n, stream);
        d_nearest = DeviceBuffer<int>(n, stream);
        cuda::dpcDeltaMergeKernel<<<gridFor(n, 256), 256, 0, stream>>>(
            d_partE.data(), d_partJ.data(), d_partBegin.data(), d_order.data(), m_n, d_delta.data(), d_nearest.data());
        CL_CUDA_CHECK_LAUNCH();
        d_farthest = DeviceBuffer<unsigned long long>(1, stream);
        CL_CUDA_TRY(cudaMemsetAsync(d_farthest.data(), 0, sizeof(unsigned long long), stream));
        cuda::dpcFarthestKernel<<<gridFor(n, 256), 256, 0, stream>>>(d_points.data(), m_n, m_d, d_order.data(),
                                                                     d_farthest.data());
        CL_CUDA_CHECK_LAUNCH();
    }

    /// With a team: every share's partial delta results (the parts of its row tiles, consecutive) into
    /// the first share's buffers, in share order, which is the parts' order. False on the other
    /// shares, which are done with delta then.
    bool gatherParts(const std::vector<std::int32_t>& partBegin, DeviceBuffer<double>& d_partE,
                     DeviceBuffer<int>& d_partJ) {
        const cudaStream_t stream = cudaStreamPerThread;
        const dpc::RowTileRange rows = shareRows(true);
        const auto first = static_cast<std::size_t>(partBegin[static_cast<std::size_t>(rows.first)]) * kDpcTile;
        const auto count = static_cast<std::size_t>(partBegin[static_cast<std::size_t>(rows.end)]) * kDpcTile - first;
        std::vector<double> partE(count);
        std::vector<int> partJ(count);
        if (count) {
            CL_CUDA_TRY(cudaMemcpyAsync(partE.data(), d_partE.data() + first, count * sizeof(double),
                                        cudaMemcpyDeviceToHost, stream));
            CL_CUDA_TRY(cudaMemcpyAsync(partJ.data(), d_partJ.data() + first, count * sizeof(int),
                                        cudaMemcpyDeviceToHost, stream));
            CL_CUDA_TRY(cudaStreamSynchronize(stream));
        }
        partE = m_share.team->gatherToFirst(m_share.index, partE);
        partJ = m_share.team->gatherToFirst(m_share.index, partJ);
        if (!m_share.first()) return false;
        if (partE.size() != d_partE.size() || partJ.size() != d_partJ.size())
            throw CudaError("density peaks on several GPUs: the devices' shares of delta do not cover every part");
        d_partE.copyFromHost(partE.data(), partE.size());
        d_partJ.copyFromHost(partJ.data(), partJ.size());
        CL_CUDA_TRY(cudaStreamSynchronize(stream));  // (the host copies are freed at return)
        return true;
    }

    void download(DensityPeaksResult& result) const {
        const std::size_t n = static_cast<std::size_t>(m_n);
        result.rho.resize(n);
        d_rho.copyToHost(result.rho.data(), n);
        result.delta.resize(n);
        d_delta.copyToHost(result.delta.data(), n);
        std::vector<int> buffer(n);
        d_nearest.copyToHost(buffer.data(), n);
        result.nearestHigher.assign(buffer.begin(), buffer.end());
        d_order.copyToHost(buffer.data(), n);
        result.densityOrder.assign(buffer.begin(), buffer.end());
        unsigned long long farthest = 0;
        d_farthest.copyToHost(&farthest, 1);
        const auto top = static_cast<std::size_t>(result.densityOrder[0]);
        double farthestE = 0.0;
        std::memcpy(&farthestE, &farthest, sizeof farthestE);
        result.delta[top] = std::sqrt(farthestE);
        result.nearestHigher[top] = -1;
    }

    void setProgress(double fraction) { m_progress = fraction; }

    /// Border density per cluster (the halo pass): k doubles.
    std::vector<double> haloBorders(const std::vector<std::int32_t>& labels, const std::vector<double>& rho,
                                    std::size_t k, double dc) {
        const cudaStream_t stream = cudaStreamPerThread;
        const std::size_t n = static_cast<std::size_t>(m_n);
        DeviceBuffer<int> d_labels(n, stream);
        d_labels.copyFromHost(labels.data(), n);
        DeviceBuffer<double> d_haloRho(n, stream);
        d_haloRho.copyFromHost(rho.data(), n);
        DeviceBuffer<unsigned long long> d_border(k, stream);
        CL_CUDA_TRY(cudaMemsetAsync(d_border.data(), 0, d_border.bytes(), stream));
        const double threshold = dpc::cutoffSquaredThreshold(dc);
        const cuda::DpcHaloParams params{
            centred(),        d_points.data(),       guard(d_norms.data()), d_labels.data(),
            d_haloRho.data(), floatBelow(threshold), floatAbove(threshold), threshold,
            d_border.data()};
        const std::size_t shared = sharedBytes(0);
        const TileSchedule schedule = makeSchedule(cuda::dpcHaloKernel, shared, false, m_dPad + 2.0);
        m_batches.run(schedule, 0.0, 1.0, [&](const cuda::DpcUnit* d_units, int offset, int count) {
            cuda::dpcHaloKernel<<<static_cast<unsigned>(count), kDpcThreads, shared, stream>>>(params, d_units, offset);
        });
        std::vector<unsigned long long> bits(k);
        d_border.copyToHost(bits.data(), k);
        std::vector<double> border(k);
        std::memcpy(border.data(), bits.data(), k * sizeof(double));
        if (m_share.team) {  // every share's maxima, then the largest per cluster
            const std::vector<double> all = m_share.team->gather(m_share.index, border);
            for (std::size_t at = 0; at + k <= all.size(); at += k)
                for (std::size_t c = 0; c < k; ++c) border[c] = std::max(border[c], all[at + c]);
        }
        return border;
    }

private:
    std::size_t tileFloats() const {
        return static_cast<std::size_t>(m_tileCount) * static_cast<std::size_t>(m_dPad) * kDpcTile;
    }
    std::size_t paddedPoints() const { return static_cast<std::size_t>(m_tileCount) * kDpcTile; }
    std::size_t sharedBytes(std::size_t extra) const {
        return static_cast<std::size_t>(cuda::dpcEngineSharedFloats(m_dPad)) * sizeof(float) + extra;
    }

    /// The schedule for a tile kernel: its occupancy gives the resident blocks; a batch is about
    /// kBatchSeconds of tile steps at 128 float lanes per multiprocessor and `pairOps` operations
    /// per pair.
    template <class Kernel>
    TileSchedule makeSchedule(Kernel kernel, std::size_t shared, bool lower, double pairOps) const {
        CL_CUDA_TRY(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
        int perSm = 0;
        CL_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kDpcThreads, shared));
        if (perSm < 1) throw CudaError("density peaks: the tile kernel does not fit on this GPU");
        const double stepSeconds = kDpcTile * kDpcTile * pairOps * perSm / (128.0 * m_clockKhz * 1e3);
        // Every share cuts the units as the first share's device does: the same units on every device.
        std::vector<std::size_t> resident{static_cast<std::size_t>(perSm) * static_cast<std::size_t>(m_smCount)};
        if (m_share.team) resident = m_share.team->broadcast(m_share.index, resident);
        return dpc::makeTileSchedule(m_tileCount, lower, resident.front(), kBatchSeconds / stepSeconds,
                                     shareRows(lower));
    }

    /// This share's row tiles of a pass (all of them without a team).
    dpc::RowTileRange shareRows(bool lower) const {
        const std::vector<std::int32_t> bounds = dpc::splitRowTiles(m_tileCount, lower, m_share.count());
        return dpc::RowTileRange{bounds[m_share.index], bounds[m_share.index + 1]};
    }

    int m_n, m_d, m_dPad, m_tileCount;
    int m_smCount = 1;
    int m_clockKhz = 1000000;
    DpcShare m_share;
    JobControl* m_control;
    BatchLauncher m_batches;
    double m_progress = 0.0;
    DeviceBuffer<float> d_points;
    DeviceBuffer<float> d_tiles;
    DeviceBuffer<float> d_centred;
    DeviceBuffer<float> d_norms;
    DeviceBuffer<double> d_rho;
    DeviceBuffer<int> d_order;
    DeviceBuffer<double> d_delta;
    DeviceBuffer<int> d_nearest;
    DeviceBuffer<unsigned long long> d_farthest;
    DeviceBuffer<double> d_values;
};

}  // namespace

namespace {

/// One share's run of the passes (all of them without a team); the result is the first share's.
DensityPeaksResult runShare(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& options,
                            JobControl* control, DpcShare share) {
    // The host's cores divided among this process's shares (each draws the same dc sample).
    const std::size_t here = share.team ? share.team->sharesInThisProcess() : 1;
    cpu::ThreadPool pool(std::max<std::size_t>(1, cpu::defaultThreadCount() / here));
    const DrainAtExit drain;  // (declared first: destroyed after the device's buffers are freed)
    StageClock clock;
    DpcDevice device(x, n, d, control, share);
    DensityPeaksResult result;
    result.kernel = options.kernel;
    result.dc = dpc::chooseDc(x, n, d, options, pool, [&](const dpc::PairWindow& w) { return device.window(w); });
    clock.mark();
    device.setProgress(0.3);
    device.rho(options.kernel, result.dc.value);
    device.order();
    clock.mark();
    device.delta();
    clock.mark();
    if (!share.first()) return result;
    device.download(result);
    dpc::computeGamma(result);
    const std::vector<double> seconds = clock.seconds();
    result.secondsDc = seconds[0];
    result.secondsRho = seconds[1];
    result.secondsDelta = seconds[2];
    if (control) control->setProgress(1.0);
    return result;
}

/// Runs `body(share)` on the first device of `devices` (none: the current one) under CurrentDevice, or on each of
/// several devices on its own thread (ShardTeam, one share each), and returns the first share's value.
template <class Body>
auto onDevices(const std::vector<int>& devices, Body body) -> decltype(body(DpcShare{})) {
    if (devices.size() <= 1) {
        const CurrentDevice scope(devices.empty() ? -1 : devices.front());
        return body(DpcShare{});
    }
    detail::ShardTeam team(devices.size());
    decltype(body(DpcShare{})) first;
    team.run([&](std::size_t s) {
        CL_CUDA_TRY(cudaSetDevice(devices[s]));
        auto mine = body(DpcShare{&team, s});
        if (s == 0) first = std::move(mine);
    });
    return first;
}

}  // namespace

DensityPeaksResult densityPeaksCuda(const float* x, std::size_t n, std::size_t d, const DensityPeaksOptions& options,
                                    JobControl* control) {
    dpc::validateInput(x, n, d, options);
    if (options.index == SpatialIndex::Grid)
        throw InvalidInput("--index grid runs on the CPU backend; the GPU passes are all-pairs (use --backend cpu)");
    if (n >= static_cast<std::size_t>(std::numeric_limits<int>::max()) - kDpcTile)
        throw InvalidInput("density peaks on the GPU handles fewer than 2^31 points; use --backend cpu or --subsample");
    if (d > 65536) throw InvalidInput("density peaks on the GPU handles at most 65536 features");
    if (dpc::squaredDistanceUpperBound(x, n, d) > 1e37)
        throw InvalidInput(
            "density peaks on the GPU: the coordinates are so large that squared distances overflow "
            "single precision; rescale the data or use --backend cpu");
    const std::vector<int>& devices = options.cudaDevices;
    checkDevices(devices);
    if (control) control->checkCancelled();
    if (options.processes && options.processes->size() > 1) {  // one share per process, one device each
        if (devices.size() > 1)
            throw InvalidInput("--gpus: with several processes (mpirun) each process drives one GPU; use --gpus 1");
        detail::RankGroup group(*options.processes);
        const CurrentDevice scope(devices.empty() ? -1 : devices.front());
        return runShare(x, n, d, options, control,
                        DpcShare{&group, static_cast<std::size_t>(options.processes->rank())});
    }
    // One thread per device, each with its share of every pass (dpc::splitRowTiles); the shares'
    // counts and sums are integers and delta's partial minima are merged in one total order, so the
    // result is the one device's bit for bit.
    return onDevices(devices, [&](DpcShare share) { return runShare(x, n, d, options, control, share); });
}

std::vector<std::int32_t> applyHaloCuda(const float* x, std::size_t n, std::size_t d, const DensityPeaksResult& result,
                                        const std::vector<std::int32_t>& labels, double dc, JobControl* control,
                                        const std::vector<int>& cudaDevices) {
    const std::size_t k = dpc::haloClusterCount(x, n, d, result, labels, dc);
    if (k == 0) return labels;
    if (n >= static_cast<std::size_t>(std::numeric_limits<int>::max()) - kDpcTile)
        throw InvalidInput("the density-peaks halo on the GPU handles fewer than 2^31 points; use --backend cpu");
    if (dpc::squaredDistanceUpperBound(x, n, d) > 1e37)
        throw InvalidInput(
            "density peaks halo on the GPU: the coordinates are so large that squared distances overflow "
            "single precision; rescale the data or use --backend cpu");
    checkDevices(cudaDevices);
    if (control) control->checkCancelled();
    const auto borders = [&](DpcShare share) {
        const DrainAtExit drain;
        DpcDevice device(x, n, d, control, share);
        return device.haloBorders(labels, result.rho, k, dc);
    };
    return dpc::haloLabels(result, labels, onDevices(cudaDevices, borders));
}

CL_CUDA_KERNEL_MODULE(cuda::dpcRhoFromFixedKernel)

}  // namespace clusterlens
