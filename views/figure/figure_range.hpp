#pragma once
// The ranges of the part of a figure in view as the `plot` options write them (`--xlim A:B`,
// `--rows A:B`, `--leaves A:B`, `--heights A:B`): text that reads back to the same doubles, so the
// GUI's figure of "what is in view" and the command that regenerates it draw from the same numbers.

#include <QString>

#include <utility>

namespace clusterlens::views {

/// "LOW:HIGH", each the shortest text that reads back to the same double ("97.31", not
/// "97.310000000000002").
QString rangeText(double low, double high);

/// The two numbers of a rangeText() (0 for a part that is not a number).
std::pair<double, double> readRangeText(const QString& text);

}  // namespace clusterlens::views
