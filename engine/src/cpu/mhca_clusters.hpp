#pragma once
// The live clusters of one MHCA agglomeration and the distance of two of them (DESIGN.md, MHCA;
// thesis definitions 7-11; mhclust.c's centroid / invcov / invcovNmf / weightFactor / members arrays).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "clusterlens/hca/mhca.hpp"
#include "cpu/mhca_rules.hpp"

namespace clusterlens::mhca {

// Which Σ'^-1 a distance uses (DistanceMode, mhca_rules.hpp): mhca fixes it when the distance is
// computed, from the state at that moment (distanceModeFor), for both clusters.

/// Clusters indexed by slot. A slot's position in the slot order is its position in mhclust's cluster
/// list, which decides ties. Members are a linked list over the local points (O(1) concatenation,
/// first cluster's members then the second's, as mhclust.c keeps them).
/// Memory: slots·(d + 8) doubles + 2·points ints, plus 2·d² doubles per slot that has held a cluster of
/// several points: the shape arrays are reserved uninitialised and a singleton's Σ'^-1 = I is implied
/// by its identity flag, so at a million points the pages of clusters never merged are never touched
/// (zero-filling 2·d² doubles per point took seconds, none of them cancellable).
class ClusterSet {
public:
    /// x: the full n_total×d data; rows: data row of each local point.
    ClusterSet(const double* x, std::size_t d, std::vector<std::int32_t> rows, std::size_t slotCount);

    std::size_t dim() const { return m_d; }
    std::size_t slotCount() const { return m_size.size(); }
    const double* row(std::int32_t localPoint) const {
        return m_x + static_cast<std::size_t>(m_rows[localPoint]) * m_d;
    }

    /// A cluster of one local point: centroid = the point, Σ'^-1 = I, nmf = 1, weight 0.
    void makeSingleton(std::size_t slot, std::int32_t localPoint, std::int64_t id);
    /// A cluster of the given local points (in this order) with a known shape; centroid given.
    void makeCluster(std::size_t slot, const std::vector<std::int32_t>& localPoints, std::int64_t id,
                     const double* centroid, const double* invcov, double nmf, double weight);
    /// Replaces `first` by the union of `first` and `second` (members of first, then of second), with
    /// the given shape; the centroid becomes the size-weighted mean of the two (mhclust.c's update).
    void mergeInto(std::size_t first, std::size_t second, std::int64_t id, const double* invcov, double nmf,
                   double weight);

    /// Copies the member rows of a slot into out (size·d doubles), in member order.
    void gatherRows(std::size_t slot, double* out) const;

    std::int64_t size(std::size_t slot) const { return m_size[slot]; }
    std::int64_t id(std::size_t slot) const { return m_id[slot]; }
    double weight(std::size_t slot) const { return m_weight[slot]; }
    double nmf(std::size_t slot) const { return m_nmf[slot]; }
    const double* centroid(std::size_t slot) const { return &m_centroid[slot * m_d]; }
    /// Σ'^-1 of a slot; only meaningful when !isIdentity(slot).
    const double* invcov(std::size_t slot) const { return &m_invcov[slot * m_d * m_d]; }
    /// Σ'^-1 / nmf, divided entry by entry as mhclust.c does.
    const double* invcovScaled(std::size_t slot) const { return &m_scaled[slot * m_d * m_d]; }
    bool isIdentity(std::size_t slot) const { return m_identity[slot] != 0; }
    std::int32_t firstMember(std::size_t slot) const { return m_head[slot]; }
    std::int32_t nextMember(std::int32_t localPoint) const { return m_next[localPoint]; }

    /// When the slot's distances to the clusters that existed then were computed, and how.
    std::int64_t stamp(std::size_t slot) const { return m_stamp[slot]; }
    DistanceMode mode(std::size_t slot) const { return m_mode[slot]; }
    void setStamp(std::size_t slot, std::int64_t stamp, DistanceMode mode) {
        m_stamp[slot] = stamp;
        m_mode[slot] = mode;
    }

private:
    void setShape(std::size_t slot, const double* invcov, double nmf);

    const double* m_x;
    std::size_t m_d;
    std::vector<std::int32_t> m_rows;
    std::vector<std::int32_t> m_next;
    std::vector<std::int32_t> m_head, m_tail;
    std::vector<std::int64_t> m_size, m_id, m_stamp;
    std::vector<double> m_weight, m_nmf;
    /// Uninitialised: makeSingleton / makeCluster write a slot's centroid, setShape its d² blocks.
    std::unique_ptr<double[]> m_centroid, m_invcov, m_scaled;
    std::vector<char> m_identity;
    std::vector<DistanceMode> m_mode;
};

/// d(A,B) = ½(mean_{r∈rep(B)} m(r,A) + mean_{r∈rep(A)} m(r,B)), m(r,C) = sqrt((r-μC)ᵀ M_C (r-μC)),
/// rep = all members (FMD) or the centroid (CMD), M_C = Σ'^-1, Σ'^-1/nmf or I per `mode`.
/// The arithmetic follows mhclust.c (dsymm, row sums, dasum/n) term by term.
/// Cost: O((|A| + |B|)·d²) for FMD, O(d²) for CMD.
double clusterDistance(const ClusterSet& clusters, MhcaVariant variant, std::size_t a, std::size_t b,
                       DistanceMode mode);

/// The mode of a stored distance: that of the younger cluster (mhca computes a cluster's distances
/// when it is born, or all of them again when every cluster reached the threshold).
inline DistanceMode pairMode(const ClusterSet& clusters, std::size_t a, std::size_t b) {
    return clusters.stamp(a) >= clusters.stamp(b) ? clusters.mode(a) : clusters.mode(b);
}

}  // namespace clusterlens::mhca
