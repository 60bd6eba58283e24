#include "session_run.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>

#include "clusterlens/errors.hpp"
#include "clusterlens/session/session_data.hpp"
#include "clusterlens/session/session_file.hpp"

namespace clusterlens::cli {
namespace {

/// Refuses INPUT when its events are not the session's: every stored index would point elsewhere.
void requireSameEvents(const DatasetReference& ref, const DatasetReadSpec& spec, const Dataset& data,
                       const std::string& input, const std::string& session) {
    const auto differs = [&](const std::string& what) {
        throwFileError(input, "",
                       "is read with other " + what + " than session " + session +
                           " records, so its events differ from the session's");
    };
    if (spec.subsample != ref.read.subsample || (spec.subsample != 0 && spec.seed != ref.read.seed))
        differs("--subsample/--seed (the session: --subsample " + std::to_string(ref.read.subsample) + " --seed " +
                std::to_string(ref.read.seed) + ")");
    if (spec.h5Dataset != ref.read.h5Dataset) differs("--dataset ('" + ref.read.h5Dataset + "' in the session)");
    if (spec.embedding != ref.read.embedding) differs("--embedding ('" + ref.read.embedding + "' in the session)");
    if (data.n != ref.n)
        throwFileError(input, "",
                       "has " + std::to_string(data.n) + " events, session " + session + " " + std::to_string(ref.n));
}

/// An argument as a POSIX shell reads it back: quoted when it holds anything but safe characters.
std::string shellWord(const std::string& arg) {
    const bool safe = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("-_./:=,%+@").find(c) != std::string_view::npos;
    });
    if (safe) return arg;
    std::string quoted = "'";
    for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

/// The command that made a result, to repeat it (the description the session stores).
std::string commandLine(const std::string& command, const Arguments& argv) {
    std::string line = "clusterlens-cli " + command;
    for (const std::string& arg : argv) line += " " + shellWord(arg);
    return line;
}

}  // namespace

const std::set<std::string> kSessionValued = {"--session", "--name", "--population"};

DatasetReadSpec readSpecFrom(const Args& args) {
    DatasetReadSpec spec;
    spec.columns = args.list("--columns");
    spec.transform = args.value("--transform");
    spec.compensate = args.flag("--compensate");
    spec.h5Dataset = args.value("--dataset");
    spec.embedding = args.value("--embedding");
    spec.labelColumn = args.value("--label-column");
    spec.subsample = args.count("--subsample", 0);
    spec.seed = args.count("--seed", 1);
    return spec;
}

SessionRun::SessionRun(const Args& args, const Arguments& argv, const std::string& command, const std::string& input,
                       const Dataset& data)
    : m_path(args.value("--session")),
      m_name(args.value("--name")),
      m_population(args.value("--population")),
      m_commandLine(commandLine(command, argv)),
      m_transform(args.value("--transform")),
      m_eventCount(data.n) {
    if (!args.has("--session")) {
        if (args.has("--name") || args.has("--population"))
            throw UsageError("--name and --population need --session FILE");
        return;
    }
    if (args.has("--name") && m_name.empty()) throw UsageError("--name must not be empty");
    const DatasetReadSpec spec = readSpecFrom(args);
    std::error_code ec;
    if (std::filesystem::exists(m_path, ec)) {
        m_session = readSession(m_path);
        requireSameDataFile(m_session->data, input);
        requireSameEvents(m_session->data, spec, data, input, m_path);
    } else {
        m_session = Session{};
        m_session->data = describeDataFile(input, spec, data);
    }
    if (!onPopulation()) return;
    const Population* population = findNamed(m_session->populations, m_population);
    if (population == nullptr)
        throwFileError(m_path, "", "has no population '" + m_population + "' (population add creates one)");
    m_members = population->members;
}

Dataset SessionRun::restrict(Dataset data) const {
    if (!onPopulation()) return data;
    return selectMembers(data, m_members);
}

std::int64_t SessionRun::positionOf(std::int64_t index) const {
    if (index < 0 || static_cast<std::uint64_t>(index) >= m_eventCount) return -1;
    if (m_members.empty()) return index;
    const auto it = std::lower_bound(m_members.begin(), m_members.end(), index);
    return it == m_members.end() || *it != index ? -1 : it - m_members.begin();
}

std::vector<std::int32_t> SessionRun::wholeLabels(std::vector<std::int32_t> labels) const {
    return onPopulation() ? scatterLabels(labels, m_members, m_eventCount) : labels;
}

ResultInfo SessionRun::info(const std::string& defaultName, const Dataset& analysed) const {
    ResultInfo info;
    info.name = !m_name.empty() ? m_name : onPopulation() ? defaultName + " on " + m_population : defaultName;
    info.description = m_commandLine;
    info.features = analysed.features;
    info.transform = m_transform;
    info.population = m_population;
    info.members = m_members;
    return info;
}

void SessionRun::save(const std::function<void(Session&)>& store) {
    if (!m_session) return;
    store(*m_session);
    writeSession(m_path, *m_session);
}

}  // namespace clusterlens::cli
