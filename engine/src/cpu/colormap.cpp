// Colour tables for VAT/iVAT images, built from a few anchor colours of each published map and
// interpolated linearly in RGB.

#include "clusterlens/vat/colormap.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "clusterlens/errors.hpp"

namespace clusterlens {

namespace {

using Rgb = std::array<std::uint8_t, 3>;

// Nine colours at t = 0, 1/8, ..., 1 of matplotlib's viridis and magma (the stops R's viridisLite
// prints for n = 9).
constexpr std::array<Rgb, 9> kViridis = {{{0x44, 0x01, 0x54},
                                          {0x47, 0x2d, 0x7b},
                                          {0x3b, 0x52, 0x8b},
                                          {0x2c, 0x72, 0x8e},
                                          {0x21, 0x90, 0x8c},
                                          {0x27, 0xad, 0x81},
                                          {0x5d, 0xc8, 0x63},
                                          {0xaa, 0xdc, 0x32},
                                          {0xfd, 0xe7, 0x25}}};
constexpr std::array<Rgb, 9> kMagma = {{{0x00, 0x00, 0x04},
                                        {0x1d, 0x11, 0x47},
                                        {0x51, 0x12, 0x7c},
                                        {0x82, 0x26, 0x81},
                                        {0xb6, 0x36, 0x79},
                                        {0xe6, 0x51, 0x64},
                                        {0xfb, 0x88, 0x61},
                                        {0xfe, 0xc2, 0x87},
                                        {0xfc, 0xfd, 0xbf}}};
constexpr std::array<Rgb, 2> kGrey = {{{0, 0, 0}, {255, 255, 255}}};

template <std::size_t K>
Rgb interpolate(const std::array<Rgb, K>& anchors, double t) {
    const double at = t * static_cast<double>(K - 1);
    const auto i = std::min(static_cast<std::size_t>(at), K - 2);
    const double f = at - static_cast<double>(i);
    Rgb c{};
    for (int ch = 0; ch < 3; ++ch) {
        const double v = (1.0 - f) * anchors[i][ch] + f * anchors[i + 1][ch];
        c[ch] = static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0, 255.0)));
    }
    return c;
}

Rgb colourAt(Colormap colormap, double t) {
    switch (colormap) {
        case Colormap::Viridis:
            return interpolate(kViridis, t);
        case Colormap::Magma:
            return interpolate(kMagma, t);
        case Colormap::Grey:
            break;
    }
    return interpolate(kGrey, t);
}

}  // namespace

Colormap parseColormap(const std::string& text) {
    if (text == "grey" || text == "gray") return Colormap::Grey;
    if (text == "viridis") return Colormap::Viridis;
    if (text == "magma") return Colormap::Magma;
    throw InvalidInput("--colormap: unknown colour map '" + text + "' (expected grey, viridis or magma)");
}

const char* colormapName(Colormap colormap) {
    switch (colormap) {
        case Colormap::Viridis:
            return "viridis";
        case Colormap::Magma:
            return "magma";
        case Colormap::Grey:
            break;
    }
    return "grey";
}

std::vector<std::uint8_t> colormapTable(Colormap colormap, bool reversed, int size) {
    if (size < 2 || size > 65536)
        throw InvalidInput("a colour table needs 2..65536 entries, got " + std::to_string(size));
    std::vector<std::uint8_t> table(static_cast<std::size_t>(size) * 3);
    for (int i = 0; i < size; ++i) {
        const int from = reversed ? size - 1 - i : i;
        const Rgb c = colourAt(colormap, static_cast<double>(from) / static_cast<double>(size - 1));
        std::copy(c.begin(), c.end(), table.begin() + static_cast<std::ptrdiff_t>(i) * 3);
    }
    return table;
}

int colormapIndex(float value, const Contrast& contrast, int size) {
    if (std::isnan(value)) return 0;
    double t;
    if (contrast.high > contrast.low) {
        const double v = std::clamp(static_cast<double>(value), static_cast<double>(contrast.low),
                                    static_cast<double>(contrast.high));
        t = (v - contrast.low) / (static_cast<double>(contrast.high) - contrast.low);
    } else {
        t = value <= contrast.low ? 0.0 : 1.0;
    }
    if (contrast.gamma != 1.0) t = std::pow(t, contrast.gamma);  // pow(t, 1) == t; skipping it is 3x faster
    return std::clamp(static_cast<int>(std::lround(t * (size - 1))), 0, size - 1);
}

std::vector<std::uint8_t> colorizeImage(const float* pixels, std::size_t count, const Contrast& contrast,
                                        const std::vector<std::uint8_t>& table) {
    if (!(contrast.gamma > 0.0) || !std::isfinite(contrast.gamma))
        throw InvalidInput("--gamma must be a positive number, got " + std::to_string(contrast.gamma));
    if (table.size() < 6 || table.size() % 3 != 0)
        throw InvalidInput("a colour table holds RGB triplets, at least two");
    const int size = static_cast<int>(table.size() / 3);
    std::vector<std::uint8_t> rgb(count * 3);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t e = static_cast<std::size_t>(colormapIndex(pixels[i], contrast, size)) * 3;
        rgb[i * 3] = table[e];
        rgb[i * 3 + 1] = table[e + 1];
        rgb[i * 3 + 2] = table[e + 2];
    }
    return rgb;
}

}  // namespace clusterlens
