// DendrogramWidget: mouse, wheel and keyboard, picking a node under the cursor, hover text and
// the context menu.

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>
#include <limits>
#include <utility>

#include "analysis_session.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "event_tooltip.hpp"

namespace clusterlens::views {

namespace {

constexpr double kTreeWheelZoomPerStep = 1.25;  // one notch (120 units) magnifies by 25 %
constexpr double kTreeClickTolerance = 3.0;     // pixels a click may move and still be a click
constexpr double kPickTolerance = 4.0;          // pixels from a bar or the cut line

}  // namespace

std::int32_t DendrogramWidget::nodeAt(QPointF widgetPos) const {
    if (!m_layout) return -1;
    const QRectF plot = plotRect();
    if (!plot.contains(widgetPos)) return -1;
    const QPointF at = m_view.toData(widgetPos, plot);
    const double rank = std::floor(at.x());
    if (rank < 0.0 || rank >= static_cast<double>(m_layout->leafCount)) return -1;
    const double tolerance = kPickTolerance * (m_view.y1() - m_view.y0()) / plot.height();
    const auto axisOf = [&](std::int32_t node) {
        return m_scale.toAxis(m_layout->height[static_cast<std::size_t>(node)]);
    };
    std::int32_t node = m_layout->root();
    if (at.y() > m_scale.toAxis(m_layout->subtreeTop(node)) + tolerance) return -1;
    // Walk from the root towards the leaf under the cursor: stop at a bar near the cursor, or at
    // the first subtree whose merge lies below the cursor (its vertical link passes the cursor).
    while (!m_layout->isLeaf(node) && !isCollapsed(node)) {
        if (std::abs(axisOf(node) - at.y()) <= tolerance) return node;
        const std::size_t row = m_layout->row(node);
        const std::int32_t left = m_layout->left[row];
        const auto leftEnd =
            m_layout->first[static_cast<std::size_t>(left)] + m_layout->size[static_cast<std::size_t>(left)];
        const std::int32_t child = rank < leftEnd ? left : m_layout->right[row];
        if (axisOf(child) < at.y() - tolerance) return child;
        node = child;
    }
    return node;
}

QPointF DendrogramWidget::nodePosition(std::int32_t node) const {
    if (!m_layout || node < 0 || node > m_layout->root()) return {};
    const auto n = static_cast<std::size_t>(node);
    return m_view.toPixel(m_layout->x[n], m_scale.toAxis(m_layout->height[n]), plotRect());
}

QString DendrogramWidget::describeNode(std::int32_t node) const {
    if (!m_layout || node < 0 || node > m_layout->root()) return {};
    const auto n = static_cast<std::size_t>(node);
    const bool inCluster = m_cut && !m_cut->isAbove(*m_layout, node);
    const int cluster = inCluster ? m_cut->clusterOf(*m_layout, node) : -1;
    const std::vector<double> means = subtreeMeans(*m_layout, node, m_features);
    std::vector<EventValue> values;
    if (m_layout->isLeaf(node)) {
        // A leaf is an event: the builder every view uses, with the leaf's marker values.
        for (std::size_t j = 0; j < means.size(); ++j)
            values.push_back({m_features.names[static_cast<qsizetype>(j)], means[j]});
        const std::int64_t event = m_eventMembers && n < m_eventMembers->size() ? (*m_eventMembers)[n] : node;
        const QString clusterText = inCluster ? cutClusterName(cluster, m_cut->colourOf(cluster))
                                              : (m_events ? colouringClusterOf(*m_events, event) : QString());
        QString text = eventTooltipText(event, values, clusterText,
                                        m_events ? populationsContaining(*m_events, event) : QStringList());
        if (m_pointNames && n < m_pointNames->size())
            text += QLatin1Char('\n') + tr("Name: %1").arg(QString::fromStdString((*m_pointNames)[n]));
        return text + QLatin1Char('\n') + tr("Leaf %1 of the tree's order").arg(m_layout->first[n]);
    }
    for (std::size_t j = 0; j < means.size(); ++j)
        values.push_back({tr("mean %1").arg(m_features.names[static_cast<qsizetype>(j)]), means[j]});
    const std::size_t row = m_layout->row(node);
    EventGroup group;
    const bool clusterRoot = inCluster && m_cut->roots[static_cast<std::size_t>(cluster)] == node;
    group.name =
        clusterRoot ? cutClusterName(cluster, m_cut->colourOf(cluster))
        : inCluster ? tr("subtree of %1 (merge %2)").arg(cutClusterName(cluster, m_cut->colourOf(cluster))).arg(row + 1)
                    : tr("subtree (merge %1)").arg(row + 1);
    group.size = m_layout->size[n];
    group.height = m_layout->height[n];
    group.firstPosition = m_layout->first[n];
    group.lastPosition = m_layout->first[n] + m_layout->size[n] - 1;
    QString text = groupTooltipText(group, values);
    if (m_layout->isInverted(node)) {
        const double child = std::max(m_layout->height[static_cast<std::size_t>(m_layout->left[row])],
                                      m_layout->height[static_cast<std::size_t>(m_layout->right[row])]);
        text +=
            QLatin1Char('\n') + tr("Inversion: merged below its child at %1").arg(QLocale().toString(child, 'g', 6));
    }
    return text;
}

void DendrogramWidget::updateHover(QPointF pos, QPoint globalPos) {
    if (const auto marks = shownThresholdMarks()) {
        for (const ThresholdMarkPosition& mark : thresholdMarkPositions(*marks, plotRect(), m_view, m_scale))
            if (std::abs(pos.y() - mark.tip.y()) <= kPickTolerance && std::abs(pos.x() - mark.tip.x()) <= 10) {
                m_hoverNode = -1;
                // Hidden again when the mouse leaves the mark.
                const QRectF area(mark.tip.x() - 10, mark.tip.y() - kPickTolerance, 20, 2 * kPickTolerance);
                QToolTip::showText(globalPos, mark.text, this, area.toAlignedRect());
                update();
                return;
            }
    }
    const std::int32_t node = nodeAt(pos);
    if (node == m_hoverNode) return;
    m_hoverNode = node;
    if (node < 0)
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, describeNode(node), this);
    update();
}

void DendrogramWidget::mousePressEvent(QMouseEvent* event) {
    if (!m_layout) return QOpenGLWidget::mousePressEvent(event);
    const QPointF pos = event->position();
    const bool zoom = event->button() == Qt::RightButton ||
                      (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (zoom) {
        m_drag = Drag::Zoom;
    } else if (event->button() == Qt::LeftButton) {
        const bool onCut = std::abs(pos.y() - cutLineY()) <= kPickTolerance && plotRect().contains(pos);
        m_drag = onCut ? Drag::Cut : Drag::Pending;
        if (onCut) m_dragCutAxis = m_view.toData(pos, plotRect()).y();
    } else {
        return QOpenGLWidget::mousePressEvent(event);
    }
    m_dragStart = m_dragLast = pos;
    QToolTip::hideText();
    event->accept();
}

void DendrogramWidget::mouseMoveEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    switch (m_drag) {
        case Drag::None:
            updateHover(pos, event->globalPosition().toPoint());
            return;
        case Drag::Pending:
            if ((pos - m_dragStart).manhattanLength() < kTreeClickTolerance) return;
            m_drag = Drag::Pan;
            [[fallthrough]];
        case Drag::Pan:
            panByPixels(pos - m_dragLast);
            break;
        case Drag::Cut:
            m_dragCutAxis = m_view.toData(pos, plotRect()).y();
            update();
            break;
        case Drag::Zoom:
            update();
            break;
    }
    m_dragLast = pos;
    event->accept();
}

void DendrogramWidget::mouseReleaseEvent(QMouseEvent* event) {
    const Drag drag = std::exchange(m_drag, Drag::None);
    const QPointF pos = event->position();
    if (drag == Drag::Pending) {
        const std::int32_t node = nodeAt(pos);
        if (node >= 0)
            Q_EMIT subtreeClicked(node);
        else
            Q_EMIT selectionCleared();
    } else if (drag == Drag::Cut) {
        Q_EMIT cutHeightChosen(m_scale.fromAxis(m_view.toData(pos, plotRect()).y()));
    } else if (drag == Drag::Zoom) {
        const QRectF band = QRectF(m_dragStart, pos).normalized();
        if (band.width() >= kTreeClickTolerance && band.height() >= kTreeClickTolerance) {
            m_view.zoomToPixels(band.intersected(plotRect()), plotRect());
            m_refineTimer.start();
        } else if (event->button() == Qt::RightButton) {
            QContextMenuEvent menu(QContextMenuEvent::Mouse, pos.toPoint(), event->globalPosition().toPoint());
            contextMenuEvent(&menu);
        }
    } else if (drag == Drag::None) {
        return QOpenGLWidget::mouseReleaseEvent(event);
    }
    update();
    event->accept();
}

void DendrogramWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QOpenGLWidget::mouseDoubleClickEvent(event);
    const std::int32_t node = nodeAt(event->position());
    if (node >= 0 && m_layout && !m_layout->isLeaf(node)) toggleCollapsed(node);
    event->accept();
}

void DendrogramWidget::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0.0 && m_layout) {
        const double factor = std::pow(kTreeWheelZoomPerStep, steps);
        const bool heights = event->modifiers() & Qt::ControlModifier;
        zoomAt(event->position(), heights ? 1.0 : factor, heights ? factor : 1.0);
    }
    event->accept();
}

void DendrogramWidget::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Home || event->key() == Qt::Key_R)
        resetView();
    else if (event->key() == Qt::Key_Escape)
        Q_EMIT selectionCleared();
    else
        return QOpenGLWidget::keyPressEvent(event);
    event->accept();
}

void DendrogramWidget::leaveEvent(QEvent* event) {
    m_hoverNode = -1;
    update();
    QOpenGLWidget::leaveEvent(event);
}

void DendrogramWidget::contextMenuEvent(QContextMenuEvent* event) {
    if (!m_layout) return;
    const std::int32_t node = nodeAt(event->pos());
    QMenu menu(this);
    if (node >= 0) {
        menu.addAction(tr("Select subtree"), this, [this, node] { Q_EMIT subtreeClicked(node); });
        menu.addAction(tr("Zoom to subtree"), this, [this, node] { zoomToSubtree(node); });
        if (!m_layout->isLeaf(node)) {
            menu.addAction(isCollapsed(node) ? tr("Expand subtree") : tr("Collapse subtree"), this,
                           [this, node] { toggleCollapsed(node); });
            // Cutting just below this merge makes its children clusters of their own.
            const double height = m_layout->subtreeTop(node);
            menu.addAction(tr("Cut below this merge"), this, [this, height] {
                Q_EMIT cutHeightChosen(std::nextafter(height, -std::numeric_limits<double>::infinity()));
            });
        }
        menu.addSeparator();
    }
    QAction* expand = menu.addAction(tr("Expand all"), this, &DendrogramWidget::expandAll);
    expand->setEnabled(!m_collapsedNodes.empty());
    menu.addAction(tr("Reset view"), this, &DendrogramWidget::resetView);
    if (m_thresholdMarks) {
        QAction* marks = menu.addAction(tr("Threshold-size marks"), this, &DendrogramWidget::setThresholdMarksShown);
        marks->setCheckable(true);
        marks->setChecked(m_thresholdMarksShown);
        marks->setToolTip(thresholdCrossingText(*m_thresholdMarks));
    }
    menu.exec(event->globalPos());
}

}  // namespace clusterlens::views
