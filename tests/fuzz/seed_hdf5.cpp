#include "seed_hdf5.hpp"

#include <cstdint>
#include <vector>

#include "session/h5_writer.hpp"

namespace clusterlens::fuzzseeds {
namespace {

using h5::Handle;
using h5::Writer;

/// An integer-array attribute (the sparse "shape" of AnnData), which the session writer does not write.
void integersAttribute(hid_t owner, const char* name, const std::vector<std::int64_t>& values) {
    const hsize_t count = values.size();
    Handle space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    Handle attribute(H5Acreate2(owner, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attribute.valid() || H5Awrite(attribute.get(), H5T_NATIVE_INT64, values.data()) < 0)
        throw std::runtime_error(std::string("cannot write the attribute ") + name);
}

/// obs or var: an _index dataset of names, named by the group's _index attribute.
void frame(const Writer& file, const char* name, const std::vector<std::string>& names) {
    Handle group = file.group(file.root(), name, name);
    file.attribute(group.get(), name, "_index", std::string("_index"));
    file.attribute(group.get(), name, "encoding-type", std::string("dataframe"));
    file.strings(group.get(), name, "_index", names);
}

std::vector<float> counting(std::size_t count) {
    std::vector<float> values(count);
    for (std::size_t k = 0; k < count; ++k) values[k] = static_cast<float>(k % 5) * 1.5f;
    return values;
}

}  // namespace

void writeDense(const std::string& path) {
    Writer file(path, path, 0);
    const std::vector<float> values = counting(18);
    file.matrix(file.root(), "/data", "data", values.data(), 6, 3);
    file.close();
}

void writeTenx(const std::string& path) {
    Writer file(path, path, 0);
    Handle matrix = file.group(file.root(), "matrix", "/matrix");
    file.array(matrix.get(), "/matrix", "data", std::vector<std::int32_t>{3, 1, 4, 1, 5});
    file.array(matrix.get(), "/matrix", "indices", std::vector<std::int64_t>{0, 2, 1, 0, 2});
    file.array(matrix.get(), "/matrix", "indptr", std::vector<std::int64_t>{0, 2, 3, 3, 5});
    file.array(matrix.get(), "/matrix", "shape", std::vector<std::int32_t>{3, 4});
    file.strings(matrix.get(), "/matrix", "barcodes", {"AAAC-1", "AAAG-1", "AACT-1", "AAGT-1"});
    Handle features = file.group(matrix.get(), "features", "/matrix/features");
    file.strings(features.get(), "/matrix/features", "name", {"CD3E", "CD4", "MS4A1"});
    file.strings(features.get(), "/matrix/features", "id", {"ENSG1", "ENSG2", "ENSG3"});
    file.strings(features.get(), "/matrix/features", "feature_type",
                 {"Gene Expression", "Gene Expression", "Antibody Capture"});
    file.close();
}

void writeAnnDataDense(const std::string& path) {
    Writer file(path, path, 0);
    file.attribute(file.root(), "/", "encoding-type", std::string("anndata"));
    const std::vector<float> x = counting(15), umap = counting(10);
    file.matrix(file.root(), "/X", "X", x.data(), 5, 3);
    frame(file, "obs", {"cell1", "cell2", "cell3", "cell4", "cell5"});
    frame(file, "var", {"CD3E", "CD4", "MS4A1"});
    Handle obsm = file.group(file.root(), "obsm", "/obsm");
    file.matrix(obsm.get(), "/obsm", "X_umap", umap.data(), 5, 2);
    file.close();
}

void writeAnnDataCsr(const std::string& path) {
    Writer file(path, path, 0);
    Handle x = file.group(file.root(), "X", "/X");
    file.attribute(x.get(), "/X", "encoding-type", std::string("csr_matrix"));
    integersAttribute(x.get(), "shape", {4, 3});
    file.array(x.get(), "/X", "data", std::vector<double>{1.0, 2.0, 3.0, 4.0});
    file.array(x.get(), "/X", "indices", std::vector<std::int32_t>{0, 2, 1, 2});
    file.array(x.get(), "/X", "indptr", std::vector<std::int32_t>{0, 2, 3, 3, 4});
    frame(file, "obs", {"c1", "c2", "c3", "c4"});
    frame(file, "var", {"g1", "g2", "g3"});
    file.close();
}

}  // namespace clusterlens::fuzzseeds
