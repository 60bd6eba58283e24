#pragma once
// RAII, stream-ordered device memory. The only place that calls cudaMallocAsync / cudaFreeAsync.

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda {

/// Freed memory the device's default pool keeps for the next allocations (its default is none: the
/// pool hands everything back at each synchronisation, and a repeated analysis maps its arrays again,
/// ~2 ms of a 44K-point MHCA run on an H200). Larger runs still return what exceeds it.
constexpr std::uint64_t kRetainedPoolBytes = std::uint64_t{1} << 30;

/// Sets kRetainedPoolBytes on the current device's default pool, once per process and device.
inline void retainFreedMemory() {
    static std::atomic<std::uint64_t> configured{0};  // one bit per device
    int device = 0;
    CL_CUDA_TRY(cudaGetDevice(&device));
    const std::uint64_t bit = device < 64 ? std::uint64_t{1} << device : 0;
    if (bit == 0 || (configured.load(std::memory_order_relaxed) & bit) != 0) return;
    cudaMemPool_t pool = nullptr;
    CL_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t keep = kRetainedPoolBytes;
    CL_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    configured.fetch_or(bit, std::memory_order_relaxed);
}

/// Bytes the process holds in DeviceBuffers (all devices): with a failed request, what the work needed.
inline std::atomic<std::size_t>& heldBytes() noexcept {
    static std::atomic<std::size_t> held{0};
    return held;
}

/// Throws OutOfDeviceMemory for a request of `bytes` that the device refused.
[[noreturn]] inline void throwOutOfMemory(std::size_t bytes) {
    cudaGetLastError();  // the failed allocation must not resurface at the next launch check
    std::size_t freeBytes = 0, totalBytes = 0;
    if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) freeBytes = 0;
    const std::size_t needed = heldBytes().load(std::memory_order_relaxed) + bytes;
    throw OutOfDeviceMemory("the GPU ran out of memory: " + std::to_string(bytes) + " more bytes were refused with " +
                                std::to_string(freeBytes) + " free",
                            needed, freeBytes);
}

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(std::size_t count, cudaStream_t stream) : m_count(count), m_stream(stream) {
        if (count == 0) return;
        retainFreedMemory();
        const cudaError_t status = cudaMallocAsync(reinterpret_cast<void**>(&m_ptr), count * sizeof(T), stream);
        if (status == cudaErrorMemoryAllocation) throwOutOfMemory(count * sizeof(T));
        if (status != cudaSuccess) throwCudaError(status, "cudaMallocAsync", __FILE__, __LINE__);
        heldBytes().fetch_add(bytes(), std::memory_order_relaxed);
    }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            release();
            swap(other);
        }
        return *this;
    }

    T* data() noexcept { return m_ptr; }
    const T* data() const noexcept { return m_ptr; }
    std::size_t size() const noexcept { return m_count; }
    std::size_t bytes() const noexcept { return m_count * sizeof(T); }

    void copyFromHost(const T* h_src, std::size_t count) {
        CL_CUDA_TRY(cudaMemcpyAsync(m_ptr, h_src, count * sizeof(T), cudaMemcpyHostToDevice, m_stream));
    }
    void copyToHost(T* h_dst, std::size_t count) const {
        CL_CUDA_TRY(cudaMemcpyAsync(h_dst, m_ptr, count * sizeof(T), cudaMemcpyDeviceToHost, m_stream));
        CL_CUDA_TRY(cudaStreamSynchronize(m_stream));
    }

private:
    void release() noexcept {
        if (m_ptr) {
            cudaFreeAsync(m_ptr, m_stream);  // errors at teardown cannot be reported
            heldBytes().fetch_sub(bytes(), std::memory_order_relaxed);
        }
        m_ptr = nullptr;
        m_count = 0;
    }
    void swap(DeviceBuffer& other) noexcept {
        std::swap(m_ptr, other.m_ptr);
        std::swap(m_count, other.m_count);
        std::swap(m_stream, other.m_stream);
    }

    T* m_ptr = nullptr;
    std::size_t m_count = 0;
    cudaStream_t m_stream = nullptr;
};

}  // namespace clusterlens::cuda
