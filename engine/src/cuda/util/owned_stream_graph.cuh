#pragma once
// RAII owners of a CUDA stream and of an instantiated CUDA graph, and the capture of queued work into
// a graph.

#include <cuda_runtime.h>

#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda {

/// A non-blocking stream destroyed with its owner, without waiting: work still queued on it (a launch
/// left running by a cancel) ends on its own, and the buffers freed on it after that work are released
/// then. `highest`: the device's greatest priority (its blocks are dispatched before those of other
/// streams' waiting kernels).
class OwnedStream {
public:
    explicit OwnedStream(bool highest = false) {
        int least = 0, greatest = 0;
        if (highest) CL_CUDA_TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
        CL_CUDA_TRY(cudaStreamCreateWithPriority(&m_stream, cudaStreamNonBlocking, highest ? greatest : least));
    }
    ~OwnedStream() {
        if (m_stream) cudaStreamDestroy(m_stream);  // errors at teardown cannot be reported
    }
    OwnedStream(const OwnedStream&) = delete;
    OwnedStream& operator=(const OwnedStream&) = delete;
    cudaStream_t get() const { return m_stream; }

private:
    cudaStream_t m_stream = nullptr;
};

/// An instantiated CUDA graph, destroyed with its owner.
class OwnedGraph {
public:
    OwnedGraph() = default;
    ~OwnedGraph() { reset(); }
    OwnedGraph(const OwnedGraph&) = delete;
    OwnedGraph& operator=(const OwnedGraph&) = delete;
    cudaGraphExec_t get() const { return m_exec; }
    void reset(cudaGraphExec_t exec = nullptr) {
        if (m_exec) cudaGraphExecDestroy(m_exec);  // errors at teardown cannot be reported
        m_exec = exec;
    }

private:
    cudaGraphExec_t m_exec = nullptr;
};

/// The work `queue(stream)` puts on `stream`, captured (not run) and instantiated with `flags`. The
/// stream must not be the legacy default stream; an error in `queue` ends the capture and propagates.
template <typename Queue>
cudaGraphExec_t captureGraph(cudaStream_t stream, Queue&& queue, unsigned long long flags = 0) {
    cudaGraph_t graph = nullptr;
    CL_CUDA_TRY(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    try {
        queue(stream);
    } catch (...) {
        cudaStreamEndCapture(stream, &graph);  // the launch error is the one to report
        if (graph) cudaGraphDestroy(graph);
        throw;
    }
    CL_CUDA_TRY(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, flags);
    cudaGraphDestroy(graph);
    CL_CUDA_TRY(made);
    return exec;
}

}  // namespace clusterlens::cuda
