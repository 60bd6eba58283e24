#pragma once
// The figure export of the data scatter: what the scatter widget shows (its prepared points and
// its zoom window, or the whole data), the dataset it was drawn from (axis titles with the markers'
// transform, the data file's hash, the `plot scatter` command) and the labeling that colours it.

#include <QString>

#include <memory>

#include "clusterlens/dataset.hpp"
#include "figure/figure_export_source.hpp"
#include "scatter/scatter_data.hpp"

class QWidget;

namespace clusterlens::views {

class ScatterWidget;

/// The export source of `widget` showing `axes` of `dataset`, coloured by the labeling named
/// `colouring` (empty: the dataset's own labels or the density). The figure is made from what the
/// widget holds when asked, so an export follows the current view.
FigureExportSource scatterExportSource(const ScatterWidget* widget, std::shared_ptr<const Dataset> dataset,
                                       const ScatterAxes& axes, const QString& colouring);

/// Opens the figure export dialog for the scatter; returns the path written (empty: cancelled or
/// nothing to export).
QString exportScatterFigure(QWidget* parent, const ScatterWidget* widget, std::shared_ptr<const Dataset> dataset,
                            const ScatterAxes& axes, const QString& colouring);

}  // namespace clusterlens::views
