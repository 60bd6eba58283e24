#pragma once
// RAII page-locked host memory, usable by every device (cudaHostAllocPortable): copies from the device
// into it run at the link's rate and asynchronously, where pageable memory is staged and blocks.

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda {

template <typename T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    explicit PinnedBuffer(std::size_t count) : m_count(count) {
        if (count > 0)
            CL_CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&m_ptr), count * sizeof(T), cudaHostAllocPortable));
    }
    ~PinnedBuffer() {
        if (m_ptr) cudaFreeHost(m_ptr);  // errors at teardown cannot be reported
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    T* data() noexcept { return m_ptr; }
    const T* data() const noexcept { return m_ptr; }
    std::size_t size() const noexcept { return m_count; }

private:
    T* m_ptr = nullptr;
    std::size_t m_count = 0;
};

}  // namespace clusterlens::cuda
