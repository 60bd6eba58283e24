// writeBenchH5ad and writeBenchHdf5Files (cancel_jobs.hpp) with the engine's internal HDF5 writer.

#include "cancel_jobs.hpp"

#ifdef CLUSTERLENS_HAVE_HDF5

#include <cmath>

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

std::vector<std::string> cellNames(std::size_t n) {
    std::vector<std::string> cells(n);
    for (std::size_t i = 0; i < n; ++i) cells[i] = "cell" + std::to_string(i);
    return cells;
}

/// The non-zero entries of floor(|values|) by rows: a count matrix, as scRNA-seq files hold.
struct Csr {
    std::vector<std::int64_t> indptr{0};
    std::vector<std::int32_t> indices;
    std::vector<double> data;
};

Csr countsOf(const Dataset& data) {
    Csr csr;
    for (std::size_t i = 0; i < data.n; ++i) {
        for (std::size_t j = 0; j < data.d; ++j) {
            const double count = std::floor(std::abs(data.values[i * data.d + j]));
            if (count == 0) continue;
            csr.indices.push_back(static_cast<std::int32_t>(j));
            csr.data.push_back(count);
        }
        csr.indptr.push_back(static_cast<std::int64_t>(csr.data.size()));
    }
    return csr;
}

/// indptr, indices and data of `csr` in the new group `name`.
h5::Handle sparseGroup(const h5::Writer& file, const std::string& name, const Csr& csr) {
    h5::Handle group = file.group(file.root(), name, name);
    file.array(group.get(), name, "indptr", csr.indptr);
    file.array(group.get(), name, "indices", csr.indices);
    file.array(group.get(), name, "data", csr.data);
    return group;
}

/// anndata's sparse X: a CSR group with encoding-type and its shape as a 2-element attribute.
void writeSparseH5ad(const std::string& path, const Dataset& data, const Csr& csr) {
    h5::Writer file(path, path, 0);
    file.attribute(file.root(), "/", "encoding-type", std::string("anndata"));
    {
        const h5::Handle x = sparseGroup(file, "X", csr);
        file.attribute(x.get(), "/X", "encoding-type", std::string("csr_matrix"));
        const hsize_t two = 2;
        const std::int64_t shape[2] = {static_cast<std::int64_t>(data.n), static_cast<std::int64_t>(data.d)};
        const h5::Handle space(H5Screate_simple(1, &two, nullptr), H5Sclose);
        const h5::Handle attribute(H5Acreate2(x.get(), "shape", H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                                   H5Aclose);
        H5Awrite(attribute.get(), H5T_NATIVE_INT64, shape);
    }
    frame(file, "obs", cellNames(data.n));
    frame(file, "var", data.features);
    file.close();
}

/// A CellRanger v3 file: /matrix CSC genes x barcodes, which stores the cells' rows of `csr` as columns.
void writeTenx(const std::string& path, const Dataset& data, const Csr& csr) {
    h5::Writer file(path, path, 0);
    h5::Handle matrix = sparseGroup(file, "matrix", csr);
    file.array(matrix.get(), "/matrix", "shape",
               std::vector<std::int64_t>{static_cast<std::int64_t>(data.d), static_cast<std::int64_t>(data.n)});
    file.strings(matrix.get(), "/matrix", "barcodes", cellNames(data.n));
    h5::Handle features = file.group(matrix.get(), "features", "/matrix/features");
    file.strings(features.get(), "/matrix/features", "name", data.features);
    file.strings(features.get(), "/matrix/features", "id", data.features);
    features.reset();
    matrix.reset();
    file.close();
}

}  // namespace

bool writeBenchH5ad(const std::string& path, const Dataset& data) {
    const std::lock_guard<std::mutex> lock(h5::libraryMutex());
    h5::Writer file(path, path, 0);
    file.attribute(file.root(), "/", "encoding-type", std::string("anndata"));
    file.attribute(file.root(), "/", "encoding-version", std::string("0.1.0"));
    file.matrix(file.root(), "/X", "X", data.values.data(), data.n, data.d);
    frame(file, "obs", cellNames(data.n));
    frame(file, "var", data.features);
    file.close();
    return true;
}

bool writeBenchHdf5Files(const Dataset& data, const std::string& dense, const std::string& sparseH5ad,
                         const std::string& tenx) {
    const std::lock_guard<std::mutex> lock(h5::libraryMutex());
    {
        h5::Writer file(dense, dense, 0);
        file.matrix(file.root(), "/cells", "cells", data.values.data(), data.n, data.d);
        file.close();
    }
    const Csr csr = countsOf(data);
    writeSparseH5ad(sparseH5ad, data, csr);
    writeTenx(tenx, data, csr);
    return true;
}

}  // namespace clusterlens::bench

#else

namespace clusterlens::bench {

bool writeBenchH5ad(const std::string&, const Dataset&) {
    return false;
}

bool writeBenchHdf5Files(const Dataset&, const std::string&, const std::string&, const std::string&) {
    return false;
}

}  // namespace clusterlens::bench

#endif
