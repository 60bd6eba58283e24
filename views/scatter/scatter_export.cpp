#include "scatter/scatter_export.hpp"

#include <QFileInfo>
#include <QMessageBox>

#include "figure/figure_export_dialog.hpp"
#include "figure/figure_range.hpp"
#include "figure/methods_text.hpp"
#include "scatter/scatter_figure.hpp"
#include "scatter/scatter_widget.hpp"
#include "scatter/view_window.hpp"

namespace clusterlens::views {

QRectF scatterWindow(const ScatterData& data, const ScatterLimits& limits) {
    const double pad = ViewWindow::resetPadding;
    double x0 = -pad, x1 = 1 + pad, y0 = -pad, y1 = 1 + pad;
    if (limits.x) {
        x0 = data.toNormalizedX(limits.x->first);
        x1 = data.toNormalizedX(limits.x->second);
    }
    if (limits.y) {
        y0 = data.toNormalizedY(limits.y->first);
        y1 = data.toNormalizedY(limits.y->second);
    }
    return {x0, y0, x1 - x0, y1 - y0};
}

namespace {

/// The widget's zoom in data units as the command prints them (`--xlim A:B --ylim C:D`, into
/// `words`), read back: the figure and `plot scatter` then show the same window to the last bit.
ScatterLimits shownLimits(const ScatterWidget& widget, QStringList& words) {
    const ViewWindow& w = widget.viewWindow();
    const ScatterData& shown = *widget.data();
    const QString xlim = rangeText(shown.toDataX(w.x0()), shown.toDataX(w.x1()));
    const QString ylim = rangeText(shown.toDataY(w.y0()), shown.toDataY(w.y1()));
    words = {QStringLiteral("--xlim"), xlim, QStringLiteral("--ylim"), ylim};
    return {readRangeText(xlim), readRangeText(ylim)};
}

}  // namespace

FigureExportSource scatterExportSource(const ScatterWidget* widget, std::shared_ptr<const Dataset> dataset,
                                       const ScatterAxes& axes, const QString& colouring) {
    FigureExportSource source;
    if (!widget || !widget->data() || !dataset || !axesValid(*dataset, axes)) return source;
    const QString xTitle = markerAxisTitle(*dataset, axes, false), yTitle = markerAxisTitle(*dataset, axes, true);
    const bool labels = widget->data()->mode == ColourMode::Labels;
    const std::ptrdiff_t marker = widget->data()->mode == ColourMode::Marker ? widget->data()->markerColumn : -1;
    const QString colourName = marker >= 0            ? widget->data()->markerTitle
                               : !labels              ? QString()
                               : !colouring.isEmpty() ? colouring
                                                      : datasetLabelingName(*dataset);
    source.title = QObject::tr("Export scatter figure");
    source.name = QObject::tr("Data scatter");
    source.suggestedName = QStringLiteral("scatter_%1_%2").arg(widget->data()->xName, widget->data()->yName);
    source.viewOnly = QObject::tr("Only what is in view (the current zoom)");
    const ScatterLimits limits = shownLimits(*widget, source.viewOptions);
    const bool shapes = labels && widget->shapesVisible();
    source.figure = [widget, dataset, xTitle, yTitle, colouring, colourName, limits,
                     shapes](bool viewOnly) -> std::unique_ptr<Figure> {
        if (!widget->data()) return nullptr;
        ScatterFigureOptions options;
        options.title = QFileInfo(QString::fromStdString(dataset->provenance.path)).completeBaseName();
        options.xTitle = xTitle;
        options.yTitle = yTitle;
        options.colouring = colourName;
        if (colouring.isEmpty()) options.labelNames = datasetLabelNames(*dataset);
        if (viewOnly) options.window = scatterWindow(*widget->data(), limits);
        options.clusterShapes = shapes;
        return std::make_unique<ScatterFigure>(widget->data(), std::move(options));
    };
    source.dataFiles = {QString::fromStdString(dataset->provenance.path)};
    if (axes.embedding < 0) {
        source.command =
            QStringList{QStringLiteral("clusterlens-cli"), QStringLiteral("plot"), QStringLiteral("scatter")} +
            datasetInputWords(*dataset) +
            QStringList{QStringLiteral("--x"), QString::fromStdString(dataset->features[axes.x]), QStringLiteral("--y"),
                        QString::fromStdString(dataset->features[axes.y])};
        if (labels && !colouring.isEmpty()) {
            // From the saved session: the labeling itself, over the session's data.
            source.sessionCommand = source.command.mid(0, 3) + QStringList{QStringLiteral("--name"), colouring} +
                                    source.command.mid(source.command.indexOf(QStringLiteral("--x")));
            source.command << QStringLiteral("--labels") << resultFileName(colouring);
        }
        if (marker >= 0 && static_cast<std::size_t>(marker) < dataset->d)
            source.command << QStringLiteral("--colour-by")
                           << QStringLiteral("marker:") +
                                  QString::fromStdString(dataset->features[static_cast<std::size_t>(marker)]);
        if (shapes) {
            source.command << QStringLiteral("--cluster-shapes");
            if (!source.sessionCommand.isEmpty()) source.sessionCommand << QStringLiteral("--cluster-shapes");
        }
    }
    source.methods = scatterMethods(widget->data()->pointCount, xTitle, yTitle, colourName);
    return source;
}

QString exportScatterFigure(QWidget* parent, const ScatterWidget* widget, std::shared_ptr<const Dataset> dataset,
                            const ScatterAxes& axes, const QString& colouring) {
    const FigureExportSource source = scatterExportSource(widget, std::move(dataset), axes, colouring);
    if (!source.isValid()) {
        QMessageBox::information(parent, QObject::tr("Export scatter figure"), QObject::tr("Open a dataset first."));
        return {};
    }
    return runFigureExportDialog(source, parent);
}

}  // namespace clusterlens::views
