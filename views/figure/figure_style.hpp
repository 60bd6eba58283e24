#pragma once
// How a figure is drawn, independent of the view it shows: title and axis labels the user typed
// over the view's own, text size, palette, where the legend goes and the background. One struct for
// every figure, so the export dialog and `clusterlens-cli plot` offer the same choices everywhere.

#include <QString>
#include <QStringList>

#include <optional>

#include "palette.hpp"

namespace clusterlens::views {

/// Where a figure puts its legend (or colour bar); None leaves it out, Auto lets the figure choose.
enum class LegendPosition { Auto, None, Right, Top, Bottom, Left };

struct FigureStyle {
    QString title;           ///< empty: the figure's own title
    QString xLabel;          ///< empty: the figure's own horizontal axis title
    QString yLabel;          ///< empty: the figure's own vertical axis title
    double fontScale = 1.0;  ///< multiplies every text size (0.5 .. 3)
    PaletteKind palette = PaletteKind::Tableau;
    LegendPosition legend = LegendPosition::Auto;
    bool transparent = false;  ///< no background: PNG/TIFF get an alpha channel, PDF/SVG no white page

    /// `text` when the user gave one, else `own`.
    static const QString& pick(const QString& text, const QString& own) { return text.isEmpty() ? own : text; }
};

/// "auto", "none", "right", "top", "bottom", "left": the names of the command line and the dialog.
QString legendPositionName(LegendPosition position);
/// Inverse of legendPositionName(); nullopt for any other text.
std::optional<LegendPosition> legendPositionFromName(const QString& name);
/// Every legend position name, Auto first.
QStringList legendPositionNames();

}  // namespace clusterlens::views
