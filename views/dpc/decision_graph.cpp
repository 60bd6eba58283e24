#include "dpc/decision_graph.hpp"

#include <QKeyEvent>
#include <QLineF>
#include <QMouseEvent>
#include <QPainter>

#include <cmath>
#include <utility>

#include "palette.hpp"
#include "scatter/point_tooltip.hpp"
#include "text_layout.hpp"

namespace clusterlens::views {

namespace {

constexpr double kGrabPixels = 5.0;   // how close to a threshold line a press grabs it
constexpr double kClickPixels = 3.0;  // how far a ctrl-click may move and still be a click
constexpr double kPeakRadius = 6.0;   // radius of a peak's circle
const QColor kThresholdColor(0xd0, 0x30, 0x30);

}  // namespace

std::vector<EventValue> decisionValues(const DensityPeaksResult& result, std::size_t i) {
    return {{QStringLiteral("\u03c1"), result.rho[i]},
            {QStringLiteral("\u03b4"), result.delta[i]},
            {QStringLiteral("\u03b3"), result.gamma[i]}};
}

DecisionGraph::DecisionGraph(QWidget* parent)
    : ScatterWidget(parent), m_tooltip(new PointTooltip(this, [this](qsizetype row) { return tooltipFor(row); })) {
    // Peaks sit in the top right corner, where the legend would cover them.
    setLegendVisible(false);
    setMouseTracking(true);
    // Narrower than a scatter may be: beside the controls' column it still fits a view column
    // at 1366x768.
    setMinimumSize(230, 240);
    connect(this, &ScatterWidget::selectionChanged, this, &DecisionGraph::onRegion);
}

void DecisionGraph::onRegion(const QList<qsizetype>& rows) {
    // The scatter's selection shows the linked selection; its rectangle and lasso serve two gestures.
    const Gesture gesture = std::exchange(m_gesture, Gesture::None);
    if (gesture == Gesture::Cells) {
        m_highlighted = rows;
        Q_EMIT cellsSelected(rows);
    } else if (gesture == Gesture::Peaks) {
        // A peak rectangle is a gesture, not a state: it becomes the peaks and the linked selection
        // comes back (that echo arrives here with no gesture and is ignored).
        if (!rows.isEmpty()) Q_EMIT regionPicked(rows);
        setSelection(m_highlighted);
    }
}

void DecisionGraph::setHighlighted(const QList<qsizetype>& rows) {
    m_highlighted = rows;
    m_gesture = Gesture::None;
    setSelection(rows);
}

QString DecisionGraph::tooltipAt(QPointF pos) const {
    return m_tooltip->textAt(pos);
}

QString DecisionGraph::tooltipFor(qsizetype row) const {
    if (!m_result || row < 0 || static_cast<std::size_t>(row) >= m_result->rho.size()) return {};
    const auto i = static_cast<std::size_t>(row);
    const std::int64_t event = m_events && i < m_events->size() ? (*m_events)[i] : row;
    return describeEvent(m_analysis, event, decisionValues(*m_result, i));
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
    m_gesture = Gesture::None;
    setData(std::make_shared<const ScatterData>(decisionScatter(*m_coordinates, m_scale, std::move(labels))),
            sameCoordinates);
    setSelection(m_highlighted);
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
    const QFontMetricsF metrics(small);
    std::vector<QPointF> at(m_peaks.size());
    std::vector<QRectF> circles(m_peaks.size());
    std::vector<std::vector<QRectF>> candidates(m_peaks.size());
    for (std::size_t c = 0; c < m_peaks.size(); ++c) {
        const auto p = static_cast<std::size_t>(m_peaks[c]);
        at[c] = positionOf(m_result->rho[p], m_result->delta[p]);
        circles[c] = QRectF(at[c] - QPointF(kPeakRadius, kPeakRadius), QSizeF(2 * kPeakRadius, 2 * kPeakRadius));
        // Up right, down right, up left, down left of the circle: the first that is free.
        const QSizeF size(metrics.horizontalAdvance(QString::number(c)) + 2, metrics.height());
        const double gap = kPeakRadius + 1;
        for (const QPointF& corner :
             {at[c] + QPointF(gap, -gap - size.height()), at[c] + QPointF(gap, gap),
              at[c] + QPointF(-gap - size.width(), -gap - size.height()), at[c] + QPointF(-gap - size.width(), gap)})
            candidates[c].emplace_back(corner, size);
    }
    const std::vector<QRectF> labels = placeLabels(candidates, circles, plotRect());
    for (std::size_t c = 0; c < m_peaks.size(); ++c) {
        painter.setPen(QPen(Qt::black, 1.2));
        painter.setBrush(Palette::labelColor(static_cast<int>(c)));
        painter.drawEllipse(at[c], kPeakRadius, kPeakRadius);
        if (!labels[c].isEmpty()) painter.drawText(labels[c], Qt::AlignCenter, QString::number(c));
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

void DecisionGraph::startBaseGesture(QMouseEvent* event) {
    const Qt::KeyboardModifiers mods = event->modifiers();
    if (event->button() == Qt::RightButton)
        m_gesture = Gesture::Peaks;
    else if (event->button() == Qt::LeftButton && (mods & Qt::ShiftModifier))
        m_gesture = Gesture::Cells;
    else if (event->button() == Qt::LeftButton && (mods & Qt::ControlModifier))
        m_gesture = Gesture::Peaks;
    else
        m_gesture = Gesture::None;
    ScatterWidget::mousePressEvent(event);
}

void DecisionGraph::mousePressEvent(QMouseEvent* event) {
    const bool left = event->button() == Qt::LeftButton;
    const Qt::KeyboardModifiers mods = event->modifiers();
    if (left && (mods & Qt::ControlModifier) && !(mods & Qt::ShiftModifier)) {
        // A click toggles a peak, a drag draws a lasso: known once the mouse moves or is released.
        m_ctrlPress = event->position();
        event->accept();
        return;
    }
    const Line line =
        left && !(mods & (Qt::ShiftModifier | Qt::ControlModifier)) ? lineNear(event->position()) : Line::None;
    if (line == Line::None) {
        startBaseGesture(event);
        return;
    }
    m_draggedLine = line;
    event->accept();
}

void DecisionGraph::mouseMoveEvent(QMouseEvent* event) {
    if (m_ctrlPress) {
        if (QLineF(*m_ctrlPress, event->position()).length() < kClickPixels) return event->accept();
        QMouseEvent press(QEvent::MouseButtonPress, *m_ctrlPress, mapToGlobal(*m_ctrlPress), Qt::LeftButton,
                          Qt::LeftButton, event->modifiers());
        m_ctrlPress.reset();
        startBaseGesture(&press);
    }
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
    if (m_ctrlPress) {
        m_ctrlPress.reset();
        const qsizetype row = pointAt(*this, event->position(), kPeakRadius);
        if (row >= 0) Q_EMIT peakToggled(row);
        return event->accept();
    }
    if (m_draggedLine == Line::None) {
        ScatterWidget::mouseReleaseEvent(event);
        m_gesture = Gesture::None;  // a click that changed nothing leaves no gesture behind
        return;
    }
    m_draggedLine = Line::None;
    Q_EMIT thresholdsDragged(m_thresholds->x(), m_thresholds->y());
    event->accept();
}

void DecisionGraph::keyPressEvent(QKeyEvent* event) {
    // Escape clears the selection, here as in every view.
    if (event->key() == Qt::Key_Escape) m_gesture = Gesture::Cells;
    ScatterWidget::keyPressEvent(event);
    m_gesture = Gesture::None;
}

}  // namespace clusterlens::views
