#pragma once
// Where a `plot` kind takes its result from: the files named on the command line, or a session
// (`--session FILE --name NAME [--name2 NAME] [--population NAME]`, DESIGN.md "Sessions"). The result
// is looked up by name among the results of the kind the figure draws; a name missing from the session
// or naming a result of another kind is refused with InvalidInput (exit 3) naming the option.

#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "args.hpp"
#include "clusterlens/dataset.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens::cli {

/// The session options of `plot`; kinds add them to their valued options.
extern const std::set<std::string> kPlotSessionValued;

/// A session opened for a plot.
struct PlotSession {
    std::string path;  ///< --session
    Session session;
};

/// The session of --session, read (InvalidInput, exit 3, when unreadable or damaged), or nothing
/// without it. --session needs --name (UsageError); --name, --name2 and --population need --session.
/// `positional` names the files the session replaces: with --session none of them may be given,
/// without it all must be (UsageError); `optionalWithSession` may still be given with --session
/// (the data file of scatter and vat).
std::optional<PlotSession> plotSession(const Args& args, const std::vector<std::string>& positional,
                                       const std::vector<std::string>& optionalWithSession = {});

/// The entry of `entries` named by `option` (--name or --name2): InvalidInput "OPTION: FILE has no
/// KIND 'NAME'", adding what the name is instead ("it is a labeling") or which names there are. With
/// --population, the result must have run on that population.
template <typename T>
const T& sessionResult(const Args& args, const PlotSession& session, const std::vector<T>& entries, const char* option,
                       const char* kind);

/// Throws the InvalidInput of sessionResult; `names` lists the entries of the wanted kind.
[[noreturn]] void missingResult(const Args& args, const PlotSession& session, const char* option, const char* kind,
                                const std::vector<std::string>& names);

/// With --population NAME: InvalidInput unless `info` ran on it.
void checkPopulation(const Args& args, const PlotSession& session, const ResultInfo& info, const std::string& name);

/// The session's data: INPUT when given (refused unless its SHA-256 is the session's, read with the
/// session's read options), else the embedded matrix or the file the session names.
Dataset sessionData(const PlotSession& session, const std::string& input);

/// The files whose SHA-256 the figure's provenance records: the positional files, and the session.
std::vector<std::string> sourceFiles(const Args& args);

/// Rows `members` (ascending whole-dataset indices) of `data`; all of it when `members` is empty.
Dataset eventsOf(const Dataset& data, const std::vector<std::int64_t>& members, const std::string& file);

template <typename T>
const T& sessionResult(const Args& args, const PlotSession& session, const std::vector<T>& entries, const char* option,
                       const char* kind) {
    const std::string name = args.value(option);
    const T* entry = findNamed(entries, name);
    if (!entry) {
        std::vector<std::string> names;
        for (const T& e : entries) names.push_back(entryName(e));
        missingResult(args, session, option, kind, names);
    }
    if constexpr (!std::is_same_v<T, Population>) checkPopulation(args, session, entry->info, name);
    return *entry;
}

}  // namespace clusterlens::cli
