#include "mhca_clusters.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "mhca_linalg.hpp"

namespace clusterlens::mhca {

ClusterSet::ClusterSet(const double* x, std::size_t d, std::vector<std::int32_t> rows, std::size_t slotCount)
    : m_x(x),
      m_d(d),
      m_rows(std::move(rows)),
      m_next(m_rows.size(), -1),
      m_head(slotCount, -1),
      m_tail(slotCount, -1),
      m_size(slotCount, 0),
      m_id(slotCount, -1),
      m_stamp(slotCount, -1),
      m_weight(slotCount, 0.0),
      m_nmf(slotCount, 1.0),
      m_centroid(new double[slotCount * d]),
      m_invcov(new double[slotCount * d * d]),
      m_scaled(new double[slotCount * d * d]),
      m_identity(slotCount, 1),
      m_mode(slotCount) {}

void ClusterSet::setShape(std::size_t slot, const double* invcov, double nmf) {
    const std::size_t dd = m_d * m_d;
    double* target = &m_invcov[slot * dd];
    double* scaled = &m_scaled[slot * dd];
    bool identity = nmf == 1.0;
    for (std::size_t i = 0; i < m_d; ++i) {
        for (std::size_t j = 0; j < m_d; ++j) {
            const double v = invcov ? invcov[i * m_d + j] : (i == j ? 1.0 : 0.0);
            target[i * m_d + j] = v;
            scaled[i * m_d + j] = v / nmf;
            identity = identity && v == (i == j ? 1.0 : 0.0);
        }
    }
    m_nmf[slot] = nmf;
    m_identity[slot] = identity ? 1 : 0;
}

void ClusterSet::makeSingleton(std::size_t slot, std::int32_t localPoint, std::int64_t id) {
    m_head[slot] = m_tail[slot] = localPoint;
    m_next[localPoint] = -1;
    m_size[slot] = 1;
    m_id[slot] = id;
    m_weight[slot] = 0.0;
    std::copy(row(localPoint), row(localPoint) + m_d, &m_centroid[slot * m_d]);
    // Σ'^-1 = I is implied by the flag (metricOf never reads the matrix of an identity slot).
    m_nmf[slot] = 1.0;
    m_identity[slot] = 1;
}

void ClusterSet::makeCluster(std::size_t slot, const std::vector<std::int32_t>& localPoints, std::int64_t id,
                             const double* centroid, const double* invcov, double nmf, double weight) {
    m_head[slot] = localPoints.front();
    for (std::size_t k = 0; k + 1 < localPoints.size(); ++k) m_next[localPoints[k]] = localPoints[k + 1];
    m_next[localPoints.back()] = -1;
    m_tail[slot] = localPoints.back();
    m_size[slot] = static_cast<std::int64_t>(localPoints.size());
    m_id[slot] = id;
    m_weight[slot] = weight;
    std::copy(centroid, centroid + m_d, &m_centroid[slot * m_d]);
    setShape(slot, invcov, nmf);
}

void ClusterSet::mergeInto(std::size_t first, std::size_t second, std::int64_t id, const double* invcov, double nmf,
                           double weight) {
    const auto s1 = static_cast<double>(m_size[first]);
    const auto s2 = static_cast<double>(m_size[second]);
    double* c1 = &m_centroid[first * m_d];
    const double* c2 = &m_centroid[second * m_d];
    for (std::size_t j = 0; j < m_d; ++j) c1[j] = (s1 * c1[j] + s2 * c2[j]) / (s1 + s2);
    m_next[m_tail[first]] = m_head[second];
    m_tail[first] = m_tail[second];
    m_size[first] += m_size[second];
    m_id[first] = id;
    m_weight[first] = weight;
    setShape(first, invcov, nmf);
    m_head[second] = m_tail[second] = -1;
    m_size[second] = 0;
}

void ClusterSet::gatherRows(std::size_t slot, double* out) const {
    for (std::int32_t p = m_head[slot]; p >= 0; p = m_next[p], out += m_d) std::copy(row(p), row(p) + m_d, out);
}

namespace {

/// (x)ᵀ M (x) as mhclust.c evaluates it: dsymm's C(i,j) = M_jj·x_j + Σ_{k≠j, ascending} M_jk·x_k, then
/// the row sum Σ_j C(i,j)·x_j. M == nullptr means the identity (the same value, fewer operations).
inline double quadraticForm(const double* diff, const double* m, std::size_t d) {
    double q = 0.0;
    if (!m) {
        for (std::size_t j = 0; j < d; ++j) q += diff[j] * diff[j];
        return q;
    }
    for (std::size_t j = 0; j < d; ++j) {
        const double* mj = m + j * d;
        double y = mj[j] * diff[j];
        for (std::size_t k = 0; k < j; ++k) y = y + mj[k] * diff[k];
        for (std::size_t k = j + 1; k < d; ++k) y = y + mj[k] * diff[k];
        q += y * diff[j];
    }
    return q;
}

/// Mean Mahalanobis distance of the representatives of `from` to cluster `to` (mhclust.c's
/// computeMahalanobisDistance: sqrt per row, dasum, divided by the row count).
double meanDistanceTo(const ClusterSet& clusters, MhcaVariant variant, std::size_t from, std::size_t to,
                      const double* m, double* diff) {
    const std::size_t d = clusters.dim();
    const double* mu = clusters.centroid(to);
    if (variant == MhcaVariant::Centroid) {
        const double* c = clusters.centroid(from);
        for (std::size_t j = 0; j < d; ++j) diff[j] = c[j] - mu[j];
        return std::sqrt(quadraticForm(diff, m, d)) / 1.0;
    }
    double sum = 0.0;
    std::int64_t count = 0;
    for (std::int32_t p = clusters.firstMember(from); p >= 0; p = clusters.nextMember(p), ++count) {
        const double* r = clusters.row(p);
        for (std::size_t j = 0; j < d; ++j) diff[j] = r[j] - mu[j];
        sum += std::fabs(std::sqrt(quadraticForm(diff, m, d)));
    }
    return sum / static_cast<double>(count);
}

const double* metricOf(const ClusterSet& clusters, std::size_t slot, DistanceMode mode) {
    if (mode.identity || clusters.isIdentity(slot)) return nullptr;
    return mode.normalized ? clusters.invcovScaled(slot) : clusters.invcov(slot);
}

}  // namespace

double clusterDistance(const ClusterSet& clusters, MhcaVariant variant, std::size_t a, std::size_t b,
                       DistanceMode mode) {
    const std::size_t d = clusters.dim();
    if (clusters.size(a) == 1 && clusters.size(b) == 1) {
        // Two points (Σ'^-1 = I in every mode): both halves equal the Euclidean distance, bit for bit.
        const double* x = clusters.row(clusters.firstMember(a));
        const double* y = clusters.row(clusters.firstMember(b));
        double q = 0.0;
        for (std::size_t j = 0; j < d; ++j) q += (y[j] - x[j]) * (y[j] - x[j]);
        return std::sqrt(q);
    }
    std::array<double, 64> local;
    std::vector<double> heap;
    double* diff = local.data();
    if (d > local.size()) {
        heap.resize(d);
        diff = heap.data();
    }
    const double toA = meanDistanceTo(clusters, variant, b, a, metricOf(clusters, a, mode), diff);
    const double toB = meanDistanceTo(clusters, variant, a, b, metricOf(clusters, b, mode), diff);
    return (toA + toB) / 2.0;
}

}  // namespace clusterlens::mhca
