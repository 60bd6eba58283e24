#pragma once
// A baseline TIFF encoder for figures, so TIFF needs no image plug-in: 8-bit RGBA with unassociated
// alpha, Adobe Deflate strips, the resolution in pixels per inch, and the provenance in the
// ImageDescription and Software tags (TIFF 6.0 with the Adobe Deflate extension, read by libtiff,
// ImageMagick, Photoshop and the journals' submission systems).

#include <QByteArray>
#include <QString>

class QImage;

namespace clusterlens::views {

/// `image` as a little-endian TIFF file, `dpi` pixels per inch. O(pixels) time and memory.
QByteArray encodeTiff(const QImage& image, int dpi, const QString& description, const QString& software);

}  // namespace clusterlens::views
