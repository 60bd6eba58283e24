// clusterlens-cli plot KIND ... --out FIG.png|tif|svg|pdf [common figure options]
// Renders the same figures as the GUI's export, headless (QT_QPA_PLATFORM=offscreen works).

#include <QApplication>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "args.hpp"
#include "commands.hpp"
#include "plot/plot_registry.hpp"

namespace clusterlens::cli {

namespace {

/// Qt warns on stderr when XDG_RUNTIME_DIR is unset (batch jobs, containers): give it a private
/// folder of this user's, as the XDG specification asks (owned by the user, mode 0700).
void ensureRuntimeDir() {
    if (std::getenv("XDG_RUNTIME_DIR")) return;
    const std::string dir =
        (std::filesystem::temp_directory_path() / ("clusterlens-runtime-" + std::to_string(::getuid()))).string();
    ::mkdir(dir.c_str(), 0700);
    struct stat info {};
    if (::stat(dir.c_str(), &info) == 0 && info.st_uid == ::getuid() && (info.st_mode & 0777) == 0700)
        setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);
}

}  // namespace

std::vector<PlotKind>& plotKinds() {
    static std::vector<PlotKind> kinds;
    return kinds;
}

int plotCommand(const Arguments& argv) {
    if (argv.empty()) {
        std::string kinds;
        for (const PlotKind& k : plotKinds()) kinds += std::string(kinds.empty() ? "" : "|") + k.name;
        throw UsageError("plot needs a figure kind: " + kinds);
    }
    // Headless by default: no display is needed to render a figure.
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    ensureRuntimeDir();
    static int argc = 1;
    static char name[] = "clusterlens-cli";
    static char* args[] = {name, nullptr};
    // A widgets application: the Qt Charts kinds draw QGraphicsWidgets.
    static QApplication app(argc, args);
    for (const PlotKind& kind : plotKinds())
        if (argv[0] == kind.name) return kind.run(Arguments(argv.begin() + 1, argv.end()));
    throw UsageError("unknown figure kind '" + argv[0] + "'");
}

}  // namespace clusterlens::cli
