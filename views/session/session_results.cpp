#include "session/session_results.hpp"

#include <algorithm>
#include <numeric>

#include "clusterlens/session/population.hpp"
#include "clusterlens/vat/metric.hpp"
#include "compare/flat_comparison.hpp"
#include "dpc/dpc_run.hpp"
#include "vat/vat_run.hpp"

namespace clusterlens::views {

namespace {

QStringList columnNames(const Dataset& dataset, const std::vector<std::size_t>& columns) {
    QStringList names;
    for (std::size_t column : columns)
        if (column < dataset.features.size()) names << QString::fromStdString(dataset.features[column]);
    return names;
}

}  // namespace

std::vector<std::string> toStdStrings(const QStringList& list) {
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(list.size()));
    for (const QString& text : list) out.push_back(text.toStdString());
    return out;
}

QStringList toQStringList(const std::vector<std::string>& list) {
    QStringList out;
    for (const std::string& text : list) out << QString::fromStdString(text);
    return out;
}

ResultInfo resultInfo(const QString& name, const QString& description, const ResultContext& context) {
    ResultInfo info;
    info.name = name.toStdString();
    info.description = description.toStdString();
    info.features = toStdStrings(context.features);
    info.transform = context.transform.toStdString();
    return info;
}

void setScope(ResultInfo& info, const ResultScope& scope) {
    info.population = scope.population.toStdString();
    info.members = scope.members ? *scope.members : std::vector<std::int64_t>{};
}

ResultScope scopeOf(const ResultInfo& info) {
    if (info.members.empty()) return {};
    return {QString::fromStdString(info.population), std::make_shared<const IndexVector>(info.members)};
}

QString scopeSuffix(const ResultScope& scope) {
    // (a sample of all events has members but no population name)
    return scope.isAll() || scope.population.isEmpty() ? QString() : QStringLiteral(" on %1").arg(scope.population);
}

LinkageResult linkageResult(const QString& name, const Linkage& linkage, const QString& description,
                            const ResultContext& context) {
    return {resultInfo(name, description, context), linkage};
}

LabelingResult labelingResult(const QString& name, const LabelVector& labels, const ResultContext& context) {
    LabelingResult result;
    result.info = resultInfo(name, {}, context);
    result.labels = labels;
    return result;
}

QString dpcResultName(const DpcRun& run) {
    const DcChoice& dc = run.result->dc;
    const QString kernel =
        run.result->kernel == DensityKernel::Gaussian ? QStringLiteral("gaussian") : QStringLiteral("cutoff");
    const QString value =
        dc.percent > 0.0 ? QStringLiteral("%1 %").arg(dc.percent, 0, 'g', 6) : QString::number(dc.value, 'g', 6);
    return QStringLiteral("DPC %1, dc %2").arg(kernel, value) + scopeSuffix(run.scope);
}

DpcResult dpcResult(const QString& name, const DpcRun& run, const std::vector<std::int64_t>& peaks,
                    const LabelVector* shownLabels, const QString& transform) {
    const DensityPeaksResult& r = *run.result;
    DpcResult result;
    result.info = resultInfo(name, describeDc(r.dc) + QStringLiteral("; ") + run.backend,
                             {columnNames(*run.request.dataset, run.request.columns), transform});
    result.dc = r.dc.value;
    result.dcPercent = r.dc.percent;
    result.dcMethod = r.dc.method.empty() ? std::string(r.dc.percent > 0.0 ? "exact" : "user") : r.dc.method;
    result.kernel = r.kernel == DensityKernel::Gaussian ? "gaussian" : "cutoff";
    result.rho = r.rho;
    result.delta = r.delta;
    result.gamma = r.gamma;
    // The session holds whole-dataset indices (session.hpp); the run counts positions among its events.
    setScope(result.info, run.scope);
    result.nearestHigher =
        run.scope.isAll() ? r.nearestHigher : positionsToIndices(r.nearestHigher, *run.scope.members);
    result.peaks = run.scope.isAll() ? peaks : positionsToIndices(peaks, *run.scope.members);
    const bool halo = shownLabels && shownLabels->size() == r.rho.size() &&
                      std::any_of(shownLabels->begin(), shownLabels->end(), [](std::int32_t l) { return l < 0; });
    if (halo) {
        result.halo.resize(shownLabels->size());
        for (std::size_t i = 0; i < shownLabels->size(); ++i) result.halo[i] = (*shownLabels)[i] < 0 ? 1 : 0;
    }
    return result;
}

std::shared_ptr<const DensityPeaksResult> densityPeaksOf(const DpcResult& stored) {
    auto result = std::make_shared<DensityPeaksResult>();
    result->dc.value = stored.dc;
    result->dc.percent = stored.dcPercent;
    result->dc.method = stored.dcMethod;
    result->dc.exact = stored.dcMethod != "sampled";
    result->kernel = stored.kernel == "cutoff" ? DensityKernel::Cutoff : DensityKernel::Gaussian;
    result->rho = stored.rho;
    result->delta = stored.delta;
    result->gamma = stored.gamma;
    result->nearestHigher = stored.info.members.empty() ? stored.nearestHigher
                                                        : indicesToPositions(stored.nearestHigher, stored.info.members);
    // The engine's "higher" order: larger rho first, ties to the smaller index.
    std::vector<std::int64_t> order(stored.rho.size());
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        return stored.rho[static_cast<std::size_t>(a)] > stored.rho[static_cast<std::size_t>(b)];
    });
    result->densityOrder = std::move(order);
    return result;
}

QString vatEntryName(const VatRun& run) {
    const QString metric = QString::fromLatin1(metricName(run.request.metric));
    if (run.sampledFrom > 0)  // as `clusterlens-cli vat --sample` names it
        return QStringLiteral("sampled VAT %1 (%2 of %3)").arg(metric).arg(run.n()).arg(run.sampledFrom) +
               scopeSuffix(run.scope);
    return QStringLiteral("VAT %1").arg(metric) + scopeSuffix(run.scope);
}

VatEntry vatEntry(const QString& name, const VatRun& run, const QString& transform) {
    VatEntry entry;
    entry.info = resultInfo(name, run.backend, {columnNames(*run.request.dataset, run.request.columns), transform});
    entry.metric = metricName(run.request.metric);
    setScope(entry.info, run.scope);
    entry.order = run.scope.isAll() ? run.vat->order : positionsToIndices(run.vat->order, *run.scope.members);
    entry.cut = run.vat->cut;
    return entry;
}

QString comparisonName(const QString& labelingA, const QString& labelingB) {
    return QStringLiteral("%1 vs %2").arg(labelingA, labelingB);
}

ComparisonResult comparisonResult(const FlatComparison& comparison) {
    ComparisonResult result;
    result.info.name = comparisonName(comparison.nameA, comparison.nameB).toStdString();
    result.labelingA = comparison.nameA.toStdString();
    result.labelingB = comparison.nameB.toStdString();
    result.matching = comparison.method == MatchingMethod::Greedy ? "greedy" : "hungarian";
    result.ari = comparison.ari;
    result.nmi = comparison.nmi;
    result.fMeasure = comparison.matching.fMeasure;
    result.pairs = comparison.matching.pairs;
    return result;
}

}  // namespace clusterlens::views
