#pragma once
// Reading datasets by file extension (DESIGN.md "INPUT by extension").

#include <string>

#include "clusterlens/dataset.hpp"
#include "clusterlens/io/read_options.hpp"

namespace clusterlens {

/// Reads PATH choosing the reader by extension: .csv .tsv .txt .data (optionally .gz), .fcs,
/// .h5 .hdf5, .h5ad, .bin. Throws InvalidInput "PATH: POSITION: REASON" on malformed input,
/// NonFiniteInput on NaN/Inf unless options.allowNonFinite.
Dataset readDataset(const std::string& path, const ReadOptions& options = {});

/// Text tables: comma, tab or whitespace separated, header detected (a first line with a
/// non-numeric field), quoted names, optional label column, gzip by magic bytes. The scikit-learn
/// layout ("n,p,class names..." then rows whose last column is the class) is recognised. A sibling
/// "<stem>.labels0[.gz]" file (clustering-benchmark layout) is attached as labels.
Dataset readText(const std::string& path, const ReadOptions& options = {});

/// FCS 2.0 / 3.0 / 3.1 list-mode data.
Dataset readFcs(const std::string& path, const ReadOptions& options = {});

/// HDF5: a named 2-D dataset, a 10x feature-barcode matrix (cells x genes), or an AnnData .h5ad.
Dataset readHdf5(const std::string& path, const ReadOptions& options = {});

/// Binary format of the thesis' GPU MHCA program: uint64 D, uint64 N, N*D float64 row-major
/// (little endian).
Dataset readThesisBinary(const std::string& path, const ReadOptions& options = {});

/// Reads the whole file, transparently gunzipping when it starts with the gzip magic bytes.
std::string readFileMaybeGzip(const std::string& path, JobControl* control = nullptr);

}  // namespace clusterlens
