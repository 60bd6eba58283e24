#include "figure/figure.hpp"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <cmath>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/atomic_file.hpp"
#include "figure/figure_metadata.hpp"
#include "figure/figure_tiff.hpp"

namespace clusterlens::views {

namespace {

constexpr double kLogicalDpi = 96.0;
constexpr double kMillimetresPerInch = 25.4;
constexpr double kMaxSide = 20000.0;
constexpr double kMaxPixels = 200e6;  // 800 MB of RGBA

[[noreturn]] void fail(const QString& path, const QString& reason) {
    throw InvalidInput(path.toStdString() + ": " + reason.toStdString());
}

QString suffixOf(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

bool isRaster(const QString& suffix) {
    return suffix == QLatin1String("png") || suffix == QLatin1String("tif") || suffix == QLatin1String("tiff");
}

/// The requested size with a missing side taken from the figure's own aspect ratio.
QSizeF requestedSize(const Figure& figure, const FigureExportOptions& options) {
    const QSizeF own = figure.defaultSize();
    if (options.size.width() <= 0 && options.size.height() <= 0) return own;  // pixels at 96 dpi
    if (options.size.width() <= 0) return {options.size.height() * own.width() / own.height(), options.size.height()};
    if (options.size.height() <= 0) return {options.size.width(), options.size.width() * own.height() / own.width()};
    return options.size;
}

/// True when the size is physical: millimetres, at least one side given.
bool inMillimetres(const FigureExportOptions& options) {
    return options.unit == FigureUnit::Millimetres && (options.size.width() > 0 || options.size.height() > 0);
}

FigureGeometry geometryFor(const Figure& figure, const FigureExportOptions& options, bool raster) {
    if (options.dpi < 10 || options.dpi > 2400) throw InvalidInput("figure: --dpi must lie between 10 and 2400");
    const bool mm = inMillimetres(options);
    const QSizeF size = requestedSize(figure, options);
    FigureGeometry g;
    if (mm) {
        g.logical = size * (kLogicalDpi / kMillimetresPerInch);
        g.points = size * (72.0 / kMillimetresPerInch);
        const QSizeF px = size * (options.dpi / kMillimetresPerInch);
        g.pixels = QSize(static_cast<int>(std::lround(px.width())), static_cast<int>(std::lround(px.height())));
    } else {
        // Pixels are exact in a raster file; vector files get a point per pixel, as they always did.
        g.pixels = QSize(static_cast<int>(std::lround(size.width())), static_cast<int>(std::lround(size.height())));
        g.points = QSizeF(g.pixels);
        g.logical = raster ? QSizeF(g.pixels) * (kLogicalDpi / options.dpi) : g.points;
    }
    const QSizeF checked = raster ? QSizeF(g.pixels) : g.points;
    if (checked.width() < 1 || checked.height() < 1 || checked.width() > kMaxSide || checked.height() > kMaxSide)
        throw InvalidInput("figure: the size must be between 1 and 20000 pixels (or points) in each direction");
    if (raster && checked.width() * checked.height() > kMaxPixels)
        throw InvalidInput("figure: more than 200 million pixels; lower the size or the dpi");
    return g;
}

FigureProvenance provenanceFor(const Figure& figure, const QString& path, const FigureExportOptions& options) {
    FigureProvenance p = options.provenance;
    if (p.title.isEmpty()) p.title = figure.title();
    if (p.title.isEmpty()) p.title = QFileInfo(path).completeBaseName();
    return p;
}

QImage renderImage(const Figure& figure, const FigureGeometry& g, int dpi) {
    QImage image(g.pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) throw InvalidInput("figure: not enough memory for an image of this size");
    image.fill(Qt::transparent);  // the figure paints its own background unless it is transparent
    image.setDotsPerMeterX(static_cast<int>(std::lround(dpi / 0.0254)));
    image.setDotsPerMeterY(static_cast<int>(std::lround(dpi / 0.0254)));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.scale(g.pixels.width() / g.logical.width(), g.pixels.height() / g.logical.height());
    figure.paint(painter, QRectF(QPointF(0, 0), g.logical));
    painter.end();
    return image;
}

QByteArray pngBytes(const QImage& image, const FigureProvenance& provenance) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) throw InvalidInput("figure: the PNG encoder failed");
    return withPngText(bytes, provenance);
}

QByteArray svgBytes(const Figure& figure, const FigureGeometry& g, const FigureProvenance& provenance, bool mm) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(g.logical.toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), g.logical));
    svg.setResolution(static_cast<int>(kLogicalDpi));
    // No title or description of the generator's own ("Qt SVG Document"): withSvgMetadata() writes
    // ours, escaped, which QSvgGenerator does not do.
    svg.setTitle(QString());
    svg.setDescription(QString());
    QPainter painter;
    if (!painter.begin(&svg)) throw InvalidInput("figure: the SVG generator could not start");
    figure.paint(painter, QRectF(QPointF(0, 0), g.logical));
    painter.end();
    const auto length = [&](double points) {
        return mm ? QString::number(points * kMillimetresPerInch / 72.0, 'g', 6) + QStringLiteral("mm")
                  : QString::number(points, 'g', 6) + QStringLiteral("pt");
    };
    return withSvgMetadata(bytes, provenance, length(g.points.width()), length(g.points.height()));
}

QByteArray pdfBytes(const Figure& figure, const FigureGeometry& g, const FigureProvenance& provenance) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QSize written(static_cast<int>(std::lround(g.points.width())),
                        static_cast<int>(std::lround(g.points.height())));
    {
        QPdfWriter pdf(&buffer);
        pdf.setResolution(72);  // 1 unit = 1 point: the page is exactly the requested size
        pdf.setPageSize(QPageSize(g.points, QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(provenance.title);
        pdf.setCreator(applicationSignature());
        QPainter painter;
        if (!painter.begin(&pdf)) throw InvalidInput("figure: the PDF writer could not start");
        // The page is written in whole points, and y is flipped about that height: shift the drawing
        // so that it sits on the exact page that withPdfMediaBox() declares.
        painter.translate(0, written.height() - g.points.height());
        painter.scale(g.points.width() / g.logical.width(), g.points.height() / g.logical.height());
        figure.paint(painter, QRectF(QPointF(0, 0), g.logical));
        painter.end();
    }
    buffer.close();
    return withPdfInfo(withPdfMediaBox(bytes, written, g.points), provenance);
}

void writeBytes(const QString& path, const std::string& temp, const QByteArray& bytes) {
    QFile file(QString::fromStdString(temp));
    if (!file.open(QIODevice::WriteOnly))
        fail(
            path,
            QStringLiteral("cannot create a file in '%1': %2").arg(QFileInfo(path).absolutePath(), file.errorString()));
    if (file.write(bytes) != bytes.size() || !file.flush())
        fail(path, QStringLiteral("cannot write the file: %1").arg(file.errorString()));
}

}  // namespace

QFont Figure::font(double pixels, bool bold) const {
    QFont font;
    font.setPixelSize(std::max(1, static_cast<int>(std::lround(pixels * m_style.fontScale))));
    font.setBold(bold);
    return font;
}

void Figure::paintBackground(QPainter& painter, const QRectF& area) const {
    if (!m_style.transparent) painter.fillRect(area, Qt::white);
}

QColor Figure::labelColor(int label, int labelCount) const {
    return Palette::labelColor(label, m_style.palette, labelCount);
}

FigureGeometry figureGeometry(const Figure& figure, const FigureExportOptions& options) {
    return geometryFor(figure, options, true);
}

bool isFigureFormat(const QString& suffix) {
    const QString s = suffix.toLower();
    return isRaster(s) || s == QLatin1String("svg") || s == QLatin1String("pdf");
}

QImage renderFigureImage(const Figure& figure, const FigureExportOptions& options) {
    QImage image = renderImage(figure, geometryFor(figure, options, true), options.dpi);
    for (const auto& [key, value] : provenanceFields(provenanceFor(figure, QString(), options)))
        image.setText(key, value);
    return image;
}

void exportFigure(const Figure& figure, const QString& path, const FigureExportOptions& options) {
    const QString suffix = suffixOf(path);
    if (!isFigureFormat(suffix))
        fail(path,
             QStringLiteral("unknown figure format '.%1' (expected .png, .tif, .tiff, .svg or .pdf)").arg(suffix));
    const bool raster = isRaster(suffix);
    FigureGeometry g;
    try {
        g = geometryFor(figure, options, raster);
    } catch (const InvalidInput& e) {
        fail(path, QString::fromStdString(e.what()).remove(QStringLiteral("figure: ")));
    }
    const FigureProvenance provenance = provenanceFor(figure, path, options);
    QByteArray bytes;
    if (raster) {
        const QImage image = renderImage(figure, g, options.dpi);
        bytes = suffix == QLatin1String("png")
                    ? pngBytes(image, provenance)
                    : encodeTiff(image, options.dpi, provenanceText(provenance), applicationSignature());
    } else if (suffix == QLatin1String("svg")) {
        bytes = svgBytes(figure, g, provenance, inMillimetres(options));
    } else {
        bytes = pdfBytes(figure, g, provenance);
    }
    writeFileAtomically(path.toStdString(), [&](const std::string& temp) { writeBytes(path, temp, bytes); });
}

}  // namespace clusterlens::views
