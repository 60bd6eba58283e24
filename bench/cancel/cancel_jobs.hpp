#pragma once
// The jobs clusterlens-cancel-bench times from Cancel to idle, beyond the readers and the algorithms:
// the Open dialog's inspection, opening a session, exporting a population, writing clusters back into
// an .h5ad file and the transform step, each as the GUI runs it through the engine.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens::bench {

struct Job {
    Job(std::string jobName, std::function<void(JobControl&)> jobRun, std::function<void()> jobPrepare = {})
        : name(std::move(jobName)), run(std::move(jobRun)), prepare(std::move(jobPrepare)) {}

    std::string name;
    std::function<void(JobControl&)> run;  ///< returns normally or throws Cancelled
    std::function<void()> prepare;         ///< when set: writes the job's files, before its first run
};

/// Jobs over the files of `folder`: `csv` and `fcs` hold `data` (written by the caller); sessions
/// (data embedded, data referenced) and an .h5ad copy of `data` are written by the jobs' prepare.
std::vector<Job> documentJobs(const Dataset& data, const std::string& folder, const std::string& csv,
                              const std::string& fcs);

/// The transform step (prepareData) on `data` for the GUI's transforms: arcsinh, z-score,
/// normalise-total + log1p (on counts made from the values), PCA.
std::vector<Job> transformJobs(const Dataset& data);

/// Writes an AnnData file (anndata >= 0.8 layout) with X = the values of `data` (dense float32) and
/// obs/var dataframes indexed by cell and feature names. Returns false when the engine has no HDF5.
bool writeBenchH5ad(const std::string& path, const Dataset& data);

}  // namespace clusterlens::bench
