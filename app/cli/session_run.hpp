#pragma once
// --session FILE [--name NAME] [--population NAME] of the analysis commands (DESIGN.md "Sessions"):
// before the analysis, the session is opened (or will be created) and checked against INPUT, and the
// population's events are chosen; after it, the result is stored under its name.

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "args.hpp"
#include "clusterlens/dataset.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/session/population.hpp"
#include "clusterlens/session/session.hpp"
#include "commands.hpp"

namespace clusterlens::cli {

/// The options this file handles; analysis commands add them to their valued options.
extern const std::set<std::string> kSessionValued;

/// The DatasetReadSpec of the common flags (--columns --transform --compensate --dataset --embedding
/// --label-column --subsample --seed).
DatasetReadSpec readSpecFrom(const Args& args);

/// The entry of `entries` called `name`; else InvalidInput "FILE: has no KIND 'NAME' (it has ...)".
template <typename T>
const T& namedOrThrow(const std::vector<T>& entries, const std::string& name, const std::string& file,
                      const char* kind) {
    if (const T* entry = findNamed(entries, name)) return *entry;
    std::string names;
    for (const T& entry : entries) names += (names.empty() ? "" : ", ") + ("'" + entryName(entry) + "'");
    throwFileError(file, "",
                   std::string("has no ") + kind + " '" + name + "'" +
                       (names.empty() ? std::string(" (it has none)") : " (it has " + names + ")"));
}

class SessionRun {
public:
    /// Without --session: nothing to do (UsageError for --name or --population alone). With it: reads
    /// the session when FILE exists (InvalidInput, exit 3, when it is damaged, foreign, newer, or belongs
    /// to other data: another SHA-256, or other events chosen by --subsample/--seed/--dataset/--embedding),
    /// else prepares a new one for INPUT; resolves --population. `data` is INPUT as prepared.
    SessionRun(const Args& args, const Arguments& argv, const std::string& command, const std::string& input,
               const Dataset& data);

    bool active() const { return m_session.has_value(); }
    /// Ascending whole-dataset indices of --population's events; empty when it runs on all events.
    const Members& members() const { return m_members; }
    bool onPopulation() const { return !m_population.empty(); }

    /// The events to analyse: `data` itself, or the population's rows.
    Dataset restrict(Dataset data) const;
    /// The whole-dataset index of the analysed event at `position`.
    std::int64_t indexOf(std::int64_t position) const {
        return m_members.empty() || position < 0 ? position : m_members[static_cast<std::size_t>(position)];
    }
    /// The position among the analysed events of whole-dataset index `index`, or -1 when it is not one
    /// of them (not a member of --population, or outside the data).
    std::int64_t positionOf(std::int64_t index) const;
    /// Labels of the analysed events as labels of the whole dataset (-1 for the others).
    std::vector<std::int32_t> wholeLabels(std::vector<std::int32_t> labels) const;
    /// Number of events of the whole dataset.
    std::size_t eventCount() const { return m_eventCount; }

    /// Name (--name, else `defaultName` plus " on POPULATION"), description (the command line),
    /// features, transform, population and members of the result.
    ResultInfo info(const std::string& defaultName, const Dataset& analysed) const;

    /// Applies `store` to the session and writes it atomically; does nothing without --session.
    void save(const std::function<void(Session&)>& store);

private:
    std::string m_path;
    std::string m_name;
    std::string m_population;
    std::string m_commandLine;
    std::string m_transform;
    std::size_t m_eventCount = 0;
    Members m_members;
    std::optional<Session> m_session;
};

}  // namespace clusterlens::cli
