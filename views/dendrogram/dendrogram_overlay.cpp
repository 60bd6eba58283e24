// QPainter part of DendrogramWidget::paintGL(): axes, cut line, hover highlight, labels of
// collapsed subtrees and the status line above the plot, or a message when there is no tree.

#include <QLocale>
#include <QPainter>

#include "dendrogram/dendrogram_axes.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "palette.hpp"
#include "text_layout.hpp"

namespace clusterlens::views {

namespace {

const QColor kCutColor(0x20, 0x20, 0x20);
const QColor kTextColor(0x40, 0x40, 0x40);
constexpr double kIdleCutHeadroom = 0.5;  // the idle cut line sits halfway into the headroom

}  // namespace

double DendrogramWidget::cutLineY() const {
    const QRectF plot = plotRect();
    double axis = 0.0;
    if (m_drag == Drag::Cut)
        axis = m_dragCutAxis;
    else if (m_cut && m_cut->k > 1)
        axis = cutAxisPosition(*m_cut, m_scale);
    else {
        const double top = m_scale.toAxis(m_layout->maxMergeHeight);
        DendrogramView whole;
        whole.reset(*m_layout, m_scale);
        axis = top + kIdleCutHeadroom * (whole.y1() - top);
    }
    return m_view.toPixel(m_view.x0(), axis, plot).y();
}

void DendrogramWidget::paintMessage(QPainter& painter, const QString& text) const {
    painter.setPen(QColor(0x60, 0x60, 0x60));
    painter.drawText(rect().adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap, text);
}

void DendrogramWidget::setStrips(std::shared_ptr<const ColourStrips> strips) {
    m_strips = std::move(strips);
    update();
}

std::size_t DendrogramWidget::drawnStripCount() const {
    return m_layout ? fittingStripCount(m_strips.get(), m_layout->leafCount) : 0;
}

void DendrogramWidget::setThresholdMarks(std::shared_ptr<const ThresholdMarks> marks) {
    m_thresholdMarks = std::move(marks);
    update();
}

void DendrogramWidget::setThresholdMarksShown(bool shown) {
    if (shown == m_thresholdMarksShown) return;
    m_thresholdMarksShown = shown;
    Q_EMIT thresholdMarksShownChanged(shown);
    update();
}

QRectF DendrogramWidget::stripsRect() const {
    const double extent = colourStripsExtent(font(), drawnStripCount());
    if (extent <= 0) return {};
    const QRectF plot = plotRect();
    return QRectF(plot.left(), plot.bottom() + 2, plot.width(), extent);
}

void DendrogramWidget::paintOverlay(QPainter& painter) const {
    painter.setRenderHint(QPainter::Antialiasing, false);
    if (!m_glError.isEmpty()) return paintMessage(painter, m_glError);
    if (!m_layout)
        return paintMessage(painter, tr("No tree to show. Run a clustering in the Clustering panel, or import a "
                                        "linkage CSV (a,b,height,size)."));
    const QRectF plot = plotRect();
    painter.setFont(font());
    paintHeightAxis(painter, plot, m_view, m_scale,
                    m_scale.logarithmic ? tr("merge height (log scale)") : tr("merge height"));
    const QRectF strips = stripsRect();
    if (!strips.isEmpty()) {
        const auto& order = m_layout->order;
        paintColourStrips(painter, {strips, m_view.x0(), m_view.x1(), false, plot.left() - 4}, *m_strips,
                          m_layout->leafCount, m_layout->leafCount,
                          [&order](std::size_t rank) { return static_cast<std::size_t>(order[rank]); });
    }
    paintLeafAxis(painter, plot.adjusted(0, 0, 0, strips.height()), m_view, *m_layout, m_pointNames.get());
    if (const auto marks = shownThresholdMarks()) paintThresholdMarks(painter, *marks, plot, m_view, m_scale, 1.0);
    painter.save();
    painter.setClipRect(plot);
    paintCollapsedLabels(painter);
    paintHover(painter);
    paintCutLine(painter);
    painter.restore();

    const QLocale locale;
    QStringList status;
    status << tr("%1 leaves").arg(locale.toString(static_cast<qulonglong>(m_layout->leafCount)));
    if (m_cut && m_cut->k > 1)
        status << (m_cut->k > m_cut->populations
                       ? tr("%1 clusters + %2 small").arg(m_cut->populations).arg(m_cut->k - m_cut->populations)
                       : tr("%1 clusters").arg(m_cut->k));
    if (!m_selection.isEmpty())
        status << tr("%1 selected").arg(locale.toString(static_cast<qulonglong>(m_selection.count())));
    // The status on the left, the inversion warning on the right: the warning gets shorter, then the
    // status is elided, so that the two never overlap however narrow the view.
    QStringList warning;
    if (m_layout->inversionCount > 0) {
        const QString count = QStringLiteral("\u26a0 ") + inversionText(m_layout->inversionCount);
        warning << count + tr(": links going down are highlighted") << count;
    }
    const QRectF header(plot.left(), 2, plot.width(), plot.top() - 4);
    const HeaderTexts texts =
        fitHeaderTexts(status.join(QStringLiteral(" \u00b7 ")), warning, header.width(), QFontMetricsF(font()));
    painter.setPen(kTextColor);
    painter.drawText(header, Qt::AlignLeft | Qt::AlignVCenter, texts.left);
    painter.setPen(Palette::inversionColor());
    painter.drawText(header, Qt::AlignRight | Qt::AlignVCenter, texts.right);
    if (m_drag == Drag::Zoom) {
        painter.setPen(QPen(QColor(0x20, 0x60, 0xc0), 1.0, Qt::DashLine));
        painter.setBrush(QColor(0x20, 0x60, 0xc0, 40));
        painter.drawRect(QRectF(m_dragStart, m_dragLast).normalized());
    }
}

void DendrogramWidget::paintCutLine(QPainter& painter) const {
    const QRectF plot = plotRect();
    const double y = cutLineY();
    if (y < plot.top() || y > plot.bottom()) return;
    const bool idle = m_drag != Drag::Cut && (!m_cut || m_cut->k <= 1);
    painter.setPen(QPen(idle ? QColor(0x90, 0x90, 0x90) : kCutColor, 1.0, Qt::DashLine));
    painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    QString label;
    if (m_drag == Drag::Cut)
        label = tr("k = %1").arg(clustersAtHeight(*m_layout, m_scale.fromAxis(m_dragCutAxis)));
    else if (idle)
        label = tr("drag to cut");
    else
        label = tr("k = %1").arg(m_cut->populations);
    const QFontMetricsF metrics(font());
    QRectF box(plot.right() - metrics.horizontalAdvance(label) - 12, y - metrics.height() - 3,
               metrics.horizontalAdvance(label) + 8, metrics.height() + 2);
    if (box.top() < plot.top()) box.moveTop(y + 3);  // no room above the line: label it below
    painter.fillRect(box, QColor(255, 255, 255, 220));
    painter.setPen(idle ? QColor(0x80, 0x80, 0x80) : kCutColor);
    painter.drawText(box, Qt::AlignCenter, label);
}

void DendrogramWidget::paintHover(QPainter& painter) const {
    if (m_hoverNode < 0 || m_hoverNode > m_layout->root() || m_drag != Drag::None) return;
    const QRectF plot = plotRect();
    const auto n = static_cast<std::size_t>(m_hoverNode);
    const double top = m_scale.toAxis(m_layout->isLeaf(m_hoverNode) ? 0.0 : m_layout->subtreeTop(m_hoverNode));
    const QPointF a = m_view.toPixel(m_layout->first[n], top, plot);
    const QPointF b = m_view.toPixel(m_layout->first[n] + m_layout->size[n], m_scale.baseline(), plot);
    QRectF box(a, b);
    box = box.normalized().adjusted(-2, -4, 2, 2);
    if (box.width() < 5) box.adjust(-2, 0, 2, 0);
    painter.setPen(QPen(QColor(0x20, 0x60, 0xc0, 160), 1.0));
    painter.setBrush(QColor(0x20, 0x60, 0xc0, 24));
    painter.drawRect(box);
}

void DendrogramWidget::paintCollapsedLabels(QPainter& painter) const {
    const QRectF plot = plotRect();
    const QFontMetricsF metrics(font());
    const QLocale locale;
    painter.setPen(kTextColor);
    for (const std::int32_t node : m_collapsedNodes) {
        const auto n = static_cast<std::size_t>(node);
        const QPointF apex = m_view.toPixel(m_layout->x[n], m_scale.toAxis(m_layout->height[n]), plot);
        const double base = m_view.toPixel(0.0, m_scale.baseline(), plot).y();
        const QString text = locale.toString(static_cast<qlonglong>(m_layout->size[n]));
        const double w = metrics.horizontalAdvance(text);
        const double width = m_layout->size[n] / (m_view.x1() - m_view.x0()) * plot.width();
        if (w + 4 > width || base - apex.y() < 2 * metrics.height()) continue;
        painter.drawText(QPointF(apex.x() - w / 2, base - metrics.descent() - 3), text);
    }
}

}  // namespace clusterlens::views
