#include "export_session.hpp"

#include "clusterlens/errors.hpp"
#include "clusterlens/session/session_file.hpp"
#include "clusterlens/transforms.hpp"

namespace clusterlens::cli {

ExportSession::ExportSession(const Args& args, const std::string& input, std::size_t sourceEvents)
    : m_path(args.value("--session")), m_sourceEvents(sourceEvents), m_session(readSession(m_path)) {
    if (args.has("--subsample") || args.has("--seed"))
        throw UsageError("--subsample and --seed come from the session with --session");
    const DatasetReference& data = m_session.data;
    requireSameDataFile(data, input);
    if (data.read.subsample != 0) {
        const std::vector<std::size_t> kept = subsampleIndices(sourceEvents, data.read.subsample, data.read.seed);
        m_analysed = std::vector<std::int64_t>(kept.begin(), kept.end());
    }
    const std::size_t analysed = m_analysed ? m_analysed->size() : sourceEvents;
    if (analysed != data.n)
        throwFileError(input, "",
                       "has " + std::to_string(analysed) + " events as the session reads it, session " + m_path + " " +
                           std::to_string(data.n));
}

void ExportSession::select(const Args& args, ExportSelection& selection, bool asChannel) const {
    if (!args.has("--population")) return;
    const std::string name = args.value("--population");
    const Population* population = findNamed(m_session.populations, name);
    if (population == nullptr) throwFileError(m_path, "", "has no population '" + name + "'");
    std::vector<std::int64_t> events;  // INPUT's indices of the members
    events.reserve(population->members.size());
    for (std::int64_t member : population->members)
        events.push_back(m_analysed ? (*m_analysed)[static_cast<std::size_t>(member)] : member);
    if (!asChannel && !args.flag("--all-events")) {
        selection.events = std::move(events);
        return;
    }
    ExtraChannel channel{name, ChannelKind::Membership, std::vector<std::int32_t>(m_sourceEvents, 0)};
    for (std::int64_t event : events) channel.values[static_cast<std::size_t>(event)] = 1;
    selection.channels.push_back(std::move(channel));
}

std::vector<std::string> ExportSession::addLabeling(const Args& args, ExportSelection& selection) const {
    if (!args.has("--labeling")) return {};
    const std::string name = args.value("--labeling");
    const LabelingResult* labeling = findNamed(m_session.labelings, name);
    if (labeling == nullptr) throwFileError(m_path, "", "has no labeling '" + name + "'");
    ExtraChannel channel{name, ChannelKind::ClusterIds, std::vector<std::int32_t>(m_sourceEvents, -1)};
    for (std::size_t k = 0; k < labeling->labels.size(); ++k)
        channel.values[m_analysed ? static_cast<std::size_t>((*m_analysed)[k]) : k] = labeling->labels[k];
    selection.channels.push_back(std::move(channel));
    return labeling->clusterNames;
}

}  // namespace clusterlens::cli
