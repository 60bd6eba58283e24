#include "cuda/util/cublas_library.cuh"

#include <dlfcn.h>

#include <string>

#include "clusterlens/errors.hpp"

namespace clusterlens::cuda {
namespace {

const std::string kSoname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);

struct Loaded {
    CublasLibrary library;
    bool ok = false;
    std::string error;
};

template <typename Function>
bool resolve(void* handle, const char* name, Function& out) {
    out = reinterpret_cast<Function>(dlsym(handle, name));
    return out != nullptr;
}

Loaded load() {
    Loaded result;
    void* handle = dlopen(kSoname.c_str(), RTLD_NOW | RTLD_LOCAL);
#ifdef CLUSTERLENS_CUDA_LIBRARY_DIR
    if (!handle)
        handle = dlopen((std::string(CLUSTERLENS_CUDA_LIBRARY_DIR) + "/" + kSoname).c_str(), RTLD_NOW | RTLD_LOCAL);
#endif
    if (!handle) {
        const char* reason = dlerror();
        result.error = reason ? reason : "not found";
        return result;
    }
    CublasLibrary& l = result.library;
    result.ok = resolve(handle, "cublasCreate_v2", l.create) && resolve(handle, "cublasDestroy_v2", l.destroy) &&
                resolve(handle, "cublasSetStream_v2", l.setStream) &&
                resolve(handle, "cublasSetWorkspace_v2", l.setWorkspace) &&
                resolve(handle, "cublasDgemm_v2", l.dgemm) && resolve(handle, "cublasGetStatusString", l.statusString);
    if (!result.ok) result.error = "an entry point is missing";
    return result;  // (the library stays loaded for the process)
}

const Loaded& loaded() {
    static const Loaded instance = load();
    return instance;
}

}  // namespace

const CublasLibrary* cublasLibrary() {
    return loaded().ok ? &loaded().library : nullptr;
}

const CublasLibrary& requireCublas() {
    const Loaded& l = loaded();
    if (!l.ok) throw CudaError("cuBLAS (" + kSoname + ") could not be loaded: " + l.error, false);
    return l.library;
}

}  // namespace clusterlens::cuda
