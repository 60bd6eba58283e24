#include "vat/vat_figure.hpp"

#include <QPaintDevice>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "clusterlens/io/number_text.hpp"
#include "figure/figure_range.hpp"
#include "vat/vat_frame_renderer.hpp"
#include "vat/vat_overlay.hpp"

namespace clusterlens::views {

namespace {

constexpr double kVatVectorImageScale = 3.0;  // image pixels per point in PDF and SVG
constexpr int kVatMaxImageSide = 8192;
constexpr double kColourBarWidth = 16.0;

}  // namespace

VatFigure::VatFigure(std::shared_ptr<const VatFrameRenderer> renderer, VatFigureOptions options)
    : m_renderer(std::move(renderer)), m_options(std::move(options)) {
    if (m_options.window.n() == 0 && m_renderer) m_options.window.reset(m_renderer->n());
}

QRectF VatFigure::plotRect(const QRectF& area) const {
    // Room for the title, the position ticks and (right) the colour bar with its labels.
    const double scale = style().fontScale;
    const bool bar = legendPosition() != LegendPosition::None;
    const double strips = stripsExtent();
    const double left = 84.0 * scale, top = 66.0 * scale, right = (bar ? 96.0 * scale : 16.0) + strips,
                 bottom = 16.0 + strips;
    const double side = std::max(10.0, std::min(area.width() - left - right, area.height() - top - bottom));
    return {area.left() + left, area.top() + top, side, side};
}

void VatFigure::paint(QPainter& painter, const QRectF& area) const {
    if (!m_renderer) return;
    const QRectF plot = plotRect(area);
    // One image pixel per device pixel on raster outputs; vector outputs get a fixed oversampling.
    const bool raster = painter.device() && painter.device()->devType() == QInternal::Image;
    const QRectF device = painter.deviceTransform().mapRect(plot);
    const double scale = raster ? 1.0 : kVatVectorImageScale;
    const int side = std::clamp(static_cast<int>(std::lround(device.width() * scale)), 1, kVatMaxImageSide);

    const VatPixelMode mode =
        m_options.display.kind == VatImageKind::Ivat ? VatPixelMode::Representative : m_options.display.mode;
    VatImage image = renderVatImage(
        *m_renderer, m_options.window.viewport(QSize(side, side), m_options.display.kind, mode), m_options.display);
    if (m_options.levels) std::tie(image.lo, image.hi) = *m_options.levels;
    const QImage pixels = colouriseVatImage(image, vatColourTable(m_options.display), m_options.display.gamma);

    painter.save();
    paintBackground(painter, area);
    const QFont titleFont = font(14, true);
    painter.setFont(titleFont);
    painter.setPen(Qt::black);
    const QFontMetricsF titleMetrics(titleFont);
    painter.drawText(QRectF(area.left(), area.top() + 6, area.width(), titleMetrics.height()),
                     Qt::AlignHCenter | Qt::AlignTop, titleMetrics.elidedText(title(), Qt::ElideMiddle, area.width()));
    painter.restore();

    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(plot, pixels);
    painter.restore();
    painter.save();
    painter.setFont(font(11));
    painter.setRenderHint(QPainter::Antialiasing, false);
    paintVatAxes(painter, plot, m_options.window);
    painter.setRenderHint(QPainter::Antialiasing, true);
    paintVatCutBoxes(painter, plot, m_options.window, m_options.cuts);
    painter.restore();
    const double strips = stripsExtent();
    if (strips > 0) {
        const auto& order = *m_options.order;
        const auto idAt = [&order](std::size_t position) { return static_cast<std::size_t>(order[position]); };
        const VatWindow& w = m_options.window;
        painter.save();
        painter.setFont(font(11));
        paintColourStrips(painter,
                          {QRectF(plot.left(), plot.bottom() + 2, plot.width(), strips), w.col0(), w.col1(), false,
                           plot.left() - area.left() - 4},
                          *m_options.strips, order.size(), order.size(), idAt);
        paintColourStrips(painter,
                          {QRectF(plot.right() + 2, plot.top(), strips, plot.height()), w.row0(), w.row1(), true, 0.0},
                          *m_options.strips, order.size(), order.size(), idAt);
        painter.restore();
    }
    if (legendPosition() != LegendPosition::None)
        paintColourBar(painter, QRectF(plot.right() + 18 + strips, plot.top(), kColourBarWidth, plot.height()), image);
}

std::size_t VatFigure::stripCount() const {
    return m_options.order ? fittingStripCount(m_options.strips.get(), m_options.order->size()) : 0;
}

double VatFigure::stripsExtent() const {
    return colourStripsExtent(font(11), stripCount());
}

void VatFigure::paintColourBar(QPainter& painter, const QRectF& bar, const VatImage& image) const {
    const std::vector<std::uint8_t> table = vatColourTable(m_options.display);
    QImage ramp(1, 256, QImage::Format_RGB32);
    for (int i = 0; i < 256; ++i) {
        const auto k = static_cast<std::size_t>(3 * (255 - i));  // the largest distance on top
        ramp.setPixel(0, i, qRgb(table[k], table[k + 1], table[k + 2]));
    }
    painter.save();
    painter.setFont(font(11));
    painter.drawImage(bar, ramp);
    painter.setPen(QColor(90, 90, 90));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);
    painter.setPen(Qt::black);
    const QFontMetricsF metrics(painter.font());
    const double x = bar.right() + 4;
    painter.drawText(QPointF(x, bar.top() + metrics.ascent()), QString::number(image.hi, 'g', 4));
    painter.drawText(QPointF(x, bar.bottom()), QString::number(image.lo, 'g', 4));
    painter.translate(x + metrics.height(), bar.center().y());
    painter.rotate(90);
    const QString label = QStringLiteral("%1 distance").arg(vatKindName(m_options.display.kind));
    painter.drawText(QPointF(-metrics.horizontalAdvance(label) / 2, 0), label);
    painter.restore();
}

QStringList vatDisplayWords(const VatDisplay& display, const std::optional<std::pair<float, float>>& levels) {
    const auto text = [](auto value) {  // double or float: the shortest text of that type
        std::string out;
        appendShortest(out, value);
        return QString::fromStdString(out);
    };
    const VatDisplay defaults;
    QStringList words;
    if (display.kind == VatImageKind::Vat && display.mode == VatPixelMode::BlockMean)
        words << QStringLiteral("--pixel") << QStringLiteral("mean");
    if (display.reversed) words << QStringLiteral("--reverse");
    if (display.gamma != defaults.gamma) words << QStringLiteral("--gamma") << text(display.gamma);
    if (display.lowPercent != defaults.lowPercent || display.highPercent != defaults.highPercent)
        words << QStringLiteral("--clip") << text(display.lowPercent) + QLatin1Char(',') + text(display.highPercent);
    if (levels) words << QStringLiteral("--levels") << text(levels->first) + QLatin1Char(',') + text(levels->second);
    return words;
}

QStringList vatWindowWords(const VatWindow& window) {
    return {QStringLiteral("--rows"), rangeText(window.row0(), window.row1()), QStringLiteral("--cols"),
            rangeText(window.col0(), window.col1())};
}

VatWindow vatWindowOf(std::size_t n, std::pair<double, double> rows, std::pair<double, double> cols) {
    VatWindow window;
    window.reset(n);
    window.setWindow(rows.first, cols.first, rows.second - rows.first);
    return window;
}

VatWindow vatWindowAsWritten(const VatWindow& window) {
    const QStringList words = vatWindowWords(window);
    return vatWindowOf(window.n(), readRangeText(words[1]), readRangeText(words[3]));
}

}  // namespace clusterlens::views
