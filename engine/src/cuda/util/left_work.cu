#include "cuda/util/left_work.cuh"

#include <memory>
#include <mutex>
#include <vector>

#include "cuda/util/cuda_check.cuh"
#include "cuda/util/cuda_event.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens::cuda {
namespace {

struct LeftWork {
    std::mutex mutex;
    std::vector<std::shared_ptr<CudaEvent>> events;
};

LeftWork& leftWork() {
    static LeftWork work;
    return work;
}

}  // namespace

void leaveQueuedWork(cudaStream_t stream) noexcept {
    try {
        auto event = std::make_shared<CudaEvent>(cudaEventDisableTiming);
        if (cudaEventRecord(event->get(), stream) != cudaSuccess) return;
        LeftWork& work = leftWork();
        const std::lock_guard<std::mutex> lock(work.mutex);
        work.events.push_back(std::move(event));
    } catch (...) {  // (a failed event: the next run then simply queues behind the work)
    }
}

void waitForLeftWork(const JobControl* control) {
    LeftWork& work = leftWork();
    for (;;) {
        std::shared_ptr<CudaEvent> event;
        {
            const std::lock_guard<std::mutex> lock(work.mutex);
            if (work.events.empty()) break;
            event = work.events.back();
        }
        waitForEvent(event->get(), control);
        const std::lock_guard<std::mutex> lock(work.mutex);
        std::erase(work.events, event);
    }
    loadKernelModules();  // (the device has none of our work queued here)
}

}  // namespace clusterlens::cuda
