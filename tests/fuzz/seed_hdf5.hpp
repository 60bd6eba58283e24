#pragma once
// HDF5 seeds of the hdf5 fuzz target, written with the session's HDF5 writer: the layouts the readers
// know (a named 2-D dataset, a 10x CellRanger v3 matrix, AnnData with dense and CSR X).

#include <string>

namespace clusterlens::fuzzseeds {

/// /data: 6 x 3 float32 (the reader names the columns V1..V3).
void writeDense(const std::string& path);
/// /matrix: 4 barcodes x 3 genes, CSC genes x barcodes, features/name, id and feature_type.
void writeTenx(const std::string& path);
/// X dense 5 x 3, obs and var with _index names, obsm/X_umap 5 x 2.
void writeAnnDataDense(const std::string& path);
/// X as csr_matrix 4 x 3 (encoding-type and shape attributes), obs and var names.
void writeAnnDataCsr(const std::string& path);

}  // namespace clusterlens::fuzzseeds
