# CUDA is optional: found at configure time, else everything builds CPU-only.
# One architecture by default (Hopper, 90) to keep the build lean; override with
# -DCMAKE_CUDA_ARCHITECTURES=80;90 or similar.
set(CLUSTERLENS_HAVE_CUDA OFF)
if(CLUSTERLENS_CUDA)
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 17)  # CMake 3.25 knows no CUDA20 flags for nvcc
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(CLUSTERLENS_HAVE_CUDA ON)
    message(STATUS "ClusterLens: CUDA ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}")
  else()
    message(STATUS "ClusterLens: no CUDA toolkit, CPU backend only")
  endif()
endif()
