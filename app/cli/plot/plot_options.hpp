#pragma once
// Options shared by every `plot` kind: the output (--out, --width/--height in pixels or
// --width-mm/--height-mm, --dpi), the style (--title, --x-label, --y-label, --palette,
// --font-scale, --legend, --background) and the provenance every figure file carries.

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "args.hpp"
#include "figure/figure.hpp"

namespace clusterlens::cli {

inline const std::set<std::string> kPlotValued = {
    "--out",     "--width",   "--height",  "--width-mm",   "--height-mm", "--dpi",       "--title",
    "--x-label", "--y-label", "--palette", "--font-scale", "--legend",    "--background"};

/// What a plot kind needs to write its figure.
struct PlotOutput {
    std::string path;                    ///< --out
    views::FigureExportOptions options;  ///< size, dpi, provenance
    views::FigureStyle style;
};

/// Reads the common options of `plot KIND argv...`. A size in millimetres without --dpi is drawn
/// at 300 dpi; a missing side follows the figure's own aspect ratio. The provenance holds the
/// command as given and the SHA-256 of each of `dataFiles`. UsageError on a bad option or an
/// --out that is not .png, .tif, .tiff, .svg or .pdf; InvalidInput when a data file is unreadable.
PlotOutput plotOutput(const Args& args, const char* kind, const std::vector<std::string>& argv,
                      const std::vector<std::string>& dataFiles);

/// --OPTION LOW:HIGH (`--xlim`, `--rows`, `--leaves`, ...): two finite numbers with LOW < HIGH;
/// nothing when the option is absent. UsageError naming the option and `units` otherwise.
std::optional<std::pair<double, double>> rangeOption(const Args& args, const char* option, const char* units);

/// Applies the style and writes the figure; prints "OUT: summary" on stdout.
void writePlot(views::Figure& figure, const PlotOutput& output, const std::string& summary);

}  // namespace clusterlens::cli
