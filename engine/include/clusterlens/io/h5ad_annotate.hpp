#pragma once
// Clusters and populations back into AnnData: a copy of an .h5ad file with categorical obs columns, so
// that scanpy users get their clusters as `adata.obs["name"]` (a pandas Categorical).
//
// Encoding written (AnnData >= 0.8, "categorical" 0.2.0), for a column NAME:
//   obs/NAME             group, attributes encoding-type="categorical", encoding-version="0.2.0",
//                        ordered=False (h5py's boolean: an int8 enum FALSE=0/TRUE=1)
//   obs/NAME/categories  1-D variable-length UTF-8 strings, encoding-type="string-array" 0.2.0
//   obs/NAME/codes       1-D int8 (up to 127 categories), int16 (up to 32767) or int32, one per
//                        observation, -1 = missing; encoding-type="array" 0.2.0
// and NAME appended to obs's `column-order` attribute (an array of UTF-8 strings).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterlens {

class JobControl;

/// One categorical column of the obs dataframe: codes index categories, -1 = missing (NaN in pandas).
struct ObsCategorical {
    std::string name;                     ///< column name: not empty, no '/', not already in obs
    std::vector<std::string> categories;  ///< unique
    std::vector<std::int32_t> codes;      ///< one per observation: -1 or 0..categories.size()-1
};

/// A labeling as a categorical: labels hold cluster ids >= 0 and -1 (noise, not analysed) -> missing.
/// The categories are the ids that occur, ascending, each named clusterNames[id] when clusterNames has
/// an entry for it (a session's cluster names), else the id in decimal ("0", "1", ..., as scanpy's
/// leiden/louvain columns). Ids that share a name share one category. Throws InvalidInput on an id
/// below -1. O(n + K log K) for K clusters.
ObsCategorical categoricalFromLabels(const std::string& name, const std::vector<std::int32_t>& labels,
                                     const std::vector<std::string>& clusterNames = {});

/// Population membership as a categorical with categories {"out", "in"}: codes are the membership
/// values (0 = not a member, 1 = member); -1 (not analysed) -> missing. Throws InvalidInput on any
/// other value. O(n).
ObsCategorical categoricalFromMembership(const std::string& name, const std::vector<std::int32_t>& membership);

/// Reads the categorical obs column `name` of an .h5ad file written in the encoding above (by this
/// writer or by anndata >= 0.8: scanpy's leiden/louvain clusters, cell types). Codes of any integer
/// type are widened to int32. Throws InvalidInput naming the file and the object when the column is
/// missing, not categorical, or has codes outside -1..categories-1. O(n).
ObsCategorical readH5adObsCategorical(const std::string& path, const std::string& name);

/// Number of observations (rows of obs) of an .h5ad file: the length of obs's index. Throws
/// InvalidInput naming the file when it is not an AnnData file this writer can extend (see below).
std::size_t h5adObservationCount(const std::string& path);

/// Writes `out`: a byte copy of the .h5ad file `source` to which the columns are added as categorical
/// obs columns (encoding above); nothing else of the copy changes (every dataset and attribute of the
/// source, except obs's column-order, stays bit-identical). `source` is only read.
/// The source's obs must be an AnnData >= 0.8 dataframe group (encoding-type "dataframe", version
/// other than 0.1.0 of anndata 0.7, whose categoricals are stored differently). Written atomically
/// (writeFileAtomically): on any failure `out` is unchanged.
/// Throws InvalidInput naming the file and the object when: the source is not such a file, `out` is
/// the source itself, a column's name is empty, contains '/', repeats or exists in obs, its codes do
/// not have one entry per observation or lie outside -1..categories-1, or its categories repeat.
/// Time O(file size + n * columns); memory O(n) per column. `control` (when given) is checked every
/// 4 MiB copied and before each column: a cancel() throws Cancelled and `out` is left as it was.
void writeH5adWithObsColumns(const std::string& source, const std::string& out,
                             const std::vector<ObsCategorical>& columns, const JobControl* control = nullptr);

}  // namespace clusterlens
