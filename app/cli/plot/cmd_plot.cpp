// clusterlens-cli plot KIND ... --out FIG.svg|pdf|png [--width W --height H --dpi D]
// Renders the same figures as the GUI's export, headless (QT_QPA_PLATFORM=offscreen works).

#include <QGuiApplication>

#include <cstdlib>

#include "args.hpp"
#include "commands.hpp"
#include "plot/plot_registry.hpp"

namespace clusterlens::cli {

std::vector<PlotKind>& plotKinds() {
    static std::vector<PlotKind> kinds;
    return kinds;
}

int runPlot(const Arguments& argv) {
    if (argv.empty()) {
        std::string kinds;
        for (const PlotKind& k : plotKinds()) kinds += std::string(kinds.empty() ? "" : "|") + k.name;
        throw UsageError("plot needs a figure kind: " + kinds);
    }
    // Headless by default: no display is needed to render a figure.
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    static int argc = 1;
    static char name[] = "clusterlens-cli";
    static char* args[] = {name, nullptr};
    static QGuiApplication app(argc, args);
    for (const PlotKind& kind : plotKinds())
        if (argv[0] == kind.name) return kind.run(Arguments(argv.begin() + 1, argv.end()));
    throw UsageError("unknown figure kind '" + argv[0] + "'");
}

} // namespace clusterlens::cli
