#pragma once
// One function per clusterlens-cli subcommand; each takes the arguments after its name and
// returns the exit code. Errors are thrown (UsageError -> 2, InvalidInput -> 3).

#include <string>
#include <vector>

namespace clusterlens::cli {

using Arguments = std::vector<std::string>;

int infoCommand(const Arguments& args);
int compareCommand(const Arguments& args);
int hcaCommand(const Arguments& args);
int heightsCommand(const Arguments& args);
int kMeansCommand(const Arguments& args);
int compareHeightsCommand(const Arguments& args);
int exportCommand(const Arguments& args);
int dpcCommand(const Arguments& args);
int vatCommand(const Arguments& args);
int sessionCommand(const Arguments& args);
int populationCommand(const Arguments& args);
#ifdef CLUSTERLENS_HAVE_PLOT
int plotCommand(const Arguments& args);
#endif

struct Command {
    const char* name;
    int (*run)(const Arguments&);
    const char* usage;
};

/// Every subcommand available in this build.
const std::vector<Command>& commands();

}  // namespace clusterlens::cli
