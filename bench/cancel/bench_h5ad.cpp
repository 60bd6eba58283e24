// writeBenchH5ad (cancel_jobs.hpp) with the engine's internal HDF5 writer.

#include "cancel_jobs.hpp"

#ifdef CLUSTERLENS_HAVE_HDF5

#include "session/h5_writer.hpp"

namespace clusterlens::bench {

namespace {

/// obs or var: a dataframe group indexed by the `_index` dataset of names.
void frame(const h5::Writer& file, const char* name, const std::vector<std::string>& names) {
    h5::Handle group = file.group(file.root(), name, name);
    file.attribute(group.get(), name, "_index", std::string("_index"));
    file.attribute(group.get(), name, "encoding-type", std::string("dataframe"));
    file.attribute(group.get(), name, "encoding-version", std::string("0.2.0"));
    file.strings(group.get(), name, "_index", names);
}

}  // namespace

bool writeBenchH5ad(const std::string& path, const Dataset& data) {
    const std::lock_guard<std::mutex> lock(h5::libraryMutex());
    h5::Writer file(path, path, 0);
    file.attribute(file.root(), "/", "encoding-type", std::string("anndata"));
    file.attribute(file.root(), "/", "encoding-version", std::string("0.1.0"));
    file.matrix(file.root(), "/X", "X", data.values.data(), data.n, data.d);
    std::vector<std::string> cells(data.n);
    for (std::size_t i = 0; i < data.n; ++i) cells[i] = "cell" + std::to_string(i);
    frame(file, "obs", cells);
    frame(file, "var", data.features);
    file.close();
    return true;
}

}  // namespace clusterlens::bench

#else

namespace clusterlens::bench {

bool writeBenchH5ad(const std::string&, const Dataset&) {
    return false;
}

}  // namespace clusterlens::bench

#endif
