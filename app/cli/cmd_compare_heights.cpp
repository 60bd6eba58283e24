// clusterlens-cli compare-heights LINKAGE_A.csv LINKAGE_B.csv [--linkage-format scipy|thesis|hclust]
//                                 [--out DIFF.csv] [--json]
// Point heights (thesis definition 20) of two clusterings of the same points, correlated; DIFF.csv
// gives each point's heights and the difference of its height ranks (how differently A and B place it).

#include <cstdio>
#include <string>

#include "args.hpp"
#include "clusterlens/compare/correlation.hpp"
#include "clusterlens/compare/height_discordance.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "clusterlens/io/number_text.hpp"
#include "clusterlens/io/text_file.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "json.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {
namespace {

/// DIFF.csv: `index,height_a,height_b,rank_difference`, one row per point, numbers as the shortest
/// text that reads back exactly.
void writeDiscordanceCsv(const std::string& path, const std::vector<double>& ha, const std::vector<double>& hb,
                         const std::vector<double>& difference) {
    std::string text = "index,height_a,height_b,rank_difference\n";
    text.reserve(text.size() + ha.size() * 48);
    for (std::size_t i = 0; i < ha.size(); ++i) {
        text += std::to_string(i);
        for (const double value : {ha[i], hb[i], difference[i]}) {
            text += ',';
            appendShortest(text, value);
        }
        text += '\n';
    }
    writeTextFile(path, text);
}

}  // namespace

int compareHeightsCommand(const Arguments& argv) {
    Args args(argv, {"--json"}, {"--linkage-format", "--out"});
    args.expectPositional({"LINKAGE_A.csv", "LINKAGE_B.csv"});
    const Linkage a = readLinkageFrom(args, args.positional()[0]);
    const Linkage b = readLinkageFrom(args, args.positional()[1]);
    if (a.leafCount != b.leafCount)
        throw InvalidInput(args.positional()[1] + ": clusters " + std::to_string(b.leafCount) + " points but " +
                           args.positional()[0] + " clusters " + std::to_string(a.leafCount));
    Stopwatch clock;
    const std::vector<double> ha = pointHeights(a), hb = pointHeights(b);
    const double pearson = pearsonCorrelation(ha, hb), spearman = spearmanCorrelation(ha, hb);
    const double seconds = clock.seconds();
    const std::string out = args.value("--out");
    if (!out.empty()) writeDiscordanceCsv(out, ha, hb, heightRankDifference(ha, hb));
    if (!args.flag("--json")) {
        std::printf("points: %zu\nPearson: %.6f  Spearman: %.6f\n", a.leafCount, pearson, spearman);
        return 0;
    }
    Json json = Json::object()
                    .set("n", a.leafCount)
                    .set("pearson", pearson)
                    .set("spearman", spearman)
                    .set("backend", "cpu")
                    .set("seconds", Json::object().set("heights", seconds));
    if (!out.empty()) json.set("out", out);
    std::printf("%s\n", json.dump().c_str());
    return 0;
}

}  // namespace clusterlens::cli
