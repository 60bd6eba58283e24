// clusterlens-cli population add FILE --name NAME [--parent NAME]
//                                (--labeling NAME --clusters 1,3 | --indices MEMBERS.csv)
//                                [--colour #rrggbb] [--definition TEXT]
// Adds (or replaces) a population of the session; a child's events must lie within its parent.

#include <charconv>
#include <cstdio>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/session/members_csv.hpp"
#include "clusterlens/session/population.hpp"
#include "clusterlens/session/session_file.hpp"
#include "commands.hpp"
#include "json.hpp"

namespace clusterlens::cli {
namespace {

/// Colours given to new populations in turn (Tableau 10), unless --colour says otherwise.
constexpr const char* kColours[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

std::vector<std::int32_t> clusterList(const Args& args) {
    std::vector<std::int32_t> clusters;
    for (const std::string& item : args.list("--clusters")) {
        std::int32_t value = 0;
        const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
        if (ec != std::errc() || ptr != item.data() + item.size())
            throw UsageError("--clusters: '" + item + "' is not a cluster label");
        clusters.push_back(value);
    }
    if (clusters.empty()) throw UsageError("--clusters needs at least one label, e.g. --clusters 1,3");
    return clusters;
}

/// The new population's members and the sentence that says how they were chosen.
Population chosenEvents(const Args& args, const Session& session, const std::string& file) {
    Population p;
    if (args.has("--indices") == args.has("--labeling"))
        throw UsageError("choose the events with --labeling NAME --clusters 1,3 or with --indices MEMBERS.csv");
    if (args.has("--indices")) {
        p.members = readMembersCsv(args.value("--indices"), session.data.n);
        p.definition = "events listed in " + args.value("--indices");
        return p;
    }
    if (!args.has("--clusters")) throw UsageError("--labeling needs --clusters 1,3");
    const std::string name = args.value("--labeling");
    const LabelingResult* labeling = findNamed(session.labelings, name);
    if (labeling == nullptr) throwFileError(file, "", "has no labeling '" + name + "'");
    p.members = membersOfClusters(labeling->labels, clusterList(args));
    p.definition = "clusters " + args.value("--clusters") + " of " + name;
    return p;
}

int populationAddCommand(const Arguments& argv) {
    Args args(argv, {"--json"},
              {"--name", "--parent", "--labeling", "--clusters", "--indices", "--colour", "--definition"});
    args.expectPositional({"FILE"});
    const std::string file = args.positional()[0];
    const std::string name = args.required("--name");
    if (name.empty()) throw UsageError("--name must not be empty");
    if (args.has("--clusters") && !args.has("--labeling")) throw UsageError("--clusters needs --labeling NAME");
    Session session = readSession(file);
    Population population = chosenEvents(args, session, file);
    population.name = name;
    population.parent = args.value("--parent");
    if (!population.parent.empty()) {
        const Population* parent = findNamed(session.populations, population.parent);
        if (parent == nullptr) throwFileError(file, "", "has no population '" + population.parent + "' (--parent)");
        const std::size_t outside = subtractMembers(population.members, parent->members).size();
        if (outside > 0)
            throwFileError(file, "",
                           "population '" + name + "': " + std::to_string(outside) + " of its " +
                               std::to_string(population.members.size()) + " events lie outside its parent '" +
                               population.parent + "'");
    }
    if (args.has("--definition")) population.definition = args.value("--definition");
    const Population* existing = findNamed(session.populations, name);
    population.colour = args.value(
        "--colour", existing ? existing->colour : kColours[session.populations.size() % std::size(kColours)]);
    putNamed(session.populations, population);
    writeSession(file, session);
    const PopulationCounts counts = populationCounts(session, population);
    if (args.flag("--json"))
        std::printf("%s\n", Json::object()
                                .set("name", name)
                                .set("parent", population.parent)
                                .set("count", counts.count)
                                .set("percent_of_parent", counts.percentOfParent)
                                .set("percent_of_all", counts.percentOfAll)
                                .dump()
                                .c_str());
    return 0;
}

}  // namespace

int populationCommand(const Arguments& argv) {
    if (argv.empty() || argv[0] != "add") throw UsageError("expected population add FILE --name NAME ...");
    return populationAddCommand(Arguments(argv.begin() + 1, argv.end()));
}

}  // namespace clusterlens::cli
