#include "analysis_session.hpp"

namespace clusterlens::views {

AnalysisSession::AnalysisSession(QObject* parent) : QObject(parent) {}

void AnalysisSession::addLinkage(const QString& name, std::shared_ptr<const Linkage> linkage,
                                 const QString& description, ResultScope scope) {
    m_linkages[name] = {std::move(linkage), description, std::move(scope)};
    Q_EMIT linkagesChanged();
}

QStringList AnalysisSession::linkageNames() const {
    QStringList names;
    for (const auto& entry : m_linkages) names << entry.first;
    return names;
}

std::shared_ptr<const Linkage> AnalysisSession::linkage(const QString& name) const {
    auto it = m_linkages.find(name);
    return it == m_linkages.end() ? nullptr : it->second.linkage;
}

QString AnalysisSession::linkageDescription(const QString& name) const {
    auto it = m_linkages.find(name);
    return it == m_linkages.end() ? QString() : it->second.description;
}

ResultScope AnalysisSession::linkageScope(const QString& name) const {
    auto it = m_linkages.find(name);
    return it == m_linkages.end() ? ResultScope{} : it->second.scope;
}

void AnalysisSession::addLabeling(const QString& name, std::shared_ptr<const LabelVector> labels, ResultScope scope) {
    m_labelings[name] = std::move(labels);
    if (scope.isAll())
        m_labelingScopes.erase(name);
    else
        m_labelingScopes[name] = std::move(scope);
    Q_EMIT labelingsChanged();
    if (name == m_colouring) Q_EMIT colouringChanged(m_colouring);
}

QStringList AnalysisSession::labelingNames() const {
    QStringList names;
    for (const auto& entry : m_labelings) names << entry.first;
    return names;
}

std::shared_ptr<const LabelVector> AnalysisSession::labeling(const QString& name) const {
    auto it = m_labelings.find(name);
    return it == m_labelings.end() ? nullptr : it->second;
}

ResultScope AnalysisSession::labelingScope(const QString& name) const {
    auto it = m_labelingScopes.find(name);
    return it == m_labelingScopes.end() ? ResultScope{} : it->second;
}

void AnalysisSession::removeLabeling(const QString& name) {
    if (m_labelings.erase(name) == 0) return;
    m_labelingScopes.erase(name);
    m_styles.erase(name);
    Q_EMIT labelingsChanged();
    if (name == m_colouring) setColouring(QString());
}

void AnalysisSession::setLabelingStyle(const QString& name, std::shared_ptr<const LabelStyle> style) {
    if (style)
        m_styles[name] = std::move(style);
    else
        m_styles.erase(name);
}

std::shared_ptr<const LabelStyle> AnalysisSession::labelingStyle(const QString& name) const {
    auto it = m_styles.find(name);
    return it == m_styles.end() ? nullptr : it->second;
}

void AnalysisSession::setColouring(const QString& labelingName) {
    m_colouring = labelingName;
    m_marker.clear();
    Q_EMIT colouringChanged(m_colouring);
}

void AnalysisSession::setMarkerColouring(const QString& feature) {
    m_marker = feature;
    m_colouring.clear();
    Q_EMIT colouringChanged(m_colouring);
}

void AnalysisSession::setSelection(std::shared_ptr<const IndexVector> indices, const QObject* origin) {
    m_selection = indices ? std::move(indices) : std::make_shared<IndexVector>();
    Q_EMIT selectionChanged(origin);
}

void AnalysisSession::setPopulations(std::map<QString, std::shared_ptr<const IndexVector>> populations) {
    m_populations = std::move(populations);
    Q_EMIT populationsChanged();
}

QStringList AnalysisSession::populationNames() const {
    QStringList names;
    for (const auto& entry : m_populations) names << entry.first;
    return names;
}

std::shared_ptr<const IndexVector> AnalysisSession::populationMembers(const QString& name) const {
    auto it = m_populations.find(name);
    return it == m_populations.end() ? nullptr : it->second;
}

void AnalysisSession::clear() {
    m_linkages.clear();
    m_labelings.clear();
    m_labelingScopes.clear();
    m_styles.clear();
    m_colouring.clear();
    m_marker.clear();
    m_selection = std::make_shared<IndexVector>();
    Q_EMIT linkagesChanged();
    Q_EMIT labelingsChanged();
    Q_EMIT colouringChanged(m_colouring);
    Q_EMIT selectionChanged(this);
}

}  // namespace clusterlens::views
