// Shows how compute-sanitizer's racecheck treats a named barrier with a thread count, on a correct
// kernel: a team of 4 warps exchanges values through shared memory behind `bar.sync 1, 128` while the
// other warps wait at __syncthreads, then the whole block reduces twice through one shared array
// (the blockTop pattern of the MHCA kernels). The same kernel with the team behind an mbarrier
// (cuda::barrier), or with no team phase, is the control. scripts/gpu-check.sh runs it under racecheck
// and prints the hazards per variant: where the named-barrier variant has hazards and the others none,
// racecheck checks the MHCA kernels in a build whose team barrier is an mbarrier
// (CLUSTERLENS_RACECHECK_BARRIERS).
//   nvcc -std=c++20 -arch=sm_90 -lineinfo named_barrier_race.cu -o named_barrier_race
//   compute-sanitizer --tool racecheck ./named_barrier_race named|mbarrier|none

#include <cuda/barrier>

#include <cstdio>
#include <cstring>

namespace {

enum class Team { None, Named, Mbarrier };

__device__ int blockMax(int v, int* s_warp) {
    const int lane = static_cast<int>(threadIdx.x & 31u), warp = static_cast<int>(threadIdx.x >> 5);
    for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, o));
    __syncthreads();
    if (lane == 0) s_warp[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < static_cast<int>(blockDim.x >> 5) ? s_warp[lane] : 0;
        for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, o));
    }
    return v;
}

#pragma nv_diag_suppress static_var_with_dynamic_init
template <Team kTeam>
__global__ void teamThenReduce(int* out, int rounds) {
    __shared__ int s_warp[32];
    __shared__ int s_team[128];
    __shared__ cuda::barrier<cuda::thread_scope_block> s_bar;
    if (kTeam == Team::Mbarrier) {
        if (threadIdx.x == 0) init(&s_bar, 128);
        __syncthreads();
    }
    int acc = 0;
    for (int r = 0; r < rounds; ++r) {
        if (kTeam != Team::None && threadIdx.x < 128) {
            s_team[threadIdx.x] = r + static_cast<int>(threadIdx.x);
            if (kTeam == Team::Named)
                asm volatile("bar.sync 1, 128;" ::: "memory");
            else
                s_bar.arrive_and_wait();
            acc += s_team[127 - threadIdx.x];
            if (kTeam == Team::Named)
                asm volatile("bar.sync 1, 128;" ::: "memory");
            else
                s_bar.arrive_and_wait();
        }
        __syncthreads();
        const int a = blockMax(acc + static_cast<int>(threadIdx.x), s_warp);
        const int b = blockMax(acc - static_cast<int>(threadIdx.x), s_warp);
        if (threadIdx.x == 0) out[blockIdx.x] += a + b;
    }
}

}  // namespace

int main(int argc, char** argv) {
    const char* variant = argc > 1 ? argv[1] : "";
    int* out = nullptr;
    if (cudaMalloc(&out, 4 * sizeof(int)) != cudaSuccess) return 2;
    cudaMemset(out, 0, 4 * sizeof(int));
    if (std::strcmp(variant, "named") == 0)
        teamThenReduce<Team::Named><<<4, 512>>>(out, 3);
    else if (std::strcmp(variant, "mbarrier") == 0)
        teamThenReduce<Team::Mbarrier><<<4, 512>>>(out, 3);
    else if (std::strcmp(variant, "none") == 0)
        teamThenReduce<Team::None><<<4, 512>>>(out, 3);
    else {
        std::fprintf(stderr, "usage: %s named|mbarrier|none\n", argv[0]);
        return 2;
    }
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("%s: %s\n", variant, cudaGetErrorString(e));
    cudaFree(out);
    return e == cudaSuccess ? 0 : 1;
}
