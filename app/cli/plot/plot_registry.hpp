#pragma once
// `clusterlens-cli plot KIND ...`: each figure kind registers itself from its own file.

#include <string>
#include <vector>

namespace clusterlens::cli {

struct PlotKind {
    const char* name;   ///< dendrogram, decision, heights, ...
    const char* usage;  ///< arguments after the kind
    int (*run)(const std::vector<std::string>& args);
};

std::vector<PlotKind>& plotKinds();

/// Static registration: `const PlotRegistrar registrar{{"heights", "...", runPlotHeights}};`
struct PlotRegistrar {
    explicit PlotRegistrar(PlotKind kind) { plotKinds().push_back(kind); }
};

}  // namespace clusterlens::cli
