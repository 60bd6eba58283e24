#pragma once
// Hover tooltips for the points of a scatter (the data scatter, the decision graph, the point
// heights): when the mouse rests over a point, the tooltip shows the text a view builds for its
// dataset row (event_tooltip.hpp). An event filter, so the scatter itself is unchanged.

#include <QObject>
#include <QPointF>
#include <QString>

#include <functional>

namespace clusterlens::views {

class AnalysisSession;
class DatasetSession;
class ScatterWidget;

/// Dataset row of the drawn point of `widget` nearest to `widgetPos` (logical pixels) within `radius`
/// pixels, or -1. Of points at the same distance the one drawn last (on top) wins. O(N) over the
/// drawn points, about 5 ms at 10^6, so it runs on a click or a tooltip request, not on every move.
qsizetype pointAt(const ScatterWidget& widget, QPointF widgetPos, double radius = 6.0);

class PointTooltip : public QObject {
    Q_OBJECT
public:
    /// Shows `text(row)` over the points of `widget`, which owns this object. An empty text shows none.
    PointTooltip(ScatterWidget* widget, std::function<QString(qsizetype row)> text);

    /// The tooltip for the mouse at `widgetPos`; empty when no point is under it.
    QString textAt(QPointF widgetPos) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    ScatterWidget* m_widget;
    std::function<QString(qsizetype)> m_text;
};

/// Hover tooltips on the data scatter: the event's marker values in the current dataset of `data`,
/// its cluster and its populations from `analysis` (event_tooltip.hpp).
void installEventTooltips(ScatterWidget* scatter, const DatasetSession* data, const AnalysisSession* analysis);

}  // namespace clusterlens::views
