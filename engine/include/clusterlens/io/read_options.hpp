#pragma once

#include <cstdint>
#include <string>

namespace clusterlens {

class JobControl;

/// Options shared by all readers. Defaults are what a user gets without flags.
struct ReadOptions {
    std::string h5Dataset;        ///< HDF5: path of a 2-D dataset (--dataset); empty = auto (10x /matrix)
    std::string labelColumn;      ///< text: column holding ground-truth labels: name, 1-based number or "last"
    std::string embedding;        ///< h5ad: use obsm/<name> as the data instead of X (e.g. "X_umap")
    bool compensate = false;      ///< FCS: apply $SPILLOVER / SPILL compensation
    bool allowNonFinite = false;  ///< keep NaN/Inf (counted in Dataset::nonFinite) instead of refusing
    bool allowTruncated = true;   ///< FCS: load the complete events of a cut DATA segment, with a warning
    /// HDF5: the largest dense float32 copy of a matrix that is made (2^31 values, 8 GiB); a matrix
    /// whose shape needs more is refused, however small its file (sparse or unwritten storage).
    std::uint64_t maxDenseValues = std::uint64_t{1} << 31;
    /// Checked between blocks of rows (and of decompressed bytes): a cancel() ends the read within
    /// tens of milliseconds by throwing Cancelled. Null: the read cannot be cancelled.
    JobControl* control = nullptr;
};

}  // namespace clusterlens
