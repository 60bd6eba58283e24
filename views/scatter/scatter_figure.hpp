#pragma once
// The data scatter as a publication figure: the points of a prepared ScatterData coloured by
// density or a marker's expression (viridis, with a colour bar titled "CD3 (arcsinh/5)" and the
// 1st and 99th percentiles at its ends) or by a labeling (the palette, with a legend of the real
// names: class names from the file, cluster or population names), axes titled with the marker
// names and their transform ("CD3 (arcsinh/5)"), the whole data or the part in view.
// Up to vectorPointLimit visible points are drawn as vector dots; more are rasterised into one
// image at the output's own resolution (a pixel per device pixel in PNG/TIFF, three per point in
// PDF/SVG), every point splatted in the prepared draw order (densest last), so a figure of 10^6
// points keeps its density and stays a small file with one image instead of 10^6 objects.

#include <QRectF>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "figure/figure.hpp"
#include "scatter/scatter_data.hpp"

class QImage;

namespace clusterlens::views {

struct ScatterFigureOptions {
    QString title;                    ///< empty: "Y vs X"
    QString xTitle, yTitle;           ///< empty: the data's axis names
    std::vector<QString> labelNames;  ///< name of label value l at index l; missing: "cluster l"
    QString colouring;                ///< what colours the points ("class", "DPC (k=3)"), for the subtitle
    /// The part shown, in the data's normalised coordinates ([0,1]^2 = its range); none: all of it
    /// with a small margin.
    std::optional<QRectF> window;
    /// Each cluster's 95 % covariance ellipse over the points (labels mode; cluster_shapes.hpp).
    bool clusterShapes = false;
};

/// The title of a scatter axis: the marker (the feature's long name, e.g. FCS $PnS, else its short
/// name) and the transforms the dataset went through, "CD3 (arcsinh/5)"; embeddings as axisName().
QString markerAxisTitle(const Dataset& dataset, const ScatterAxes& axes, bool vertical);

/// Names of a dataset's own label values (Dataset::labelNames), for the legend.
std::vector<QString> datasetLabelNames(const Dataset& dataset);
/// What a dataset's own labels are called: their column's name, or "class" when the reader
/// describes where they came from rather than naming them.
QString datasetLabelingName(const Dataset& dataset);

class ScatterFigure : public Figure {
public:
    static constexpr std::size_t vectorPointLimit = 20'000;

    ScatterFigure(std::shared_ptr<const ScatterData> data, ScatterFigureOptions options);

    void paint(QPainter& painter, const QRectF& area) const override;
    QSize defaultSize() const override { return {720, 600}; }
    QString ownTitle() const override;

    /// The plot frame inside `area`.
    QRectF plotRect(const QRectF& area) const;
    /// Points inside the shown window.
    std::size_t visibleCount() const { return m_visible; }
    /// True when the points are drawn as one image.
    bool drawsImage() const { return m_visible > vectorPointLimit; }
    /// The legend's text for label `label`.
    QString labelName(int label) const;

private:
    AxisSpec xAxis() const;
    AxisSpec yAxis() const;
    QString subtitle() const;
    FigureLegend legend() const;
    QColor colourOf(std::size_t k) const;
    /// Density or marker colouring: values in [0,1] on the continuous colormap.
    bool continuous() const;
    QColor labelColour(int label) const;
    double pointRadius() const;
    void paintVectorPoints(QPainter& painter, const QRectF& plot) const;
    void paintPointImage(QPainter& painter, const QRectF& plot) const;
    void paintShapes(QPainter& painter, const QRectF& plot) const;

    std::shared_ptr<const ScatterData> m_data;
    ScatterFigureOptions m_options;
    QRectF m_window;  // normalised coordinates shown (x0, y0, width, height)
    std::size_t m_visible = 0;
    int m_labelCount = 0;  // largest label + 1: the palette's spread for viridis
};

}  // namespace clusterlens::views
