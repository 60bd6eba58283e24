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

/// Reading the file at `path` with readDataset and the job's control, as the GUI opens a file.
Job readFileJob(std::string name, std::string path, std::function<void()> prepare = {});

/// Jobs over the files of `folder`: `csv` and `fcs` hold `data` (written by the caller); sessions
/// (data embedded, data referenced) and an .h5ad copy of `data` are written by the jobs' prepare.
std::vector<Job> documentJobs(const Dataset& data, const std::string& folder, const std::string& csv,
                              const std::string& fcs);

/// The transform step (prepareData) on `data` for the GUI's transforms: arcsinh, z-score,
/// normalise-total + log1p (on counts made from the values), PCA.
std::vector<Job> transformJobs(const Dataset& data);

/// The readers of HDF5 files on `data` written to `folder` by the first job's prepare: a named dense
/// dataset, .h5ad with X dense (compressed) and X sparse CSR (the non-zero counts floor(|x|)), and a
/// 10x matrix of the same counts; and the fingerprint (SHA-256) of the data file `csv`, as the GUI
/// takes it after an open.
std::vector<Job> hdf5ReadJobs(const Dataset& data, const std::string& folder, const std::string& csv);

/// Writes `data` as HDF5 files for hdf5ReadJobs: `dense` (/cells), `sparseH5ad` and `tenx` (counts).
/// Returns false when the engine has no HDF5.
bool writeBenchHdf5Files(const Dataset& data, const std::string& dense, const std::string& sparseH5ad,
                         const std::string& tenx);

/// Writes an AnnData file (anndata >= 0.8 layout) with X = the values of `data` (dense float32) and
/// obs/var dataframes indexed by cell and feature names. Returns false when the engine has no HDF5.
bool writeBenchH5ad(const std::string& path, const Dataset& data);

}  // namespace clusterlens::bench
