// VatWidget: the hover tooltip of a row (or, under the image, a column) — the event at that position
// of the order, described by the builder every view uses (event_tooltip.hpp): its index, its position
// and the distance under the mouse, its cluster and its populations.

#include <QHelpEvent>
#include <QToolTip>

#include <algorithm>

#include "analysis_session.hpp"
#include "event_tooltip.hpp"
#include "vat/vat_run.hpp"
#include "vat/vat_widget.hpp"

namespace clusterlens::views {

std::int64_t VatWidget::eventAtPosition(std::size_t position) const {
    if (!m_run || position >= m_run->n()) return -1;
    const auto point = static_cast<std::size_t>(m_run->vat->order[position]);
    // A run on a population counts its members; the session names events by whole-dataset index.
    const auto& members = m_run->scope.members;
    if (!members) return static_cast<std::int64_t>(point);
    return point < members->size() ? (*members)[point] : -1;
}

QString VatWidget::tooltipAt(QPointF widgetPos) const {
    if (!m_run) return {};
    const QRectF plot = plotRect();
    const bool inPlot = plot.contains(widgetPos);
    const bool rowBand = rightStripsRect().contains(widgetPos);
    const bool columnBand = bottomStripsRect().contains(widgetPos);
    if (!inPlot && !rowBand && !columnBand) return {};
    const QPointF at = positionsAt(widgetPos);
    const double n = static_cast<double>(m_run->n());
    const auto clamp = [n](double p) { return static_cast<std::size_t>(std::clamp(p, 0.0, n - 1.0)); };
    const std::size_t position = columnBand ? clamp(at.x()) : clamp(at.y());
    const std::int64_t event = eventAtPosition(position);
    if (event < 0) return {};
    std::vector<EventValue> values{{columnBand ? tr("column") : tr("row"), static_cast<double>(position)}};
    if (inPlot) {
        const std::size_t column = clamp(at.x());
        values.push_back({tr("column event"), static_cast<double>(eventAtPosition(column))});
    }
    return describeEvent(m_events, event, values);
}

bool VatWidget::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip) return QOpenGLWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = tooltipAt(help->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, this);
    return true;
}

}  // namespace clusterlens::views
