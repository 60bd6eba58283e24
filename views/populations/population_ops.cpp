#include "populations/population_ops.hpp"

#include "clusterlens/errors.hpp"
#include "palette.hpp"

namespace clusterlens::views {

namespace {

const Population& requirePopulation(const Session& session, const QString& name) {
    const Population* population = findNamed(session.populations, name.toStdString());
    if (!population) throw InvalidInput("no population named '" + name.toStdString() + "'");
    return *population;
}

}  // namespace

QString populationOpName(PopulationOp op) {
    switch (op) {
        case PopulationOp::And:
            return QStringLiteral("AND");
        case PopulationOp::Or:
            return QStringLiteral("OR");
        case PopulationOp::AndNot:
            return QStringLiteral("AND NOT");
        case PopulationOp::Not:
            return QStringLiteral("NOT");
    }
    return {};
}

QString uniquePopulationName(const Session& session, const QString& base) {
    if (!findNamed(session.populations, base.toStdString())) return base;
    for (int i = 2;; ++i) {
        const QString candidate = QStringLiteral("%1 %2").arg(base).arg(i);
        if (!findNamed(session.populations, candidate.toStdString())) return candidate;
    }
}

std::string defaultPopulationColour(std::size_t index) {
    return Palette::labelColor(static_cast<int>(index)).name(QColor::HexRgb).toStdString();
}

Population gatePopulation(const Session& session, const QString& name, const QString& parent, const Members& selection,
                          const QString& definition) {
    Population population;
    population.name = name.toStdString();
    population.parent = parent.toStdString();
    population.definition = definition.toStdString();
    population.colour = defaultPopulationColour(session.populations.size());
    population.members =
        parent.isEmpty() ? selection : intersectMembers(selection, requirePopulation(session, parent).members);
    return population;
}

Population combinePopulations(const Session& session, PopulationOp op, const QStringList& names, const QString& name) {
    const bool single = op == PopulationOp::Not;
    if (single ? names.size() != 1 : names.size() < 2)
        throw InvalidInput(populationOpName(op).toStdString() +
                           (single ? " takes one population" : " takes two or more populations"));
    std::vector<const Population*> operands;
    for (const QString& operand : names) operands.push_back(&requirePopulation(session, operand));
    const Population& first = *operands.front();

    Population result;
    result.name = name.toStdString();
    result.colour = defaultPopulationColour(session.populations.size());
    bool sameParent = true;
    for (const Population* p : operands) sameParent = sameParent && p->parent == first.parent;
    result.parent = (sameParent || op == PopulationOp::AndNot) ? first.parent : std::string();
    if (op == PopulationOp::Not) {
        result.members = complementMembers(first.members, parentMembers(session, first));
        result.definition = "NOT " + first.name;
        return result;
    }
    result.members = first.members;
    result.definition = first.name;
    for (std::size_t i = 1; i < operands.size(); ++i) {
        const Members& other = operands[i]->members;
        if (op == PopulationOp::And)
            result.members = intersectMembers(result.members, other);
        else if (op == PopulationOp::Or)
            result.members = uniteMembers(result.members, other);
        else
            result.members = subtractMembers(result.members, other);
        result.definition += " " + populationOpName(op).toStdString() + " " + operands[i]->name;
    }
    return result;
}

QStringList populationSubtree(const Session& session, const QString& name) {
    QStringList subtree{name};
    // Breadth first over the parent links: a parent is listed before its children.
    for (qsizetype i = 0; i < subtree.size(); ++i) {
        const std::string parent = subtree[i].toStdString();
        for (const Population& p : session.populations)
            if (p.parent == parent) subtree << QString::fromStdString(p.name);
    }
    return subtree;
}

PopulationLabels populationLabels(const Session& session) {
    PopulationLabels out;
    auto labels = std::make_shared<std::vector<std::int32_t>>(static_cast<std::size_t>(session.data.n), -1);
    for (const Population& population : session.populations) {
        if (!population.visible) continue;
        const auto label = static_cast<std::int32_t>(out.colours.size());
        out.colours.emplace_back(QString::fromStdString(population.colour));
        out.names << QString::fromStdString(population.name);
        for (std::int64_t member : population.members)
            if (member >= 0 && static_cast<std::size_t>(member) < labels->size())
                (*labels)[static_cast<std::size_t>(member)] = label;
    }
    out.labels = std::move(labels);
    return out;
}

}  // namespace clusterlens::views
