// PNG writer: signature, IHDR, one IDAT with the zlib stream of the filtered rows, IEND. Each chunk
// is length, type, data and the CRC-32 of type and data (zlib's crc32 is the PNG CRC).

#include "clusterlens/io/write_png.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "clusterlens/errors.hpp"

namespace clusterlens {

namespace {

void putBigEndian32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    out.push_back(static_cast<std::uint8_t>(v >> 24));
    out.push_back(static_cast<std::uint8_t>(v >> 16));
    out.push_back(static_cast<std::uint8_t>(v >> 8));
    out.push_back(static_cast<std::uint8_t>(v));
}

void putChunk(std::vector<std::uint8_t>& out, const char type[4], const std::uint8_t* data, std::size_t size) {
    putBigEndian32(out, static_cast<std::uint32_t>(size));
    const std::size_t typeAt = out.size();
    out.insert(out.end(), type, type + 4);
    if (size > 0) out.insert(out.end(), data, data + size);
    const uLong crc = crc32(0L, out.data() + typeAt, static_cast<uInt>(4 + size));
    putBigEndian32(out, static_cast<std::uint32_t>(crc));
}

// zlib stream of the rows, each preceded by filter type 0 (None): dissimilarity images are mostly flat
// blocks, which deflate compresses well without prediction.
std::vector<std::uint8_t> compressRows(const std::string& path, const std::uint8_t* rgb, std::size_t width,
                                       std::size_t height) {
    const std::size_t stride = width * 3;
    std::vector<std::uint8_t> raw((stride + 1) * height);
    for (std::size_t y = 0; y < height; ++y) {
        raw[y * (stride + 1)] = 0;
        std::copy(rgb + y * stride, rgb + (y + 1) * stride,
                  raw.begin() + static_cast<std::ptrdiff_t>(y * (stride + 1) + 1));
    }
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::vector<std::uint8_t> packed(size);
    if (compress2(packed.data(), &size, raw.data(), static_cast<uLong>(raw.size()), 6) != Z_OK)
        throwFileError(path, "", "cannot compress the image (out of memory?)");
    packed.resize(size);
    return packed;
}

}  // namespace

void writePngRgb(const std::string& path, const std::uint8_t* rgb, int width, int height) {
    if (width < 1 || height < 1) throwFileError(path, "", "an image needs at least one pixel on each side");
    const auto w = static_cast<std::size_t>(width);
    const auto h = static_cast<std::size_t>(height);
    const std::vector<std::uint8_t> idat = compressRows(path, rgb, w, h);
    if (idat.size() > 0x7fffffffu)
        throwFileError(path, "", "the compressed image exceeds the PNG chunk limit of 2 GiB");

    std::vector<std::uint8_t> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<std::uint8_t> header;
    putBigEndian32(header, static_cast<std::uint32_t>(width));
    putBigEndian32(header, static_cast<std::uint32_t>(height));
    // bit depth 8, colour type 2 (truecolour), compression 0, filter method 0, no interlace.
    header.insert(header.end(), {8, 2, 0, 0, 0});
    putChunk(out, "IHDR", header.data(), header.size());
    putChunk(out, "IDAT", idat.data(), idat.size());
    putChunk(out, "IEND", nullptr, 0);

    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"), std::fclose);
    if (!file) throwFileError(path, "", "cannot open the file for writing");
    if (std::fwrite(out.data(), 1, out.size(), file.get()) != out.size())
        throwFileError(path, "", "write failed (disk full?)");
    std::FILE* raw = file.release();
    if (std::fclose(raw) != 0) throwFileError(path, "", "write failed (disk full?)");
}

}  // namespace clusterlens
