#pragma once
// "Copy methods text": a paragraph a paper can quote for each analysis a figure shows — the
// algorithm, its parameters, the software and version — followed by the references to cite.

#include <QString>
#include <QStringList>

#include <cstddef>

namespace clusterlens::views {

/// The papers the methods texts cite. IvatOriginal defines iVAT; Ivat is the efficient formulation
/// (iVAT from the VAT order's minimum spanning tree) that ClusterLens computes.
enum class Reference { DensityPeaks, Mhca, MhcaGpu, Fastcluster, Vat, IvatOriginal, Ivat, Ari, Nmi, Hungarian };

/// The full reference, e.g. "Rodriguez A, Laio A. Clustering by fast search and find of density
/// peaks. Science 344(6191):1492-1496 (2014)."
QString referenceText(Reference reference);

/// `paragraph`, the software sentence ("Figures were drawn with ClusterLens 0.1.0.") and a
/// numbered reference list.
QString methodsText(const QString& paragraph, std::initializer_list<Reference> references);

/// Density peaks: N points, dc (and how it was chosen), the kernel, the peaks.
QString densityPeaksMethods(std::size_t n, const QString& dcDescription, const QString& kernel, std::size_t peaks);
/// Hierarchical clustering: N points, how the tree was made (the session's description, which names
/// the backend: the GPU thesis is cited only for a tree computed with CUDA), a cut.
QString hierarchicalMethods(std::size_t n, const QString& description, int clusters);
/// VAT or iVAT image: N points, the metric.
QString vatMethods(std::size_t n, const QString& metric, bool ivat);
/// Two flat clusterings compared: their names, the scores line and how clusters were matched
/// (Hungarian method, or the greedy approximation).
QString flatComparisonMethods(const QString& a, const QString& b, const QString& scores, bool greedy);
/// Point heights of two trees compared: their names and the correlations line.
QString pointHeightsMethods(const QString& a, const QString& b, const QString& correlations);
/// The data scatter: N points, the axes, what colours the points.
QString scatterMethods(std::size_t n, const QString& x, const QString& y, const QString& colouring);

}  // namespace clusterlens::views
