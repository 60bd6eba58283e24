#include "dendrogram/clustermap.hpp"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

#include "palette.hpp"

namespace clusterlens::views {

namespace {

constexpr double kRowPadding = 2.0;  // logical pixels between a row's text and the next row

QColor mix(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// Columns of a tree without a cut: blocks of consecutive ranks of (nearly) equal size.
void leafBlocks(const DendrogramLayout& layout, Clustermap& map, std::vector<std::int32_t>& labels) {
    const auto n = static_cast<std::int64_t>(layout.leafCount);
    const std::int64_t blocks = std::min<std::int64_t>(kClustermapBlocks, n);
    labels.assign(layout.leafCount, 0);
    for (std::int64_t b = 0; b < blocks; ++b) {
        const std::int64_t begin = b * n / blocks, end = (b + 1) * n / blocks;
        map.first.push_back(static_cast<std::int32_t>(begin));
        map.size.push_back(static_cast<std::int32_t>(end - begin));
        map.small.push_back(0);
        for (std::int64_t rank = begin; rank < end; ++rank)
            labels[static_cast<std::size_t>(layout.order[static_cast<std::size_t>(rank)])] =
                static_cast<std::int32_t>(b);
    }
}

}  // namespace

std::shared_ptr<const Clustermap> buildClustermap(const DendrogramLayout& layout, const DendrogramCut* cut,
                                                  const FeatureSelection& features, MarkerScaling scaling,
                                                  JobControl* control) {
    if (!features.fits(layout)) return nullptr;
    auto map = std::make_shared<Clustermap>();
    map->markers = features.names;
    map->scaling = scaling;
    std::vector<std::int32_t> blockLabels;
    const std::vector<std::int32_t>* labels = &blockLabels;
    if (cut && cut->k > 1) {
        map->perCluster = true;
        for (std::size_t id = 0; id < cut->roots.size(); ++id) {
            const auto root = static_cast<std::size_t>(cut->roots[id]);
            map->first.push_back(layout.first[root]);
            map->size.push_back(layout.size[root]);
            map->small.push_back(cut->isSmall(static_cast<int>(id)) ? 1 : 0);
        }
        labels = &cut->labels;
    } else {
        leafBlocks(layout, *map, blockLabels);
    }
    map->medians = clusterMedians(*features.dataset, features.columns, *labels, map->columnCount(), control);
    // Small clusters stay out of the scaling: a single outlier event would stretch every marker.
    std::vector<double> kept = map->medians.values;
    const std::size_t f = features.columns.size();
    for (std::size_t c = 0; c < map->columnCount(); ++c)
        if (map->small[c])
            std::fill_n(kept.begin() + static_cast<std::ptrdiff_t>(c * f), f, std::numeric_limits<double>::quiet_NaN());
    map->scaled = scalePerColumn(kept, map->columnCount(), f, scaling);
    return map;
}

QColor clustermapColor(double value, MarkerScaling scaling) {
    if (std::isnan(value)) return QColor(0xd9, 0xd9, 0xd9);
    if (scaling == MarkerScaling::MinMax) return Palette::colormap(value);
    const double t = std::clamp(value / kClustermapZClip, -1.0, 1.0);
    static const QColor blue(0x21, 0x66, 0xac), white(0xf7, 0xf7, 0xf7), red(0xb2, 0x18, 0x2b);
    return t < 0 ? mix(white, blue, -t) : mix(white, red, t);
}

double clustermapHeight(int rows, const QFont& font) {
    const QFontMetricsF metrics(font);
    return rows * (metrics.height() + kRowPadding);
}

void paintClustermap(QPainter& painter, const Clustermap& map, const DendrogramView& view, const QRectF& band,
                     const QRectF& labels, const QFont& font) {
    const auto rows = static_cast<int>(map.markers.size());
    if (rows == 0 || band.width() <= 0 || band.height() <= 0) return;
    painter.save();
    const double rowHeight = band.height() / rows;
    const QRectF plot(band.left(), band.top(), band.width(), band.height());
    // Rows squeezed below a text line get a smaller font, down to 6 pixels.
    QFont labelFont = font;
    const double lineHeight = QFontMetricsF(font).height();
    if (lineHeight > rowHeight + kRowPadding && labelFont.pixelSize() > 0)
        labelFont.setPixelSize(
            std::max(6, static_cast<int>(labelFont.pixelSize() * (rowHeight + kRowPadding) / lineHeight)));
    else if (lineHeight > rowHeight + kRowPadding)
        labelFont.setPointSizeF(std::max(4.5, labelFont.pointSizeF() * (rowHeight + kRowPadding) / lineHeight));
    painter.setFont(labelFont);
    const QFontMetricsF metrics(labelFont);
    painter.setPen(QColor(0x10, 0x10, 0x10));
    for (int r = 0; r < rows && labels.width() > 4; ++r)
        painter.drawText(QRectF(labels.left(), band.top() + r * rowHeight, labels.width() - 4, rowHeight),
                         Qt::AlignRight | Qt::AlignVCenter,
                         metrics.elidedText(map.markers[r], Qt::ElideMiddle, labels.width() - 4));
    painter.setClipRect(band);
    painter.setPen(Qt::NoPen);
    for (std::size_t c = 0; c < map.columnCount(); ++c) {
        const double x0 = view.toPixel(map.first[c], 0.0, plot).x();
        const double x1 = view.toPixel(map.first[c] + map.size[c], 0.0, plot).x();
        if (x1 < band.left() || x0 > band.right()) continue;
        for (int r = 0; r < rows; ++r) {
            const QColor colour = map.small[c]
                                      ? Palette::noiseColor()
                                      : clustermapColor(map.scaledAt(c, static_cast<std::size_t>(r)), map.scaling);
            painter.fillRect(QRectF(x0, band.top() + r * rowHeight, std::max(x1 - x0, 0.5), rowHeight), colour);
        }
    }
    painter.restore();
}

void paintClustermapScale(QPainter& painter, MarkerScaling scaling, const QRectF& box, const QFont& font) {
    if (box.width() < 30 || box.height() < 8) return;
    painter.save();
    painter.setFont(font);
    const QFontMetricsF metrics(font);
    const bool z = scaling == MarkerScaling::ZScore;
    const QString low = z ? QStringLiteral("\u2212%1").arg(kClustermapZClip) : QStringLiteral("0");
    const QString high = z ? QStringLiteral("+%1").arg(kClustermapZClip) : QStringLiteral("1");
    const QString title =
        z ? QObject::tr("median, z-score per marker") : QObject::tr("median, min\u2013max per marker");
    painter.setPen(QColor(0x10, 0x10, 0x10));
    painter.drawText(QRectF(box.left(), box.top(), box.width(), metrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(title, Qt::ElideRight, box.width()));
    const double barTop = box.top() + metrics.height() + 1;
    const double barHeight = std::max(4.0, std::min(8.0, box.bottom() - barTop - metrics.height()));
    const double lowWidth = metrics.horizontalAdvance(low) + 3, highWidth = metrics.horizontalAdvance(high) + 3;
    const QRectF bar(box.left() + lowWidth, barTop, std::max(10.0, box.width() - lowWidth - highWidth), barHeight);
    constexpr int kSteps = 32;
    painter.setPen(Qt::NoPen);
    for (int s = 0; s < kSteps; ++s) {
        const double t = (s + 0.5) / kSteps;
        const double value = z ? (2 * t - 1) * kClustermapZClip : t;
        painter.fillRect(
            QRectF(bar.left() + bar.width() * s / kSteps, bar.top(), bar.width() / kSteps + 0.3, bar.height()),
            clustermapColor(value, scaling));
    }
    painter.setPen(QColor(0x10, 0x10, 0x10));
    painter.drawText(QRectF(box.left(), bar.top() - 3, lowWidth, bar.height() + 6), Qt::AlignLeft | Qt::AlignVCenter,
                     low);
    painter.drawText(QRectF(bar.right() + 3, bar.top() - 3, highWidth, bar.height() + 6),
                     Qt::AlignLeft | Qt::AlignVCenter, high);
    painter.restore();
}

double clustermapFigureExtent(const Clustermap& map, const QFont& font) {
    const QFontMetricsF metrics(font);
    return clustermapHeight(static_cast<int>(map.markers.size()), font) + 2 * metrics.height() + 8;
}

void paintClustermapFigure(QPainter& painter, const Clustermap& map, const DendrogramView& view, const QRectF& plot,
                           double top, double labelsLeft, const QFont& font) {
    const QRectF band(plot.left(), top, plot.width(), clustermapHeight(static_cast<int>(map.markers.size()), font));
    paintClustermap(painter, map, view, band, QRectF(labelsLeft, top, plot.left() - labelsLeft, band.height()), font);
    const QFontMetricsF metrics(font);
    paintClustermapScale(painter, map.scaling,
                         QRectF(band.left(), band.bottom() + 4, std::min(260.0, band.width()), 2 * metrics.height()),
                         font);
}

}  // namespace clusterlens::views
