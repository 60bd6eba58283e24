#pragma once
// Resources of the application (resources/clusterlens.qrc): the icon and the bundled demo dataset
// (resources/demo/aria_facs_6052.csv: 6052 real FACSAria events).

#include <QString>

namespace clusterlens::gui {

/// Registers resources/clusterlens.qrc (compiled into a static library); cheap after the first call.
void ensureAppResources();

/// A readable file holding the demo dataset: the installed copy when present, else the copy
/// compiled into the application, extracted once into the user's cache folder. Empty with
/// `error` set when neither works.
QString demoDatasetPath(QString* error = nullptr);

}  // namespace clusterlens::gui
