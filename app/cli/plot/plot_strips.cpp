#include "plot/plot_strips.hpp"

#include <QFileInfo>
#include <QString>

#include "analysis_session.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "marker_scale.hpp"
#include "populations/population_ops.hpp"
#include "populations/scope_mapping.hpp"
#include "session/session_recorder.hpp"

namespace clusterlens::cli {

namespace {

constexpr const char* kMarkerPrefix = "marker:";
constexpr const char* kPopulations = "populations";

views::ColourStrip markerStripOf(const std::string& what, const StripSource& source) {
    const std::string name = what.substr(std::string(kMarkerPrefix).size());
    if (source.data == nullptr)
        throw UsageError("--strip " + what + ": a marker strip needs the data (" + source.dataOption + ")");
    const std::ptrdiff_t column = views::markerColumn(*source.data, QString::fromStdString(name));
    if (column < 0) throw UsageError("--strip " + what + ": the data has no feature '" + name + "'");
    return views::markerStrip(*source.data, static_cast<std::size_t>(column));
}

/// The labeling `what` of the session, else its populations; InvalidInput naming what there is.
views::ColourStrip sessionStripOf(const std::string& what, const StripSource& source) {
    const Session& session = source.session->session;
    if (const LabelingResult* labeling = findNamed(session.labelings, what)) {
        if (labeling->labels.size() != source.events)
            throw InvalidInput("--strip: labeling '" + what + "' in " + source.session->path + " labels " +
                               std::to_string(labeling->labels.size()) + " events, the data has " +
                               std::to_string(source.events));
        return views::labelingStrip(QString::fromStdString(what), labeling->labels, nullptr);
    }
    if (what == kPopulations) {
        views::PopulationLabels drawn = views::populationLabels(session);
        views::LabelStyle style;
        style.colours = std::move(drawn.colours);
        return views::labelingStrip(views::SessionRecorder::populationsLabeling(), *drawn.labels, &style);
    }
    std::string names;
    for (const LabelingResult& labeling : session.labelings) names += "'" + labeling.info.name + "', ";
    throw InvalidInput("--strip: " + source.session->path + " has no labeling '" + what + "' (it has " + names +
                       "populations and marker:NAME)");
}

views::ColourStrip stripOf(const std::string& what, const StripSource& source) {
    if (what.rfind(kMarkerPrefix, 0) == 0) return markerStripOf(what, source);
    if (source.session != nullptr) return sessionStripOf(what, source);
    const QString title = QFileInfo(QString::fromStdString(what)).completeBaseName();
    return views::labelingStrip(title, readLabels(what, source.events), nullptr);
}

}  // namespace

std::vector<std::string> stripFiles(const Args& args) {
    std::vector<std::string> files;
    if (args.has("--session")) return files;
    for (const std::string& what : args.values("--strip"))
        if (what.rfind(kMarkerPrefix, 0) != 0) files.push_back(what);
    return files;
}

std::shared_ptr<const views::ColourStrips> plotStrips(const Args& args, const StripSource& source) {
    const std::vector<std::string> chosen = args.values("--strip");
    if (chosen.empty()) return nullptr;
    if (chosen.size() > static_cast<std::size_t>(views::maxColourStrips))
        throw UsageError("--strip: at most " + std::to_string(views::maxColourStrips) + " strips, got " +
                         std::to_string(chosen.size()));
    auto strips = std::make_shared<views::ColourStrips>();
    for (const std::string& what : chosen) strips->push_back(stripOf(what, source));
    views::ResultScope scope;
    if (!source.members.empty()) scope.members = std::make_shared<const views::IndexVector>(source.members);
    return views::stripsInScope(std::move(strips), scope);
}

}  // namespace clusterlens::cli
