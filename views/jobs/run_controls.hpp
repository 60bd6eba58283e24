#pragma once
// The parts every analysis form has around its job: the backend choice, the Run and Cancel buttons,
// the progress bar and the status line, built alike so that the forms look and read alike.

#include <QString>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QVBoxLayout;
class QWidget;

namespace clusterlens::views {

/// auto, cpu, cuda, with the Backend (as int) as item data; the tooltip names --backend.
QComboBox* newBackendChoice(QWidget* parent);

struct RunControls {
    QPushButton* run = nullptr;
    QPushButton* cancel = nullptr;
    QProgressBar* progress = nullptr;  ///< range 0..1000, no text
    QLabel* status = nullptr;          ///< word-wrapped
};

/// The Run button (labelled `runText`), Cancel, the progress bar and the status line, parented to `parent`.
RunControls newRunControls(const QString& runText, QWidget* parent);
/// Adds them to `layout`: Run and Cancel on one row, then the progress bar and the status line.
void addRunControls(QVBoxLayout* layout, const RunControls& controls);

}  // namespace clusterlens::views
