#include "compare/contingency_figure.hpp"

#include <QCoreApplication>
#include <QImage>
#include <QLinearGradient>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "palette.hpp"

namespace clusterlens::views {

namespace {

const QColor kTableTextColor(0x30, 0x30, 0x30);
const QColor kGridLineColor(0xe4, 0xe4, 0xe4);
const QColor kMatchedColor(0x20, 0x20, 0x20);
const QColor kHighlightColor(0xe0, 0x30, 0x30);
constexpr double kBarWidth = 14;
constexpr double kRightMargin = 96;  // colour bar, its ticks and its title
// Rows keep a readable height however many columns there are (a 20 x 400 table is not a sliver).
constexpr double kMinRowHeight = 16;

QString trContingency(const char* text) {
    return QCoreApplication::translate("ContingencyFigure", text);
}

QString shortLabel(std::int32_t label) {
    return label < 0 ? trContingency("noise") : QString::number(label);
}

/// Every step-th label is drawn, so labels of `extent` pixels never overlap in cells of `cell`.
std::size_t labelStep(double extent, double cell) {
    return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(extent / std::max(cell, 1e-9))));
}

/// Display columns of `c` kept when at most `limit` columns may be drawn (one of them "other"): the
/// matched ones, then the largest by count, in display order. All of them when they fit.
std::vector<std::size_t> keptColumns(const FlatComparison& c, std::size_t limit) {
    std::vector<std::size_t> columns(c.cols());
    std::iota(columns.begin(), columns.end(), std::size_t{0});
    if (limit == 0 || c.cols() <= limit) return columns;
    const std::size_t keep = limit - 1;
    const auto total = [&c](std::size_t k) { return c.table.colSums[c.colOrder[k]]; };
    const std::size_t matched = std::min(c.matchedCount, keep);
    std::stable_sort(columns.begin() + static_cast<std::ptrdiff_t>(matched), columns.end(),
                     [&total](std::size_t x, std::size_t y) { return total(x) > total(y); });
    columns.resize(keep);
    std::sort(columns.begin(), columns.end());
    return columns;
}

}  // namespace

ContingencyFigure::ContingencyFigure(std::shared_ptr<const FlatComparison> comparison, std::size_t columnLimit)
    : m_comparison(std::move(comparison)), m_shown(keptColumns(*m_comparison, columnLimit)) {
    std::vector<std::uint8_t> kept(m_comparison->cols(), 0);
    for (std::size_t k : m_shown) kept[k] = 1;
    for (std::size_t k = 0; k < kept.size(); ++k)
        if (!kept[k]) m_other.push_back(k);
}

std::int64_t ContingencyFigure::countAt(std::size_t row, std::size_t col) const {
    if (col < m_shown.size()) return m_comparison->countAt(row, m_shown[col]);
    std::int64_t sum = 0;
    for (std::size_t k : m_other) sum += m_comparison->countAt(row, k);
    return sum;
}

double ContingencyFigure::rowShareAt(std::size_t row, std::size_t col) const {
    if (col < m_shown.size()) return m_comparison->rowShareAt(row, m_shown[col]);
    double sum = 0.0;
    for (std::size_t k : m_other) sum += m_comparison->rowShareAt(row, k);
    return sum;
}

QString ContingencyFigure::columnLabel(std::size_t col) const {
    return col < m_shown.size() ? shortLabel(m_comparison->labelOfCol(m_shown[col])) : trContingency("other");
}

QString ContingencyFigure::ownTitle() const {
    return trContingency("Clusters of %1 vs %2").arg(m_comparison->nameA, m_comparison->nameB);
}

QColor ContingencyFigure::cellColor(double rowShare, std::int64_t count) {
    // Dark for a large share, so the eye goes to where a cluster went, and faded towards white for
    // small shares, so a few stray points do not draw it; white where nothing went.
    if (count <= 0) return Qt::white;
    const double share = std::clamp(rowShare, 0.0, 1.0);
    const QColor hue = Palette::colormap(1.0 - share);
    const double weight = 0.3 + 0.7 * share;
    const auto mix = [weight](int channel) {
        return static_cast<int>(std::lround(255.0 + weight * (channel - 255.0)));
    };
    return QColor(mix(hue.red()), mix(hue.green()), mix(hue.blue()));
}

double ContingencyFigure::rowLabelWidth() const {
    const QFontMetricsF metrics(font(10));
    double width = metrics.horizontalAdvance(QStringLiteral("00"));
    for (std::size_t r = 0; r < m_comparison->rows(); ++r)
        width = std::max(width, metrics.horizontalAdvance(shortLabel(m_comparison->labelOfRow(r))));
    return width;
}

QRectF ContingencyFigure::gridRect(const QRectF& area) const {
    const QFontMetricsF title(font(14, true)), text(font(11)), small(font(10));
    const double top = 8 + title.height() + 4 + text.height() + 12 + text.height() + 4 + small.height() + 6;
    const double left = 8 + text.height() + 8 + rowLabelWidth() + 6;
    const double bottom = (m_other.empty() ? 1.0 : 2.0) * small.height() + 16;  // the note, and what "other" holds
    const double right = legendPosition() == LegendPosition::None ? 8.0 : kRightMargin * style().fontScale;
    const double width = std::max(10.0, area.width() - left - right);
    const double height = std::max(10.0, area.height() - top - bottom);
    // Cells at most 1.5 times wider than high (or higher than wide, unless that makes rows too
    // thin to read), centred in the free space.
    const double cols = static_cast<double>(std::max<std::size_t>(1, shownColumns()));
    const double rows = static_cast<double>(std::max<std::size_t>(1, m_comparison->rows()));
    const double cellW = std::min(width / cols, 1.5 * height / rows);
    const double cellH = std::min(height / rows, std::max(1.5 * cellW, kMinRowHeight));
    return QRectF(area.left() + left + (width - cellW * cols) / 2, area.top() + top, cellW * cols, cellH * rows);
}

QRectF ContingencyFigure::cellRect(const QRectF& area, int row, int col) const {
    const QRectF grid = gridRect(area);
    const double w = grid.width() / static_cast<double>(shownColumns());
    const double h = grid.height() / static_cast<double>(m_comparison->rows());
    return QRectF(grid.left() + col * w, grid.top() + row * h, w, h);
}

HeatmapCell ContingencyFigure::cellAt(const QRectF& area, QPointF pos) const {
    const QRectF grid = gridRect(area);
    if (!grid.contains(pos) || m_comparison->rows() == 0 || shownColumns() == 0) return {};
    const int col = static_cast<int>((pos.x() - grid.left()) / grid.width() * static_cast<double>(shownColumns()));
    const int row =
        static_cast<int>((pos.y() - grid.top()) / grid.height() * static_cast<double>(m_comparison->rows()));
    return {std::min(row, static_cast<int>(m_comparison->rows()) - 1),
            std::min(col, static_cast<int>(shownColumns()) - 1)};
}

void ContingencyFigure::paint(QPainter& painter, const QRectF& area) const {
    painter.save();
    paintBackground(painter, area);
    paintTitle(painter, area);
    if (m_comparison->rows() > 0 && shownColumns() > 0) {
        const QRectF grid = gridRect(area);
        if (m_comparison->rows() * shownColumns() > vectorCellLimit)
            paintCellImage(painter, grid);
        else
            paintCells(painter, grid);
        paintLabels(painter, grid);
        if (legendPosition() != LegendPosition::None) paintColourBar(painter, area, grid);
    }
    painter.restore();
}

void ContingencyFigure::paintTitle(QPainter& painter, const QRectF& area) const {
    const QFont titleFont = font(14, true), textFont = font(11);
    const QFontMetricsF title(titleFont), text(textFont);
    const QRectF line1(area.left() + 8, area.top() + 8, area.width() - 16, title.height());
    painter.setPen(kTableTextColor);
    painter.setFont(titleFont);
    painter.drawText(line1, Qt::AlignHCenter | Qt::AlignVCenter,
                     title.elidedText(this->title(), Qt::ElideMiddle, line1.width()));
    painter.setFont(textFont);
    painter.drawText(
        QRectF(line1.left(), line1.bottom() + 4, line1.width(), text.height()), Qt::AlignHCenter | Qt::AlignVCenter,
        text.elidedText(
            trContingency("%1 \u00b7 N = %2")
                .arg(scoresText(*m_comparison), QLocale().toString(static_cast<qlonglong>(m_comparison->table.n))),
            Qt::ElideRight, line1.width()));
}

void ContingencyFigure::paintCells(QPainter& painter, const QRectF& grid) const {
    const FlatComparison& c = *m_comparison;
    const double w = grid.width() / static_cast<double>(shownColumns()),
                 h = grid.height() / static_cast<double>(c.rows());
    painter.setPen(Qt::NoPen);
    for (std::size_t r = 0; r < c.rows(); ++r)
        for (std::size_t k = 0; k < shownColumns(); ++k)
            painter.fillRect(
                QRectF(grid.left() + static_cast<double>(k) * w, grid.top() + static_cast<double>(r) * h, w, h),
                cellColor(rowShareAt(r, k), countAt(r, k)));
    if (w >= 6 && h >= 6) {
        painter.setPen(QPen(kGridLineColor, 1.0));
        for (std::size_t k = 1; k < shownColumns(); ++k) {
            const double x = grid.left() + static_cast<double>(k) * w;
            painter.drawLine(QPointF(x, grid.top()), QPointF(x, grid.bottom()));
        }
        for (std::size_t r = 1; r < c.rows(); ++r) {
            const double y = grid.top() + static_cast<double>(r) * h;
            painter.drawLine(QPointF(grid.left(), y), QPointF(grid.right(), y));
        }
    }
    paintCounts(painter, grid);
    // The matched pairs' outlines as one path: one element in vector outputs however many pairs.
    QPainterPath matched;
    for (std::size_t i = 0; i < std::min(c.matchedCount, m_shown.size()); ++i)
        matched.addRect(
            QRectF(grid.left() + static_cast<double>(i) * w, grid.top() + static_cast<double>(i) * h, w, h));
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(kMatchedColor, std::min(2.0, std::max(0.5, std::min(w, h) / 8))));
    painter.drawPath(matched);
    if (m_highlight.isValid() && static_cast<std::size_t>(m_highlight.row) < c.rows() &&
        static_cast<std::size_t>(m_highlight.col) < shownColumns()) {
        painter.setPen(QPen(kHighlightColor, 2.5));
        painter.drawRect(QRectF(grid.left() + m_highlight.col * w, grid.top() + m_highlight.row * h, w, h));
    }
    painter.setPen(QPen(kTableTextColor, 1.0));
    painter.drawRect(grid);
}

void ContingencyFigure::paintCellImage(QPainter& painter, const QRectF& grid) const {
    const FlatComparison& c = *m_comparison;
    QImage image(static_cast<int>(shownColumns()), static_cast<int>(c.rows()), QImage::Format_RGB32);
    for (std::size_t r = 0; r < c.rows(); ++r) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(static_cast<int>(r)));
        for (std::size_t k = 0; k < shownColumns(); ++k) line[k] = cellColor(rowShareAt(r, k), countAt(r, k)).rgb();
    }
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(grid, image);
    painter.setPen(QPen(kTableTextColor, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(grid);
}

void ContingencyFigure::paintCounts(QPainter& painter, const QRectF& grid) const {
    const FlatComparison& c = *m_comparison;
    const QFont countFont = font(10);
    const QFontMetricsF metrics(countFont);
    const double w = grid.width() / static_cast<double>(shownColumns()),
                 h = grid.height() / static_cast<double>(c.rows());
    if (h < metrics.height() + 2) return;
    painter.setFont(countFont);
    for (std::size_t r = 0; r < c.rows(); ++r)
        for (std::size_t k = 0; k < shownColumns(); ++k) {
            const std::int64_t count = countAt(r, k);
            if (count == 0) continue;
            const QString text = QString::number(count);
            if (metrics.horizontalAdvance(text) + 4 > w) continue;
            const QColor fill = cellColor(rowShareAt(r, k), count);
            painter.setPen(fill.lightness() < 128 ? Qt::white : Qt::black);
            painter.drawText(
                QRectF(grid.left() + static_cast<double>(k) * w, grid.top() + static_cast<double>(r) * h, w, h),
                Qt::AlignCenter, text);
        }
}

void ContingencyFigure::paintLabels(QPainter& painter, const QRectF& grid) const {
    const FlatComparison& c = *m_comparison;
    const QFont small = font(10), bold = font(11, true);
    const QFontMetricsF metrics(small), boldMetrics(bold);
    const double w = grid.width() / static_cast<double>(shownColumns()),
                 h = grid.height() / static_cast<double>(c.rows());
    painter.setPen(kTableTextColor);
    painter.setFont(small);
    const std::size_t rowStep = labelStep(metrics.height(), h);
    for (std::size_t r = 0; r < c.rows(); r += rowStep)
        painter.drawText(
            QRectF(grid.left() - 6 - rowLabelWidth(), grid.top() + static_cast<double>(r) * h, rowLabelWidth(), h),
            Qt::AlignRight | Qt::AlignVCenter, shortLabel(c.labelOfRow(r)));
    double widest = metrics.horizontalAdvance(QStringLiteral("00"));
    for (std::size_t k = 0; k < shownColumns(); ++k)
        widest = std::max(widest, metrics.horizontalAdvance(columnLabel(k)));
    const std::size_t colStep = labelStep(widest + 6, w);
    const std::size_t shown = shownColumns();
    for (std::size_t k = 0; k < shown; ++k) {
        // "other" is always labelled; a thinned label too close to it gives way.
        const bool other = !m_other.empty() && k + 1 == shown;
        if (!other && (k % colStep != 0 || (!m_other.empty() && k + colStep >= shown))) continue;
        painter.drawText(
            QRectF(grid.left() + static_cast<double>(k) * w - (colStep > 1 ? widest : 0),
                   grid.top() - metrics.height() - 4, w + (colStep > 1 ? 2 * widest : 0), metrics.height()),
            Qt::AlignHCenter | Qt::AlignBottom, columnLabel(k));
    }

    painter.setFont(bold);
    // The column title may reach past a narrow grid (up to three times its width), centred on it.
    const QString columns = FigureStyle::pick(style().xLabel, trContingency("B: %1 (columns)").arg(c.nameB));
    const double titleWidth =
        std::min(3 * grid.width(), std::max(grid.width(), boldMetrics.horizontalAdvance(columns) + 2));
    const QRectF bTitle(grid.center().x() - titleWidth / 2, grid.top() - metrics.height() - 8 - boldMetrics.height(),
                        titleWidth, boldMetrics.height());
    painter.drawText(bTitle, Qt::AlignHCenter | Qt::AlignVCenter,
                     boldMetrics.elidedText(columns, Qt::ElideMiddle, bTitle.width()));
    painter.save();
    painter.translate(grid.left() - 6 - rowLabelWidth() - 8 - boldMetrics.height(), grid.center().y());
    painter.rotate(-90);
    painter.drawText(
        QRectF(-grid.height() / 2, 0, grid.height(), boldMetrics.height()), Qt::AlignCenter,
        boldMetrics.elidedText(FigureStyle::pick(style().yLabel, trContingency("A: %1 (rows)").arg(c.nameA)),
                               Qt::ElideMiddle, grid.height()));
    painter.restore();

    painter.setFont(small);
    const double noteWidth = std::max(grid.width(), 320.0);
    painter.drawText(QRectF(grid.left(), grid.bottom() + 6, noteWidth, metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     QCoreApplication::translate("ContingencyFigure", "Outlined: %n matched pair(s) on the diagonal",
                                                 nullptr, static_cast<int>(c.matchedCount)));
    if (m_other.empty()) return;
    painter.drawText(QRectF(grid.left(), grid.bottom() + 6 + metrics.height(), noteWidth, metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     QCoreApplication::translate("ContingencyFigure", "other: the %n smallest clusters of B, summed",
                                                 nullptr, static_cast<int>(m_other.size())));
}

void ContingencyFigure::paintColourBar(QPainter& painter, const QRectF& area, const QRectF& grid) const {
    const QFont small = font(10);
    const QFontMetricsF metrics(small);
    const double height = std::min(grid.height(), 220.0);
    const QRectF bar(grid.right() + 14, grid.top(), kBarWidth, height - metrics.height() - 8);
    QLinearGradient gradient(bar.topLeft(), bar.bottomLeft());
    for (int i = 0; i <= 8; ++i) gradient.setColorAt(i / 8.0, cellColor(1.0 - i / 8.0, 1));
    painter.fillRect(bar, gradient);
    painter.setPen(QPen(kTableTextColor, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);
    painter.setFont(small);
    const double x = bar.right() + 4;
    painter.drawText(QPointF(x, bar.top() + metrics.ascent() / 2), QStringLiteral("100 %"));
    painter.drawText(QPointF(x, bar.center().y() + metrics.ascent() / 2 - 1), QStringLiteral("50 %"));
    painter.drawText(QPointF(x, bar.bottom() + metrics.ascent() / 2 - 2), QStringLiteral("> 0"));
    const QRectF none(bar.left(), bar.bottom() + 6, kBarWidth, metrics.height());
    painter.drawRect(none);
    painter.drawText(QPointF(x, none.center().y() + metrics.ascent() / 2 - 1), trContingency("none"));
    painter.save();
    painter.translate(
        std::min(area.right() - 4, x + metrics.horizontalAdvance(QStringLiteral("100 %")) + 6 + metrics.height()),
        bar.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-bar.height() / 2 - 40, -metrics.height(), bar.height() + 80, metrics.height()),
                     Qt::AlignCenter, trContingency("share of the row's cluster"));
    painter.restore();
}

}  // namespace clusterlens::views
