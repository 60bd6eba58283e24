#include "plot/plot_session.hpp"

#include "clusterlens/errors.hpp"
#include "clusterlens/session/population.hpp"
#include "clusterlens/session/session_data.hpp"
#include "clusterlens/session/session_file.hpp"

namespace clusterlens::cli {

const std::set<std::string> kPlotSessionValued = {"--session", "--name", "--name2", "--population"};

namespace {

/// What `name` is in `session` besides a `wanted` ("a labeling, a population"), or empty.
std::string otherKindsOf(const Session& session, const std::string& name, const std::string& wanted) {
    std::vector<std::string> kinds;
    const auto note = [&](bool found, const char* kind) {
        if (found && wanted != kind) kinds.push_back(std::string(kind));
    };
    note(findNamed(session.linkages, name) != nullptr, "linkage");
    note(findNamed(session.labelings, name) != nullptr, "labeling");
    note(findNamed(session.dpc, name) != nullptr, "DPC result");
    note(findNamed(session.vat, name) != nullptr, "VAT order");
    note(findNamed(session.comparisons, name) != nullptr, "comparison");
    note(findNamed(session.populations, name) != nullptr, "population");
    std::string text;
    for (const std::string& kind : kinds) text += (text.empty() ? "a " : " and a ") + kind;
    return text;
}

}  // namespace

std::optional<PlotSession> plotSession(const Args& args, const std::vector<std::string>& positional,
                                       const std::vector<std::string>& optionalWithSession) {
    if (!args.has("--session")) {
        for (const char* option : {"--name", "--name2", "--population"})
            if (args.has(option)) throw UsageError(std::string(option) + " needs --session FILE");
        args.expectPositional(positional);
        return std::nullopt;
    }
    if (!args.has("--name")) throw UsageError("--session needs --name NAME (the result to draw)");
    const std::size_t given = args.positional().size();
    if (given > optionalWithSession.size()) {
        std::string files;
        for (const std::string& name : positional) files += (files.empty() ? "" : " ") + name;
        throw UsageError("give " + files + " or --session FILE --name NAME, not both");
    }
    PlotSession opened;
    opened.path = args.value("--session");
    opened.session = readSession(opened.path);
    return opened;
}

void missingResult(const Args& args, const PlotSession& session, const char* option, const char* kind,
                   const std::vector<std::string>& names) {
    const std::string name = args.value(option);
    const std::string other = otherKindsOf(session.session, name, kind);
    std::string reason = std::string(option) + ": " + session.path + " has no " + kind + " '" + name + "'";
    if (!other.empty()) {
        reason += "; '" + name + "' is " + other;
    } else {
        std::string list;
        for (const std::string& n : names) list += (list.empty() ? "'" : ", '") + n + "'";
        reason += list.empty() ? std::string(" (it has none)") : " (it has " + list + ")";
    }
    throw InvalidInput(reason);
}

void checkPopulation(const Args& args, const PlotSession& session, const ResultInfo& info, const std::string& name) {
    if (!args.has("--population")) return;
    const std::string wanted = args.value("--population");
    if (info.population == wanted) return;
    throw InvalidInput("--population: '" + name + "' in " + session.path + " ran on " +
                       (info.population.empty() ? std::string("all events") : "population '" + info.population + "'") +
                       ", not on '" + wanted + "'");
}

Dataset sessionData(const PlotSession& session, const std::string& input) {
    DatasetReference reference = session.session.data;
    // A data file named on the command line is read, not the embedded copy.
    if (!input.empty()) reference.embedded.reset();
    return loadReferencedData(reference, input);
}

std::vector<std::string> sourceFiles(const Args& args) {
    std::vector<std::string> files = args.positional();
    if (args.has("--session")) files.push_back(args.value("--session"));
    return files;
}

Dataset eventsOf(const Dataset& data, const std::vector<std::int64_t>& members, const std::string& file) {
    if (members.empty()) return data;
    if (static_cast<std::uint64_t>(members.back()) >= data.n)
        throw InvalidInput(file + ": the result's events go beyond the " + std::to_string(data.n) +
                           " events of the data");
    return selectMembers(data, members);
}

}  // namespace clusterlens::cli
