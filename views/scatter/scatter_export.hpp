#pragma once
// The figure export of the data scatter: what the scatter widget shows (its prepared points and
// its zoom window, or the whole data), the dataset it was drawn from (axis titles with the markers'
// transform, the data file's hash, the `plot scatter` command) and the labeling that colours it.

#include <QString>

#include <QRectF>

#include <memory>
#include <optional>
#include <utility>

#include "clusterlens/dataset.hpp"
#include "figure/figure_export_source.hpp"
#include "scatter/scatter_data.hpp"

class QWidget;

namespace clusterlens::views {

class ScatterWidget;

/// Axis limits in data units, as `plot scatter --xlim A:B --ylim C:D` takes them; an axis without
/// limits shows all of its data with the view's padding.
struct ScatterLimits {
    std::optional<std::pair<double, double>> x, y;
};

/// The normalised window (ScatterFigureOptions::window) that shows `limits` of `data`.
QRectF scatterWindow(const ScatterData& data, const ScatterLimits& limits);

/// The export source of `widget` showing `axes` of `dataset`, coloured by the labeling named
/// `colouring` (empty: the dataset's own labels or the density). The figure is made from what the
/// widget holds; the part in view is the zoom when the source was made, which the command's
/// `--xlim/--ylim` (the source's viewOptions) draw again.
FigureExportSource scatterExportSource(const ScatterWidget* widget, std::shared_ptr<const Dataset> dataset,
                                       const ScatterAxes& axes, const QString& colouring);

/// Opens the figure export dialog for the scatter; returns the path written (empty: cancelled or
/// nothing to export).
QString exportScatterFigure(QWidget* parent, const ScatterWidget* widget, std::shared_ptr<const Dataset> dataset,
                            const ScatterAxes& axes, const QString& colouring);

}  // namespace clusterlens::views
