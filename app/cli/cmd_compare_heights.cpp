// clusterlens-cli compare-heights LINKAGE_A.csv LINKAGE_B.csv [--linkage-format scipy|thesis|hclust] [--json]
// Point heights (thesis definition 20) of two clusterings of the same points, correlated.

#include <cstdio>

#include "args.hpp"
#include "clusterlens/compare/correlation.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "json.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {

int compareHeightsCommand(const Arguments& argv) {
    Args args(argv, {"--json"}, {"--linkage-format"});
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
    if (!args.flag("--json")) {
        std::printf("points: %zu\nPearson: %.6f  Spearman: %.6f\n", a.leafCount, pearson, spearman);
        return 0;
    }
    std::printf("%s\n", Json::object()
                            .set("n", a.leafCount)
                            .set("pearson", pearson)
                            .set("spearman", spearman)
                            .set("backend", "cpu")
                            .set("seconds", Json::object().set("heights", seconds))
                            .dump()
                            .c_str());
    return 0;
}

}  // namespace clusterlens::cli
