#include "session/comparison_summary.hpp"

#include "compare/flat_comparison.hpp"

namespace clusterlens::views {

ComparisonSummary summarize(const FlatComparison& comparison) {
    ComparisonSummary summary;
    summary.labelingA = comparison.nameA;
    summary.labelingB = comparison.nameB;
    summary.matching = comparison.method == MatchingMethod::Greedy ? QStringLiteral("greedy")
                                                                   : QStringLiteral("hungarian");
    summary.ari = comparison.ari;
    summary.nmi = comparison.nmi;
    summary.fMeasure = comparison.matching.fMeasure;
    for (const MatchedPair& pair : comparison.matching.pairs) summary.pairs.push_back({pair.a, pair.b, pair.f1});
    return summary;
}

}  // namespace clusterlens::views
