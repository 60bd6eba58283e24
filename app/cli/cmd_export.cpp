// clusterlens-cli export INPUT [--labels LABELS.csv [--label-name NAME]] --out OUT.fcs|OUT.csv
// Writes the events of INPUT as stored in it — every channel, no transform, no compensation, an FCS
// file's keywords kept — plus a cluster channel from LABELS.csv, so FlowJo re-opens the export as the
// same experiment with one more parameter. The options of the analysis that produced the labels may
// be repeated: --subsample N --seed S writes the events it saw; --columns and --transform do not
// change what is written (--columns must still name channels of INPUT).
// --session FILE [--population NAME [--all-events]]: the session's events (its --subsample), only the
// population's events, or all of them with a membership channel (export_session.hpp).

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/export_events.hpp"
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

/// The events the analysis saw: all (nullopt), or the ones --subsample N --seed S keeps.
Events analysedEvents(const Args& args, const Dataset& data) {
    try {
        if (args.has("--columns")) resolveColumns(data, args.list("--columns"));
    } catch (const InvalidInput& e) {
        throw UsageError(e.what());
    }
    if (!args.has("--subsample")) return std::nullopt;
    const std::uint64_t m = args.count("--subsample", 0);
    if (m == 0) throw UsageError("--subsample: the sample size must be at least 1");
    const std::vector<std::size_t> kept = subsampleIndices(data.n, m, args.count("--seed", 1));
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

void printSummary(const std::string& out, const ExportSource& source, const ExportSelection& selection,
                  double seconds) {
    std::vector<std::string> channels;
    for (const ExtraChannel& channel : selection.channels) channels.push_back(channel.name);
    std::printf("%s\n", Json::object()
                            .set("n", selection.events ? selection.events->size() : source.events())
                            .set("d", source.data().d + selection.channels.size())
                            .set("channels", stringArray(channels))
                            .set("out", out)
                            .set("backend", "cpu")
                            .set("seconds", Json::object().set("export", seconds))
                            .dump()
                            .c_str());
}

}  // namespace

int runExport(const Arguments& argv) {
    Args args(argv, with(kCommonFlags, {"--all-events"}),
              with(kCommonValued, {"--labels", "--label-name", "--out", "--session", "--population"}));
    args.expectPositional({"INPUT"});
    const std::string out = args.required("--out");
    const std::string extension = lowerExtension(out);
    if (extension != ".fcs" && extension != ".csv") throw UsageError("--out must end in .fcs or .csv");
    if (args.has("--label-name") && !args.has("--labels")) throw UsageError("--label-name needs --labels");
    if (args.has("--population") && !args.has("--session")) throw UsageError("--population needs --session FILE");
    if (args.flag("--all-events") && !args.has("--population")) throw UsageError("--all-events needs --population");
    Stopwatch clock;
    const ExportSource source = ExportSource::open(args.positional()[0], readOptionsFrom(args, true));
    // A cut or odd source file is exported as read: say so, as `info` does.
    for (const std::string& w : source.data().warnings)
        std::fprintf(stderr, "clusterlens-cli: warning: %s\n", w.c_str());
    ExportSelection selection;
    std::optional<ExportSession> session;
    if (args.has("--session")) session.emplace(args, args.positional()[0], source.events());
    selection.events = session ? session->analysed() : analysedEvents(args, source.data());
    if (args.has("--labels"))
        selection.channels.push_back(labelChannel(args, selection.events, source.events(), extension == ".fcs"));
    if (session) session->select(args, selection);
    exportEvents(out, source, selection);
    if (args.flag("--json")) printSummary(out, source, selection, clock.seconds());
    return 0;
}

}  // namespace clusterlens::cli
