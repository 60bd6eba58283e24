#pragma once
// How a VAT/iVAT image is shown and the rendered images themselves. The colour of a pixel is the
// engine's colormapTable entry colormapIndex(value, {lo, hi, gamma}), lo and hi being percentiles of
// the rendered image: shaders/vat.frag computes the same expression on the GPU, so the screen, the
// exported figures and the command line's PNG agree.

#include <QImage>
#include <QString>

#include <cstdint>
#include <vector>

#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/colormap.hpp"
#include "clusterlens/vat/viewport.hpp"

namespace clusterlens::views {

class VatFrameRenderer;

struct VatDisplay {
    VatImageKind kind = VatImageKind::Ivat;
    VatPixelMode mode = VatPixelMode::Representative;
    Colormap colormap = Colormap::Grey;
    bool reversed = false;
    double gamma = 1.0;         ///< > 1 spreads the dark (small distance) end
    double lowPercent = 0.0;    ///< values below this percentile of the image get the first colour
    double highPercent = 99.0;  ///< values above this percentile get the last colour

    bool operator==(const VatDisplay&) const = default;
};

/// A rendered viewport: width·height distances (top row first) and the contrast levels of the image.
struct VatImage {
    VatViewport viewport;
    std::vector<float> pixels;
    float lo = 0.0f;
    float hi = 0.0f;
    double milliseconds = 0.0;  ///< render + percentiles, on the worker
};

/// Renders `viewport` and computes its levels at the display's percentiles. Any thread.
VatImage renderVatImage(const VatFrameRenderer& renderer, const VatViewport& viewport, const VatDisplay& display,
                        JobControl* control = nullptr);

/// The display's table: 256 RGB triplets.
std::vector<std::uint8_t> vatColourTable(const VatDisplay& display);

/// The image coloured on the CPU by the engine's colorizeImage (figures; the tests' oracle of the
/// shader), RGB32.
QImage colouriseVatImage(const VatImage& image, const std::vector<std::uint8_t>& table, double gamma);

/// Same window, size, kind and pixel mode.
bool sameViewport(const VatViewport& a, const VatViewport& b);

/// "iVAT" or "VAT".
QString vatKindName(VatImageKind kind);

}  // namespace clusterlens::views
