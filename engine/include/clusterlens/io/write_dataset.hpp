#pragma once
// Writers: CSV and FCS 3.1 (with an optional extra cluster-id parameter for gating in FlowJo).

#include <cstdint>
#include <string>
#include <vector>

#include "clusterlens/dataset.hpp"

namespace clusterlens {

/// CSV with a header of feature names (quoted when needed) and, when given, a last column
/// `labelName` with one integer per point. Full float precision (round trip exact).
void writeCsv(const std::string& path, const Dataset& data, const std::vector<std::int32_t>& labels = {},
              const std::string& labelName = "cluster");

/// FCS 3.1, $DATATYPE F, little endian ($BYTEORD 1,2,3,4), $PnN/$PnS/$PnR from the dataset. When
/// `clusterIds` is non-empty (size n) an extra parameter `clusterName` holding the ids is appended.
void writeFcs(const std::string& path, const Dataset& data, const std::vector<std::int32_t>& clusterIds = {},
              const std::string& clusterName = "ClusterLens_cluster");

} // namespace clusterlens
