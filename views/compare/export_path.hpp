#pragma once
// The save dialogs of the comparison views: a file name for a figure (SVG, PDF or PNG) or a
// table (CSV), starting in the folder used last.

#include <QString>

class QWidget;

namespace clusterlens::views {

/// Asks for a figure file; empty when the user cancels. A name without a known extension gets
/// the one of the chosen filter.
QString askFigurePath(QWidget* parent, const QString& title, const QString& suggestedName);

/// Asks for a CSV file; empty when the user cancels.
QString askCsvPath(QWidget* parent, const QString& title, const QString& suggestedName);

/// Reports a failed export in a message box naming the file.
void showExportError(QWidget* parent, const QString& message);

}  // namespace clusterlens::views
