#pragma once
// The one palette of the application: categorical colours for cluster labels (label -1 is noise,
// drawn grey) and a continuous perceptually uniform colormap for densities. Every view asks here,
// so a cluster has the same colour in the scatter, the dendrogram and the decision graph.

#include <QColor>
#include <QImage>

#include <QString>

#include <optional>
#include <vector>

namespace clusterlens::views {

/// The palettes a figure can be drawn in: Tableau (the screen's), Okabe–Ito (colour-blind safe, 7
/// colours, then generated ones) and viridis (continuous; categories spread evenly over it).
enum class PaletteKind { Tableau, OkabeIto, Viridis };

class Palette {
public:
    /// Colour of cluster label `label`: the Tableau colours, then generated distinct colours (64 in
    /// all) after which labels cycle; negative labels are noise.
    static QColor labelColor(int label);
    /// Colour of label `label` among `labelCount` labels (0..labelCount-1) in palette `kind`: Tableau
    /// and Okabe–Ito give their own colours first, then generated distinct colours (64 in all, then
    /// cycling); viridis spreads the labels evenly over the map.
    /// Negative labels are noise.
    static QColor labelColor(int label, PaletteKind kind, int labelCount);
    /// The Okabe–Ito colours without black (Okabe & Ito 2008, "Color Universal Design").
    static const std::vector<QColor>& okabeItoColors();
    /// "tableau", "okabe-ito", "viridis": the names of the command line.
    static QString paletteName(PaletteKind kind);
    /// Inverse of paletteName(); nullopt for any other text.
    static std::optional<PaletteKind> paletteFromName(const QString& name);
    /// Colour of noise/halo points (label -1).
    static QColor noiseColor();
    /// The distinct categorical colours, in the order labels 0, 1, 2, ... use them.
    static const std::vector<QColor>& categoricalColors();

    /// Continuous colormap (viridis-like: dark blue - green - yellow), t clamped to [0, 1].
    static QColor colormap(double t);
    /// The colormap sampled at `size` evenly spaced points, as an RGBA8888 image of size x 1
    /// (uploaded as a texture by the OpenGL views).
    static QImage colormapImage(int size = 256);
    /// The categorical colours as an RGBA8888 image of categoricalColors().size() x 1.
    static QImage categoricalImage();

    /// Dendrogram links that belong to no cluster (above the cut, or no cut).
    static QColor linkColor();
    /// Non-monotonic merges (a link going down): stands apart from every categorical colour.
    static QColor inversionColor();
    /// Selected points where a view highlights rather than fades (dendrogram subtrees and leaves).
    static QColor selectionColor();
};

}  // namespace clusterlens::views
