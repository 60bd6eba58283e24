#include "device_query.hpp"

namespace clusterlens::detail {

int cudaDeviceCount() noexcept {
    return 0;
}
std::string cudaCurrentDeviceName() {
    return {};
}
void cudaMemoryInfo(std::size_t& freeBytes, std::size_t& totalBytes) noexcept {
    freeBytes = totalBytes = 0;
}
bool cudaContextLost() noexcept {
    return false;
}
void clearCudaError() noexcept {}
void waitForLeftCudaWork(const JobControl*) {}

}  // namespace clusterlens::detail
