#pragma once
// An analysis whose result is one labeling (k-means) as a step of the application's undo stack: doing
// it adds the labeling and colours the views by it; undoing it puts back what was there before under
// that name (or nothing) and the colouring before.

#include <QString>

#include <memory>

#include "analysis_session.hpp"

class QUndoStack;

namespace clusterlens::views {

class SessionDocument;

/// Adds `labels` as `name` (with its scope) to the analysis session — the session recorder stores it in
/// the document — and pushes the step `text` onto `undo`. Undo restores the labeling and the stored
/// result that had this name before, or removes both when there were none.
void addLabelingStep(QUndoStack* undo, AnalysisSession* analysis, SessionDocument* document, const QString& name,
                     std::shared_ptr<const LabelVector> labels, ResultScope scope, const QString& text);

}  // namespace clusterlens::views
