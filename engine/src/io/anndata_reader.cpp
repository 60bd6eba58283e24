// AnnData .h5ad files (anndata >= 0.7 layout). X, a dense dataset or a CSR/CSC group, is cells x genes;
// the obs and var dataframes name the cells and genes; obsm holds embeddings (X_umap, X_pca, ...).

#ifdef CLUSTERLENS_HAVE_HDF5

#include "clusterlens/errors.hpp"
#include "hdf5_handles.hpp"

namespace clusterlens::h5 {
namespace {

// The index of an obs/var dataframe is the dataset named by the group's "_index" attribute (anndata
// writes "_index" there by default). Names are a convenience: when they cannot be used, the data is
// still read and a warning says why.
std::vector<std::string> readIndex(const File& file, const std::string& frame, std::size_t expected,
                                   std::vector<std::string>& warnings) {
    if (!file.exists(frame)) return {};
    if (!file.isGroup(frame)) {
        warnings.push_back(frame.substr(1) + " is stored in the layout of anndata before 0.7; its names were not read");
        return {};
    }
    std::string index = join(frame, file.stringAttribute(frame, "_index").value_or("_index"));
    if (!file.isDataset(index) && file.isDataset(join(frame, "index"))) index = join(frame, "index");
    if (!file.isDataset(index)) {
        warnings.push_back(frame.substr(1) + " has no index dataset; its names were not read");
        return {};
    }
    std::vector<std::string> names;
    try {
        names = file.readStrings(index);
    } catch (const InvalidInput& error) {
        warnings.push_back(std::string("names not read: ") + error.what());
        return {};
    }
    if (names.size() != expected) {
        warnings.push_back(index.substr(1) + " has " + std::to_string(names.size()) + " names but the matrix has " +
                           std::to_string(expected) + "; the names were not used");
        return {};
    }
    return names;
}

// Every 2-D numeric obsm dataset with one row per cell; dataframes (groups) in obsm are not embeddings.
std::vector<Embedding> readEmbeddings(const File& file, std::size_t n, std::vector<std::string>& warnings) {
    std::vector<Embedding> embeddings;
    if (!file.isGroup("/obsm")) return embeddings;
    for (const std::string& name : file.children("/obsm")) {
        const std::string object = join("/obsm", name);
        if (!file.isDataset(object)) continue;
        const std::vector<std::uint64_t> dims = file.shape(object);
        if (dims.size() != 2 || dims[0] != n) {
            warnings.push_back("embedding obsm/" + name + " skipped: it does not have one row per cell");
            continue;
        }
        Embedding embedding;
        embedding.name = name;
        embedding.n = n;
        embedding.d = dims[1];
        try {
            embedding.values = file.readFloats(object);
        } catch (const InvalidInput& error) {
            warnings.push_back("embedding obsm/" + name + " skipped: " + error.what());
            continue;
        }
        embeddings.push_back(std::move(embedding));
    }
    return embeddings;
}

// Gene names of a matrix: the var frame beside it (raw/var for raw/X), else the top-level var.
std::vector<std::string> featureNames(const File& file, const std::string& matrix, std::size_t d,
                                      std::vector<std::string>& warnings) {
    std::string frame = join(parentOf(matrix), "var");
    if (!file.isGroup(frame)) frame = "/var";
    std::vector<std::string> names = readIndex(file, frame, d, warnings);
    if (names.empty())
        for (std::size_t j = 0; j < d; ++j) names.push_back("V" + std::to_string(j + 1));
    return names;
}

}  // namespace

Dataset readAnnData(const File& file, const ReadOptions& options) {
    const bool useEmbedding = !options.embedding.empty();
    std::string object;
    if (useEmbedding) {
        object = join("/obsm", options.embedding);
        if (!file.exists(object)) file.failMissing(object, "embeddings of an .h5ad file are the obsm entries");
    } else {
        object = options.h5Dataset.empty() ? "/X" : absolutePath(options.h5Dataset);
        if (!file.exists(object)) file.failMissing(object, "choose a matrix with --dataset /path/in/file");
    }
    Matrix matrix = readMatrix(file, object);

    Dataset data;
    data.n = matrix.n;
    data.d = matrix.d;
    data.values = std::move(matrix.values);
    if (useEmbedding) {
        for (std::size_t j = 0; j < data.d; ++j)
            data.features.push_back(options.embedding + "_" + std::to_string(j + 1));
    } else {
        data.features = featureNames(file, object, data.d, data.warnings);
    }
    data.pointNames = readIndex(file, "/obs", data.n, data.warnings);
    data.embeddings = readEmbeddings(file, data.n, data.warnings);
    data.provenance.format = "h5ad";
    data.provenance.detail = matrix.detail;
    return data;
}

}  // namespace clusterlens::h5

#endif  // CLUSTERLENS_HAVE_HDF5
