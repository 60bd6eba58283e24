// The click-by-click polygon gate of ScatterWidget: the way FlowJo and Cytobank draw polygon gates.
// Vertices are kept in data coordinates so that a pan or zoom between two clicks keeps them on the
// events they were placed on; the gate is mapped back to widget coordinates once it closes and goes
// through selectInPolygon() like the lasso, so it becomes the linked selection as every gate does.

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include "scatter/scatter_widget.hpp"

namespace clusterlens::views {

namespace {

const QColor kGateColor(0x20, 0x60, 0xc0);
constexpr double kVertexRadius = 3.0;

}  // namespace

void ScatterWidget::beginPolygonGate() {
    if (!m_data) return;
    m_polygonGate = true;
    m_gateVertices.clear();
    setMouseTracking(true);
    setCursor(Qt::CrossCursor);
    setFocus(Qt::OtherFocusReason);
    Q_EMIT polygonGateActive(true);
    update();
}

void ScatterWidget::cancelPolygonGate() {
    if (!m_polygonGate) return;
    m_polygonGate = false;
    m_gateVertices.clear();
    setMouseTracking(false);
    unsetCursor();
    Q_EMIT polygonGateActive(false);
    update();
}

QPolygonF ScatterWidget::polygonGateVertices() const {
    QPolygonF widget;
    for (const QPointF& p : m_gateVertices) widget << mapFromData(p.x(), p.y());
    return widget;
}

void ScatterWidget::finishPolygonGate() {
    const QPolygonF polygon = polygonGateVertices();
    cancelPolygonGate();
    if (polygon.size() >= 3) selectInPolygon(polygon);
}

bool ScatterWidget::polygonGateMouse(QMouseEvent* event) {
    if (!m_polygonGate) return false;
    const bool plain = event->button() == Qt::LeftButton && !(event->modifiers() & Qt::ControlModifier) &&
                       !(event->modifiers() & Qt::ShiftModifier);
    switch (event->type()) {
        case QEvent::MouseButtonPress:
            if (!plain) return false;  // the right button still pans, selects a rectangle, ...
            m_gateVertices << mapToData(event->position());
            break;
        case QEvent::MouseButtonDblClick:
            // The double-click's first press already placed the last vertex.
            if (!plain) return false;
            finishPolygonGate();
            break;
        case QEvent::MouseMove:
            if (m_drag != Drag::None) return false;
            m_gateHover = event->position();
            break;
        default:
            return false;
    }
    update();
    event->accept();
    return true;
}

bool ScatterWidget::polygonGateKey(QKeyEvent* event) {
    if (!m_polygonGate) {
        if (event->key() != Qt::Key_G || event->modifiers() != Qt::NoModifier) return false;
        beginPolygonGate();
    } else if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        finishPolygonGate();
    } else if (event->key() == Qt::Key_Escape) {
        cancelPolygonGate();
    } else if (event->key() == Qt::Key_Backspace && !m_gateVertices.isEmpty()) {
        m_gateVertices.removeLast();
        update();
    } else {
        return false;
    }
    event->accept();
    return true;
}

void ScatterWidget::paintPolygonGate(QPainter& painter) const {
    const QPolygonF vertices = polygonGateVertices();
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setClipRect(plotRect());
    if (vertices.size() >= 2) {
        QPolygonF shown = vertices;
        if (hasMouseTracking() && rect().contains(m_gateHover.toPoint())) shown << m_gateHover;
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(kGateColor.red(), kGateColor.green(), kGateColor.blue(), 40));
        painter.drawPolygon(shown);
        painter.setPen(QPen(kGateColor, 1.4));
        painter.drawPolyline(shown);
        painter.setPen(QPen(kGateColor, 1.0, Qt::DashLine));
        painter.drawLine(shown.back(), shown.front());  // the edge that closing adds
    }
    painter.setPen(QPen(Qt::white, 1.0));
    painter.setBrush(kGateColor);
    for (const QPointF& p : vertices) painter.drawEllipse(p, kVertexRadius, kVertexRadius);
    painter.restore();
    painter.setPen(kGateColor);
    painter.drawText(plotRect().adjusted(8, 6, -8, -6), Qt::AlignBottom | Qt::AlignLeft,
                     tr("Polygon gate: click to add vertices, double-click or Enter closes, Esc cancels"));
}

}  // namespace clusterlens::views
