#pragma once
// The folder every export dialog starts in: the one the user saved to last (figures and tables alike),
// kept in the application's settings.

#include <QString>

namespace clusterlens::views {

/// The folder of the last export, or the home folder before the first.
QString lastExportFolder();

/// Remembers the folder of `savedFile` for the next export dialog.
void rememberExportFolder(const QString& savedFile);

}  // namespace clusterlens::views
