#pragma once
// Options shared by every `plot` kind: --out, --width, --height, --dpi.

#include <set>
#include <string>

#include "args.hpp"
#include "figure/figure.hpp"

namespace clusterlens::cli {

inline const std::set<std::string> kPlotValued = {"--out", "--width", "--height", "--dpi"};

/// Reads --width/--height (points for SVG/PDF, pixels for PNG) and --dpi; UsageError on bad values.
inline views::FigureExportOptions plotExportOptions(const Args& args, int defaultWidth, int defaultHeight) {
    views::FigureExportOptions options;
    const auto width = args.count("--width", static_cast<std::uint64_t>(defaultWidth));
    const auto height = args.count("--height", static_cast<std::uint64_t>(defaultHeight));
    const auto dpi = args.count("--dpi", 96);
    if (width < 1 || width > 20000 || height < 1 || height > 20000) throw UsageError("--width/--height must lie in 1..20000");
    if (dpi < 10 || dpi > 2400) throw UsageError("--dpi must lie in 10..2400");
    options.size = QSize(static_cast<int>(width), static_cast<int>(height));
    options.dpi = static_cast<int>(dpi);
    return options;
}

} // namespace clusterlens::cli
