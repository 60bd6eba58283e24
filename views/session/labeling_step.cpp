#include "session/labeling_step.hpp"

#include <QUndoCommand>
#include <QUndoStack>

#include <optional>

#include "session/session_document.hpp"

namespace clusterlens::views {

namespace {

class LabelingStep : public QUndoCommand {
public:
    LabelingStep(AnalysisSession* analysis, SessionDocument* document, QString name,
                 std::shared_ptr<const LabelVector> labels, ResultScope scope, const QString& text)
        : QUndoCommand(text),
          m_analysis(analysis),
          m_document(document),
          m_name(std::move(name)),
          m_labels(std::move(labels)),
          m_scope(std::move(scope)),
          m_previousLabels(analysis->labeling(m_name)),
          m_previousScope(analysis->labelingScope(m_name)),
          m_previousColouring(analysis->colouring()) {
        if (const LabelingResult* stored = findNamed(document->session().labelings, m_name.toStdString()))
            m_previousStored = *stored;
    }

    void redo() override {
        const bool colouring = m_analysis->colouring() == m_name;
        m_analysis->addLabeling(m_name, m_labels, m_scope);
        // The recorder stored these labels when they first came; a redo puts back what it stored.
        if (m_stored) m_document->putLabeling(*m_stored);
        if (!colouring) m_analysis->setColouring(m_name);
    }

    void undo() override {
        if (const LabelingResult* stored = findNamed(m_document->session().labelings, m_name.toStdString()))
            m_stored = *stored;
        if (m_previousLabels) {
            m_analysis->addLabeling(m_name, m_previousLabels, m_previousScope);
            // What was stored under the name keeps what it was computed on.
            if (m_previousStored) m_document->putLabeling(*m_previousStored);
        } else {
            m_analysis->removeLabeling(m_name);
            m_document->removeLabeling(m_name);
        }
        if (m_analysis->colouring() != m_previousColouring &&
            (m_previousColouring.isEmpty() || m_analysis->labeling(m_previousColouring)))
            m_analysis->setColouring(m_previousColouring);
    }

private:
    AnalysisSession* m_analysis;
    SessionDocument* m_document;
    QString m_name;
    std::shared_ptr<const LabelVector> m_labels;
    ResultScope m_scope;
    std::shared_ptr<const LabelVector> m_previousLabels;
    ResultScope m_previousScope;
    QString m_previousColouring;
    std::optional<LabelingResult> m_previousStored;
    std::optional<LabelingResult> m_stored;
};

}  // namespace

void addLabelingStep(QUndoStack* undo, AnalysisSession* analysis, SessionDocument* document, const QString& name,
                     std::shared_ptr<const LabelVector> labels, ResultScope scope, const QString& text) {
    // QUndoStack::push runs redo(), which adds the labeling.
    undo->push(new LabelingStep(analysis, document, name, std::move(labels), std::move(scope), text));
}

}  // namespace clusterlens::views
