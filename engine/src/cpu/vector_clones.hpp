#pragma once
// CLUSTERLENS_VECTOR_CLONES marks a hot loop for an AVX2 copy chosen at load time on x86 (GCC's
// target_clones). Both copies round identically: the engine builds with -ffp-contract=off, so the
// compiler fuses no multiply-add, and each sum still runs over the features in order. clang (the fuzz
// build) cannot clone function templates and builds the default copy only.

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CLUSTERLENS_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CLUSTERLENS_VECTOR_CLONES
#endif
