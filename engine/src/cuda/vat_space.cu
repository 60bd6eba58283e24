// The prepared point set of the GPU VAT engine: screening coordinates (vat_common.cuh), a kd-tree
// order (Bentley 1975; median splits on the feature of largest interquartile range, so that the
// thin uniform background of cytometry data does not steer the splits) with leaves of exactly 128
// points, outlying members of a leaf moved into tiles of their own (ordered by a second kd-tree), and
// the tile balls that prune the tiled passes.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <numeric>
#include <vector>

#include "cpu/thread_pool.hpp"
#include "cuda/kernels/vat_engine.cuh"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string VatTrace::describe(const char* what) const {
    char line[512];
    std::snprintf(line, sizeof(line),
                  "[vat trace] %s: prepare %.4f s, knn %.4f s (%.0f tile pairs), rounds %.4f s (scans %.4f s), "
                  "farthest %.4f s, walk %.4f s; %d rounds, %d scans, %lld scanned rows, %.0f tile pairs = %.3f "
                  "all-pairs passes (%d tiles, %d outlier tiles); scans: ",
                  what, secondsPrepare, secondsKnn, knnTilePairs, secondsRounds, secondsScans, secondsFar, secondsWalk,
                  rounds, scans, scannedRows, tilePairs, passes(), tileCount, outlierTiles);
    return std::string(line) + scanLog + "\n";
}

namespace {

constexpr std::size_t kSample = 64;  // points per node for the split feature

/// Screening coordinates (see vat_common.cuh) and the power-of-two scale they carry.
int screeningCoordinates(const float* x, std::size_t n, std::size_t d, Metric metric, std::vector<float>& out,
                         cpu::ThreadPool& pool) {
    out.resize(n * d);
    const std::size_t chunks = std::min<std::size_t>(pool.size() * 4, (n + 4095) / 4096);
    const std::size_t chunk = (n + chunks - 1) / chunks;
    if (metric == Metric::Cosine) {
        pool.run(chunks, [&](std::size_t c) {
            for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
                double norm = 0.0;
                for (std::size_t k = 0; k < d; ++k) norm += double(x[i * d + k]) * double(x[i * d + k]);
                norm = std::sqrt(norm);
                for (std::size_t k = 0; k < d; ++k) out[i * d + k] = static_cast<float>(double(x[i * d + k]) / norm);
            }
        });
        return 0;
    }
    std::vector<double> mean(d, 0.0);
    if (metric != Metric::Manhattan) {
        std::vector<std::vector<double>> partial(chunks, std::vector<double>(d, 0.0));
        pool.run(chunks, [&](std::size_t c) {
            for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i)
                for (std::size_t k = 0; k < d; ++k) partial[c][k] += double(x[i * d + k]);
        });
        for (const auto& p : partial)
            for (std::size_t k = 0; k < d; ++k) mean[k] += p[k];
        for (double& m : mean) m /= static_cast<double>(n);
    }
    std::vector<double> maxAbs(chunks, 0.0);
    pool.run(chunks, [&](std::size_t c) {
        for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i)
            for (std::size_t k = 0; k < d; ++k)
                maxAbs[c] = std::max(maxAbs[c], std::fabs(double(x[i * d + k]) - mean[k]));
    });
    const double largest = *std::max_element(maxAbs.begin(), maxAbs.end());
    const int scaleExp = largest > 0.0 ? -std::ilogb(largest) : 0;
    pool.run(chunks, [&](std::size_t c) {
        for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i)
            for (std::size_t k = 0; k < d; ++k)
                out[i * d + k] = static_cast<float>(std::ldexp(double(x[i * d + k]) - mean[k], scaleExp));
    });
    return scaleExp;
}

/// Distance of two screening rows in ball units (Euclidean, or L1 for manhattan), in double.
double ballDistance(const float* a, const float* b, std::size_t d, bool l1) {
    double s = 0.0;
    for (std::size_t k = 0; k < d; ++k) {
        const double diff = double(a[k]) - double(b[k]);
        s += l1 ? std::fabs(diff) : diff * diff;
    }
    return l1 ? s : std::sqrt(s);
}

/// Orders idx into kd-tree leaves of exactly 128 points (the last leaf may be shorter): every split
/// puts floor(tiles/2)·128 points on the left, so leaves align with tiles. Level by level, the
/// nodes of a level in parallel.
std::vector<std::pair<std::size_t, std::size_t>> kdOrder(const float* s, std::size_t d, std::vector<int>& idx,
                                                         cpu::ThreadPool& pool) {
    std::vector<std::pair<std::size_t, std::size_t>> nodes{{0, idx.size()}};
    for (;;) {
        std::vector<std::array<std::pair<std::size_t, std::size_t>, 2>> children(nodes.size());
        bool split = false;
        for (const auto& node : nodes) split = split || node.second - node.first > std::size_t(kVatTile);
        if (!split) return nodes;
        pool.run(nodes.size(), [&](std::size_t i) {
            const auto [b, e] = nodes[i];
            const std::size_t size = e - b;
            if (size <= std::size_t(kVatTile)) {
                children[i] = {std::make_pair(b, e), std::make_pair(e, e)};
                return;
            }
            // Split feature: the largest interquartile range of an evenly spaced sample.
            const std::size_t m = std::min(kSample, size);
            std::vector<float> values(m);
            std::size_t best = 0;
            float bestSpread = -1.0f;
            for (std::size_t k = 0; k < d; ++k) {
                for (std::size_t t = 0; t < m; ++t) values[t] = s[std::size_t(idx[b + t * size / m]) * d + k];
                std::nth_element(values.begin(), values.begin() + m / 4, values.end());
                const float q1 = values[m / 4];
                std::nth_element(values.begin(), values.begin() + (3 * m) / 4, values.end());
                const float spread = values[(3 * m) / 4] - q1;
                if (spread > bestSpread) bestSpread = spread, best = k;
            }
            const std::size_t tiles = (size + kVatTile - 1) / kVatTile;
            const std::size_t mid = b + (tiles / 2) * kVatTile;
            std::vector<std::pair<float, int>> keyed(size);
            for (std::size_t t = 0; t < size; ++t) keyed[t] = {s[std::size_t(idx[b + t]) * d + best], idx[b + t]};
            std::nth_element(keyed.begin(), keyed.begin() + std::ptrdiff_t(mid - b), keyed.end());
            for (std::size_t t = 0; t < size; ++t) idx[b + t] = keyed[t].second;
            children[i] = {std::make_pair(b, mid), std::make_pair(mid, e)};
        });
        nodes.clear();
        for (const auto& c : children)
            for (const auto& node : c)
                if (node.second > node.first) nodes.push_back(node);
    }
}

/// Leaf members farther than twice the leaf's upper-quartile distance from its mean (a thin
/// background point inflates a ball that otherwise covers a dense patch).
void splitOutliers(const float* s, std::size_t d, bool l1, const int* members, std::size_t count,
                   std::vector<int>& core, std::vector<int>& outliers) {
    if (count < 16) {
        core.assign(members, members + count);
        return;
    }
    std::vector<double> centre(d, 0.0);
    for (std::size_t t = 0; t < count; ++t)
        for (std::size_t k = 0; k < d; ++k) centre[k] += double(s[std::size_t(members[t]) * d + k]);
    for (double& c : centre) c /= static_cast<double>(count);
    std::vector<double> dist(count);
    for (std::size_t t = 0; t < count; ++t) {
        double v = 0.0;
        for (std::size_t k = 0; k < d; ++k) {
            const double diff = double(s[std::size_t(members[t]) * d + k]) - centre[k];
            v += l1 ? std::fabs(diff) : diff * diff;
        }
        dist[t] = l1 ? v : std::sqrt(v);
    }
    std::vector<double> sorted = dist;
    std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(3 * count / 4), sorted.end());
    const double cut = 2.0 * sorted[3 * count / 4];
    for (std::size_t t = 0; t < count; ++t) (dist[t] > cut ? outliers : core).push_back(members[t]);
}

/// Positions of the points: kd leaves (core members, padded to 128), then the outliers in kd order.
std::vector<int> kdLayout(const float* s, std::size_t n, std::size_t d, bool l1, cpu::ThreadPool& pool,
                          int& outlierTiles) {
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    const auto leaves = kdOrder(s, d, idx, pool);
    std::vector<std::vector<int>> core(leaves.size()), outliers(leaves.size());
    pool.run(leaves.size(), [&](std::size_t i) {
        splitOutliers(s, d, l1, idx.data() + leaves[i].first, leaves[i].second - leaves[i].first, core[i], outliers[i]);
    });
    std::vector<int> rest;
    for (const auto& o : outliers) rest.insert(rest.end(), o.begin(), o.end());
    std::vector<int> perm;
    perm.reserve((leaves.size() + rest.size() / kVatTile + 2) * kVatTile);
    for (const auto& c : core) {
        if (c.empty()) continue;
        perm.insert(perm.end(), c.begin(), c.end());
        perm.resize((perm.size() + kVatTile - 1) / kVatTile * kVatTile, -1);
    }
    const std::size_t coreSize = perm.size();
    if (!rest.empty()) {
        for (const auto& leaf : kdOrder(s, d, rest, pool)) {
            perm.insert(perm.end(), rest.begin() + std::ptrdiff_t(leaf.first),
                        rest.begin() + std::ptrdiff_t(leaf.second));
            perm.resize((perm.size() + kVatTile - 1) / kVatTile * kVatTile, -1);
        }
    }
    outlierTiles = static_cast<int>((perm.size() - coreSize) / kVatTile);
    return perm;
}

}  // namespace

VatSpace::VatSpace(const float* x, std::size_t n, std::size_t d, Metric metric)
    : m_n(static_cast<int>(n)), m_d(static_cast<int>(d)), m_dPad(static_cast<int>(d + (d & 1))) {
    const cudaStream_t stream = cudaStreamPerThread;
    cpu::ThreadPool pool;
    const int scaleExp = screeningCoordinates(x, n, d, metric, m_screening, pool);
    m_screen = makeVatScreen(metric, scaleExp, m_d);
    const bool l1 = m_screen.l1();
    m_perm = kdLayout(m_screening.data(), n, d, l1, pool, m_outlierTiles);
    m_tiles = static_cast<int>(m_perm.size() / kVatTile);
    const std::size_t positions = m_perm.size();

    // Tile layout, squared norms (padding: far away), inverse permutation.
    std::vector<float> tiles(positions * m_dPad);
    std::vector<float> norms(positions);
    std::vector<int> inverse(n);
    pool.run(static_cast<std::size_t>(m_tiles), [&](std::size_t t) {
        for (int j = 0; j < kVatTile; ++j) {
            const std::size_t pos = t * kVatTile + j;
            const int i = m_perm[pos];
            double norm = 0.0;
            for (int k = 0; k < m_dPad; ++k) {
                float v = k < m_d ? kVatPadCoordinate : 0.0f;
                if (i >= 0) v = k < m_d ? m_screening[std::size_t(i) * d + k] : 0.0f;
                tiles[(t * m_dPad + k) * kVatTile + j] = v;
                norm += double(v) * double(v);
            }
            norms[pos] = l1 ? 0.0f : static_cast<float>(norm);
            if (i >= 0) inverse[std::size_t(i)] = static_cast<int>(pos);
        }
    });
    d_points = DeviceBuffer<float>(n * d, stream);
    d_points.copyFromHost(x, n * d);
    d_tiles = DeviceBuffer<float>(tiles.size(), stream);
    d_tiles.copyFromHost(tiles.data(), tiles.size());
    d_norms = DeviceBuffer<float>(positions, stream);
    d_norms.copyFromHost(norms.data(), positions);
    d_perm = DeviceBuffer<int>(positions, stream);
    d_perm.copyFromHost(m_perm.data(), positions);
    d_invPerm = DeviceBuffer<int>(n, stream);
    d_invPerm.copyFromHost(inverse.data(), n);

    d_centre = DeviceBuffer<float>(static_cast<std::size_t>(m_tiles) * d, stream);
    d_radius = DeviceBuffer<float>(static_cast<std::size_t>(m_tiles), stream);
    d_reach = DeviceBuffer<float>(static_cast<std::size_t>(m_tiles), stream);
    vatTileGeometry(view(), d_centre.data(), d_radius.data(), d_reach.data());
    CL_CUDA_TRY(cudaStreamSynchronize(stream));
}

VatSpaceView VatSpace::view() const {
    return VatSpaceView{d_tiles.data(), d_norms.data(), d_perm.data(), d_points.data(), m_n, m_d,
                        m_dPad,         m_tiles,        m_screen};
}

double VatSpace::farLowerBound() const {
    const std::size_t n = static_cast<std::size_t>(m_n);
    const std::size_t d = static_cast<std::size_t>(m_d);
    const bool l1 = m_screen.l1();
    const float* s = m_screening.data();
    cpu::ThreadPool pool;
    const std::size_t chunks = std::min<std::size_t>(pool.size() * 4, (n + 4095) / 4096);
    const std::size_t chunk = (n + chunks - 1) / chunks;
    std::vector<float> centre(d, 0.0f);
    {
        std::vector<double> sum(d, 0.0);
        for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 4096))
            for (std::size_t k = 0; k < d; ++k) sum[k] += s[i * d + k];
        const double count =
            static_cast<double>((n + std::max<std::size_t>(1, n / 4096) - 1) / std::max<std::size_t>(1, n / 4096));
        for (std::size_t k = 0; k < d; ++k) centre[k] = static_cast<float>(sum[k] / count);
    }
    const auto farthestFrom = [&](const float* from) {
        std::vector<std::pair<double, std::size_t>> best(chunks, {-1.0, 0});
        pool.run(chunks, [&](std::size_t c) {
            for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
                const double v = ballDistance(s + i * d, from, d, l1);
                if (v > best[c].first) best[c] = {v, i};
            }
        });
        return std::max_element(best.begin(), best.end())->second;
    };
    const std::size_t p1 = farthestFrom(centre.data());
    const std::size_t p2 = farthestFrom(s + p1 * d);
    double margin = 0.0;
    if (!l1) {
        // The screening rows are rounded: each lies within 2^-24 of its norm of the exact one.
        const double n1 = ballDistance(s + p1 * d, std::vector<float>(d, 0.0f).data(), d, false);
        const double n2 = ballDistance(s + p2 * d, std::vector<float>(d, 0.0f).data(), d, false);
        margin = 0x1.0p-22 * (n1 + n2);
    }
    return std::max(0.0, (ballDistance(s + p1 * d, s + p2 * d, d, l1) - margin) * (1.0 - 0x1.0p-20));
}

}  // namespace clusterlens::cuda
