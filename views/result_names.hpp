#pragma once
// Names of results and of the choices that made them, in two kinds kept apart. Stored names are
// stable ids: the keys results are stored and looked up under (the analysis session, the session
// file), spelled as the CLI names the same results and never translated. Display names are the
// translated texts the user reads for an engine id; nothing is stored or looked up by them.

#include <QString>

#include <cstddef>

#include "clusterlens/hca/hca.hpp"

namespace clusterlens::views {

/// The name a hierarchical clustering is stored under, the CLI's (`hca --session`): "MHCA full t=0.5"
/// (the variant's id, the threshold as %g) or "average linkage"; without the scope suffix.
QString hcaResultName(const HcaRequest& request);
/// The labeling of a clustering's a-priori groups: "a-priori groups of NAME".
QString aprioriGroupsName(const QString& linkageName);
/// A density-peaks labeling with k peaks: "DPC (k=3)" or "DPC (k=3, halo)"; without the scope suffix.
QString dpcLabelingName(std::size_t k, bool halo);
/// VAT's cut into k blocks: "VAT cuts (k=3)"; without the scope suffix.
QString vatCutsName(int k);
/// A cut of the stored linkage `linkageName` into k clusters: "cut of NAME (k=5)".
QString dendrogramCutName(const QString& linkageName, int k);
/// A cut of that linkage into `populations` clusters of at least minSize points, the smaller ones
/// unlabelled: "cut of NAME (k=5, min 20)".
QString dendrogramCutName(const QString& linkageName, int populations, std::size_t minSize);
/// The labels that came with the data file: "ground truth (SOURCE)".
QString groundTruthName(const QString& source);
/// Whether a labeling's name is a groundTruthName.
bool isGroundTruthName(const QString& name);

/// The MHCA variant as the user reads it, translated: "full (FMD)" or "centroid (CMD)".
QString mhcaVariantDisplayName(MhcaVariant variant);

}  // namespace clusterlens::views
