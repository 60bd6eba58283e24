#pragma once
// What the data scatter draws, prepared off the GUI thread once per data, axis or colour change:
// the two chosen coordinates normalised to [0,1]^2, a colour value per point (density from a 2-D
// histogram, a cluster label, or a marker's expression on its robust range) and the draw order
// (densest or most expressing points last, so they stay visible).

#include <QColor>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "clusterlens/job_control.hpp"
#include "scatter/cluster_shapes.hpp"

namespace clusterlens::views {

/// What colours the points: their density, a labeling, or one marker's (feature's) expression.
enum class ColourMode { Density, Labels, Marker };

/// The two plotted coordinates: two features of the dataset, or two components of an embedding.
struct ScatterAxes {
    int embedding = -1;  ///< index into Dataset::embeddings; -1 = dataset features
    std::size_t x = 0;   ///< feature (or embedding component) on the horizontal axis
    std::size_t y = 1;   ///< feature (or embedding component) on the vertical axis
    bool operator==(const ScatterAxes&) const = default;
};

/// Colours and names of labels 0..K-1 of one labeling (a population per label) that replace the
/// palette's colours and "cluster k"; labels past the lists keep the palette's.
struct LabelStyle {
    std::vector<QColor> colours;
    QStringList names;
    QString unlabelled;  ///< legend text of label -1; empty = "noise"
};

/// Everything a scatter preparation job needs; immutable once the job starts.
struct ScatterRequest {
    std::shared_ptr<const Dataset> dataset;
    ScatterAxes axes;
    ColourMode mode = ColourMode::Density;
    /// Labels to colour by (n values, -1 = noise); when null, Dataset::labels is used.
    std::shared_ptr<const std::vector<std::int32_t>> labels;
    /// Colours and names of the labels (labels mode); null = the palette.
    std::shared_ptr<const LabelStyle> style = nullptr;
    /// Marker mode: the feature whose expression colours the points; -1 (or out of range) falls
    /// back to density.
    std::ptrdiff_t marker = -1;
};

/// Immutable result of prepareScatter(). Memory: about 16 bytes per point.
struct ScatterData {
    std::size_t datasetSize = 0;         ///< n of the dataset
    std::size_t pointCount = 0;          ///< points drawn: those with finite coordinates
    std::vector<float> positions;        ///< 2 * pointCount, normalised to [0,1], draw order
    std::vector<float> values;           ///< pointCount: density in [0,1], or the label
    std::vector<std::uint32_t> indices;  ///< pointCount: dataset row of each drawn point
    double xMin = 0.0, xMax = 1.0;       ///< data range mapped to normalised [0,1]
    double yMin = 0.0, yMax = 1.0;
    QString xName, yName;
    ColourMode mode = ColourMode::Density;
    int densityBins = 0;                           ///< histogram bins per axis (density mode)
    std::vector<int> labelValues;                  ///< distinct labels present, ascending (labels mode)
    std::shared_ptr<const LabelStyle> labelStyle;  ///< labels mode: colours and names, null = palette
    std::vector<ClusterShape> shapes;              ///< labels mode: each cluster's mean and covariance
    /// Marker mode: the marker with its transform ("CD3 (arcsinh/5)") and the expression at the colour
    /// bar's ends (values = 0 and 1; the 1st and 99th percentiles).
    QString markerTitle;
    std::ptrdiff_t markerColumn = -1;  ///< marker mode: the feature
    double markerLow = 0.0, markerHigh = 1.0;
    /// The coordinates are log10 of the plotted quantity: ticks go to powers of ten and are
    /// labelled with the quantity itself (set by views that plot on log axes).
    bool xLog = false, yLog = false;

    double toDataX(double u) const { return xMin + u * (xMax - xMin); }
    double toDataY(double v) const { return yMin + v * (yMax - yMin); }
    double toNormalizedX(double x) const { return (x - xMin) / (xMax - xMin); }
    double toNormalizedY(double y) const { return (y - yMin) / (yMax - yMin); }
};

/// Colour of `label` in `data`: its style's colour when it has one, else the palette's.
QColor labelColour(const ScatterData& data, int label);
/// Legend text of `label`: its style's name, "noise" or "cluster k".
QString labelName(const ScatterData& data, int label);

/// Names of the coordinates the axes pick ("FSC-A", or "X_umap 1"). Throws InvalidInput when the
/// axes do not fit the dataset.
QString axisName(const Dataset& dataset, const ScatterAxes& axes, bool vertical);

/// True when `axes` names existing coordinates of `dataset`.
bool axesValid(const Dataset& dataset, const ScatterAxes& axes);

/// Builds the drawable scatter. O(N) time (histogram, smoothing and a counting sort), polls
/// `control` for cancellation. Labels mode falls back to density when no labels are available,
/// marker mode when the marker is not a feature of the dataset.
ScatterData prepareScatter(const ScatterRequest& request, JobControl* control = nullptr);

}  // namespace clusterlens::views
