#pragma once
// Borůvka rounds (Borůvka 1926) of the GPU minimum spanning tree on cached per-point knowledge.
// Every point p keeps a lower bound lb[p] of its distance to the nearest point of another component;
// it only grows, since components only grow. A round:
//   resolve  — p's candidate edge: its certified cache (the exact nearest other-component point found
//              by an earlier scan, still in another component), else the first other-component entry
//              of its k-NN list, certified when closer than the list's radius; otherwise lb[p] rises to
//              the list radius (or to the weight of a cache entry that has joined p's component);
//   upper    — per component the lightest candidate edge U (a real edge, so the component's lightest
//              outgoing edge weighs at most U);
//   scan     — every uncertified member with lb <= U is scanned for its nearest other-component point
//              within U (a component without any candidate first scans one member without limit);
//   minimum  — every member is now certified or provably heavier than U, so the lightest certified
//              edge, ties by (w, min(u,v), max(u,v)), is the component's lightest outgoing edge (the
//              cut property makes it a tree edge; the strict total order keeps the union a forest).
// The largest component sits each round out: any component's lightest outgoing edge is a tree edge,
// so a round may use any subset of the components, and with all but one of them every component
// still merges with another (at least half as many components remain). Its members are the most
// expensive to certify, and the final round between two components scans only the smaller one.
// Components are labelled by a member position; the host joins them with a union-find.

#include <cuda_runtime.h>

#include "cuda/kernels/vat_common.cuh"

namespace clusterlens::cuda {

__global__ void vatResolveKernel(VatForest f) {
    const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (p >= f.positions) return;
    const int c = f.comp[p];
    if (c < 0) return;
    double w = INFINITY;
    int q = -1;
    bool cert = false;
    double lb = f.lb[p];
    const int cached = f.cachePos[p];
    if (cached >= 0) {
        if (f.comp[cached] != c) {
            w = f.cacheW[p];
            q = cached;
            cert = true;
        } else {
            lb = fmax(lb, f.cacheW[p]);
            f.cachePos[p] = -1;
        }
    }
    if (!cert) {
        // The list is sorted by (exact value, original index); its first entry in another component
        // is p's nearest there among the listed points. Its exact weight is recomputed here (one
        // evaluation per point and round) rather than stored: 8 bytes x kVatKnn per point less.
        const int* list = f.knnPos + static_cast<size_t>(p) * kVatKnn;
        for (int k = 0; k < kVatKnn && list[k] >= 0; ++k)
            if (f.comp[list[k]] != c) {
                q = list[k];
                w = vatExactDistance(f.metric, f.points + static_cast<size_t>(f.perm[p]) * f.d,
                                     f.points + static_cast<size_t>(f.perm[q]) * f.d, f.d);
                cert = w < f.knnBound[p];
                break;
            }
        if (!cert) lb = fmax(lb, f.knnBound[p]);
    }
    f.lb[p] = lb;
    f.candW[p] = w;
    f.candPos[p] = q;
    f.candCert[p] = cert ? 1 : 0;
    if (q >= 0) atomicMin(f.compUpper + c, vatOrderedBits(w));
}

/// flags[p] = 1 for the label of every component without a candidate edge (it is scanned first,
/// without a limit, to give the component an upper bound).
__global__ void vatProbeFlagsKernel(VatForest f, unsigned char* __restrict__ flags) {
    const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (p >= f.positions) return;
    flags[p] = f.comp[p] == p && p != f.skip && f.compUpper[p] == kVatNoEdge ? 1 : 0;
}

/// flags[p] = 1 for every uncertified point that might beat its component's upper bound.
__global__ void vatScanFlagsKernel(VatForest f, unsigned char* __restrict__ flags) {
    const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (p >= f.positions) return;
    const int c = f.comp[p];
    flags[p] = c >= 0 && c != f.skip && !f.candCert[p] && f.lb[p] <= vatFromOrderedBits(f.compUpper[c]) ? 1 : 0;
}

__global__ void vatComponentMinKernel(VatForest f) {
    const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (p >= f.positions || f.comp[p] < 0 || !f.candCert[p]) return;
    atomicMin(f.compBest + f.comp[p], vatOrderedBits(f.candW[p]));
}

__device__ inline unsigned long long vatEdgeKey(int i, int j) {
    const auto lo = static_cast<unsigned long long>(min(i, j));
    const auto hi = static_cast<unsigned long long>(max(i, j));
    return (lo << 32) | hi;
}

/// Ties of the component minimum by (min, max) original index; checks that no uncertified member
/// could still be lighter (bit 2 of the error flags).
__global__ void vatComponentTieKernel(VatForest f) {
    const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (p >= f.positions) return;
    const int c = f.comp[p];
    if (c < 0) return;
    const unsigned long long best = f.compBest[c];
    if (!f.candCert[p]) {
        if (c != f.skip && f.lb[p] <= vatFromOrderedBits(best)) atomicOr(f.error, 2u);
        return;
    }
    if (vatOrderedBits(f.candW[p]) == best) atomicMin(f.compKey + c, vatEdgeKey(f.perm[p], f.perm[f.candPos[p]]));
}

/// The owner of each component's chosen edge records the other end's component and the weight.
__global__ void vatComponentEdgeKernel(VatForest f) {
    const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (p >= f.positions) return;
    const int c = f.comp[p];
    if (c < 0 || !f.candCert[p] || vatOrderedBits(f.candW[p]) != f.compBest[c]) return;
    if (vatEdgeKey(f.perm[p], f.perm[f.candPos[p]]) != f.compKey[c]) return;
    f.compOther[c] = f.comp[f.candPos[p]];
    f.compW[c] = f.candW[p];
}

/// Per live label (labels[0..count)): the chosen edge for the host's union-find.
__global__ void vatGatherEdgesKernel(VatForest f, const int* __restrict__ labels, int count,
                                     unsigned long long* __restrict__ key, int* __restrict__ other,
                                     double* __restrict__ w) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= count) return;
    const int c = labels[i];
    // A component without a chosen edge (the skipped one) never had its partner and weight written.
    const unsigned long long k = f.compKey[c];
    key[i] = k;
    other[i] = k == kVatNoEdge ? -1 : f.compOther[c];
    w[i] = k == kVatNoEdge ? 0.0 : f.compW[c];
}

/// map[from[i]] = to[i].
__global__ void vatScatterKernel(const int* __restrict__ from, const int* __restrict__ to, int count,
                                 int* __restrict__ map) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < count) map[from[i]] = to[i];
}

__global__ void vatRelabelKernel(VatForest f, const int* __restrict__ map) {
    const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (p >= f.positions) return;
    const int c = f.comp[p];
    if (c >= 0) f.comp[p] = map[c];
}

/// tileComp[t] = the common component of the tile's valid positions, -1 when they differ.
__global__ void vatTileCompKernel(const int* __restrict__ comp, int tiles, int* __restrict__ tileComp) {
    const int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (t >= tiles) return;
    int common = -1;
    bool mixed = false;
    for (int j = 0; j < kVatTile; ++j) {
        const int c = comp[static_cast<size_t>(t) * kVatTile + j];
        if (c < 0) continue;
        if (common < 0)
            common = c;
        else if (c != common)
            mixed = true;
    }
    tileComp[t] = mixed ? -1 : common;
}

}  // namespace clusterlens::cuda
