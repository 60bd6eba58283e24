// The exact recount of sparse Gaussian rows (see density_peaks_rows.cuh).

#include "cuda/density_peaks_rows.cuh"

#include <algorithm>
#include <cstdint>

#include "cuda/kernels/density_peaks_rows_kernels.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/cuda_event.cuh"
#include "cuda/util/device_buffer.cuh"
#include "cuda/util/kernel_modules.cuh"
#include "cuda/util/launch_grid.cuh"

namespace clusterlens::cuda {

namespace {

constexpr std::int64_t kLaunchWork = 300'000'000'000;  // pair-features per launch: about 50 ms on an H200
constexpr std::int64_t kScratchBytes = 64 << 20;       // the listed rows' doubles of one launch

/// Rows per launch: whole waves of resident blocks of about kLaunchWork, within kScratchBytes.
std::int64_t rowsPerLaunch(const DpcTiles& tiles, int count) {
    int device = 0;
    int smCount = 1;
    int perSm = 1;
    CL_CUDA_TRY(cudaGetDevice(&device));
    CL_CUDA_TRY(cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, device));
    CL_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, dpcRecountRowsKernel, kDpcThreads, 0));
    const std::int64_t d = tiles.d;
    const std::int64_t wave = std::int64_t{std::max(perSm, 1)} * smCount * kDpcRecountRows;
    const std::int64_t waveWork = std::max<std::int64_t>(wave * tiles.n * d, 1);
    std::int64_t rows = wave * std::max<std::int64_t>(1, kLaunchWork / waveWork);
    rows = std::min(rows, std::max<std::int64_t>(kScratchBytes / (8 * d) / kDpcRecountRows, 1) * kDpcRecountRows);
    const std::int64_t listed = (std::int64_t{count} + kDpcRecountRows - 1) / kDpcRecountRows * kDpcRecountRows;
    return std::min(rows, listed);
}

}  // namespace

void recountGaussianRows(const DpcTiles& tiles, const float* d_x, const int* d_rows, int count, double inverseDc2,
                         double* d_out, JobControl* control, const detail::ShareGroup* team) {
    if (count <= 0) return;
    const cudaStream_t stream = cudaStreamPerThread;
    const std::int64_t rows = rowsPerLaunch(tiles, count);
    DeviceBuffer<double> d_values(static_cast<std::size_t>(rows * tiles.d), stream);
    CudaEvent done[2] = {CudaEvent(cudaEventDisableTiming), CudaEvent(cudaEventDisableTiming)};
    int launch = 0;
    for (std::int64_t begin = 0; begin < count; begin += rows, ++launch) {
        const int here = static_cast<int>(std::min<std::int64_t>(rows, count - begin));
        const int padded = (here + kDpcRecountRows - 1) / kDpcRecountRows * kDpcRecountRows;
        const std::size_t items = static_cast<std::size_t>(padded) * static_cast<std::size_t>(tiles.d);
        dpcRecountValuesKernel<<<gridFor(items, 256), 256, 0, stream>>>(d_x, tiles.d, d_rows + begin, here, padded,
                                                                        d_values.data());
        CL_CUDA_CHECK_LAUNCH();
        dpcRecountRowsKernel<<<static_cast<unsigned>(padded / kDpcRecountRows), kDpcThreads, 0, stream>>>(
            tiles, d_rows + begin, d_values.data(), here, inverseDc2, d_out + begin);
        CL_CUDA_CHECK_LAUNCH();
        CL_CUDA_TRY(cudaEventRecord(done[launch & 1].get(), stream));
        if (launch == 0) continue;  // one launch stays queued ahead
        waitForEvent(done[(launch - 1) & 1].get(), control);
        if (team) team->checkAborted();
    }
    CL_CUDA_TRY(cudaStreamSynchronize(stream));
}

CL_CUDA_KERNEL_MODULE(dpcRecountRowsKernel)

}  // namespace clusterlens::cuda
