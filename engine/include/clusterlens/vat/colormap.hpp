#pragma once
// Colour tables and contrast for VAT/iVAT images. The GUI uploads the same table as a 1-D texture, so
// an image exported by the CLI and the one on screen have the same colours.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterlens {

/// Grey: black (small dissimilarity) to white. Viridis and magma: the perceptually uniform maps of
/// matplotlib (van der Walt & Smith 2015), dark for small dissimilarities, so clusters show as dark
/// blocks on the diagonal as in Bezdek & Hathaway's VAT images.
enum class Colormap { Grey, Viridis, Magma };

/// Parses "grey" (or "gray") | "viridis" | "magma"; throws InvalidInput naming --colormap.
Colormap parseColormap(const std::string& text);

/// The name parseColormap accepts.
const char* colormapName(Colormap colormap);

/// `size` RGB triplets (3·size bytes): entry i is the map at t = i / (size - 1), linear in RGB between
/// anchor colours of the published map; `reversed` flips it (entry i = entry size-1-i of the forward
/// table). Throws InvalidInput unless 2 <= size <= 65536.
std::vector<std::uint8_t> colormapTable(Colormap colormap, bool reversed, int size = 256);

/// Contrast: values are clipped to [low, high] (e.g. from imagePercentiles), normalised to
/// t = (v - low) / (high - low) (t = 0 when high <= low and v <= low, else 1), raised to `gamma`
/// (< 1 brightens the dark end) and looked up at entry round(t^gamma · (size - 1)). NaN maps to
/// entry 0. The GUI's shader computes the same expression.
struct Contrast {
    float low = 0.0f;
    float high = 1.0f;
    double gamma = 1.0;
};

/// Table index of one value under `contrast` for a table of `size` entries.
int colormapIndex(float value, const Contrast& contrast, int size);

/// An RGB8 image (3·count bytes, same pixel order as `pixels`) from a float image. O(count).
/// Throws InvalidInput when gamma is not a positive finite number or the table is empty or not RGB.
std::vector<std::uint8_t> colorizeImage(const float* pixels, std::size_t count, const Contrast& contrast,
                                        const std::vector<std::uint8_t>& table);

}  // namespace clusterlens
