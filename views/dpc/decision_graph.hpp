#pragma once
// The decision graph on screen: rho against delta for every point, drawn by the data scatter's
// OpenGL layers (so 10^6 points stay interactive), with the chosen peaks marked in their cluster
// colours and the two threshold lines rho_min and delta_min. Right-drag (or shift-drag) a
// rectangle, or ctrl-drag a lasso, to pick the peaks inside it; left-drag a threshold line to move it; wheel zooms,
// left-drag elsewhere pans, as in the data scatter.

#include <QList>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "dpc/decision_scale.hpp"
#include "scatter/scatter_widget.hpp"

namespace clusterlens::views {

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

Q_SIGNALS:
    /// The user dragged a rectangle or drew a lasso; `rows` are the points inside it.
    void regionPicked(const QList<qsizetype>& rows);
    /// The user dragged a threshold line to (rhoMin, deltaMin).
    void thresholdsDragged(double rhoMin, double deltaMin);

protected:
    void paintOverlay(QPainter& painter) const override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    enum class Line { None, Rho, Delta };
    Line lineNear(QPointF pos) const;
    void paintPeaks(QPainter& painter) const;
    void paintThresholds(QPainter& painter) const;

    std::shared_ptr<const DensityPeaksResult> m_result;
    std::shared_ptr<const Dataset> m_coordinates;
    DecisionScale m_scale;
    std::vector<std::int64_t> m_peaks;
    std::optional<QPointF> m_thresholds;
    Line m_draggedLine = Line::None;
};

}  // namespace clusterlens::views
