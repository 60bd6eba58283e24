// --transform chains for count matrices (normalize-total, log1p, pca:K) on the command line.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"

using namespace clusterlens;
using testing::HasSubstr;

TEST(CliTransform, CountMatrixChainRecordsEveryStepAndEndsInComponents) {
    const auto result = test::runCli({"info", test::dataPath("h5ad/pbmc_small_csr.h5ad"), "--transform",
                                      "normalize-total:1e4,log1p,pca:10", "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, HasSubstr("\"n\":80,\"d\":10,\"features\":[\"PC1\",\"PC2\""));
    EXPECT_THAT(result.out, HasSubstr("\"transforms\":[\"normalize_total(target_sum=10000)\",\"log1p\",\"pca(k=10, "));
}

TEST(CliTransform, MalformedStepsAreBadArguments) {
    const std::pair<const char*, const char*> cases[] = {
        {"pca:0", "--transform pca:K"},
        {"pca:231", "pca: the number of components must lie in 1..230"},
        {"normalize-total:x", "'x' is not a number"},
        {"log1p,,pca:2", "empty step"},
        {"log2", "unknown transform 'log2'"}};
    for (const auto& [spec, message] : cases) {
        const auto result = test::runCli({"info", test::dataPath("h5ad/pbmc_small_csr.h5ad"), "--transform", spec});
        EXPECT_EQ(result.exitCode, 2) << spec;
        EXPECT_THAT(result.err, HasSubstr(message)) << spec;
    }
}
