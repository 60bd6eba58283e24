#pragma once
// The decision graph on screen: rho against delta for every point, drawn by the data scatter's
// OpenGL layers (so 10^6 points stay interactive), with the chosen peaks marked in their cluster
// colours and the two threshold lines rho_min and delta_min. It takes part in the linked selection:
// events selected in any view are highlighted here (the rest fade, as in the data scatter).
// Gestures: right-drag a rectangle, or ctrl-drag a lasso, to pick the peaks inside it; ctrl-click
// a point to add it as a peak or remove it; shift-drag a rectangle (ctrl+shift-drag a lasso) to
// select events in every view, shift-click or Escape to clear that selection; left-drag a
// threshold line to move it; wheel zooms, left-drag elsewhere pans. Hovering a point shows its
// index, rho, delta, gamma, cluster and populations.

#include <QList>
#include <QPointer>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "dpc/decision_scale.hpp"
#include "event_tooltip.hpp"
#include "scatter/scatter_widget.hpp"

namespace clusterlens::views {

class PointTooltip;

/// rho, delta and gamma of point `i` of `result`, as the hover tooltips list them.
std::vector<EventValue> decisionValues(const DensityPeaksResult& result, std::size_t i);

class DecisionGraph : public ScatterWidget {
    Q_OBJECT
public:
    /// Peaks beyond this many are not marked one by one (their colours still show).
    static constexpr std::size_t maxMarkedPeaks = 500;

    explicit DecisionGraph(QWidget* parent = nullptr);

    /// Shows `result` on `scale`, coloured by `labels` (null: by density) with `peaks` marked.
    /// `keepView` keeps zoom and pan (same points, new colours).
    void showResult(std::shared_ptr<const DensityPeaksResult> result, const DecisionScale& scale,
                    std::shared_ptr<const LabelVector> labels, std::vector<std::int64_t> peaks, bool keepView);
    const DecisionScale& scale() const { return m_scale; }

    /// Threshold lines in data units (rho, delta), or none.
    void setThresholds(std::optional<QPointF> thresholds);
    std::optional<QPointF> thresholds() const { return m_thresholds; }

    /// Widget position of the point with the given rho and delta (logical pixels).
    QPointF positionOf(double rho, double delta) const;

    /// Highlights the events selected in another view (ascending dataset rows; empty: none). Kept
    /// over new results and colourings.
    void setHighlighted(const QList<qsizetype>& rows);
    /// The events highlighted now (those selected here or elsewhere), ascending.
    const QList<qsizetype>& highlighted() const { return selection(); }

    /// Where hover tooltips find the cluster and populations of an event (null: left out).
    void setAnalysis(const AnalysisSession* analysis) { m_analysis = analysis; }
    /// The whole-dataset index of each point (a run on a population's members); null: the points are
    /// the dataset's events in order. Tooltips name events by these indices.
    void setEventIndices(std::shared_ptr<const IndexVector> events) { m_events = std::move(events); }
    /// The hover tooltip for the mouse at `pos`; empty when no point is under it.
    QString tooltipAt(QPointF pos) const;
    /// The hover tooltip of point `row`: index, rho, delta, gamma, cluster, populations.
    QString tooltipFor(qsizetype row) const;

Q_SIGNALS:
    /// The user right-dragged a rectangle or ctrl-drew a lasso; `rows` are the points inside it.
    void regionPicked(const QList<qsizetype>& rows);
    /// The user dragged a threshold line to (rhoMin, deltaMin).
    void thresholdsDragged(double rhoMin, double deltaMin);
    /// The user ctrl-clicked point `row`: it becomes a peak, or stops being one.
    void peakToggled(qsizetype row);
    /// The user selected `rows` (ascending; empty: cleared) for every view.
    void cellsSelected(const QList<qsizetype>& rows);

protected:
    void paintOverlay(QPainter& painter) const override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    enum class Line { None, Rho, Delta };
    /// What the scatter's rectangle or lasso under way is for.
    enum class Gesture { None, Peaks, Cells };
    Line lineNear(QPointF pos) const;
    void onRegion(const QList<qsizetype>& rows);
    void startBaseGesture(QMouseEvent* event);
    void paintPeaks(QPainter& painter) const;
    void paintThresholds(QPainter& painter) const;

    std::shared_ptr<const DensityPeaksResult> m_result;
    std::shared_ptr<const Dataset> m_coordinates;
    DecisionScale m_scale;
    std::vector<std::int64_t> m_peaks;
    std::optional<QPointF> m_thresholds;
    Line m_draggedLine = Line::None;
    Gesture m_gesture = Gesture::None;
    std::optional<QPointF> m_ctrlPress;  // a ctrl press not yet known to be a click or a lasso
    QList<qsizetype> m_highlighted;      // the linked selection, shown again after a peak rectangle
    QPointer<const AnalysisSession> m_analysis;
    std::shared_ptr<const IndexVector> m_events;
    PointTooltip* m_tooltip;
};

}  // namespace clusterlens::views
