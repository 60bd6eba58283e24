#pragma once
// Making populations: a gate (the linked selection of any view) within a parent, chosen clusters of a
// labeling, AND / OR / NOT of populations; names, default colours, and the labeling that draws the
// visible populations in their colours. Pure functions of the session: the undo commands apply them.

#include <QColor>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

#include "clusterlens/session/population.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens::views {

enum class PopulationOp {
    And,     ///< members of every population
    Or,      ///< members of any population
    AndNot,  ///< members of the first and of none of the others
    Not,     ///< the one population's complement within its parent
};

/// "AND", "OR", "AND NOT", "NOT".
QString populationOpName(PopulationOp op);

/// `base` when no population has that name, else "base 2", "base 3", ...
QString uniquePopulationName(const Session& session, const QString& base);

/// The palette colour of the population made `index`-th, as "#rrggbb".
std::string defaultPopulationColour(std::size_t index);

/// A population of `selection` (ascending whole-dataset indices) within `parent` (empty: a root; its
/// events are all events): the members are the selected events of the parent. Throws InvalidInput
/// when the parent does not exist.
Population gatePopulation(const Session& session, const QString& name, const QString& parent, const Members& selection,
                          const QString& definition);

/// The combination of `names` (two or more; exactly one for Not). The parent is the one parent every
/// operand shares for And, Or and Not; for AndNot the first operand's parent; else a root. Throws
/// InvalidInput for a wrong count or an unknown name.
Population combinePopulations(const Session& session, PopulationOp op, const QStringList& names, const QString& name);

/// `name` and every population below it, parents before their children.
QStringList populationSubtree(const Session& session, const QString& name);

/// Labels that draw the visible populations: label i is the i-th visible population (document order),
/// an event takes the last visible population containing it (children follow their parents, so the
/// innermost gate shows), -1 outside every visible one. O(n + total members).
struct PopulationLabels {
    std::shared_ptr<const std::vector<std::int32_t>> labels;
    std::vector<QColor> colours;
    QStringList names;
};
PopulationLabels populationLabels(const Session& session);

}  // namespace clusterlens::views
