#include "figure/figure.hpp"

#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

#include "clusterlens/errors.hpp"

namespace clusterlens::views {
namespace {

[[noreturn]] void fail(const QString& path, const QString& reason) {
    throw InvalidInput(path.toStdString() + ": " + reason.toStdString());
}

void exportSvg(const Figure& figure, const QString& path, QSize size) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(72);
    svg.setTitle(QFileInfo(path).completeBaseName());
    svg.setDescription(QStringLiteral("ClusterLens figure"));
    QPainter painter;
    if (!painter.begin(&svg)) fail(path, QStringLiteral("cannot write the SVG file"));
    figure.paint(painter, QRectF(QPointF(0, 0), size));
    painter.end();
}

void exportPdf(const Figure& figure, const QString& path, QSize size) {
    QPdfWriter pdf(path);
    pdf.setResolution(72);  // 1 unit = 1 point: the page is exactly the requested size
    pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setTitle(QFileInfo(path).completeBaseName());
    pdf.setCreator(QStringLiteral("ClusterLens"));
    QPainter painter;
    if (!painter.begin(&pdf)) fail(path, QStringLiteral("cannot write the PDF file"));
    figure.paint(painter, QRectF(QPointF(0, 0), size));
    painter.end();
}

void exportPng(const Figure& figure, const QString& path, QSize size, int dpi) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    // Draw in logical units so text and lines scale with dpi while the pixel size stays as asked.
    const double scale = dpi / 96.0;
    image.setDotsPerMeterX(static_cast<int>(dpi / 0.0254));
    image.setDotsPerMeterY(static_cast<int>(dpi / 0.0254));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.scale(scale, scale);
    figure.paint(painter, QRectF(0, 0, size.width() / scale, size.height() / scale));
    painter.end();
    if (!image.save(path, "PNG")) fail(path, QStringLiteral("cannot write the PNG file"));
}

} // namespace

void exportFigure(const Figure& figure, const QString& path, const FigureExportOptions& options) {
    const QSize size = options.size.isEmpty() ? figure.defaultSize() : options.size;
    if (size.width() <= 0 || size.height() <= 0 || size.width() > 20000 || size.height() > 20000)
        fail(path, QStringLiteral("figure size must be between 1 and 20000 in each direction"));
    if (options.dpi < 10 || options.dpi > 2400) fail(path, QStringLiteral("--dpi must lie between 10 and 2400"));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg")) exportSvg(figure, path, size);
    else if (suffix == QLatin1String("pdf")) exportPdf(figure, path, size);
    else if (suffix == QLatin1String("png")) exportPng(figure, path, size, options.dpi);
    else fail(path, QStringLiteral("unknown figure format '.%1' (expected .svg, .pdf or .png)").arg(suffix));
}

} // namespace clusterlens::views
