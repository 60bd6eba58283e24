#include "session/session_recorder.hpp"

#include <algorithm>
#include <cstring>

#include "analysis_session.hpp"
#include "session/session_document.hpp"

namespace clusterlens::views {

namespace {

bool sameLinkage(const Linkage& a, const Linkage& b) {
    return a.leafCount == b.leafCount && std::equal(a.merges.begin(), a.merges.end(), b.merges.begin(), b.merges.end(),
                                                    [](const Merge& x, const Merge& y) {
                                                        return x.a == y.a && x.b == y.b && x.size == y.size &&
                                                               std::memcmp(&x.height, &y.height, sizeof(double)) == 0;
                                                    });
}

}  // namespace

QString SessionRecorder::populationsLabeling() {
    return tr("Populations");
}

SessionRecorder::SessionRecorder(SessionDocument* document, AnalysisSession* analysis, QObject* parent)
    : QObject(parent), m_document(document), m_analysis(analysis) {
    connect(m_analysis, &AnalysisSession::linkagesChanged, this, &SessionRecorder::recordLinkages);
    connect(m_analysis, &AnalysisSession::labelingsChanged, this, &SessionRecorder::recordLabelings);
}

void SessionRecorder::recordLinkages() {
    if (m_restoring) return;
    for (const QString& name : m_analysis->linkageNames()) {
        const auto linkage = m_analysis->linkage(name);
        std::weak_ptr<const void>& seen = m_linkages[name];
        if (!linkage || seen.lock() == linkage) continue;
        seen = linkage;
        // The same tree again (a session re-opened, a view re-showing it) keeps what it was computed on.
        const LinkageResult* stored = findNamed(m_document->session().linkages, name.toStdString());
        if (stored && sameLinkage(stored->linkage, *linkage)) continue;
        LinkageResult result = linkageResult(name, *linkage, m_analysis->linkageDescription(name), m_context);
        setScope(result.info, m_analysis->linkageScope(name));
        m_document->putLinkage(std::move(result));
    }
}

void SessionRecorder::recordLabelings() {
    if (m_restoring) return;
    const QString derived = populationsLabeling();
    for (const QString& name : m_analysis->labelingNames()) {
        if (name == derived) continue;
        const auto labels = m_analysis->labeling(name);
        std::weak_ptr<const void>& seen = m_labelings[name];
        if (!labels || seen.lock() == labels) continue;
        seen = labels;
        const LabelingResult* stored = findNamed(m_document->session().labelings, name.toStdString());
        if (stored && stored->labels == *labels) continue;
        LabelingResult result = labelingResult(name, *labels, m_context);
        setScope(result.info, m_analysis->labelingScope(name));
        m_document->putLabeling(std::move(result));
    }
}

void SessionRecorder::recordDpc(const DpcRun& run, const std::vector<std::int64_t>* peaks,
                                const LabelVector* shownLabels) {
    DpcResult result = dpcResult(dpcResultName(run), run, peaks ? *peaks : std::vector<std::int64_t>{}, shownLabels,
                                 m_context.transform);
    const DpcResult* stored = findNamed(m_document->session().dpc, result.info.name);
    // The same run shown again (a session opened) keeps what is stored of it; only new peaks are news.
    if (stored && stored->rho == result.rho && stored->delta == result.delta &&
        stored->nearestHigher == result.nearestHigher) {
        if (!peaks || (stored->peaks == result.peaks && stored->halo == result.halo)) return;
        result.info = stored->info;
    }
    m_document->putDpc(std::move(result));
}

void SessionRecorder::recordVat(const VatRun& run) {
    VatEntry entry = vatEntry(vatEntryName(run), run, m_context.transform);
    const VatEntry* stored = findNamed(m_document->session().vat, entry.info.name);
    if (stored && stored->order == entry.order && stored->cut == entry.cut) return;
    m_document->putVat(std::move(entry));
}

void SessionRecorder::recordComparison(const FlatComparison& comparison) {
    ComparisonResult result = comparisonResult(comparison);
    const ComparisonResult* stored = findNamed(m_document->session().comparisons, result.info.name);
    if (stored && stored->matching == result.matching && stored->ari == result.ari && stored->nmi == result.nmi &&
        stored->fMeasure == result.fMeasure)
        return;
    m_document->putComparison(std::move(result));
}

void SessionRecorder::restoreResults() {
    m_restoring = true;
    const Session& session = m_document->session();
    for (const LinkageResult& stored : session.linkages) {
        auto linkage = std::make_shared<const Linkage>(stored.linkage);
        const QString name = QString::fromStdString(stored.info.name);
        m_linkages[name] = linkage;
        m_analysis->addLinkage(name, std::move(linkage), QString::fromStdString(stored.info.description),
                               scopeOf(stored.info));
    }
    for (const LabelingResult& stored : session.labelings) {
        auto labels = std::make_shared<const LabelVector>(stored.labels);
        const QString name = QString::fromStdString(stored.info.name);
        m_labelings[name] = labels;
        m_analysis->addLabeling(name, std::move(labels), scopeOf(stored.info));
    }
    m_restoring = false;
}

}  // namespace clusterlens::views
