// clusterlens-cli export INPUT [--labels LABELS.csv [--label-name NAME]] --out OUT.fcs|OUT.csv|OUT.h5ad
// Writes the events of INPUT as stored in it — every channel, no transform, no compensation, an FCS
// file's keywords kept — plus a cluster channel from LABELS.csv, so FlowJo re-opens the export as the
// same experiment with one more parameter. The options of the analysis that produced the labels may
// be repeated: --subsample N --seed S writes the events it saw; --columns and --transform do not
// change what is written (--columns must still name channels of INPUT).
// --session FILE [--population NAME [--all-events]] [--labeling NAME]: the session's events (its
// --subsample), only the population's events, or all of them with a membership channel, and a stored
// labeling as a cluster channel (export_session.hpp).
// OUT.h5ad (from an .h5ad INPUT): a copy of INPUT with the labels, the labeling and the population as
// categorical obs columns (h5ad_annotate.hpp); X is not read. Events the analysis did not see are
// missing (NaN) in every column.

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/export_events.hpp"
#include "clusterlens/io/h5ad_annotate.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/transforms.hpp"
#include "commands.hpp"
#include "export_session.hpp"
#include "input.hpp"
#include "json.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {
namespace {

using Events = std::optional<std::vector<std::int64_t>>;

std::string lowerExtension(const std::string& path) {
    std::string extension = std::filesystem::path(path).extension().string();
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return extension;
}

/// The events the analysis saw of INPUT's n: all (nullopt), or the ones --subsample N --seed S keeps.
/// --columns must name features of `data` when it is given.
Events analysedEvents(const Args& args, std::size_t n, const Dataset* data) {
    try {
        if (data != nullptr && args.has("--columns")) resolveColumns(*data, args.list("--columns"));
    } catch (const InvalidInput& e) {
        throw UsageError(e.what());
    }
    if (!args.has("--subsample")) return std::nullopt;
    const std::uint64_t m = args.count("--subsample", 0);
    if (m == 0) throw UsageError("--subsample: the sample size must be at least 1");
    const std::vector<std::size_t> kept = subsampleIndices(n, m, args.count("--seed", 1));
    return std::vector<std::int64_t>(kept.begin(), kept.end());
}

/// LABELS.csv (one label per analysed event) as a channel over all n events; -1 (noise) outside
/// the analysed events, which are not written.
ExtraChannel labelChannel(const Args& args, const Events& events, std::size_t n, bool fcs) {
    const std::size_t analysed = events ? events->size() : n;
    const std::vector<std::int32_t> labels = readLabels(args.value("--labels"), analysed);
    ExtraChannel channel;
    channel.name = args.value("--label-name", fcs ? "ClusterLens_cluster" : "cluster");
    channel.kind = ChannelKind::ClusterIds;
    if (!events) {
        channel.values = labels;
        return channel;
    }
    channel.values.assign(n, -1);
    for (std::size_t k = 0; k < analysed; ++k) channel.values[static_cast<std::size_t>((*events)[k])] = labels[k];
    return channel;
}

/// n events written; d columns (null for an .h5ad, whose matrix is copied unread).
void printSummary(const std::string& out, std::size_t n, const Json& d, const ExportSelection& selection,
                  double seconds) {
    std::vector<std::string> channels;
    for (const ExtraChannel& channel : selection.channels) channels.push_back(channel.name);
    std::printf("%s\n", Json::object()
                            .set("n", n)
                            .set("d", d)
                            .set("channels", stringArray(channels))
                            .set("out", out)
                            .set("backend", "cpu")
                            .set("seconds", Json::object().set("export", seconds))
                            .dump()
                            .c_str());
}

/// The selection's channels as categorical obs columns (a labeling's clusters named by `clusterNames`,
/// keyed by channel name); events outside the analysed ones are missing.
std::vector<ObsCategorical> obsColumns(const ExportSelection& selection, std::size_t n,
                                       const std::map<std::string, std::vector<std::string>>& clusterNames) {
    std::vector<char> analysed(n, selection.events ? 0 : 1);
    if (selection.events)
        for (std::int64_t event : *selection.events) analysed[static_cast<std::size_t>(event)] = 1;
    std::vector<ObsCategorical> columns;
    for (const ExtraChannel& channel : selection.channels) {
        std::vector<std::int32_t> values = channel.values;
        for (std::size_t i = 0; i < n; ++i)
            if (!analysed[i]) values[i] = -1;
        columns.push_back(channel.kind == ChannelKind::ClusterIds
                              ? categoricalFromLabels(channel.name, values, clusterNames.at(channel.name))
                              : categoricalFromMembership(channel.name, values));
    }
    return columns;
}

/// OUT.h5ad: INPUT copied with the columns added; a population becomes a column, never a subset.
void exportH5ad(const Args& args, const std::string& input, const std::string& out, const Stopwatch& clock) {
    if (lowerExtension(input) != ".h5ad")
        throw UsageError("--out OUT.h5ad needs an .h5ad INPUT (a copy of it is written)");
    const std::size_t n = h5adObservationCount(input);
    std::optional<ExportSession> session;
    if (args.has("--session")) session.emplace(args, input, n);
    ExportSelection selection;
    selection.events = session ? session->analysed() : analysedEvents(args, n, nullptr);
    std::map<std::string, std::vector<std::string>> clusterNames;
    if (args.has("--labels")) {
        selection.channels.push_back(labelChannel(args, selection.events, n, false));
        clusterNames[selection.channels.back().name] = {};
    }
    if (session) {
        clusterNames[args.value("--labeling")] = session->addLabeling(args, selection);
        session->select(args, selection, true);
    }
    if (selection.channels.empty())
        throw UsageError(
            "--out OUT.h5ad needs the columns to add: --labels, or --session with --labeling/--population");
    writeH5adWithObsColumns(input, out, obsColumns(selection, n, clusterNames));
    if (args.flag("--json")) printSummary(out, n, nullptr, selection, clock.seconds());
}

}  // namespace

int exportCommand(const Arguments& argv) {
    Args args(argv, with(kCommonFlags, {"--all-events"}),
              with(kCommonValued, {"--labels", "--label-name", "--out", "--session", "--population", "--labeling"}));
    args.expectPositional({"INPUT"});
    const std::string out = args.required("--out");
    const std::string extension = lowerExtension(out);
    if (extension != ".fcs" && extension != ".csv" && extension != ".h5ad")
        throw UsageError("--out must end in .fcs, .csv or .h5ad");
    if (args.has("--label-name") && !args.has("--labels")) throw UsageError("--label-name needs --labels");
    for (const char* option : {"--population", "--labeling"})
        if (args.has(option) && !args.has("--session")) throw UsageError(std::string(option) + " needs --session FILE");
    if (args.flag("--all-events") && !args.has("--population")) throw UsageError("--all-events needs --population");
    Stopwatch clock;
    if (extension == ".h5ad") {
        exportH5ad(args, args.positional()[0], out, clock);
        return 0;
    }
    const ExportSource source = ExportSource::open(args.positional()[0], readOptionsFrom(args, true));
    // A cut or odd source file is exported as read: say so, as `info` does.
    for (const std::string& w : source.data().warnings)
        std::fprintf(stderr, "clusterlens-cli: warning: %s\n", w.c_str());
    ExportSelection selection;
    std::optional<ExportSession> session;
    if (args.has("--session")) session.emplace(args, args.positional()[0], source.events());
    selection.events = session ? session->analysed() : analysedEvents(args, source.events(), &source.data());
    if (args.has("--labels"))
        selection.channels.push_back(labelChannel(args, selection.events, source.events(), extension == ".fcs"));
    if (session) {
        session->addLabeling(args, selection);
        session->select(args, selection);
    }
    exportEvents(out, source, selection);
    if (args.flag("--json"))
        printSummary(out, selection.events ? selection.events->size() : source.events(),
                     source.data().d + selection.channels.size(), selection, clock.seconds());
    return 0;
}

}  // namespace clusterlens::cli
