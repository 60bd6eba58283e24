// 10x Genomics feature-barcode matrices (CellRanger HDF5 output, v2 and v3 layouts). The matrix is
// stored CSC with genes as rows and barcodes as columns; points (cells or spots) must be the rows of a
// Dataset, so each stored column becomes a row of the result.

#ifdef CLUSTERLENS_HAVE_HDF5

#include <map>
#include <utility>

#include "hdf5_handles.hpp"

namespace clusterlens::h5 {
namespace {

struct GeneNames {
    std::vector<std::string> names;
    std::vector<std::string> ids;
    std::vector<std::string> types;
    std::string namesObject;
    std::string idsObject;
    std::string layout;
};

// CellRanger v3 keeps features/{name,id,feature_type}; v2 keeps gene_names and genes (the ids).
GeneNames readGeneNames(const File& file, const std::string& group) {
    GeneNames genes;
    const std::string features = join(group, "features");
    if (file.isGroup(features)) {
        genes.layout = "CellRanger v3";
        genes.namesObject = join(features, "name");
        genes.idsObject = join(features, "id");
        if (file.isDataset(join(features, "feature_type")))
            genes.types = file.readStrings(join(features, "feature_type"));
    } else {
        genes.layout = "CellRanger v2";
        genes.namesObject = join(group, "gene_names");
        genes.idsObject = join(group, "genes");
        if (!file.isDataset(genes.namesObject)) std::swap(genes.namesObject, genes.idsObject);
    }
    if (!file.isDataset(genes.namesObject))
        file.fail(group, "10x matrix without gene names (features/name, gene_names or genes)");
    genes.names = file.readStrings(genes.namesObject);
    if (file.isDataset(genes.idsObject)) genes.ids = file.readStrings(genes.idsObject);
    return genes;
}

void checkCount(const File& file, const std::string& object, std::size_t count, std::uint64_t expected,
                const std::string& what) {
    if (count != expected)
        file.fail(object, "has " + std::to_string(count) + " entries but the matrix shape says " +
                              std::to_string(expected) + " " + what);
}

// Feature Barcoding runs mix antibody or CRISPR features with genes; the user should know.
void warnAboutFeatureTypes(const std::vector<std::string>& types, std::vector<std::string>& warnings) {
    std::map<std::string, std::size_t> counts;
    for (const std::string& type : types) ++counts[type];
    if (counts.size() < 2) return;
    std::string text;
    for (const auto& [type, count] : counts)
        text += (text.empty() ? "" : ", ") + type + " (" + std::to_string(count) + ")";
    warnings.push_back("the matrix mixes feature types: " + text);
}

}  // namespace

bool isTenxGroup(const File& file, const std::string& group) {
    for (const char* name : {"data", "indices", "indptr", "shape", "barcodes"})
        if (!file.isDataset(join(group, name))) return false;
    return true;
}

Dataset readTenx(const File& file, const std::string& group) {
    const std::string shapePath = join(group, "shape");
    const std::vector<std::int64_t> shape = file.readIntegers(shapePath);
    if (shape.size() != 2 || shape[0] < 0 || shape[1] < 0)
        file.fail(shapePath, "must hold two non-negative numbers (genes, barcodes)");
    const auto geneCount = static_cast<std::uint64_t>(shape[0]), barcodeCount = static_cast<std::uint64_t>(shape[1]);
    Matrix matrix = readSparse(file, SparseLayout{group, barcodeCount, geneCount, true, "barcode"});

    Dataset data;
    data.n = matrix.n;
    data.d = matrix.d;
    data.values = std::move(matrix.values);
    const std::string barcodesPath = join(group, "barcodes");
    data.pointNames = file.readStrings(barcodesPath);
    checkCount(file, barcodesPath, data.pointNames.size(), barcodeCount, "barcodes");
    GeneNames genes = readGeneNames(file, group);
    checkCount(file, genes.namesObject, genes.names.size(), geneCount, "genes");
    if (!genes.ids.empty()) checkCount(file, genes.idsObject, genes.ids.size(), geneCount, "genes");
    data.features = std::move(genes.names);
    data.descriptions = std::move(genes.ids);
    warnAboutFeatureTypes(genes.types, data.warnings);

    const std::string dataPath = join(group, "data");
    const std::string filters = file.filters(dataPath, file.openDataset(dataPath).get());
    data.provenance.format = "10x-h5";
    data.provenance.detail =
        group + " CSC genes x barcodes (" + genes.layout + (filters.empty() ? "" : ", " + filters) + ")";
    return data;
}

}  // namespace clusterlens::h5

#endif  // CLUSTERLENS_HAVE_HDF5
