#pragma once
// A minimal PNG writer for rendered images (VAT/iVAT export from the command line).

#include <cstdint>
#include <string>

namespace clusterlens {

/// Writes width x height RGB8 pixels (3·width·height bytes, row-major, top row first) as a PNG
/// (ISO/IEC 15948: 8-bit truecolour, no interlace, zlib-compressed IDAT, no row filter). Memory:
/// one compressed copy of the image. Throws InvalidInput naming the file when it cannot be written,
/// or when width/height are not in 1..2^31-1.
void writePngRgb(const std::string& path, const std::uint8_t* rgb, int width, int height);

}  // namespace clusterlens
