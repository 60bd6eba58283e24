#pragma once
// The processes of one clusterlens-cli run that mpirun started, one rank per GPU (`mpirun -np R
// clusterlens-cli dpc ... --gpus 1`): MPI starts when the launcher reports several ranks, ends at
// exit, and a failure on one rank ends them all (the others would wait for it at their next exchange).
// Only dpc runs across ranks; every rank reads the input, rank 0 writes the outputs.

#include "clusterlens/process_group.hpp"

namespace clusterlens::cli {

/// Whether mpirun (Open MPI, or a PMI launcher such as MPICH's) started this process as one of
/// several ranks. Reads the launcher's environment only.
bool launchedAsRanks();

/// The run's ranks (starting MPI at the first call), or null for a single process. Throws
/// UsageError when launched as several ranks by a build without MPI.
ProcessGroup* launchedRanks();

/// This process's rank among the ranks on its host (which GPU of the host it drives); 0 alone.
int hostRank();

/// Ends MPI at a normal exit (nothing when it never started).
void finishRanks();

/// After a failure on this rank: ends every rank of the run with `code` (returns `code` alone).
int abortRanks(int code);

}  // namespace clusterlens::cli
