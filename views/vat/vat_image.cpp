#include "vat/vat_image.hpp"

#include <QElapsedTimer>

#include "vat/vat_frame_renderer.hpp"

namespace clusterlens::views {

namespace {

constexpr int kTableSize = 256;
constexpr std::size_t kLevelSamples = std::size_t{1} << 18;

}  // namespace

VatImage renderVatImage(const VatFrameRenderer& renderer, const VatViewport& viewport, const VatDisplay& display,
                        JobControl* control) {
    QElapsedTimer clock;
    clock.start();
    VatImage image;
    image.viewport = viewport;
    image.pixels.resize(static_cast<std::size_t>(viewport.width) * static_cast<std::size_t>(viewport.height));
    renderer.render(viewport, image.pixels.data(), control);
    // Contrast levels from at most kLevelSamples pixels: exact percentiles of a 2048² frame cost ~30 ms
    // (most of a render job); a strided sample moves the levels by well under one colour step. The
    // stride is odd so it does not line up with the image columns.
    const std::size_t count = image.pixels.size();
    std::vector<float> sample;
    const float* levelPixels = image.pixels.data();
    std::size_t levelCount = count;
    if (count > kLevelSamples) {
        const std::size_t stride = (count / kLevelSamples) | 1;
        sample.reserve(count / stride + 1);
        for (std::size_t i = 0; i < count; i += stride) sample.push_back(image.pixels[i]);
        levelPixels = sample.data();
        levelCount = sample.size();
    }
    const auto [lo, hi] = imagePercentiles(levelPixels, levelCount, display.lowPercent, display.highPercent);
    image.lo = lo;
    image.hi = hi;
    image.milliseconds = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return image;
}

std::vector<std::uint8_t> vatColourTable(const VatDisplay& display) {
    return colormapTable(display.colormap, display.reversed, kTableSize);
}

QImage colouriseVatImage(const VatImage& image, const std::vector<std::uint8_t>& table, double gamma) {
    const int w = image.viewport.width, h = image.viewport.height;
    const std::vector<std::uint8_t> rgb =
        colorizeImage(image.pixels.data(), image.pixels.size(), Contrast{image.lo, image.hi, gamma}, table);
    QImage out(w, h, QImage::Format_RGB32);
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
        const std::uint8_t* row = rgb.data() + 3 * static_cast<std::size_t>(y) * static_cast<std::size_t>(w);
        for (int x = 0; x < w; ++x) line[x] = qRgb(row[3 * x], row[3 * x + 1], row[3 * x + 2]);
    }
    return out;
}

bool sameViewport(const VatViewport& a, const VatViewport& b) {
    return a.row0 == b.row0 && a.row1 == b.row1 && a.col0 == b.col0 && a.col1 == b.col1 && a.width == b.width &&
           a.height == b.height && a.kind == b.kind && a.mode == b.mode;
}

QString vatKindName(VatImageKind kind) {
    return kind == VatImageKind::Ivat ? QStringLiteral("iVAT") : QStringLiteral("VAT");
}

}  // namespace clusterlens::views
