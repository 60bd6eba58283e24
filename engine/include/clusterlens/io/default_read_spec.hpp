#pragma once
// Sensible defaults for a newly opened file: how to prepare it for analysis (transform, features,
// compensation) and which two axes the data scatter starts on, decided from the data itself, so
// that no setting is carried over from a file of another kind (arcsinh on counts, say).

#include <cstddef>
#include <string>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens {

/// What kind of measurements a dataset holds, as far as the defaults are concerned.
enum class DataKind {
    FlowCytometry,  ///< FCS, fluorescence: arcsinh with cofactor 150
    MassCytometry,  ///< FCS from a CyTOF ($CYT, or metal channels such as "(Ir191)Di"): cofactor 5
    CountMatrix,    ///< h5ad X or a 10x matrix: normalise-total + log1p (+ PCA 50 when d > 100)
    Table,          ///< any other table (CSV, an HDF5 dataset, an embedding): left as it is
};

/// The scatter's starting axes: two components of an embedding, or two features of the data as
/// read (indices into Dataset::features, before any transform).
struct DefaultScatter {
    std::string embedding;  ///< Embedding::name, or empty for features
    std::size_t x = 0;
    std::size_t y = 1;  ///< equals x when the data has a single feature
    std::string xName;  ///< "X_umap 1" or the feature name, for messages and labels
    std::string yName;
};

/// The proposal for one dataset.
struct DefaultReadSpec {
    DataKind kind = DataKind::Table;
    /// Fields set: transform, columns (empty = every feature), compensate. The others keep their
    /// defaults. Usable with prepareData(data, read).
    DatasetReadSpec read;
    std::vector<std::string> excluded;  ///< time-like channels left out of read.columns
    DefaultScatter scatter;
    std::string reason;  ///< one line saying why ("mass cytometry ((Ir191)Di): arcsinh cofactor 5")
};

/// True for acquisition channels that are not measurements of the cells: Time, Event_length,
/// Cell_length, Center, Offset, Width, Residual, beadDist, FileNum, Event #, EventNumber,
/// Original_ID (case, spaces, '_' and '#' ignored; "FSC-W" and other scatter widths are not).
bool isTimeLikeChannel(const std::string& name);

/// True for a mass cytometry channel name: an isotope with Di/Dd ("(Ir191)Di", "Nd142Di", "191Ir_Di")
/// or an isotope alone ("Ir191", "191Ir").
bool isMassChannel(const std::string& name);

/// The defaults for `data` as read (no columns, transform or subsample applied):
/// - FCS: mass cytometry when $CYT (in provenance.detail) names a CyTOF, Helios or Hyperion or any
///   channel is a mass channel, else flow; transform "asinh:5" or "asinh:150"; time-like channels
///   excluded; compensation on when the file has a spillover matrix.
/// - h5ad / 10x: when every value is a non-negative whole number (raw counts)
///   "normalize-total,log1p", plus ",pca:50" when 100 < d <= kPcaMaxFeatures; values that are not
///   counts (already normalised) get only the PCA; an obsm embedding read as data is a Table.
/// - anything else: no transform, every column.
/// Scatter: the embedding X_umap, else X_tsne, else X_pca (any other embedding after them) when it
/// has 2 or more components; else for a count matrix the two features of largest variance (of
/// log1p(counts scaled to the median total) for raw counts, else of the values; ties: the first);
/// else the first two non-time features. O(n*d), memory O(n + d). `control` (when given) is checked
/// every few thousand rows: a cancel() throws Cancelled.
DefaultReadSpec proposeReadSpec(const Dataset& data, const JobControl* control = nullptr);

}  // namespace clusterlens
