#pragma once
// The hover text every view shows for one event (a data point): its index, the values the view plots
// (rho, delta and gamma on the decision graph, marker values on the scatter), its cluster in the
// labeling that colours the views, and the populations that contain it. One builder, so the decision
// graph, the gamma plot and the scatter all say the same thing.

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace clusterlens::views {

class AnalysisSession;

/// One value a view plots for an event ("ρ", 4.25).
struct EventValue {
    QString name;
    double value = 0.0;
};

/// At most this many values are listed; the rest are counted ("… 12 more").
inline constexpr std::size_t kMaxTooltipValues = 12;

/// The tooltip: "Event i", one "name: value" line per value, "Cluster: …" (omitted when empty) and
/// "Populations: a, b" (omitted when none). Plain text, lines joined by '\n'. Pure.
QString eventTooltipText(std::int64_t index, const std::vector<EventValue>& values, const QString& cluster,
                         const QStringList& populations);

/// Names of the session's populations whose members hold `index` (AnalysisSession's mirror of them),
/// by name. O(P log m): members are ascending.
QStringList populationsContaining(const AnalysisSession& analysis, std::int64_t index);

/// The name of `index`'s label in the labeling that colours the views, with the labeling's name
/// ("cluster 2 (DPC (k=3))", a population's name); empty when nothing colours the views or `index`
/// is outside the labeling.
QString colouringClusterOf(const AnalysisSession& analysis, std::int64_t index);

/// The tooltip of event `index` showing `values`, its cluster and populations from `analysis` (null:
/// both left out).
QString describeEvent(const AnalysisSession* analysis, std::int64_t index, const std::vector<EventValue>& values);

}  // namespace clusterlens::views
