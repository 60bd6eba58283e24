#include "palette.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace clusterlens::views {

namespace {

constexpr std::size_t kCategoricalCount = 64;

// CIELAB (D65) of an sRGB colour: distances there follow how different colours look.
std::array<double, 3> toLab(const QColor& c) {
    const auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const double r = linear(c.redF()), g = linear(c.greenF()), b = linear(c.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
}

double labDistance2(const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]);
}

// `seed` followed by colours chosen one at a time as far as possible (in CIELAB) from all chosen so
// far, as Glasbey et al. (2007) build their categorical palettes, until there are `total`. Candidates
// are an RGB grid without the very dark, the very light and the greys (noise is grey). Deterministic.
std::vector<QColor> extendDistinct(std::vector<QColor> colors, std::size_t total) {
    std::vector<std::pair<QColor, std::array<double, 3>>> candidates;
    constexpr int kSteps = 12;
    for (int r = 0; r < kSteps; ++r)
        for (int g = 0; g < kSteps; ++g)
            for (int b = 0; b < kSteps; ++b) {
                const QColor c(r * 255 / (kSteps - 1), g * 255 / (kSteps - 1), b * 255 / (kSteps - 1));
                const auto lab = toLab(c);
                if (lab[0] < 30.0 || lab[0] > 85.0 || std::hypot(lab[1], lab[2]) < 25.0) continue;
                candidates.emplace_back(c, lab);
            }
    std::vector<double> nearest(candidates.size(), std::numeric_limits<double>::max());
    const auto include = [&](const QColor& chosen) {
        const auto lab = toLab(chosen);
        for (std::size_t i = 0; i < candidates.size(); ++i)
            nearest[i] = std::min(nearest[i], labDistance2(lab, candidates[i].second));
    };
    for (const QColor& c : colors) include(c);
    while (colors.size() < total) {
        const auto best = static_cast<std::size_t>(std::max_element(nearest.begin(), nearest.end()) - nearest.begin());
        colors.push_back(candidates[best].first);
        include(colors.back());
    }
    return colors;
}

// Strong then light tones of the Tableau 20 palette without its greys, which are reserved for noise,
// then distinct generated colours, so that 64 clusters never share a colour.
const std::vector<QColor>& buildCategorical() {
    static const std::vector<QColor> colors = extendDistinct(
        {
            QColor(0x1f, 0x77, 0xb4),
            QColor(0xff, 0x7f, 0x0e),
            QColor(0x2c, 0xa0, 0x2c),
            QColor(0xd6, 0x27, 0x28),
            QColor(0x94, 0x67, 0xbd),
            QColor(0x8c, 0x56, 0x4b),
            QColor(0xe3, 0x77, 0xc2),
            QColor(0xbc, 0xbd, 0x22),
            QColor(0x17, 0xbe, 0xcf),
            QColor(0xae, 0xc7, 0xe8),
            QColor(0xff, 0xbb, 0x78),
            QColor(0x98, 0xdf, 0x8a),
            QColor(0xff, 0x98, 0x96),
            QColor(0xc5, 0xb0, 0xd5),
            QColor(0xc4, 0x9c, 0x94),
            QColor(0xf7, 0xb6, 0xd2),
            QColor(0xdb, 0xdb, 0x8d),
            QColor(0x9e, 0xda, 0xe5),
        },
        kCategoricalCount);
    return colors;
}

// Degree-6 polynomial fit of matplotlib's viridis per channel, lowest power first (coefficients as
// published by Matt Zucker, shadertoy.com/view/WlfXRN); it avoids a 256-entry table in the source.
constexpr std::array<std::array<double, 3>, 7> kViridis = {{
    {0.2777273272234177, 0.005407344544966578, 0.3340998053353061},
    {0.1050930431085774, 1.404613529898575, 1.384590162594685},
    {-0.3308618287255563, 0.214847559468213, 0.09509516302823659},
    {-4.634230498983486, -5.799100973351585, -19.33244095627987},
    {6.228269936347081, 14.17993336680509, 56.69055260068105},
    {4.776384997670288, -13.74514537774601, -65.35303263337234},
    {-5.435455855934631, 4.645852612178535, 26.3124352495832},
}};

}  // namespace

const std::vector<QColor>& Palette::categoricalColors() {
    return buildCategorical();
}

QColor Palette::labelColor(int label) {
    if (label < 0) return noiseColor();
    const auto& colors = buildCategorical();
    return colors[static_cast<std::size_t>(label) % colors.size()];
}

const std::vector<QColor>& Palette::okabeItoColors() {
    // Black is left out: it is the colour of axes and text.
    static const std::vector<QColor> colors = {
        QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9), QColor(0x00, 0x9e, 0x73), QColor(0xf0, 0xe4, 0x42),
        QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00), QColor(0xcc, 0x79, 0xa7),
    };
    return colors;
}

QColor Palette::labelColor(int label, PaletteKind kind, int labelCount) {
    if (label < 0) return noiseColor();
    switch (kind) {
        case PaletteKind::Tableau:
            return labelColor(label);
        case PaletteKind::OkabeIto: {
            // Past its 7 colours, distinct generated ones follow, as for Tableau.
            static const std::vector<QColor> extended = extendDistinct(okabeItoColors(), kCategoricalCount);
            return extended[static_cast<std::size_t>(label) % extended.size()];
        }
        case PaletteKind::Viridis:
            break;
    }
    // The yellow end is left out: it vanishes on white paper.
    const int count = std::max(labelCount, label + 1);
    return colormap(count == 1 ? 0.0 : 0.9 * label / (count - 1));
}

QString Palette::paletteName(PaletteKind kind) {
    switch (kind) {
        case PaletteKind::Tableau:
            return QStringLiteral("tableau");
        case PaletteKind::OkabeIto:
            return QStringLiteral("okabe-ito");
        case PaletteKind::Viridis:
            return QStringLiteral("viridis");
    }
    return {};
}

std::optional<PaletteKind> Palette::paletteFromName(const QString& name) {
    for (PaletteKind kind : {PaletteKind::Tableau, PaletteKind::OkabeIto, PaletteKind::Viridis})
        if (name.compare(paletteName(kind), Qt::CaseInsensitive) == 0) return kind;
    return std::nullopt;
}

QColor Palette::noiseColor() {
    return QColor(0x9a, 0x9a, 0x9a);
}

QColor Palette::colormap(double t) {
    t = std::clamp(t, 0.0, 1.0);
    std::array<double, 3> rgb{};
    for (std::size_t c = 0; c < 3; ++c) {
        double v = kViridis[6][c];
        for (int k = 5; k >= 0; --k) v = v * t + kViridis[static_cast<std::size_t>(k)][c];
        rgb[c] = std::clamp(v, 0.0, 1.0);
    }
    return QColor::fromRgbF(static_cast<float>(rgb[0]), static_cast<float>(rgb[1]), static_cast<float>(rgb[2]));
}

QImage Palette::colormapImage(int size) {
    size = std::max(size, 2);
    QImage image(size, 1, QImage::Format_RGBA8888);
    for (int i = 0; i < size; ++i) image.setPixelColor(i, 0, colormap(static_cast<double>(i) / (size - 1)));
    return image;
}

QColor Palette::linkColor() {
    return QColor(0x50, 0x50, 0x50);
}

QColor Palette::inversionColor() {
    return QColor(0xe0, 0x00, 0x90);
}

QColor Palette::selectionColor() {
    return QColor(0x00, 0x00, 0x00);
}

QImage Palette::categoricalImage() {
    const auto& colors = buildCategorical();
    QImage image(static_cast<int>(colors.size()), 1, QImage::Format_RGBA8888);
    for (std::size_t i = 0; i < colors.size(); ++i) image.setPixelColor(static_cast<int>(i), 0, colors[i]);
    return image;
}

}  // namespace clusterlens::views
