// Cancel of the CUDA jobs while their launches run, as the GUI and the cancel benchmark do it: the job
// runs on a thread of its own, Cancel comes from another thread, the job's call must return with
// Cancelled (a job that does not return within a minute fails the test instead of hanging it), its
// thread ends, and the next call on the device gives the same result as before.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/synthetic.hpp"
#include "require_gpu.hpp"

#ifdef CLUSTERLENS_HAVE_CUDA
#include "clusterlens/cluster/density_peaks_cuda.hpp"
#include "clusterlens/hca/mhca_cuda.hpp"
#endif

using namespace clusterlens;

#ifdef CLUSTERLENS_HAVE_CUDA

namespace {

using Clock = std::chrono::steady_clock;

enum class Ended { Cancelled, Finished, Failed, StillRunning };

/// Runs job(control) on a thread of its own, calls control.cancel() once cancelNow(control) is true,
/// and waits up to a minute for the thread to return. StillRunning leaves the thread detached.
Ended runAndCancel(const std::function<void(JobControl&)>& job,
                   const std::function<bool(const JobControl&)>& cancelNow) {
    auto control = std::make_shared<JobControl>();
    auto outcome = std::make_shared<std::atomic<int>>(-1);
    std::thread worker([job, control, outcome] {
        int result = static_cast<int>(Ended::Finished);
        try {
            job(*control);
        } catch (const Cancelled&) {
            result = static_cast<int>(Ended::Cancelled);
        } catch (...) {
            result = static_cast<int>(Ended::Failed);
        }
        outcome->store(result);
    });
    while (outcome->load() < 0 && !cancelNow(*control)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    control->cancel();
    const Clock::time_point deadline = Clock::now() + std::chrono::seconds(60);
    while (outcome->load() < 0 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (outcome->load() < 0) {
        worker.detach();
        return Ended::StillRunning;
    }
    worker.join();
    return static_cast<Ended>(outcome->load());
}

Dataset cytometry(std::size_t n, std::size_t d) {
    SyntheticOptions options;
    options.n = n;
    options.d = d;
    options.clusters = 12;
    options.seed = 3;
    return makeCytometryLike(options);
}

std::vector<double> widened(const Dataset& data) {
    return std::vector<double>(data.values.begin(), data.values.end());
}

}  // namespace

// Cancelled inside the density pass of a million points, which leaves a batch of tiles queued.
TEST(GpuCancel, DensityPeaksCancelledWhileABatchIsQueuedReturns) {
    CL_REQUIRE_GPU();
    const Dataset small = cytometry(3000, 14);
    const DensityPeaksResult before = densityPeaksCuda(small.values.data(), small.n, small.d, DensityPeaksOptions{});
    const Dataset big = cytometry(1000000, 14);
    const Ended ended = runAndCancel(
        [&big](JobControl& c) { densityPeaksCuda(big.values.data(), big.n, big.d, DensityPeaksOptions{}, &c); },
        [](const JobControl& c) { return c.progress() >= 0.35; });
    ASSERT_EQ(ended, Ended::Cancelled);
    const DensityPeaksResult after = densityPeaksCuda(small.values.data(), small.n, small.d, DensityPeaksOptions{});
    EXPECT_EQ(after.rho, before.rho);
    EXPECT_EQ(after.delta, before.delta);
    EXPECT_EQ(after.nearestHigher, before.nearestHigher);
}

// Cancelled 200 ms into an MHCA of 300K points (the start's pass over the pairs or the first
// launch of merges, which run on after the cancel), for both variants.
TEST(GpuCancel, MhcaCancelledWhileALaunchRunsReturns) {
    CL_REQUIRE_GPU();
    const Dataset smallData = cytometry(400, 5);
    const std::vector<double> small = widened(smallData);
    const std::vector<double> big = widened(cytometry(300000, 14));
    for (const MhcaVariant variant : {MhcaVariant::Full, MhcaVariant::Centroid}) {
        SCOPED_TRACE(variant == MhcaVariant::Full ? "FMD" : "CMD");
        MhcaOptions options;
        options.variant = variant;
        const Linkage before = mhcaCuda(small.data(), smallData.n, smallData.d, options);
        const Clock::time_point start = Clock::now();
        const Ended ended =
            runAndCancel([&big, options](JobControl& c) { mhcaCuda(big.data(), 300000, 14, options, &c); },
                         [start](const JobControl&) { return Clock::now() - start >= std::chrono::milliseconds(200); });
        ASSERT_EQ(ended, Ended::Cancelled);
        const Linkage after = mhcaCuda(small.data(), smallData.n, smallData.d, options);
        ASSERT_EQ(after.merges.size(), before.merges.size());
        for (std::size_t m = 0; m < after.merges.size(); ++m) {
            EXPECT_EQ(after.merges[m].a, before.merges[m].a) << "merge " << m;
            EXPECT_EQ(after.merges[m].b, before.merges[m].b) << "merge " << m;
            EXPECT_EQ(after.merges[m].height, before.merges[m].height) << "merge " << m;
        }
    }
}

// A job started right after a cancelled MHCA, while the launches that run left still occupy the GPU,
// waits for them through the engine's entry and that wait stays a cancellation point: the density
// peaks job returns within 500 ms of its own cancel instead of after the left launches.
TEST(GpuCancel, AJobAfterACancelledMhcaIsCancelledWhileTheLeftLaunchesRun) {
    CL_REQUIRE_GPU();
    const std::vector<double> big = widened(cytometry(300000, 14));
    const Dataset next = cytometry(200000, 14);
    MhcaOptions options;
    options.variant = MhcaVariant::Centroid;
    const Clock::time_point start = Clock::now();
    ASSERT_EQ(
        runAndCancel([&big, options](JobControl& c) { mhcaCuda(big.data(), 300000, 14, options, &c); },
                     [start](const JobControl&) { return Clock::now() - start >= std::chrono::milliseconds(200); }),
        Ended::Cancelled);
    Clock::time_point cancelledAt = Clock::now();
    const Ended ended = runAndCancel(
        [&next](JobControl& c) {
            densityPeaks(next.values.data(), next.n, next.d, DensityPeaksOptions{}, Backend::Cuda, &c);
        },
        [&cancelledAt](const JobControl&) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            cancelledAt = Clock::now();
            return true;
        });
    const auto stopped = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - cancelledAt);
    EXPECT_EQ(ended, Ended::Cancelled);
    EXPECT_LE(stopped.count(), 500) << "the job waited for the cancelled MHCA's launches without a cancel point";
}

#else

TEST(GpuCancel, SkippedWithoutCuda) {
    GTEST_SKIP() << "built without CUDA";
}

#endif
