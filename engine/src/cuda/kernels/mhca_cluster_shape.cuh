#pragma once
// The shape Σ'^-1 of one cluster from its covariance (thesis 2.5.3; mhca_linalg.cpp's clusterShape),
// by a team of threads, in two halves: the Cholesky factor of Σ' = wf·Σ + (1 - wf)·mf·I, then the
// inverse and nmf from it. mergedShapeBlock (mhca_merge_device.cuh) runs both in a row; the persistent
// CMD kernel's speculating block runs them on either side of a grid barrier
// (mhca_persistent_speculation.cuh). The operations and their order are mhcaCpu's.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_linalg.cuh"

namespace clusterlens::cuda::mhca {

// The sub-threshold mode's rules, shared with mhcaCpu (mhca_rules.hpp).
using ::clusterlens::mhca::scaledShrinkage;
using ::clusterlens::mhca::shapedInMode;
using ::clusterlens::mhca::shrinkScale;
using ::clusterlens::mhca::shrunkEntry;

/// clusterShapeFactor for p <= kShapeRegs, in the registers of the team's first warp (one row per
/// lane): both factorisations and the determinant power between them. The shape is a chain of
/// dependent steps on a 14 x 14 matrix (thesis 2.5.3), bound by latency, not arithmetic: on an H200
/// (one block, p = 14) the whole shape takes ~37K cycles against ~45K for the team version, and 12.7
/// instead of 18.0 us per merge in the persistent CMD kernel. Out of line: inlined, it raised the
/// persistent kernel's spills. Same operations in the same order as the team version. L goes to the
/// lower triangle of `factor`, the product of its diagonal to *column, whether it factorised to
/// *s_flag. Ends with the team's barrier.
static __device__ __noinline__ void clusterFactorWarp(int p, SubthresholdMode sub, double weight, const double* cov,
                                                      double* factor, double* column, int* s_flag,
                                                      const ShapeTeam& team) {
    const int tid = team.tid;
    if (tid < 32) {
        double row[kShapeRegs];
        double diag = 0.0;
        auto load = [&] {  // cov stays intact until the inverse is stored
#pragma unroll
            for (int j = 0; j < kShapeRegs; ++j) row[j] = (j < tid && tid < p) ? cov[tid * p + j] : 0.0;
            diag = tid < p ? cov[tid * p + tid] : 0.0;
        };
        double mf = 1.0;
        bool factored = false;
        // Two factorisations through one copy of the unrolled Cholesky (a rolled pass loop): the
        // first, of the covariance, only for mf (with weight 1 mhcaCpu computes mf too but never
        // uses it); the second of the shrunk matrix.
#pragma unroll 1
        for (int pass = scaledShrinkage(sub) && weight < 1.0 ? 0 : 1; pass < 2; ++pass) {
            load();
            if (pass == 1 && weight < 1.0) {
                const double shrink = shrinkScale(weight, mf);
#pragma unroll
                for (int j = 0; j < kShapeRegs; ++j) row[j] = shrunkEntry(weight, row[j], shrink, 0.0);
                diag = shrunkEntry(weight, diag, shrink, 1.0);
            }
            factored = choleskyRegs(row, diag, p);
            if (pass == 0 && factored) mf = shapePower(diagonalProductRegs(diag, p), p, false);
        }
        const double product = factored ? diagonalProductRegs(diag, p) : 0.0;
        if (factored) storeLowerRegs(row, diag, factor, p);
        if (tid == 0) {
            *s_flag = factored ? 1 : 0;
            *column = product;
        }
    }
    team.sync();
}

/// clusterShapeInverse for p <= kShapeRegs: the triangular inverse of the factor in the first warp's
/// registers (rows reloaded from `factor`: the same values), the second warp takes nmf's power
/// meanwhile, the product (L^-1)ᵀ L^-1 by the team into `inverse`.
static __device__ __noinline__ void clusterInverseWarp(int p, double* cov, const double* factor, double* inverse,
                                                       const double* column, double& nmf, double* s_value,
                                                       const ShapeTeam& team) {
    const int tid = team.tid;
    if (tid < 32) {
        double row[kShapeRegs];
#pragma unroll
        for (int j = 0; j < kShapeRegs; ++j) row[j] = (j < tid && tid < p) ? factor[tid * p + j] : 0.0;
        double diag = tid < p ? factor[tid * p + tid] : 0.0;
        triangularInverseRegs(row, diag, factor, p);
        storeLowerRegs(row, diag, cov, p);
    }
    const int powerWarp = team.nt > 32 ? 1 : 0;
    if (tid == powerWarp * 32) *s_value = shapePower(*column, p, true);
    team.sync();
    nmf = *s_value;
    inverseProductBlock(cov, inverse, p, team);
}

/// First half of mhca_linalg.cpp's clusterShape (determinant from the Cholesky factor) by the team:
/// Σ' = wf·Σ + (1 - wf)·mf·I from the covariance in `cov`, and its Cholesky factor (in `factor` for
/// p <= kShapeRegs, else in place in `cov`); *s_flag: whether it factorised. Only for a cluster that
/// is shaped (shapedInMode). `column`: p doubles of scratch. Ends with the team's barrier.
__device__ inline void clusterShapeFactor(const MhcaConfig& cfg, double weight, double* cov, double* factor,
                                          double* column, int* s_flag, const ShapeTeam& team) {
    const int p = cfg.d;
    const SubthresholdMode sub = cfg.subthreshold;
    const int tid = team.tid, nt = team.nt;
    if (p <= kShapeRegs) {
        clusterFactorWarp(p, sub, weight, cov, factor, column, s_flag, team);
        return;
    }
    double mf = 1.0;
    if (scaledShrinkage(sub) && weight < 1.0) {  // with weight 1 mhcaCpu computes mf too but never uses it
        for (int t = tid; t < p * p; t += nt) factor[t] = cov[t];
        team.sync();
        if (choleskyTeam(factor, column, p, team)) mf = shapePower(diagonalProduct(factor, p), p, false);
    }
    if (weight < 1.0) {
        const double shrink = shrinkScale(weight, mf);
        for (int t = tid; t < p * p; t += nt) {
            const int i = t / p, j = t % p;
            cov[t] = shrunkEntry(weight, cov[t], shrink, i == j ? 1.0 : 0.0);
        }
        team.sync();
    }
    const bool factored = choleskyTeam(cov, column, p, team);
    if (tid == 0) *s_flag = factored ? 1 : 0;
    team.sync();
}

/// Second half: Σ'^-1 into `inverse` and nmf from the factor of clusterShapeFactor (the triangular
/// inverse by the team's first warp); false (the identity, nmf 1) when it did not factorise. `cov`
/// and `factor` are overwritten; `column` and `scratch` are p doubles each; s_value: one shared
/// double. The caller's barrier follows every read of *s_flag.
__device__ inline bool clusterShapeInverse(const MhcaConfig& cfg, double* cov, double* factor, double* inverse,
                                           double* column, double* scratch, double& nmf, const int* s_flag,
                                           double* s_value, const ShapeTeam& team) {
    const int p = cfg.d, tid = team.tid;
    if (*s_flag == 0) return false;
    if (p <= kShapeRegs) {
        clusterInverseWarp(p, cov, factor, inverse, column, nmf, s_value, team);
        return true;
    }
    if (tid < 32) {
        if (tid == 0) *s_value = shapePower(diagonalProduct(cov, p), p, true);
        triangularInverseWarp(cov, column, scratch, p);
    }
    team.sync();
    nmf = *s_value;
    inverseProductBlock(cov, inverse, p, team);
    return true;
}

}  // namespace clusterlens::cuda::mhca
