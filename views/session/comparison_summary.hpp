#pragma once
// The numbers of a flat comparison that a session keeps, taken from the view's FlatComparison. A
// separate step because the engine's session model and its agreement header both define
// clusterlens::MatchedPair, so no source file can include both.

#include <QString>

#include <cstdint>
#include <vector>

namespace clusterlens::views {

struct FlatComparison;

struct ComparisonSummary {
    struct Pair {
        std::int32_t a = 0;
        std::int32_t b = 0;
        double f1 = 0.0;
    };
    QString labelingA, labelingB;
    QString matching;  ///< "hungarian" or "greedy"
    double ari = 0.0;
    double nmi = 0.0;
    double fMeasure = 0.0;
    std::vector<Pair> pairs;
};

ComparisonSummary summarize(const FlatComparison& comparison);

}  // namespace clusterlens::views
