#include "scatter/point_tooltip.hpp"

#include <QHelpEvent>
#include <QPointer>
#include <QToolTip>

#include <cmath>

#include "analysis_session.hpp"
#include "dataset_session.hpp"
#include "event_tooltip.hpp"
#include "scatter/scatter_widget.hpp"

namespace clusterlens::views {

qsizetype pointAt(const ScatterWidget& widget, QPointF widgetPos, double radius) {
    const auto& data = widget.data();
    const QRectF plot = widget.plotRect();
    if (!data || !plot.contains(widgetPos)) return -1;
    // Compare in normalised coordinates: one pixel is a different span on each axis.
    const ViewWindow& view = widget.viewWindow();
    const QPointF centre = view.toNormalized(widgetPos, plot);
    const QPointF corner = view.toNormalized(widgetPos + QPointF(radius, radius), plot);
    const double sx = std::abs(corner.x() - centre.x()), sy = std::abs(corner.y() - centre.y());
    if (!(sx > 0.0 && sy > 0.0)) return -1;
    double best = 1.0;  // squared distance in units of the radius
    qsizetype row = -1;
    const auto& p = data->positions;
    for (std::size_t slot = 0; slot < data->pointCount; ++slot) {
        const double dx = (p[2 * slot] - centre.x()) / sx, dy = (p[2 * slot + 1] - centre.y()) / sy;
        const double d = dx * dx + dy * dy;
        if (d <= best) {
            best = d;
            row = static_cast<qsizetype>(data->indices[slot]);
        }
    }
    return row;
}

PointTooltip::PointTooltip(ScatterWidget* widget, std::function<QString(qsizetype)> text)
    : QObject(widget), m_widget(widget), m_text(std::move(text)) {
    widget->installEventFilter(this);
}

QString PointTooltip::textAt(QPointF widgetPos) const {
    const qsizetype row = pointAt(*m_widget, widgetPos);
    return row < 0 || !m_text ? QString() : m_text(row);
}

bool PointTooltip::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_widget || event->type() != QEvent::ToolTip) return false;
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = textAt(help->pos());
    if (text.isEmpty()) {
        QToolTip::hideText();
        // Nothing under the mouse: the widget's own tooltip (if any) applies.
        return false;
    }
    QToolTip::showText(help->globalPos(), text, m_widget);
    return true;
}

void installEventTooltips(ScatterWidget* scatter, const DatasetSession* data, const AnalysisSession* analysis) {
    const QPointer<const DatasetSession> source(data);
    const QPointer<const AnalysisSession> session(analysis);
    new PointTooltip(scatter, [source, session](qsizetype row) {
        const auto dataset = source ? source->current() : nullptr;
        if (!dataset || row < 0 || static_cast<std::size_t>(row) >= dataset->n) return QString();
        std::vector<EventValue> values;
        for (std::size_t j = 0; j < dataset->d; ++j)
            values.push_back({QString::fromStdString(dataset->features[j]),
                              static_cast<double>(dataset->at(static_cast<std::size_t>(row), j))});
        return describeEvent(session.data(), row, values);
    });
}

}  // namespace clusterlens::views
