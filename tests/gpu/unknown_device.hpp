#pragma once
// The check every analysis spread over GPUs shares: a device list naming a device that does not exist is
// refused with InvalidInput naming --gpus, before any work.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/errors.hpp"

namespace clusterlens::test {

/// The first device and one past the last: the second does not exist.
inline std::vector<int> withUnknownDevice() {
    return {0, cudaDeviceCount()};
}

/// Runs `run` (an analysis given withUnknownDevice()) and expects InvalidInput naming --gpus.
template <class Run>
void expectUnknownDeviceRefused(Run&& run) {
    try {
        run();
        ADD_FAILURE() << "a device that does not exist was accepted";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("--gpus"), std::string::npos) << e.what();
    }
}

}  // namespace clusterlens::test
