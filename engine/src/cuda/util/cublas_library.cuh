#pragma once
// cuBLAS, loaded when a routine first needs it instead of when the program starts. Linked, libcublas
// and libcublasLt were mapped and relocated by every process of the engine before main (0.2-0.4 s and
// over 200 MB each: every clusterlens-cli call, every test process), though only the k-means
// assignment of many clusters uses them.

#include <cublas_v2.h>

namespace clusterlens::cuda {

/// The cuBLAS entry points the engine calls.
struct CublasLibrary {
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasDestroy_v2) destroy = nullptr;
    decltype(&cublasSetStream_v2) setStream = nullptr;
    decltype(&cublasSetWorkspace_v2) setWorkspace = nullptr;
    decltype(&cublasDgemm_v2) dgemm = nullptr;
    decltype(&cublasGetStatusString) statusString = nullptr;
};

/// Loads cuBLAS (libcublas.so.<major of the headers>, from the library path, else from the toolkit the
/// engine was built with) once per process; nullptr when it cannot be loaded. Thread-safe.
const CublasLibrary* cublasLibrary();

/// cublasLibrary(), or CudaError naming the library and the loader's reason.
const CublasLibrary& requireCublas();

}  // namespace clusterlens::cuda
