// clusterlens-cli: the headless front end over the engine (DESIGN.md "Command line contract").
// Exit codes: 0 success, 2 bad arguments, 3 bad input data, 1 anything else; one line on stderr.

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "commands.hpp"
#include "mpi_ranks.hpp"

namespace {

void printUsage(std::FILE* out) {
    std::fprintf(out, "usage: clusterlens-cli COMMAND ...\n\ncommands:\n");
    for (const auto& command : clusterlens::cli::commands()) std::fprintf(out, "  %s\n", command.usage);
    std::fprintf(out,
                 "\ncommon: [--backend auto|cpu|cuda] [--columns a,b,..] [--transform asinh:COFACTOR|zscore]\n"
                 "        [--dataset /h5/path] [--embedding NAME] [--label-column NAME] [--compensate]\n"
                 "        [--subsample N --seed S] [--json] [--quiet: no progress lines on stderr]\n"
                 "session: hca, dpc, vat and kmeans take [--session FILE [--name NAME] [--population NAME]]\n"
                 "exit codes: 0 success, 2 bad arguments, 3 bad input data\n");
}

int fail(int code, const char* message) {
    std::fprintf(stderr, "clusterlens-cli: error: %s\n", message);
    return code;
}

int run(const clusterlens::cli::Command& command, const std::vector<std::string>& args) {
    try {
        return command.run(args);
    } catch (const clusterlens::cli::UsageError& e) {
        return fail(2, (std::string(e.what()) + " (usage: clusterlens-cli " + command.usage + ")").c_str());
    } catch (const clusterlens::InvalidInput& e) {
        return fail(3, e.what());
    } catch (const clusterlens::Cancelled&) {
        return fail(1, "cancelled");
    } catch (const std::bad_alloc&) {
        return fail(1, "out of memory");
    } catch (const std::exception& e) {
        return fail(1, e.what());
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        printUsage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const std::string name = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    for (const auto& command : clusterlens::cli::commands()) {
        if (name != command.name) continue;
        if (clusterlens::cli::launchedAsRanks() && name != "dpc")
            return fail(2, "only dpc runs across MPI ranks; start other commands without mpirun");
        const int code = run(command, args);
        // A rank that failed ends the others, which would wait for it at their next exchange.
        if (code != 0) return clusterlens::cli::abortRanks(code);
        clusterlens::cli::finishRanks();
        return code;
    }
    return fail(2, ("unknown command '" + name + "' (try --help)").c_str());
}
