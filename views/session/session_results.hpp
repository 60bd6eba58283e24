#pragma once
// Conversions between what the views compute (shared linkages and labelings of the AnalysisSession,
// a DPC run, a VAT run, a flat comparison) and the engine's session results, in both directions where
// a view can show a stored result again. Pure functions: no document, no signals.

#include <QString>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

#include "analysis_session.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens::views {

struct DpcRun;
struct FlatComparison;
struct VatRun;

/// What every result records besides its numbers: the features and the transform it ran on.
struct ResultContext {
    QStringList features;
    QString transform;  ///< engine spec ("asinh:150"); empty = none
};

ResultInfo resultInfo(const QString& name, const QString& description, const ResultContext& context);

/// Records in `info` the population a result ran on (nothing for all events).
void setScope(ResultInfo& info, const ResultScope& scope);
/// The scope a stored result ran on (all events when it names no members).
ResultScope scopeOf(const ResultInfo& info);
/// " on POPULATION" for a result of a population, empty for all events: the suffix of result names, as
/// the CLI names results of --population.
QString scopeSuffix(const ResultScope& scope);

LinkageResult linkageResult(const QString& name, const Linkage& linkage, const QString& description,
                            const ResultContext& context);
LabelingResult labelingResult(const QString& name, const LabelVector& labels, const ResultContext& context);

/// The name a DPC run is stored under: kernel and dc ("DPC gaussian, dc 2 %").
QString dpcResultName(const DpcRun& run);
/// A DPC run with its chosen peaks (label order) and the labels shown. DPC assigns every point to a
/// peak, so shown labels that mark points as noise (-1) come from the halo: those points are its flags.
DpcResult dpcResult(const QString& name, const DpcRun& run, const std::vector<std::int64_t>& peaks,
                    const LabelVector* shownLabels, const QString& transform);
/// The decision-graph data of a stored DPC result (densityOrder recomputed). For a result of a
/// population, nearest-higher links become positions among its members, as the run had them.
std::shared_ptr<const DensityPeaksResult> densityPeaksOf(const DpcResult& stored);

/// The name a VAT order is stored under ("VAT euclidean").
QString vatEntryName(const VatRun& run);
VatEntry vatEntry(const QString& name, const VatRun& run, const QString& transform);

/// The name a comparison is stored under ("A vs B").
QString comparisonName(const QString& labelingA, const QString& labelingB);
ComparisonResult comparisonResult(const FlatComparison& comparison);

std::vector<std::string> toStdStrings(const QStringList& list);
QStringList toQStringList(const std::vector<std::string>& list);

}  // namespace clusterlens::views
