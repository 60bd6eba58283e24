#include "dendrogram/dendrogram_axes.hpp"

#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "scatter/view_window.hpp"

namespace clusterlens::views {

namespace {

const QColor kAxisColor(0x40, 0x40, 0x40);
const QColor kGridColor(0x00, 0x00, 0x00, 22);
constexpr double kTickLength = 5.0;

std::vector<AxisTick> linearTicks(double lo, double hi, int maxTicks, const HeightScale& scale) {
    std::vector<AxisTick> ticks;
    const std::vector<double> values = niceTicks(lo, hi, maxTicks);
    const double step = values.size() > 1 ? values[1] - values[0] : hi - lo;
    for (double v : values) ticks.push_back({scale.toAxis(v), formatTick(v, step)});
    return ticks;
}

}  // namespace

std::vector<AxisTick> heightTicks(double lo, double hi, const HeightScale& scale, int maxTicks) {
    if (!scale.logarithmic) return linearTicks(lo, hi, maxTicks, scale);
    const double first = std::ceil(lo), last = std::floor(hi);
    if (last - first < 1.0) {
        // Less than two decades visible: ordinary round heights, placed logarithmically.
        std::vector<AxisTick> ticks;
        for (AxisTick t : linearTicks(scale.fromAxis(lo), scale.fromAxis(hi), maxTicks, scale))
            if (t.axis >= lo && t.axis <= hi) ticks.push_back(t);
        return ticks;
    }
    const double stride = std::max(1.0, std::ceil((last - first + 1.0) / std::max(1, maxTicks)));
    std::vector<AxisTick> ticks;
    for (double e = first; e <= last; e += stride) ticks.push_back({e, QString::number(std::pow(10.0, e), 'g', 3)});
    return ticks;
}

QString inversionText(std::size_t count) {
    return count == 1 ? QObject::tr("1 inversion") : QObject::tr("%1 inversions").arg(count);
}

double heightAxisWidth(const QFont& font) {
    const QFontMetricsF metrics(font);
    return metrics.height() + 12 + metrics.horizontalAdvance(QStringLiteral("8888.88")) + kTickLength;
}

void paintHeightAxis(QPainter& painter, const QRectF& plot, const DendrogramView& view, const HeightScale& scale,
                     const QString& title) {
    const QFontMetricsF metrics(painter.font());
    const int maxTicks = std::max(2, static_cast<int>(plot.height() / (2.5 * metrics.height())));
    painter.save();
    double widest = 0.0;
    for (const AxisTick& tick : heightTicks(view.y0(), view.y1(), scale, maxTicks)) {
        const double y = view.toPixel(view.x0(), tick.axis, plot).y();
        if (y < plot.top() - 0.5 || y > plot.bottom() + 0.5) continue;
        painter.setPen(QPen(kGridColor, 0));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(QPen(kAxisColor, 0));
        painter.drawLine(QPointF(plot.left() - kTickLength, y), QPointF(plot.left(), y));
        const double w = metrics.horizontalAdvance(tick.label);
        widest = std::max(widest, w);
        painter.drawText(QPointF(plot.left() - kTickLength - 3 - w, y + metrics.ascent() / 2.0 - 1), tick.label);
    }
    painter.setPen(QPen(kAxisColor, 0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    QFont bold = painter.font();
    bold.setBold(true);
    painter.setFont(bold);
    // The title sits next to the widest tick label, within the width heightAxisWidth() reserves.
    const double titleLeft = std::max(plot.left() - heightAxisWidth(painter.font()) + 2,
                                      plot.left() - kTickLength - 8 - widest - metrics.height());
    painter.translate(titleLeft, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), metrics.height() + 2),
                     Qt::AlignHCenter | Qt::AlignTop, title);
    painter.restore();
}

void paintLeafAxis(QPainter& painter, const QRectF& plot, const DendrogramView& view, const DendrogramLayout& layout,
                   const std::vector<std::string>* pointNames) {
    const QFontMetricsF metrics(painter.font());
    const auto n = static_cast<double>(layout.leafCount);
    const double firstRank = std::clamp(std::floor(view.x0()), 0.0, n);
    const double endRank = std::clamp(std::ceil(view.x1()), 0.0, n);
    const double pxPerLeaf = plot.width() / (view.x1() - view.x0());
    const auto nameOf = [&](std::int32_t leaf) {
        const auto id = static_cast<std::size_t>(leaf);
        return pointNames && id < pointNames->size() ? QString::fromStdString((*pointNames)[id])
                                                     : QString::number(leaf);
    };
    painter.save();
    painter.setPen(QPen(kAxisColor, 0));
    const double y = plot.bottom() + 3 + metrics.ascent();
    bool named = endRank - firstRank <= 200;
    for (double r = firstRank; named && r < endRank; r += 1.0)
        named = metrics.horizontalAdvance(nameOf(layout.order[static_cast<std::size_t>(r)])) + 4 <= pxPerLeaf;
    if (named) {
        for (double r = firstRank; r < endRank; r += 1.0) {
            const QString name = nameOf(layout.order[static_cast<std::size_t>(r)]);
            const double x = view.toPixel(r + 0.5, 0.0, plot).x() - metrics.horizontalAdvance(name) / 2;
            painter.drawText(QPointF(x, y), name);
        }
    } else {
        const QLocale locale;
        const QString text =
            endRank - firstRank >= n
                ? QObject::tr("%1 leaves (leaf order)").arg(locale.toString(static_cast<qulonglong>(n)))
                : QObject::tr("leaves %1\u2013%2 of %3 (leaf order)")
                      .arg(locale.toString(static_cast<qulonglong>(firstRank) + 1))
                      .arg(locale.toString(static_cast<qulonglong>(endRank)))
                      .arg(locale.toString(static_cast<qulonglong>(n)));
        painter.drawText(QRectF(plot.left(), plot.bottom() + 3, plot.width(), metrics.height() + 2),
                         Qt::AlignHCenter | Qt::AlignTop, text);
    }
    painter.restore();
}

}  // namespace clusterlens::views
