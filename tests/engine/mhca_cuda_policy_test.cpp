// The production tuning policy of the CUDA MHCA (chooseMhcaCudaPolicy): chosen in code from the
// device, n, d and the variant; plain C++, so it is checked without a GPU.

#include <gtest/gtest.h>

#include "clusterlens/hca/mhca_cuda_policy.hpp"

using namespace clusterlens;

TEST(MhcaCudaPolicy, PersistentKernelForCentroidUpToSixteenDimensionsWithCooperativeLaunch) {
    const MhcaDeviceTraits cooperative{true};
    EXPECT_TRUE(chooseMhcaCudaPolicy(cooperative, 44000, 14, MhcaVariant::Centroid).persistentCmd);
    EXPECT_TRUE(chooseMhcaCudaPolicy(cooperative, 44000, 16, MhcaVariant::Centroid).persistentCmd);
    EXPECT_FALSE(chooseMhcaCudaPolicy(cooperative, 44000, 17, MhcaVariant::Centroid).persistentCmd);
    EXPECT_FALSE(chooseMhcaCudaPolicy(cooperative, 44000, 14, MhcaVariant::Full).persistentCmd);
    EXPECT_FALSE(chooseMhcaCudaPolicy(MhcaDeviceTraits{false}, 44000, 14, MhcaVariant::Centroid).persistentCmd);
}

TEST(MhcaCudaPolicy, FmdRowsPerPassKeepTheSumsNearHalfAGibibyte) {
    const MhcaDeviceTraits device{};
    // 2 * rows * n doubles of sums: 32Mi / n rows, from 16 to 256.
    EXPECT_EQ(chooseMhcaCudaPolicy(device, 44000, 14, MhcaVariant::Full).fmdRowsPerPass, 256);
    EXPECT_EQ(chooseMhcaCudaPolicy(device, 200000, 14, MhcaVariant::Full).fmdRowsPerPass, 167);
    EXPECT_EQ(chooseMhcaCudaPolicy(device, 10000000, 14, MhcaVariant::Full).fmdRowsPerPass, 16);
}

TEST(MhcaCudaPolicy, ProductionMechanismsAreOn) {
    const MhcaCudaPolicy policy = chooseMhcaCudaPolicy(MhcaDeviceTraits{}, 200000, 14, MhcaVariant::Centroid);
    EXPECT_TRUE(policy.tiledStart);
    EXPECT_EQ(policy.cmdStart, MhcaSingletonStart::PairsPass);
    EXPECT_TRUE(policy.elideBarrierS3);
    EXPECT_TRUE(policy.speculate);
    EXPECT_TRUE(policy.growthKernel);
    EXPECT_EQ(policy.streamedLoads, MhcaStreamedLoads::ByCacheSize);
}
