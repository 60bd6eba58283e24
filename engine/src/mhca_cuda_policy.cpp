// The production tuning policy of mhcaCuda (hca/mhca_cuda_policy.hpp).

#include "clusterlens/hca/mhca_cuda_policy.hpp"

#include <algorithm>

namespace clusterlens {

MhcaCudaPolicy chooseMhcaCudaPolicy(const MhcaDeviceTraits& device, std::size_t n, std::size_t d, MhcaVariant variant) {
    // The persistent kernel has instances for d <= 16 only (its shared memory is checked when the
    // engine plans its launch).
    constexpr std::size_t kPersistentMaxDimension = 16;
    MhcaCudaPolicy policy;
    policy.persistentCmd = variant == MhcaVariant::Centroid && device.cooperativeLaunch && d <= kPersistentMaxDimension;
    // FMD's per-row sums take 2 * rows * n doubles: at most ~0.5 GiB, 16 to 256 rows.
    policy.fmdRowsPerPass =
        static_cast<int>(std::clamp<std::size_t>((std::size_t{32} << 20) / std::max<std::size_t>(n, 1), 16, 256));
    return policy;
}

}  // namespace clusterlens
