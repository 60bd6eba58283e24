#pragma once
// The save dialog of the comparison views' tables (CSV), starting in the folder used last; figures
// go through the figure export dialog (figure/figure_export_dialog.hpp).

#include <QString>

class QWidget;

namespace clusterlens::views {

/// Asks for a CSV file; empty when the user cancels.
QString askCsvPath(QWidget* parent, const QString& title, const QString& suggestedName);

/// Reports a failed export in a message box naming the file.
void showExportError(QWidget* parent, const QString& message);

}  // namespace clusterlens::views
