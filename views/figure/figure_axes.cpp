#include "figure/figure_axes.hpp"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "scatter/view_window.hpp"

namespace clusterlens::views {

namespace {

const QColor kFigureAxisColor(0x30, 0x30, 0x30);
const QColor kFigureGridColor(0x00, 0x00, 0x00, 26);
constexpr double kFigureMargin = 8.0;  // around the whole figure
constexpr double kFigureTickLength = 5.0;
constexpr double kTickGap = 3.0;  // between a tick and its label

QString tickText(double t, double step, bool log) {
    if (!log) return formatTick(t, step);
    return std::abs(t - std::round(t)) < 1e-9 ? QString::number(std::pow(10.0, t), 'g', 3) : formatTick(t, step);
}

double stepOf(const std::vector<double>& ticks, const AxisSpec& axis) {
    return ticks.size() > 1 ? ticks[1] - ticks[0] : axis.hi - axis.lo;
}

/// The most x ticks whose labels fit side by side in `width` with a gap of two digits between them.
int maxXTicks(const AxisSpec& axis, const QFontMetricsF& metrics, double width) {
    const double gap = 2 * metrics.horizontalAdvance(QLatin1Char('0'));
    for (int m = std::max(2, static_cast<int>(width / (2 * metrics.height()))); m > 2; --m) {
        const std::vector<double> ticks = axisTicks(axis.lo, axis.hi, m, axis.log);
        double total = 0.0;
        for (double t : ticks) total += metrics.horizontalAdvance(tickText(t, stepOf(ticks, axis), axis.log)) + gap;
        if (total <= width) return m;
    }
    return 2;
}

int maxYTicks(const QFontMetricsF& metrics, double height) {
    return std::max(2, static_cast<int>(height / (2.5 * metrics.height())));
}

/// The widest tick label of `axis` when about `maxTicks` ticks are shown.
double widestTick(const AxisSpec& axis, const QFontMetricsF& metrics, int maxTicks) {
    const std::vector<double> ticks = axisTicks(axis.lo, axis.hi, maxTicks, axis.log);
    double widest = metrics.horizontalAdvance(QStringLiteral("0"));
    for (double t : ticks)
        widest = std::max(widest, metrics.horizontalAdvance(tickText(t, stepOf(ticks, axis), axis.log)));
    return widest;
}

}  // namespace

std::vector<double> axisTicks(double lo, double hi, int maxTicks, bool log) {
    if (!log) return niceTicks(lo, hi, maxTicks);
    const double first = std::ceil(lo), last = std::floor(hi);
    if (last < first) return niceTicks(lo, hi, maxTicks);
    const double every = std::max(1.0, std::ceil((last - first + 1) / std::max(1, maxTicks)));
    std::vector<double> ticks;
    for (double t = first; t <= last; t += every) ticks.push_back(t);
    return ticks;
}

XYLayout layoutXY(const QRectF& area, const AxesFonts& fonts, const QString& title, const QString& subtitle,
                  const AxisSpec& x, const AxisSpec& y, const FigureLegend& legend, LegendPosition position) {
    const QFontMetricsF titleMetrics(fonts.title), text(fonts.text), label(fonts.label);
    XYLayout layout;
    double top = area.top() + kFigureMargin;
    const double titleHeight =
        (title.isEmpty() ? 0.0 : titleMetrics.height() + 2) + (subtitle.isEmpty() ? 0.0 : text.height() + 2);
    layout.title = QRectF(area.left() + kFigureMargin, top, area.width() - 2 * kFigureMargin, titleHeight);
    if (titleHeight > 0) top += titleHeight + text.height() * 0.5;
    QRectF rest(area.left() + kFigureMargin, top, area.width() - 2 * kFigureMargin,
                area.bottom() - kFigureMargin - top);
    rest = reserveLegend(rest, legend, fonts.text, position, &layout.legend);
    // Room for the tick labels and axis titles; the last x label may reach half its width past the frame.
    const double left = (y.title.isEmpty() ? 0.0 : label.height() + 4) +
                        widestTick(y, text, maxYTicks(text, rest.height())) + kFigureTickLength + kTickGap;
    const double right = 0.5 * widestTick(x, text, maxXTicks(x, text, rest.width()));
    const double bottom = kFigureTickLength + kTickGap + text.height() + (x.title.isEmpty() ? 0.0 : label.height() + 4);
    const double topRoom = text.height() / 2;  // the top y label is centred on the frame's edge
    layout.plot = QRectF(rest.left() + left, rest.top() + topRoom, std::max(10.0, rest.width() - left - right),
                         std::max(10.0, rest.height() - bottom - topRoom));
    // A legend beside the plot is as high as the frame.
    if (position == LegendPosition::Left || position == LegendPosition::Right)
        layout.legend = QRectF(layout.legend.left(), layout.plot.top(), layout.legend.width(), layout.plot.height());
    return layout;
}

void paintTitleBlock(QPainter& painter, const QRectF& box, const AxesFonts& fonts, const QString& title,
                     const QString& subtitle) {
    const QFontMetricsF titleMetrics(fonts.title), text(fonts.text);
    painter.save();
    painter.setPen(kFigureAxisColor);
    double y = box.top();
    if (!title.isEmpty()) {
        painter.setFont(fonts.title);
        painter.drawText(QRectF(box.left(), y, box.width(), titleMetrics.height()), Qt::AlignCenter,
                         titleMetrics.elidedText(title, Qt::ElideMiddle, box.width()));
        y += titleMetrics.height() + 2;
    }
    if (!subtitle.isEmpty()) {
        painter.setFont(fonts.text);
        painter.drawText(QRectF(box.left(), y, box.width(), text.height()), Qt::AlignCenter,
                         text.elidedText(subtitle, Qt::ElideMiddle, box.width()));
    }
    painter.restore();
}

void paintAxes(QPainter& painter, const QRectF& plot, const AxisSpec& x, const AxisSpec& y, const AxesFonts& fonts) {
    const QFontMetricsF metrics(fonts.text), label(fonts.label);
    painter.save();
    painter.setFont(fonts.text);
    const std::vector<double> xTicks = axisTicks(x.lo, x.hi, maxXTicks(x, metrics, plot.width()), x.log);
    const std::vector<double> yTicks = axisTicks(y.lo, y.hi, maxYTicks(metrics, plot.height()), y.log);
    double widestY = 0.0;
    for (double t : xTicks) {
        const double at = axisPosition(x, t, plot.left(), plot.right());
        painter.setPen(QPen(kFigureGridColor, 1.0));
        painter.drawLine(QPointF(at, plot.top()), QPointF(at, plot.bottom()));
        painter.setPen(QPen(kFigureAxisColor, 1.0));
        painter.drawLine(QPointF(at, plot.bottom()), QPointF(at, plot.bottom() + kFigureTickLength));
        const QString text = tickText(t, stepOf(xTicks, x), x.log);
        painter.drawText(QPointF(at - metrics.horizontalAdvance(text) / 2,
                                 plot.bottom() + kFigureTickLength + kTickGap + metrics.ascent()),
                         text);
    }
    for (double t : yTicks) {
        const double at = axisPosition(y, t, plot.bottom(), plot.top());
        painter.setPen(QPen(kFigureGridColor, 1.0));
        painter.drawLine(QPointF(plot.left(), at), QPointF(plot.right(), at));
        painter.setPen(QPen(kFigureAxisColor, 1.0));
        painter.drawLine(QPointF(plot.left() - kFigureTickLength, at), QPointF(plot.left(), at));
        const QString text = tickText(t, stepOf(yTicks, y), y.log);
        widestY = std::max(widestY, metrics.horizontalAdvance(text));
        painter.drawText(QPointF(plot.left() - kFigureTickLength - kTickGap - metrics.horizontalAdvance(text),
                                 at + metrics.ascent() / 2 - 1),
                         text);
    }
    painter.setFont(fonts.label);
    if (!x.title.isEmpty()) {
        const QRectF box(plot.left(), plot.bottom() + kFigureTickLength + kTickGap + metrics.height() + 2, plot.width(),
                         label.height());
        painter.drawText(box, Qt::AlignCenter, label.elidedText(x.title, Qt::ElideMiddle, plot.width()));
    }
    if (!y.title.isEmpty()) {
        painter.translate(plot.left() - kFigureTickLength - kTickGap - widestY - 4 - label.height(), plot.center().y());
        painter.rotate(-90);
        painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), label.height()), Qt::AlignCenter,
                         label.elidedText(y.title, Qt::ElideMiddle, plot.height()));
    }
    painter.restore();
}

void paintFrame(QPainter& painter, const QRectF& plot) {
    painter.save();
    painter.setPen(QPen(kFigureAxisColor, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    painter.restore();
}

}  // namespace clusterlens::views
