#pragma once
// The publication figure of a dendrogram: title, height axis (linear or logarithmic), the tree at
// the level of detail of the output size (links as vector paths, density strips as rectangles),
// the cut line, a legend of the clusters with their sizes, up to three colour strips under the
// leaves (labelings, populations or markers) and MHCA's threshold-size marks. The GUI's export and
// `clusterlens-cli plot dendrogram` both draw this class.

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "colour_strips.hpp"
#include "dendrogram/clustermap.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_view.hpp"
#include "dendrogram/threshold_marks.hpp"
#include "figure/figure.hpp"

namespace clusterlens::views {

struct DendrogramFigureOptions {
    QString title;
    bool logHeights = false;
    /// Leaf range shown, in leaf units; x0 >= x1 shows every leaf.
    double x0 = 0.0;
    double x1 = 0.0;
    /// Height range shown, in axis units (the merge height, or its base-10 logarithm with
    /// logHeights); y0 >= y1 shows every height.
    double y0 = 0.0;
    double y1 = 0.0;
    std::shared_ptr<const DendrogramCut> cut;                    ///< null: no clusters coloured
    std::vector<std::uint8_t> collapsed;                         ///< empty, or per merge row
    std::shared_ptr<const std::vector<std::string>> pointNames;  ///< leaf names when zoomed in
    std::vector<QString> clusterNames;                           ///< optional names of the cut's clusters
    std::shared_ptr<const Clustermap> clustermap;                ///< optional: marker medians under the leaves
    /// Colour strips under the leaves, titled on their left (a colour per leaf id); null: none.
    std::shared_ptr<const ColourStrips> strips;
    /// MHCA's threshold-size marks on the height axis, with a line of legend above the plot; null: none.
    std::shared_ptr<const ThresholdMarks> thresholdMarks;
};

class DendrogramFigure : public Figure {
public:
    DendrogramFigure(std::shared_ptr<const DendrogramLayout> layout, DendrogramFigureOptions options);

    void paint(QPainter& painter, const QRectF& area) const override;
    QSize defaultSize() const override { return {900, 560}; }
    QString ownTitle() const override { return m_options.title; }

private:
    FigureLegend legend() const;

    std::shared_ptr<const DendrogramLayout> m_layout;
    DendrogramFigureOptions m_options;
};

/// `--leaves A:B --heights C:D` of `plot dendrogram` for the part `view` shows: leaf units and merge
/// heights (on a logarithmic axis, 10 to the power of its ends), as text that reads back to the same
/// numbers.
QStringList dendrogramViewWords(const DendrogramView& view, bool logHeights);

/// Shows the leaves [leaves.first, leaves.second) and the merge heights [heights.first,
/// heights.second] (positive with logHeights), each the whole when absent: what `plot dendrogram
/// --leaves --heights` shows.
void showDendrogramPart(DendrogramFigureOptions& options, std::optional<std::pair<double, double>> leaves,
                        std::optional<std::pair<double, double>> heights);

/// Shows the part `view` shows as `plot dendrogram` reads it back from dendrogramViewWords(): the
/// GUI's figure of the part in view and its command agree to the last bit. Set logHeights first.
void showDendrogramView(DendrogramFigureOptions& options, const DendrogramView& view);

}  // namespace clusterlens::views
