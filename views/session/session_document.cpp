#include "session/session_document.hpp"

#include <QFileInfo>

namespace clusterlens::views {

SessionDocument::SessionDocument(QObject* parent) : QObject(parent) {}

const Population* SessionDocument::population(const QString& name) const {
    return findNamed(m_session.populations, name.toStdString());
}

Population* SessionDocument::mutablePopulation(const QString& name) {
    return findNamed(m_session.populations, name.toStdString());
}

QString SessionDocument::displayName() const {
    return m_path.isEmpty() ? tr("Untitled") : QFileInfo(m_path).fileName();
}

void SessionDocument::reset(Session session, const QString& path, bool modified) {
    m_session = std::move(session);
    ++m_revision;
    const bool newPath = path != m_path;
    m_path = path;
    m_autosaveDirty = modified;
    Q_EMIT documentReset();
    if (newPath) Q_EMIT pathChanged(m_path);
    setModified(modified);
}

void SessionDocument::markSaved(const QString& path) {
    if (path != m_path) {
        m_path = path;
        Q_EMIT pathChanged(m_path);
    }
    setModified(false);
}

void SessionDocument::setModified(bool modified) {
    if (modified == m_modified) return;
    m_modified = modified;
    Q_EMIT modifiedChanged(m_modified);
}

void SessionDocument::touch() {
    ++m_revision;
    m_autosaveDirty = true;
    setModified(true);
}

void SessionDocument::setDataReference(DatasetReference data) {
    m_session.data = std::move(data);
    m_autosaveDirty = true;
}

template <typename T>
void SessionDocument::putResult(std::vector<T>& results, T result) {
    putNamed(results, std::move(result));
    touch();
    Q_EMIT resultsChanged();
}

void SessionDocument::putLinkage(LinkageResult result) {
    putResult(m_session.linkages, std::move(result));
}

void SessionDocument::putLabeling(LabelingResult result) {
    putResult(m_session.labelings, std::move(result));
}

bool SessionDocument::removeLabeling(const QString& name) {
    if (!removeNamed(m_session.labelings, name.toStdString())) return false;
    touch();
    Q_EMIT resultsChanged();
    return true;
}

void SessionDocument::putDpc(DpcResult result) {
    putResult(m_session.dpc, std::move(result));
}

void SessionDocument::putVat(VatEntry entry) {
    putResult(m_session.vat, std::move(entry));
}

void SessionDocument::putComparison(ComparisonResult result) {
    putResult(m_session.comparisons, std::move(result));
}

void SessionDocument::putPopulation(Population population, int position) {
    auto& all = m_session.populations;
    if (Population* existing = findNamed(all, population.name)) {
        *existing = std::move(population);
    } else if (position >= 0 && position < static_cast<int>(all.size())) {
        all.insert(all.begin() + position, std::move(population));
    } else {
        all.push_back(std::move(population));
    }
    touch();
    Q_EMIT populationsChanged();
}

int SessionDocument::removePopulation(const QString& name) {
    auto& all = m_session.populations;
    const std::string key = name.toStdString();
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i].name == key) {
            all.erase(all.begin() + static_cast<std::ptrdiff_t>(i));
            touch();
            Q_EMIT populationsChanged();
            return static_cast<int>(i);
        }
    return -1;
}

void SessionDocument::renamePopulation(const QString& from, const QString& to) {
    Population* population = mutablePopulation(from);
    if (!population || from == to) return;
    const std::string oldName = from.toStdString();
    population->name = to.toStdString();
    for (Population& child : m_session.populations)
        if (child.parent == oldName) child.parent = population->name;
    touch();
    Q_EMIT populationsChanged();
}

void SessionDocument::setPopulationColour(const QString& name, const QString& colour) {
    Population* population = mutablePopulation(name);
    if (!population) return;
    population->colour = colour.toStdString();
    touch();
    Q_EMIT populationStyleChanged(name);
}

void SessionDocument::setPopulationVisible(const QString& name, bool visible) {
    Population* population = mutablePopulation(name);
    if (!population || population->visible == visible) return;
    population->visible = visible;
    touch();
    Q_EMIT populationStyleChanged(name);
}

}  // namespace clusterlens::views
