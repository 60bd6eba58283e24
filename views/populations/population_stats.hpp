#pragma once
// The statistics table of the Populations panel: per population its count, % of parent, % of all
// events and the median of each marker, computed over the data as read (before the display
// transform), and its CSV export.

#include <QString>
#include <QStringList>

#include <cstddef>
#include <string>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/session/population.hpp"

namespace clusterlens::views {

struct PopulationStatistics {
    struct Row {
        QString name;
        QString parent;
        PopulationCounts counts;
        std::vector<double> medians;  ///< one per marker; NaN for an empty population
    };
    QStringList markers;
    std::vector<Row> rows;
};

/// Counts of every population and the medians of `markers` (feature names of `data`, unknown names
/// skipped) over its members. `data` has the session's n rows. O(total members · markers + n · markers).
/// Polls `control` between populations.
PopulationStatistics populationStatistics(const Session& session, const Dataset& data, const QStringList& markers,
                                          JobControl* control = nullptr);

/// name, parent, count, percent_of_parent, percent_of_all, then "median <marker>" per marker; numbers
/// exact enough to read back, text quoted when needed. Written atomically; throws InvalidInput naming
/// `path` when it cannot be written.
void writeStatisticsCsv(const std::string& path, const PopulationStatistics& statistics);

}  // namespace clusterlens::views
