#pragma once
// The tuning policy of mhcaCuda: which of the CUDA engine's equivalent mechanisms a run uses. Every
// choice gives the same merges bit for bit (the gpu tests run each against the others and against
// mhcaCpu); the policy decides speed only. chooseMhcaCudaPolicy picks it from the device, n, d and
// the variant, as CUB's policies are picked per architecture; a test that checks one mechanism
// against another injects its own through MhcaOptions::cudaPolicy. Plain C++: no CUDA types.

#include <cstddef>

#include "clusterlens/hca/mhca.hpp"

namespace clusterlens {

/// How the persistent CMD kernel's shape phase loads the other clusters' metrics it streams.
enum class MhcaStreamedLoads {
    ByCacheSize,  ///< plain loads, exact-d form while the live metrics fit in L2; evict-first past it
    Plain,        ///< always plain loads with the exact-d form
    EvictFirst    ///< always evict-first loads with the kernel instance's padded form
};

/// How CMD's persistent path starts while every cluster is a single point (one group).
enum class MhcaSingletonStart {
    PairsPass,        ///< maxDistX and every row's first state from one pass over the pairs; rows whose
                      ///< keys tie beyond their kept partners are redone by the tiled pass
    TwoPasses,        ///< a pass for maxDistX, then the tiled pass over the rows by keys
    PairsPassRedoAll  ///< the pass over the pairs with every row redone by the tiled pass
};

/// The switches of one mhcaCuda run. Defaults are the production choice on a device with a
/// cooperative launch; chooseMhcaCudaPolicy fills the size-dependent ones.
struct MhcaCudaPolicy {
    /// CMD: one persistent kernel per batch of merges where the device allows it (d <= 16, cooperative
    /// launch, shared memory); false: the per-stage kernels (the reference and fallback path).
    bool persistentCmd = true;
    /// The rows' first state from one tiled pass while every cluster is a single point (d <= 16);
    /// false: a rescan of every row.
    bool tiledStart = true;
    MhcaSingletonStart cmdStart = MhcaSingletonStart::PairsPass;
    /// Persistent CMD: rows are updated without barrier S3 where the kernel allows it (speculation, a
    /// list that is the slots in order), undone from the row journal on a key shift.
    bool elideBarrierS3 = true;
    /// The next merge's likely shape computed ahead (persistent CMD's last block; FMD's side stream).
    bool speculate = true;
    /// Persistent CMD: the growth kernel beside the persistent one (needs elideBarrierS3's conditions).
    bool growthKernel = true;
    MhcaStreamedLoads streamedLoads = MhcaStreamedLoads::ByCacheSize;
    /// FMD: rows one device pass evaluates (2·rows·n doubles of sums); a step with more marked rows, or
    /// the switch to pure Mahalanobis distances, halts the queued merges until the host finishes it.
    /// In [1, 256].
    int fmdRowsPerPass = 256;
};

/// The device facts the policy depends on.
struct MhcaDeviceTraits {
    bool cooperativeLaunch = true;  ///< a grid-wide barrier can be launched (the persistent kernel)
};

/// The production policy for n points of dimension d on a device with `device`'s traits: the
/// persistent CMD kernel where it can run, FMD's rows per pass from n (the sums stay below ~0.5 GiB).
/// O(1), never throws.
MhcaCudaPolicy chooseMhcaCudaPolicy(const MhcaDeviceTraits& device, std::size_t n, std::size_t d, MhcaVariant variant);

}  // namespace clusterlens
