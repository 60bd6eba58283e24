#pragma once
// Which two results a comparison view compares after the list of results changed: the one choice
// rule of the flat comparison and the point-height view.

#include <QString>
#include <QStringList>

#include <utility>

namespace clusterlens::views {

/// The origin of a result's name: the name without its trailing " (k=…)" part, so that the cuts of
/// one tree ("cut of MHCA (k=5)", "cut of MHCA (k=6)") share an origin.
QString resultOrigin(const QString& name);

/// Indices into `names` of the two results to compare (-1, -1 when `names` is empty), given the
/// names the view knew before (`known`) and its current choice `a`, `b`:
/// - a new result of the same origin as B (a new cut of the compared tree) replaces B, else one of
///   the same origin as A replaces A, else it becomes B while A and B were the same result;
/// - a choice that no longer exists falls back to the first result;
/// - A and B differ whenever two results exist.
std::pair<int, int> chooseComparedPair(const QStringList& names, const QStringList& known, const QString& a,
                                       const QString& b);

}  // namespace clusterlens::views
