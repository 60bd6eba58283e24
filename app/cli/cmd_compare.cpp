// clusterlens-cli compare LABELS_A.csv LABELS_B.csv [--matching hungarian|greedy] [--json]

#include <cstdio>

#include "args.hpp"
#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {

int compareCommand(const Arguments& argv) {
    Args args(argv, {"--json"}, {"--matching"});
    args.expectPositional({"LABELS_A.csv", "LABELS_B.csv"});
    const MatchingMethod method = parseMatchingMethod(args.choice("--matching", {"hungarian", "greedy"}, "hungarian"));
    const std::vector<std::int32_t> a = readLabels(args.positional()[0]);
    const std::vector<std::int32_t> b = readLabels(args.positional()[1]);
    if (a.size() != b.size())
        throw InvalidInput(args.positional()[1] + ": has " + std::to_string(b.size()) + " labels but " +
                           args.positional()[0] + " has " + std::to_string(a.size()));
    Stopwatch clock;
    const ContingencyTable table = contingencyTable(a, b);
    const double ari = adjustedRandIndex(table), nmi = normalizedMutualInformation(table);
    const ClusterMatching matching = matchClusters(table, method);
    const double seconds = clock.seconds();
    if (!args.flag("--json")) {
        std::printf("points: %lld  clusters: %zu vs %zu\nARI: %.6f  NMI: %.6f  F-measure: %.6f\n",
                    static_cast<long long>(table.n), table.labelsA.size(), table.labelsB.size(), ari, nmi,
                    matching.fMeasure);
        for (const MatchedPair& p : matching.pairs) std::printf("  %d <-> %d  F1 %.4f\n", p.a, p.b, p.f1);
        return 0;
    }
    Json pairs = Json::array();
    for (const MatchedPair& p : matching.pairs) pairs.push(Json::object().set("a", p.a).set("b", p.b).set("f1", p.f1));
    std::printf("%s\n", Json::object()
                            .set("n", table.n)
                            .set("clusters_a", table.labelsA.size())
                            .set("clusters_b", table.labelsB.size())
                            .set("ari", ari)
                            .set("nmi", nmi)
                            .set("f_measure", matching.fMeasure)
                            .set("matching", method == MatchingMethod::Hungarian ? "hungarian" : "greedy")
                            .set("pairs", pairs)
                            .set("backend", "cpu")
                            .set("seconds", Json::object().set("compare", seconds))
                            .dump()
                            .c_str());
    return 0;
}

}  // namespace clusterlens::cli
