#pragma once
// Mahalanobis-average hierarchical clustering (MHCA), CPU reference implementation.
//
// Semantics are those of the R package mhca, function mhclust (C code path, double precision):
// Fiser K., Sieger T. et al., "Detection and monitoring of normal and leukemic cell populations with
// hierarchical clustering of flow cytometry data", Cytometry A 81(1), 2012; definitions 5-11 of the
// seed thesis (mhca-gpu-thesis.txt). DESIGN.md, section MHCA, states the distance; the reference
// outputs in data/reference/mhca/ are the judge.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

struct MhcaCudaPolicy;  // hca/mhca_cuda_policy.hpp
struct MhcaProbe;       // hca/mhca_probe.hpp

/// How the distance of two clusters uses their members (thesis definitions 8 and 9).
enum class MhcaVariant {
    Full,     ///< FMD, mhclust(quick = FALSE): every member of both clusters
    Centroid  ///< CMD, mhclust(quick = TRUE): the two centroids only
};

/// mhclust's `subthreshHandling`: the shape used for clusters below the threshold size.
enum class SubthresholdMode {
    Mahal,       ///< Σ' = wf·Σ + (1-wf)·det(Σ)^(1/d)·I
    Mahal0,      ///< Σ' = wf·Σ + (1-wf)·I (not scale invariant; kept for compatibility)
    Euclid,      ///< identity for every cluster while any cluster is below the threshold
    EuclidMahal  ///< identity for clusters below the threshold, Σ above it
};

struct MhcaOptions {
    MhcaVariant variant = MhcaVariant::Full;
    /// Minimum relative cluster size (of the whole dataset) for a pure Mahalanobis distance, in (0, 1].
    double threshold = 0.5;
    SubthresholdMode subthreshold = SubthresholdMode::Mahal;
    /// Scale every cluster's Σ' to unit determinant even when all clusters reached the threshold.
    bool normalize = false;
    /// Empty, or n apriori group ids (mhclust's `g`, gIntra = TRUE): 0 = no group, so 0-based labels
    /// (k-means) must be shifted by one. The points of each group of two or more points are clustered
    /// first, then the groups are merged as clusters. mhclust ignores the groups when no id is positive,
    /// one group holds every point, or every group has one point.
    std::vector<std::int32_t> apriori;
    /// CUDA only: the devices the apriori groups are spread over (parseGpus gives them for --gpus
    /// all|N), when CMD clusters them a block per group (groups below the threshold): each device
    /// clusters a share of the groups, about equal in work, and the first runs the top level. Empty:
    /// the current device alone. A device may be named more than once (its shares then run side by
    /// side on it, as the tests do). Changes the time, never the merges.
    std::vector<int> cudaDevices;
    /// CUDA only: the tuning policy to run instead of chooseMhcaCudaPolicy's (tests that check one
    /// mechanism against another); null: the production choice. The merges are the same either way.
    std::shared_ptr<const MhcaCudaPolicy> cudaPolicy;
    /// CUDA only, optional: filled with what the run did (counts, phase and stage times); not owned.
    MhcaProbe* probe = nullptr;
};

/// Clusters n points of dimension d by MHCA.
///
/// @param x        n*d doubles, row-major (x[i*d + j]); read only, must stay valid during the call.
/// @param control  optional; progress is reported per merge and cancellation checked at every merge
///                 step and between batches of rows in all-pairs passes (throws Cancelled).
/// @return n-1 merges in scipy's linkage convention (hca/linkage.hpp); heights are NOT forced monotonic.
///
/// Ties go as in mhclust: to the pair first in its cluster list (the cluster whose smallest member
/// comes first, then its partner likewise; apriori groups, by ascending id, before ungrouped points),
/// with mhca's rounding of its stored keys maxDistX - d reproduced, so near-ties on grid data resolve
/// identically. Clusters of fewer than d+1 points have singular covariances, whose Cholesky success is
/// decided by rounding; the factorisation follows reference LAPACK's operation order for that reason.
///
/// Complexity: one merge computes the distances of the new cluster to the K live clusters and rescans
/// the few clusters whose nearest neighbour disappeared and whose 8 kept runner-up partners cannot
/// stand in (about one in eight of them): O(K·D²) per merge for CMD, O((N + K·|new|)·D²)
/// for FMD, plus O(|new|·D² + D³) for the new covariance. Two all-pairs passes at the start (O(N²·D)
/// for single points) and one when every cluster reaches the threshold (K ≤ 1/threshold clusters then).
/// Independent distance evaluations run on all hardware threads.
/// Memory: O(N·D + N·D²) doubles (centroid, Σ'^-1 and its unit-determinant copy per cluster slot, 8
/// runner-up partners per slot) plus O(N) per merge step; never a pairwise distance matrix.
///
/// @throws InvalidInput (n < 2, d = 0, threshold outside (0, 1], apriori length != n or negative ids),
///         NonFiniteInput (NaN/Inf in x), Cancelled.
Linkage mhcaCpu(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options,
                JobControl* control = nullptr);

/// The checks mhcaCpu makes before clustering (shared by every backend). Throws as mhcaCpu does.
void validateMhcaInput(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options);

/// "full" | "centroid" (the CLI's --variant). Throws InvalidInput naming --variant otherwise.
MhcaVariant parseMhcaVariant(const std::string& text);
/// "mahal" | "mahal0" | "euclid" | "euclid-mahal" (the CLI's --subthreshold). Throws InvalidInput
/// naming --subthreshold otherwise.
SubthresholdMode parseSubthresholdMode(const std::string& text);

/// The CLI spelling of a variant ("full", "centroid").
const char* mhcaVariantName(MhcaVariant variant);
/// The CLI spelling of a sub-threshold mode ("mahal", "mahal0", "euclid", "euclid-mahal").
const char* subthresholdModeName(SubthresholdMode mode);

}  // namespace clusterlens
