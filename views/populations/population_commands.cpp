#include "populations/population_commands.hpp"

#include <QCoreApplication>

#include <algorithm>

#include "populations/population_ops.hpp"
#include "session/session_document.hpp"

namespace clusterlens::views {

namespace {

QString trPopulationCommands(const char* text) {
    return QCoreApplication::translate("PopulationCommands", text);
}

}  // namespace

AddPopulationCommand::AddPopulationCommand(SessionDocument* document, Population population)
    : m_document(document), m_population(std::move(population)) {
    setText(trPopulationCommands("Create population \u201c%1\u201d").arg(QString::fromStdString(m_population.name)));
}

void AddPopulationCommand::redo() {
    m_document->putPopulation(m_population);
}

void AddPopulationCommand::undo() {
    m_document->removePopulation(QString::fromStdString(m_population.name));
}

RemovePopulationCommand::RemovePopulationCommand(SessionDocument* document, const QString& name)
    : m_document(document) {
    const auto& all = document->populations();
    for (const QString& member : populationSubtree(document->session(), name))
        for (std::size_t i = 0; i < all.size(); ++i)
            if (all[i].name == member.toStdString()) m_removed.push_back({static_cast<int>(i), all[i]});
    std::sort(m_removed.begin(), m_removed.end(),
              [](const Removed& a, const Removed& b) { return a.position < b.position; });
    setText(m_removed.size() > 1 ? trPopulationCommands("Delete population \u201c%1\u201d and %2 inside it")
                                       .arg(name)
                                       .arg(m_removed.size() - 1)
                                 : trPopulationCommands("Delete population \u201c%1\u201d").arg(name));
}

void RemovePopulationCommand::redo() {
    for (auto it = m_removed.rbegin(); it != m_removed.rend(); ++it)
        m_document->removePopulation(QString::fromStdString(it->population.name));
}

void RemovePopulationCommand::undo() {
    // Ascending positions: each insertion puts an entry back where it was.
    for (const Removed& removed : m_removed) m_document->putPopulation(removed.population, removed.position);
}

RenamePopulationCommand::RenamePopulationCommand(SessionDocument* document, const QString& from, const QString& to)
    : m_document(document), m_from(from), m_to(to) {
    setText(trPopulationCommands("Rename population \u201c%1\u201d to \u201c%2\u201d").arg(from, to));
}

void RenamePopulationCommand::redo() {
    m_document->renamePopulation(m_from, m_to);
}

void RenamePopulationCommand::undo() {
    m_document->renamePopulation(m_to, m_from);
}

RecolourPopulationCommand::RecolourPopulationCommand(SessionDocument* document, const QString& name,
                                                     const QString& colour)
    : m_document(document), m_name(name), m_to(colour) {
    const Population* population = document->population(name);
    m_from = population ? QString::fromStdString(population->colour) : colour;
    setText(trPopulationCommands("Recolour population \u201c%1\u201d").arg(name));
}

void RecolourPopulationCommand::redo() {
    m_document->setPopulationColour(m_name, m_to);
}

void RecolourPopulationCommand::undo() {
    m_document->setPopulationColour(m_name, m_from);
}

ShowPopulationCommand::ShowPopulationCommand(SessionDocument* document, const QString& name, bool visible)
    : m_document(document), m_name(name), m_visible(visible) {
    setText(visible ? trPopulationCommands("Show population \u201c%1\u201d").arg(name)
                    : trPopulationCommands("Hide population \u201c%1\u201d").arg(name));
}

void ShowPopulationCommand::redo() {
    m_document->setPopulationVisible(m_name, m_visible);
}

void ShowPopulationCommand::undo() {
    m_document->setPopulationVisible(m_name, !m_visible);
}

}  // namespace clusterlens::views
