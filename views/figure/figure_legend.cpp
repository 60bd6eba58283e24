#include "figure/figure_legend.hpp"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>

#include "palette.hpp"

namespace clusterlens::views {

namespace {

const QColor kLegendTextColor(0x20, 0x20, 0x20);
constexpr std::size_t kMaxRowsAcross = 4;  // a top or bottom legend never takes more rows than this

bool isColumn(LegendPosition position) {
    return position == LegendPosition::Left || position == LegendPosition::Right || position == LegendPosition::Auto;
}

/// Where every entry of a legend goes, relative to the legend's top left corner.
struct Placement {
    std::vector<QPointF> items;  // top left of each shown item (swatch then text)
    QPointF more;                // the "… N more" line, when some items are left out
    QSizeF size;
};

struct Metrics {
    explicit Metrics(const QFont& font)
        : text(font), line(text.height() * 1.15), swatch(text.height() * 0.72), gap(text.height() * 0.4) {}
    QFontMetricsF text;
    double line, swatch, gap;
    /// Lines and ramps need a longer sample than a patch of colour.
    double swatchWidth(const LegendItem& item) const {
        return item.swatch == LegendSwatch::DashedLine || item.swatch == LegendSwatch::Ramp ? 2.2 * swatch : swatch;
    }
    double itemWidth(const LegendItem& item) const {
        return swatchWidth(item) + gap + text.horizontalAdvance(item.text);
    }
};

}  // namespace

std::size_t FigureLegend::shownItems() const {
    return items.size() > maxItems ? maxItems - 1 : items.size();
}

QString FigureLegend::moreText(std::size_t shown) const {
    return QCoreApplication::translate("FigureLegend", "\u2026 %1 more").arg(items.size() - shown);
}

namespace {

Placement place(const FigureLegend& legend, std::size_t shown, const QString& more, const Metrics& m,
                LegendPosition position, double across) {
    Placement p;
    double y = legend.heading.isEmpty() ? 0.0 : m.line;
    double width = legend.heading.isEmpty() ? 0.0 : m.text.horizontalAdvance(legend.heading);
    if (isColumn(position)) {
        for (std::size_t i = 0; i < shown; ++i, y += m.line) {
            p.items.emplace_back(0.0, y);
            width = std::max(width, m.itemWidth(legend.items[i]));
        }
        if (shown < legend.items.size()) {
            p.more = QPointF(0.0, y);
            y += m.line;
            width = std::max(width, m.itemWidth(LegendItem{QColor(), more}));
        }
        p.size = QSizeF(width, y);
        return p;
    }
    // Rows across the figure: items left to right, wrapping at `across`, at most kMaxRowsAcross rows.
    const double spacing = 1.5 * m.gap + m.swatch;
    double x = 0.0;
    std::size_t rows = 1;
    for (std::size_t i = 0; i < shown; ++i) {
        const double w = m.itemWidth(legend.items[i]);
        if (x > 0.0 && x + w > across) {
            if (++rows > kMaxRowsAcross) break;
            x = 0.0;
            y += m.line;
        }
        p.items.emplace_back(x, y);
        x += w + spacing;
        width = std::max(width, x - spacing);
    }
    if (p.items.size() < legend.items.size()) {
        if (x + m.itemWidth(LegendItem{QColor(), more}) > across && x > 0.0) x = 0.0, y += m.line;
        p.more = QPointF(x, y);
        width = std::max(width, x + m.itemWidth(LegendItem{QColor(), more}));
    }
    p.size = QSizeF(std::min(width, across), y + m.line);
    return p;
}

void paintSwatch(QPainter& painter, const LegendItem& item, const QRectF& box) {
    painter.setPen(Qt::NoPen);
    painter.setBrush(item.colour);
    switch (item.swatch) {
        case LegendSwatch::Square:
            painter.drawRect(box);
            break;
        case LegendSwatch::Dot:
            painter.drawEllipse(box.adjusted(1, 1, -1, -1));
            break;
        case LegendSwatch::DashedLine:
            painter.setPen(QPen(item.colour, 1.5, Qt::DashLine));
            painter.drawLine(QPointF(box.left(), box.center().y()), QPointF(box.right(), box.center().y()));
            break;
        case LegendSwatch::Ramp: {
            QLinearGradient gradient(box.topLeft(), box.topRight());
            for (int i = 0; i <= 4; ++i) gradient.setColorAt(i / 4.0, Palette::colormap(i / 4.0));
            painter.fillRect(box, gradient);
            break;
        }
    }
}

}  // namespace

QSizeF FigureLegend::size(const QFont& font, LegendPosition position, double across) const {
    if (position == LegendPosition::None || isEmpty()) return {};
    const Metrics m(font);
    if (colourBar) {
        const double labels = std::max(m.text.horizontalAdvance(barLow), m.text.horizontalAdvance(barHigh));
        const double head = heading.isEmpty() ? 0.0 : m.text.horizontalAdvance(heading);
        if (isColumn(position))
            return {std::max(head, m.swatch + m.gap + labels), (heading.isEmpty() ? 0 : m.line) + 8 * m.line};
        return {std::min(across, std::max(head, 12 * m.swatch + 2 * labels)),
                (heading.isEmpty() ? 0 : m.line) + 2 * m.line};
    }
    return place(*this, shownItems(), moreText(shownItems()), m, position, across).size;
}

void FigureLegend::paint(QPainter& painter, const QRectF& box, const QFont& font, LegendPosition position) const {
    if (position == LegendPosition::None || isEmpty() || box.isEmpty()) return;
    const Metrics m(font);
    painter.save();
    painter.setFont(font);
    painter.setPen(kLegendTextColor);
    double top = box.top();
    if (!heading.isEmpty()) {
        painter.drawText(QPointF(box.left(), top + m.text.ascent()), heading);
        top += m.line;
    }
    if (colourBar) {
        const bool column = isColumn(position);
        const QRectF bar =
            column
                ? QRectF(box.left(), top + m.text.height() / 2, m.swatch, box.bottom() - top - m.text.height())
                : QRectF(box.left() + m.text.horizontalAdvance(barLow) + m.gap, top + 0.2 * m.line,
                         box.width() - m.text.horizontalAdvance(barLow) - m.text.horizontalAdvance(barHigh) - 2 * m.gap,
                         m.swatch);
        QLinearGradient gradient(column ? bar.bottomLeft() : bar.topLeft(), column ? bar.topLeft() : bar.topRight());
        for (int i = 0; i <= 16; ++i) gradient.setColorAt(i / 16.0, colourBar(i / 16.0));
        painter.fillRect(bar, gradient);
        if (column) {
            painter.drawText(QPointF(bar.right() + m.gap, bar.top() + m.text.ascent() / 2), barHigh);
            painter.drawText(QPointF(bar.right() + m.gap, bar.bottom() + m.text.ascent() / 2), barLow);
        } else {
            const double y = bar.center().y() + m.text.ascent() / 2 - 1;
            painter.drawText(QPointF(box.left(), y), barLow);
            painter.drawText(QPointF(bar.right() + m.gap, y), barHigh);
        }
        painter.restore();
        return;
    }
    // A column shows what fits in the box's height; the last line then tells how many are left out.
    std::size_t shown = shownItems();
    if (isColumn(position)) {
        const auto fit = static_cast<std::size_t>(std::max(1.0, (box.bottom() - top) / m.line));
        if (shown > fit || (shown < items.size() && shown + 1 > fit)) shown = fit - 1;
    }
    const Placement p = place(*this, shown, moreText(shown), m, position, box.width());
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (std::size_t i = 0; i < p.items.size(); ++i) {
        const QPointF at = p.items[i] + QPointF(box.left(), top - (heading.isEmpty() ? 0.0 : m.line));
        const QRectF swatch(at.x(), at.y() + (m.text.height() - m.swatch) / 2, m.swatchWidth(items[i]), m.swatch);
        paintSwatch(painter, items[i], swatch);
        painter.setPen(kLegendTextColor);
        const double room = box.right() - (swatch.right() + m.gap) + 1.0;  // measured widths are not exact
        painter.drawText(QPointF(swatch.right() + m.gap, at.y() + m.text.ascent()),
                         m.text.elidedText(items[i].text, Qt::ElideRight, room));
    }
    if (p.items.size() < items.size())
        painter.drawText(p.more + QPointF(box.left(), top - (heading.isEmpty() ? 0.0 : m.line) + m.text.ascent()),
                         moreText(p.items.size()));
    painter.restore();
}

QRectF reserveLegend(const QRectF& area, const FigureLegend& legend, const QFont& font, LegendPosition position,
                     QRectF* box) {
    *box = QRectF();
    const QSizeF size = legend.size(font, position, area.width());
    if (size.isEmpty()) return area;
    const double gap = QFontMetricsF(font).height() * 0.6;
    QRectF rest = area;
    switch (position) {
        case LegendPosition::Auto:  // resolved by the figure; a column on the right if not
        case LegendPosition::Right:
            *box = QRectF(area.right() - size.width(), area.top(), size.width(), area.height());
            rest.setRight(box->left() - gap);
            break;
        case LegendPosition::Left:
            *box = QRectF(area.left(), area.top(), size.width(), area.height());
            rest.setLeft(box->right() + gap);
            break;
        case LegendPosition::Top:
            *box = QRectF(area.left() + (area.width() - size.width()) / 2, area.top(), size.width(), size.height());
            rest.setTop(box->bottom() + gap);
            break;
        case LegendPosition::Bottom:
            *box = QRectF(area.left() + (area.width() - size.width()) / 2, area.bottom() - size.height(), size.width(),
                          size.height());
            rest.setBottom(box->top() - gap);
            break;
        case LegendPosition::None:
            break;
    }
    return rest;
}

}  // namespace clusterlens::views
