// The document and transform jobs of clusterlens-cancel-bench (cancel_jobs.hpp).

#include "cancel_jobs.hpp"

#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "clusterlens/io/default_read_spec.hpp"
#include "clusterlens/io/export_events.hpp"
#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/io/h5ad_annotate.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/session/session_data.hpp"
#include "clusterlens/session/session_file.hpp"

namespace clusterlens::bench {

namespace {

/// The session the GUI saves for `csv` (no results), with the data referenced and embedded.
void writeSessions(const std::string& csv, const std::string& referenced, const std::string& embedded) {
    const Dataset asRead = readDataset(csv);
    Session session;
    session.data = describeDataFile(csv, DatasetReadSpec{}, asRead);
    writeSession(referenced, session);
    embedData(session.data, asRead);
    writeSession(embedded, session);
}

/// Opening a session as the GUI does: the file, then its data (embedded or the referenced file).
Job openSessionJob(std::string name, std::string path) {
    return {std::move(name), [path](JobControl& c) {
                const Session session = readSession(path, &c);
                loadReferencedData(session.data, "", &c);
            }};
}

/// Every other event of the FCS file exported as a population: the file's hash checked, the file read
/// as stored, the members written. Its prepare records the file's hash.
Job populationExportJob(std::string name, const std::string& fcs, std::size_t n, std::string out) {
    auto reference = std::make_shared<DatasetReference>();
    reference->path = fcs;
    std::vector<std::int64_t> members;
    for (std::size_t i = 0; i < n; i += 2) members.push_back(static_cast<std::int64_t>(i));
    auto shared = std::make_shared<const std::vector<std::int64_t>>(std::move(members));
    return {std::move(name),
            [reference, shared, out](JobControl& c) {
                requireSameDataFile(*reference, reference->path, &c);
                ReadOptions options;
                options.control = &c;
                const ExportSource source = ExportSource::open(reference->path, options);
                ExportSelection selection;
                selection.events = *shared;
                selection.control = &c;
                exportEvents(out, source, selection);
            },
            [reference] { reference->sha256 = sha256File(reference->path); }};
}

Job transformJob(std::string name, std::shared_ptr<const Dataset> data, std::string spec) {
    return {std::move(name), [data, spec](JobControl& c) {
                DatasetReadSpec read;
                read.transform = spec;
                prepareData(*data, read, &c);
            }};
}

}  // namespace

std::vector<Job> documentJobs(const Dataset& data, const std::string& folder, const std::string& csv,
                              const std::string& fcs) {
    const std::string referenced = folder + "/referenced.clusterlens", embedded = folder + "/embedded.clusterlens";
    auto written = std::make_shared<std::once_flag>();
    const auto sessions = [written, csv, referenced, embedded] {
        std::call_once(*written, [&] { writeSessions(csv, referenced, embedded); });
    };
    Job inspect{"inspect CSV", [csv](JobControl& c) {
                    ReadOptions options;
                    options.control = &c;
                    proposeReadSpec(readDataset(csv, options), &c);
                }};
    Job openEmbedded = openSessionJob("open session (embedded)", embedded);
    Job openReferenced = openSessionJob("open session (CSV)", referenced);
    openEmbedded.prepare = openReferenced.prepare = sessions;
    const std::string h5ad = folder + "/data.h5ad";
    auto column = std::make_shared<const ObsCategorical>(categoricalFromLabels("clusters", data.labels));
    Job writeBack{"write h5ad obs column",
                  [h5ad, column, out = folder + "/annotated.h5ad"](JobControl& c) {
                      writeH5adWithObsColumns(h5ad, out, {*column}, &c);
                  },
                  [h5ad, &data] {
                      if (!writeBenchH5ad(h5ad, data)) throw std::runtime_error("this build has no HDF5");
                  }};
    return {std::move(inspect),
            std::move(openEmbedded),
            std::move(openReferenced),
            populationExportJob("export population FCS", fcs, data.n, folder + "/population.fcs"),
            populationExportJob("export population CSV", fcs, data.n, folder + "/population.csv"),
            std::move(writeBack)};
}

Job readFileJob(std::string name, std::string path, std::function<void()> prepare) {
    return {std::move(name),
            [path = std::move(path)](JobControl& c) {
                ReadOptions options;
                options.control = &c;
                readDataset(path, options);
            },
            std::move(prepare)};
}

std::vector<Job> hdf5ReadJobs(const Dataset& data, const std::string& folder, const std::string& csv) {
    const std::string dense = folder + "/dense.h5", h5ad = folder + "/read.h5ad", sparse = folder + "/sparse.h5ad",
                      tenx = folder + "/tenx.h5";
    auto written = std::make_shared<std::once_flag>();
    const auto files = [written, &data, dense, h5ad, sparse, tenx] {
        std::call_once(*written, [&] {
            if (!writeBenchH5ad(h5ad, data) || !writeBenchHdf5Files(data, dense, sparse, tenx))
                throw std::runtime_error("this build has no HDF5");
        });
    };
    return {readFileJob("read HDF5 dense", dense, files),
            readFileJob("read h5ad (X dense)", h5ad, files),
            readFileJob("read h5ad (X sparse CSR)", sparse, files),
            readFileJob("read 10x h5", tenx, files),
            {"fingerprint CSV (SHA-256)",
             [csv, &data](JobControl& c) { describeDataFile(csv, DatasetReadSpec{}, data, &c); }}};
}

std::vector<Job> transformJobs(const Dataset& data) {
    auto values = std::make_shared<const Dataset>(data);
    Dataset counts = data;
    for (float& v : counts.values) v = std::floor(std::abs(v));
    counts.exact.clear();
    auto countData = std::make_shared<const Dataset>(std::move(counts));
    return {
        transformJob("transform arcsinh", values, "asinh:5"),
        transformJob("transform z-score", values, "zscore"),
        transformJob("transform normalise+log1p", countData, "normalize-total,log1p"),
        transformJob("transform PCA 10", values, "pca:10"),
    };
}

}  // namespace clusterlens::bench
