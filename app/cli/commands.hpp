#pragma once
// One function per clusterlens-cli subcommand; each takes the arguments after its name and
// returns the exit code. Errors are thrown (UsageError -> 2, InvalidInput -> 3).

#include <string>
#include <vector>

namespace clusterlens::cli {

using Arguments = std::vector<std::string>;

int runInfo(const Arguments& args);
int runCompare(const Arguments& args);
int runHca(const Arguments& args);
int runHeights(const Arguments& args);
int runKMeans(const Arguments& args);
int runCompareHeights(const Arguments& args);
int runExport(const Arguments& args);
int runDpc(const Arguments& args);
int runVat(const Arguments& args);
int runSession(const Arguments& args);
int runPopulation(const Arguments& args);
#ifdef CLUSTERLENS_HAVE_PLOT
int runPlot(const Arguments& args);
#endif

struct Command {
    const char* name;
    int (*run)(const Arguments&);
    const char* usage;
};

/// Every subcommand available in this build.
const std::vector<Command>& commands();

}  // namespace clusterlens::cli
