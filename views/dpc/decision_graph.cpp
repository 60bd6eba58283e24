#include "dpc/decision_graph.hpp"

#include <QMouseEvent>
#include <QPainter>

#include <cmath>

#include "palette.hpp"

namespace clusterlens::views {

namespace {

constexpr double kGrabPixels = 5.0;  // how close to a threshold line a press grabs it
const QColor kThresholdColor(0xd0, 0x30, 0x30);

}  // namespace

DecisionGraph::DecisionGraph(QWidget* parent) : ScatterWidget(parent) {
    // Peaks sit in the top right corner, where the legend would cover them.
    setLegendVisible(false);
    setMouseTracking(true);
    connect(this, &ScatterWidget::selectionChanged, this, [this](const QList<qsizetype>& rows) {
        // The rectangle or lasso is a gesture, not a state: it becomes the peaks, and the faded
        // "selection" look goes away (the cleared selection comes back here empty and is ignored).
        if (rows.isEmpty()) return;
        Q_EMIT regionPicked(rows);
        clearSelection();
    });
}

void DecisionGraph::showResult(std::shared_ptr<const DensityPeaksResult> result, const DecisionScale& scale,
                               std::shared_ptr<const LabelVector> labels, std::vector<std::int64_t> peaks,
                               bool keepView) {
    const bool sameCoordinates = keepView && m_coordinates && result == m_result && scale.logRho == m_scale.logRho &&
                                 scale.logDelta == m_scale.logDelta;
    m_result = std::move(result);
    m_scale = scale;
    m_peaks = std::move(peaks);
    if (!m_result) {
        m_coordinates.reset();
        setData(nullptr);
        return;
    }
    if (!sameCoordinates) m_coordinates = decisionCoordinates(*m_result, m_scale);
    setData(std::make_shared<const ScatterData>(decisionScatter(*m_coordinates, m_scale, std::move(labels))),
            sameCoordinates);
}

void DecisionGraph::setThresholds(std::optional<QPointF> thresholds) {
    m_thresholds = thresholds;
    update();
}

QPointF DecisionGraph::positionOf(double rho, double delta) const {
    return mapFromData(m_scale.x(rho), m_scale.y(delta));
}

void DecisionGraph::paintOverlay(QPainter& painter) const {
    if (!m_result) return;
    painter.save();
    painter.setClipRect(plotRect());
    painter.setRenderHint(QPainter::Antialiasing, true);
    paintThresholds(painter);
    paintPeaks(painter);
    painter.restore();
}

void DecisionGraph::paintPeaks(QPainter& painter) const {
    if (m_peaks.size() > maxMarkedPeaks) return;
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    painter.setFont(small);
    for (std::size_t c = 0; c < m_peaks.size(); ++c) {
        const auto p = static_cast<std::size_t>(m_peaks[c]);
        const QPointF at = positionOf(m_result->rho[p], m_result->delta[p]);
        painter.setPen(QPen(Qt::black, 1.2));
        painter.setBrush(Palette::labelColor(static_cast<int>(c)));
        painter.drawEllipse(at, 6.0, 6.0);
        painter.drawText(at + QPointF(8, -6), QString::number(c));
    }
}

void DecisionGraph::paintThresholds(QPainter& painter) const {
    if (!m_thresholds) return;
    const QRectF plot = plotRect();
    const QPointF at = positionOf(m_thresholds->x(), m_thresholds->y());
    painter.setPen(QPen(kThresholdColor, 1.5, Qt::DashLine));
    painter.drawLine(QPointF(at.x(), plot.top()), QPointF(at.x(), plot.bottom()));
    painter.drawLine(QPointF(plot.left(), at.y()), QPointF(plot.right(), at.y()));
    // The peaks region (right of rho_min, above delta_min), lightly tinted.
    painter.fillRect(QRectF(QPointF(at.x(), plot.top()), QPointF(plot.right(), at.y())).normalized(),
                     QColor(0xd0, 0x30, 0x30, 18));
    painter.setPen(kThresholdColor);
    painter.drawText(QPointF(at.x() + 4, plot.bottom() - 6), QStringLiteral("\u03c1 min"));
    painter.drawText(QPointF(plot.left() + 6, at.y() - 4), QStringLiteral("\u03b4 min"));
}

DecisionGraph::Line DecisionGraph::lineNear(QPointF pos) const {
    if (!m_thresholds || !m_result || !plotRect().contains(pos)) return Line::None;
    const QPointF at = positionOf(m_thresholds->x(), m_thresholds->y());
    const double dx = std::abs(pos.x() - at.x()), dy = std::abs(pos.y() - at.y());
    if (dx <= kGrabPixels && dx <= dy) return Line::Rho;
    if (dy <= kGrabPixels) return Line::Delta;
    return Line::None;
}

void DecisionGraph::mousePressEvent(QMouseEvent* event) {
    const Line line = event->button() == Qt::LeftButton && !(event->modifiers() & Qt::ShiftModifier)
                          ? lineNear(event->position())
                          : Line::None;
    if (line == Line::None) return ScatterWidget::mousePressEvent(event);
    m_draggedLine = line;
    event->accept();
}

void DecisionGraph::mouseMoveEvent(QMouseEvent* event) {
    if (m_draggedLine == Line::None) {
        const Line hover = lineNear(event->position());
        setCursor(hover == Line::Rho ? Qt::SizeHorCursor : hover == Line::Delta ? Qt::SizeVerCursor : Qt::ArrowCursor);
        return ScatterWidget::mouseMoveEvent(event);
    }
    const QPointF data = mapToData(event->position());
    QPointF t = *m_thresholds;
    if (m_draggedLine == Line::Rho)
        t.setX(m_scale.rhoAt(data.x()));
    else
        t.setY(m_scale.deltaAt(data.y()));
    setThresholds(t);
    event->accept();
}

void DecisionGraph::mouseReleaseEvent(QMouseEvent* event) {
    if (m_draggedLine == Line::None) return ScatterWidget::mouseReleaseEvent(event);
    m_draggedLine = Line::None;
    Q_EMIT thresholdsDragged(m_thresholds->x(), m_thresholds->y());
    event->accept();
}

}  // namespace clusterlens::views
