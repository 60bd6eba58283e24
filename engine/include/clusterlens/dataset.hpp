#pragma once
// In-memory dataset: N points x D features, float32, row-major.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterlens {

/// A low-dimensional embedding stored beside the data (AnnData obsm/X_umap, ...). n x d, row-major.
struct Embedding {
    std::string name;
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<float> values;
};

/// A non-numeric column of a table, kept beside the features (cell ids, sample or cell-type names).
struct Annotation {
    enum class Role {
        PointNames,  ///< unique ids; the values are Dataset::pointNames
        Labels,      ///< the label column; the values are Dataset::labels (class names in labelNames)
        Text,        ///< any other text column; the values are `values`
    };
    std::string name;  ///< column header ("column <k>" in a file without one)
    Role role = Role::Text;
    std::vector<std::string> values;  ///< n values for Role::Text; empty otherwise
};

/// Where the data came from and what was done to it since.
struct Provenance {
    std::string path;                ///< file as given by the user
    std::string format;              ///< "csv", "fcs", "h5", "h5ad", "10x-h5", "bin"
    std::string detail;              ///< e.g. "FCS 3.0, $DATATYPE F", "X as CSR", "/matrix"
    std::vector<std::string> steps;  ///< transforms applied, in order ("asinh(cofactor=5)")
};

/// N points x D features. Memory: 4*N*D bytes for the values plus names.
struct Dataset {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<float> values;  ///< n*d, row-major: values[i*d + j]
    /// Empty, or n*d values as parsed in double precision (text and .bin inputs). Algorithms that
    /// must match double-precision references (MHCA) read valuesAsDouble(). Transforms keep it in step.
    std::vector<double> exact;
    std::vector<std::string> features;      ///< d short names ($PnN, header, var_names)
    std::vector<std::string> descriptions;  ///< empty or d long names ($PnS, gene symbols)
    std::vector<std::string> pointNames;    ///< empty or n (AnnData obs_names, 10x barcodes)
    std::vector<std::int32_t> labels;       ///< empty or n ground-truth labels from the file
    std::vector<std::string> labelNames;    ///< optional names of label values (index = label)
    std::string labelSource;                ///< column/file the labels came from
    std::vector<Embedding> embeddings;      ///< obsm/* and the like
    std::vector<Annotation> annotations;    ///< a table's non-feature columns, in file order
    Provenance provenance;
    std::vector<std::string> warnings;  ///< non-fatal problems found while reading
    std::size_t nonFinite = 0;          ///< count of NaN/Inf values (only when allowed)

    float at(std::size_t i, std::size_t j) const { return values[i * d + j]; }
    /// `exact` when present, else the float values widened. n*d doubles.
    std::vector<double> valuesAsDouble() const;
    /// Index of a feature by exact name, or -1.
    long featureIndex(const std::string& name) const;
    /// Throws InvalidInput unless n, d, values, names and labels are consistent.
    void validateShape() const;
    /// Counts NaN/Inf values.
    std::size_t countNonFinite() const;
};

}  // namespace clusterlens
