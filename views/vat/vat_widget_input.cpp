// VatWidget: mouse and keyboard.

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "vat/vat_run.hpp"
#include "vat/vat_widget.hpp"

namespace clusterlens::views {

namespace {

constexpr double kVatWheelZoomPerStep = 1.25;  // one notch (120 units)
constexpr double kDragThreshold = 3.0;         // pixels a press may move and still be a click

}  // namespace

std::pair<std::size_t, std::size_t> VatWidget::diagonalBlock(QPointF a, QPointF b) const {
    // Each end is projected onto the diagonal: the mean of its row and column positions.
    const QPointF pa = positionsAt(a), pb = positionsAt(b);
    const double da = 0.5 * (pa.x() + pa.y()), db = 0.5 * (pb.x() + pb.y());
    const double last = static_cast<double>(m_run ? m_run->n() - 1 : 0);
    const auto position = [last](double p) { return static_cast<std::size_t>(std::clamp(std::floor(p), 0.0, last)); };
    return {position(std::min(da, db)), position(std::max(da, db))};
}

std::optional<std::size_t> VatWidget::cutBlockAt(QPointF widgetPos) const {
    if (!m_run || m_cuts.empty() || !plotRect().contains(widgetPos)) return std::nullopt;
    const QPointF at = positionsAt(widgetPos);
    const auto blockOf = [this](double p) {
        return static_cast<std::size_t>(
            std::upper_bound(m_cuts.begin(), m_cuts.end(), static_cast<std::size_t>(std::max(0.0, p))) -
            m_cuts.begin());
    };
    const std::size_t block = blockOf(at.y());
    if (block != blockOf(at.x())) return std::nullopt;
    return block;
}

void VatWidget::updateHover(QPointF pos) {
    m_hoverPos = pos;
    const QString text = describeAt(pos);
    if (text == m_hoverText && text.isEmpty()) return;
    m_hoverText = text;
    update();
    Q_EMIT hoverChanged(m_hoverText);
}

void VatWidget::mousePressEvent(QMouseEvent* event) {
    if (!m_run) return;
    const bool select = event->button() == Qt::RightButton ||
                        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (select)
        m_drag = Drag::Select;
    else if (event->button() == Qt::LeftButton)
        m_drag = Drag::Pending;
    else
        return;
    m_dragStart = m_dragLast = event->position();
    event->accept();
}

void VatWidget::mouseMoveEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    if (m_drag == Drag::None) return updateHover(pos);
    if (m_drag == Drag::Pending && (pos - m_dragStart).manhattanLength() > kDragThreshold) m_drag = Drag::Pan;
    if (m_drag == Drag::Pan) panByPixels(pos - m_dragLast);
    if (m_drag == Drag::Select) update();
    m_dragLast = pos;
}

void VatWidget::mouseReleaseEvent(QMouseEvent* event) {
    const Drag drag = std::exchange(m_drag, Drag::None);
    if (!m_run) return;
    m_dragLast = event->position();
    if (drag == Drag::Select) {
        const auto [first, last] = diagonalBlock(m_dragStart, m_dragLast);
        setSelectedBlock(first, last);
        Q_EMIT blockSelected(static_cast<qint64>(first), static_cast<qint64>(last));
    } else if (drag == Drag::Pending) {
        // A click: the cut block under it, or nothing.
        if (const auto block = cutBlockAt(m_dragLast)) {
            const std::size_t first = *block == 0 ? 0 : m_cuts[*block - 1];
            const std::size_t last = (*block == m_cuts.size() ? m_run->n() : m_cuts[*block]) - 1;
            setSelectedBlock(first, last);
            Q_EMIT blockSelected(static_cast<qint64>(first), static_cast<qint64>(last));
        } else if (m_block) {
            clearSelectedBlock();
            Q_EMIT selectionCleared();
        }
    }
    update();
}

void VatWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) resetView();
}

void VatWidget::wheelEvent(QWheelEvent* event) {
    if (!m_run) return;
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0.0) zoomAt(event->position(), std::pow(kVatWheelZoomPerStep, steps));
    updateHover(event->position());
    event->accept();
}

void VatWidget::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Home) {
        resetView();
    } else if (event->key() == Qt::Key_Escape) {
        if (m_block || m_marked) {
            clearSelectedBlock();
            Q_EMIT selectionCleared();
        }
    } else {
        QOpenGLWidget::keyPressEvent(event);
    }
}

void VatWidget::leaveEvent(QEvent* event) {
    m_hoverText.clear();
    update();
    Q_EMIT hoverChanged(m_hoverText);
    QOpenGLWidget::leaveEvent(event);
}

}  // namespace clusterlens::views
