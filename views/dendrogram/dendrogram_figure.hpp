#pragma once
// The publication figure of a dendrogram: title, height axis (linear or logarithmic), the tree at
// the level of detail of the output size (links as vector paths, density strips as rectangles),
// the cut line, a legend of the clusters with their sizes and up to three colour strips under the
// leaves (labelings, populations or markers). The GUI's export and
// `clusterlens-cli plot dendrogram` both draw this class.

#include <QString>

#include <memory>
#include <string>
#include <vector>

#include "colour_strips.hpp"
#include "dendrogram/clustermap.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "figure/figure.hpp"

namespace clusterlens::views {

struct DendrogramFigureOptions {
    QString title;
    bool logHeights = false;
    /// Leaf range shown, in leaf units; x0 >= x1 shows every leaf.
    double x0 = 0.0;
    double x1 = 0.0;
    std::shared_ptr<const DendrogramCut> cut;                    ///< null: no clusters coloured
    std::vector<std::uint8_t> collapsed;                         ///< empty, or per merge row
    std::shared_ptr<const std::vector<std::string>> pointNames;  ///< leaf names when zoomed in
    std::vector<QString> clusterNames;                           ///< optional names of the cut's clusters
    std::shared_ptr<const Clustermap> clustermap;                ///< optional: marker medians under the leaves
    /// Colour strips under the leaves, titled on their left (a colour per leaf id); null: none.
    std::shared_ptr<const ColourStrips> strips;
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

}  // namespace clusterlens::views
