#pragma once
// What one mhcaCuda run did, for the CLI's and the benchmark's --profile and for tests that check a
// mechanism ran. Plain C++: no CUDA types.

#include <cstddef>
#include <string>
#include <vector>

namespace clusterlens {

/// Host wall time of one named part of a run.
struct MhcaPhaseTime {
    std::string name;  ///< "<part>: <phase>", e.g. "plain: merges"
    double seconds = 0.0;
};

/// Filled by mhcaCuda when MhcaOptions::probe points at one (the caller owns it; one run at a time).
/// The counts cost nothing; with timeStages the engine also synchronises between the parts of the
/// run and times the kernels' stages (the persistent kernel's timed instance), which slows the run
/// but changes no merge. Every value is added to, so one probe can sum several runs.
struct MhcaProbe {
    /// Input: also time the phases and the kernels' stages (synchronising); false: counts only.
    bool timeStages = true;

    std::size_t merges = 0;                 ///< merges made on the device
    std::size_t persistentLaunches = 0;     ///< launches of the persistent CMD kernel
    std::size_t switchSteps = 0;            ///< steps finished by the per-stage kernels (switch to Σ)
    std::size_t mergesUpdatedAgain = 0;     ///< persistent CMD without barrier S3: merges whose rows
                                            ///< were put back from the journal and updated again
    std::size_t keyShifts = 0;              ///< shifts of the stored keys (timed runs)
    std::size_t speculatedShapesTaken = 0;  ///< merges block 0 took a speculated shape for (timed)
    std::size_t growthShapesTaken = 0;      ///< of which the growth kernel wrote (timed)
    std::vector<MhcaPhaseTime> phases;      ///< host wall time of the run's parts (timed)
    /// The same and the kernels' stage times as text lines ("[mhca profile] ...") for a terminal.
    std::string report;
};

}  // namespace clusterlens
