#pragma once
// Skips a gpu test cleanly on a machine without a CUDA device (CI has none).

#include <gtest/gtest.h>

#include "clusterlens/backend.hpp"

#define CL_REQUIRE_GPU()                                                                       \
    do {                                                                                       \
        if (!::clusterlens::cudaAvailable()) GTEST_SKIP() << "no CUDA device on this machine"; \
    } while (0)
