#include "figure/figure_tiff.hpp"

#include <QImage>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace clusterlens::views {

namespace {

enum : std::uint16_t { kShort = 3, kLong = 4, kAscii = 2, kRational = 5 };

struct Entry {
    std::uint16_t tag;
    std::uint16_t type;
    std::uint32_t count;
    QByteArray data;  // the values, little-endian; stored in the entry when at most 4 bytes
};

QByteArray le16(std::uint16_t v) {
    QByteArray out;
    out.append(static_cast<char>(v & 0xffu)).append(static_cast<char>(v >> 8));
    return out;
}

QByteArray le32(std::uint32_t v) {
    return le16(static_cast<std::uint16_t>(v & 0xffffu)) + le16(static_cast<std::uint16_t>(v >> 16));
}

Entry shorts(std::uint16_t tag, std::initializer_list<std::uint16_t> values) {
    Entry e{tag, kShort, static_cast<std::uint32_t>(values.size()), {}};
    for (std::uint16_t v : values) e.data += le16(v);
    return e;
}

Entry longs(std::uint16_t tag, const std::vector<std::uint32_t>& values) {
    Entry e{tag, kLong, static_cast<std::uint32_t>(values.size()), {}};
    for (std::uint32_t v : values) e.data += le32(v);
    return e;
}

Entry ascii(std::uint16_t tag, const QString& text) {
    QByteArray bytes = text.toUtf8();
    bytes.append('\0');
    return {tag, kAscii, static_cast<std::uint32_t>(bytes.size()), bytes};
}

Entry rational(std::uint16_t tag, std::uint32_t numerator) {
    return {tag, kRational, 1, le32(numerator) + le32(1)};
}

}  // namespace

QByteArray encodeTiff(const QImage& source, int dpi, const QString& description, const QString& software) {
    const QImage image = source.convertToFormat(QImage::Format_RGBA8888);  // straight (unassociated) alpha
    const auto width = static_cast<std::uint32_t>(image.width()), height = static_cast<std::uint32_t>(image.height());
    const std::uint32_t rowBytes = 4 * width;
    const std::uint32_t rowsPerStrip =
        std::max<std::uint32_t>(1, (256u * 1024u) / std::max<std::uint32_t>(rowBytes, 1));
    std::vector<QByteArray> strips;
    for (std::uint32_t y = 0; y < height; y += rowsPerStrip) {
        const std::uint32_t rows = std::min(rowsPerStrip, height - y);
        QByteArray raw;
        raw.reserve(static_cast<qsizetype>(rows) * rowBytes);
        for (std::uint32_t r = 0; r < rows; ++r)
            raw.append(reinterpret_cast<const char*>(image.constScanLine(static_cast<int>(y + r))), rowBytes);
        strips.push_back(qCompress(raw, 6).mid(4));  // qCompress prefixes the zlib stream with its length
    }

    std::vector<std::uint32_t> counts;
    for (const QByteArray& s : strips) counts.push_back(static_cast<std::uint32_t>(s.size()));
    std::vector<Entry> entries = {
        longs(256, {width}),
        longs(257, {height}),
        shorts(258, {8, 8, 8, 8}),
        shorts(259, {8}),
        shorts(262, {2}),
        ascii(270, description),
        longs(273, std::vector<std::uint32_t>(strips.size(), 0)),
        shorts(277, {4}),
        longs(278, {rowsPerStrip}),
        longs(279, counts),
        rational(282, static_cast<std::uint32_t>(dpi)),
        rational(283, static_cast<std::uint32_t>(dpi)),
        shorts(284, {1}),
        shorts(296, {2}),
        ascii(305, software),
        shorts(338, {2}),
    };
    // Layout: header, the directory, the values too long for their entries, then the strips.
    const std::uint32_t directoryBytes = 2 + 12 * static_cast<std::uint32_t>(entries.size()) + 4;
    std::uint32_t valuesBytes = 0;
    for (const Entry& e : entries)
        if (e.data.size() > 4) valuesBytes += static_cast<std::uint32_t>(e.data.size() + (e.data.size() & 1));
    std::uint32_t stripAt = 8 + directoryBytes + valuesBytes;
    for (Entry& e : entries) {
        if (e.tag != 273) continue;
        e.data.clear();
        for (const QByteArray& s : strips) {
            e.data += le32(stripAt);
            stripAt += static_cast<std::uint32_t>(s.size());
        }
    }

    QByteArray out("II*\0", 4);
    out += le32(8) + le16(static_cast<std::uint16_t>(entries.size()));
    QByteArray values;
    std::uint32_t valuesAt = 8 + directoryBytes;
    for (const Entry& e : entries) {
        out += le16(e.tag) + le16(e.type) + le32(e.count);
        if (e.data.size() <= 4) {
            out += e.data + QByteArray(4 - e.data.size(), '\0');
            continue;
        }
        out += le32(valuesAt + static_cast<std::uint32_t>(values.size()));
        values += e.data;
        if (e.data.size() & 1) values.append('\0');  // values start on a word boundary
    }
    out += le32(0);  // no further directory
    out += values;
    for (const QByteArray& s : strips) out += s;
    return out;
}

}  // namespace clusterlens::views
