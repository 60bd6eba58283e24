#pragma once
// Keeps the session document in step with what the views compute: every linkage and labeling the
// AnalysisSession receives is recorded in the document (with the features and transform it ran on),
// and the document's stored linkages and labelings are handed back to the AnalysisSession when a
// session is opened. DPC runs, VAT orders and comparisons are recorded through the calls below by the
// wiring that knows their panels.

#include <QObject>
#include <QString>

#include <map>
#include <memory>

#include "session/session_results.hpp"

namespace clusterlens::views {

class AnalysisSession;
class SessionDocument;

class SessionRecorder : public QObject {
    Q_OBJECT
public:
    /// Labelings the views derive from the document itself; they are never recorded as results.
    static QString populationsLabeling();

    SessionRecorder(SessionDocument* document, AnalysisSession* analysis, QObject* parent = nullptr);

    /// The features and transform results computed from now on ran on.
    void setContext(ResultContext context) { m_context = std::move(context); }
    const ResultContext& context() const { return m_context; }

    /// A DPC run, with its chosen peaks (label order) and the labels shown, or without (`peaks` null: a
    /// run just shown, whose stored peaks stay).
    void recordDpc(const DpcRun& run, const std::vector<std::int64_t>* peaks, const LabelVector* shownLabels);
    void recordVat(const VatRun& run);
    void recordComparison(const FlatComparison& comparison);

    /// Puts the document's linkages and labelings into the AnalysisSession without recording them again.
    void restoreResults();

private:
    void recordLinkages();
    void recordLabelings();

    SessionDocument* m_document;
    AnalysisSession* m_analysis;
    ResultContext m_context;
    // What was recorded last under each name, so an unchanged result is not recorded twice.
    std::map<QString, std::weak_ptr<const void>> m_linkages;
    std::map<QString, std::weak_ptr<const void>> m_labelings;
    bool m_restoring = false;
};

}  // namespace clusterlens::views
