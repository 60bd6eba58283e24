#include "colour_strips.hpp"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

#include "marker_scale.hpp"
#include "palette.hpp"

namespace clusterlens::views {

namespace {

constexpr int kMaxStripPixels = 8192;  // a strip of 10^6 points is drawn from at most this many samples
const QColor kTitleColor(0x30, 0x30, 0x30);

/// The strip's colours over ranks [begin, end), as an image one pixel thick: a pixel per rank, or
/// evenly spaced samples when there are more ranks than kMaxStripPixels.
QImage stripImage(const ColourStrip& strip, const std::function<std::size_t(std::size_t)>& idAt, std::size_t begin,
                  std::size_t end, bool vertical) {
    const std::size_t ranks = end - begin;
    const int pixels = static_cast<int>(std::min<std::size_t>(ranks, kMaxStripPixels));
    QImage image(vertical ? 1 : pixels, vertical ? pixels : 1, QImage::Format_ARGB32);
    for (int p = 0; p < pixels; ++p) {
        const auto rank =
            begin + static_cast<std::size_t>((static_cast<double>(p) + 0.5) * static_cast<double>(ranks) / pixels);
        const QRgb colour = strip.colours[idAt(std::min(rank, end - 1))];
        image.setPixel(vertical ? 0 : p, vertical ? p : 0, colour);
    }
    return image;
}

}  // namespace

ColourStrip labelingStrip(const QString& title, const std::vector<std::int32_t>& labels, const LabelStyle* style) {
    ColourStrip strip;
    strip.title = title;
    strip.colours.resize(labels.size());
    std::int32_t top = -1;
    for (std::int32_t label : labels) top = std::max(top, label);
    std::vector<QRgb> lookup(static_cast<std::size_t>(top) + 1);
    for (std::size_t l = 0; l < lookup.size(); ++l) {
        const bool own = style && l < style->colours.size() && style->colours[l].isValid();
        lookup[l] = (own ? style->colours[l] : Palette::labelColor(static_cast<int>(l))).rgba();
    }
    const QRgb noise = Palette::noiseColor().rgba();
    for (std::size_t i = 0; i < labels.size(); ++i)
        strip.colours[i] = labels[i] < 0 ? noise : lookup[static_cast<std::size_t>(labels[i])];
    return strip;
}

ColourStrip markerStrip(const Dataset& dataset, std::size_t column) {
    const MarkerScale scale = markerScale(dataset, column);
    ColourStrip strip;
    strip.title = scale.title;
    std::array<QRgb, 256> ramp{};
    for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = Palette::colormap(static_cast<double>(i) / 255.0).rgba();
    strip.colours.resize(dataset.n);
    for (std::size_t i = 0; i < dataset.n; ++i)
        strip.colours[i] = ramp[static_cast<std::size_t>(
            std::lround(scale.normalised(dataset.values[i * dataset.d + column]) * 255.0))];
    return strip;
}

double colourStripHeight(const QFont& font) {
    return std::max(6.0, QFontMetricsF(font).height() * 0.8);
}

double colourStripsExtent(const QFont& font, std::size_t count) {
    return count == 0 ? 0.0 : static_cast<double>(count) * (colourStripHeight(font) + 2.0);
}

std::size_t fittingStripCount(const ColourStrips* strips, std::size_t size) {
    if (!strips) return 0;
    return static_cast<std::size_t>(std::count_if(strips->begin(), strips->end(),
                                                  [size](const ColourStrip& s) { return s.colours.size() == size; }));
}

void paintColourStrips(QPainter& painter, const StripBand& band, const ColourStrips& strips, std::size_t count,
                       std::size_t stripSize, const std::function<std::size_t(std::size_t)>& idAt) {
    if (count == 0 || !(band.last > band.first)) return;
    const double n = static_cast<double>(count);
    const auto begin = static_cast<std::size_t>(std::clamp(std::floor(band.first), 0.0, n));
    const auto end = static_cast<std::size_t>(std::clamp(std::ceil(band.last), 0.0, n));
    if (end <= begin) return;
    const QRectF& r = band.rect;
    const double length = band.vertical ? r.height() : r.width();
    const double a = (static_cast<double>(begin) - band.first) / (band.last - band.first) * length;
    const double b = (static_cast<double>(end) - band.first) / (band.last - band.first) * length;
    const std::size_t fitting = fittingStripCount(&strips, stripSize);
    if (fitting == 0) return;
    const double thick = (band.vertical ? r.width() : r.height()) / static_cast<double>(fitting) - 2.0;
    const QFontMetricsF metrics(painter.font());
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    double offset = 0.0;
    for (const ColourStrip& strip : strips) {
        if (strip.colours.size() != stripSize) continue;
        const QRectF target = band.vertical ? QRectF(r.left() + offset, r.top() + a, thick, b - a)
                                            : QRectF(r.left() + a, r.top() + offset, b - a, thick);
        painter.save();
        painter.setClipRect(band.vertical ? QRectF(r.left() + offset, r.top(), thick, r.height())
                                          : QRectF(r.left(), r.top() + offset, r.width(), thick));
        painter.drawImage(target, stripImage(strip, idAt, begin, end, band.vertical));
        painter.restore();
        if (band.titleWidth > 0 && !band.vertical) {
            painter.setPen(kTitleColor);
            const QRectF text(r.left() - 4 - band.titleWidth, r.top() + offset + thick / 2 - metrics.height() / 2,
                              band.titleWidth, metrics.height());
            painter.drawText(text, Qt::AlignRight | Qt::AlignVCenter,
                             metrics.elidedText(strip.title, Qt::ElideMiddle, text.width()));
        }
        offset += thick + 2.0;
    }
    painter.restore();
}

}  // namespace clusterlens::views
