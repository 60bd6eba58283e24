#pragma once
// The hover text every view shows for one event (a data point): its index, the values the view plots
// (rho, delta and gamma on the decision graph, marker values on the scatter), its cluster in the
// labeling that colours the views, and the populations that contain it; and for a group of events a
// tree shows as one (a cluster of a cut, a subtree): its name, size, merge height and leaf positions.
// One builder, so the decision graph, the gamma plot, the scatter, the dendrogram and the VAT image
// all say the same thing.

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

/// A group of events a tree view draws as one: a cluster of a cut or a subtree.
struct EventGroup {
    QString name;                                      ///< "cluster 2", "small (cluster 5)", "subtree (merge 17)"
    std::int64_t size = 0;                             ///< events in the group
    double height = 0.0;                               ///< height of the merge that formed it
    std::int64_t firstPosition = 0, lastPosition = 0;  ///< its leaves' positions in the tree's order
};

/// The tooltip of a group: its name, "Size: n events", "Merge height: h", "Leaves a–b of the
/// tree's order", then `values` ("mean CD3: 1.2") as eventTooltipText lists them. Pure.
QString groupTooltipText(const EventGroup& group, const std::vector<EventValue>& values);

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
