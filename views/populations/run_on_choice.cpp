#include "populations/run_on_choice.hpp"

#include "clusterlens/session/population.hpp"

namespace clusterlens::views {

RunOnChoice::RunOnChoice(AnalysisSession* analysis, QWidget* parent) : QComboBox(parent), m_analysis(analysis) {
    // Long population names must not widen the forms' column; the popup shows them in full.
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(12);
    setToolTip(
        tr("--population: the events the analysis runs on. Results keep the indices of the whole "
           "dataset; events outside the population are unlabelled."));
    connect(m_analysis, &AnalysisSession::populationsChanged, this, &RunOnChoice::refresh);
    refresh();
}

ResultScope RunOnChoice::scope() const {
    const QString name = currentData().toString();
    if (name.isEmpty()) return {};
    auto members = m_analysis->populationMembers(name);
    return members ? ResultScope{name, std::move(members)} : ResultScope{};
}

bool RunOnChoice::setPopulation(const QString& name) {
    const int index = findData(name);
    if (index < 0) return false;
    setCurrentIndex(index);
    return true;
}

void RunOnChoice::refresh() {
    const QString chosen = currentData().toString();
    const QSignalBlocker block(this);
    clear();
    addItem(tr("All events"), QString());
    for (const QString& name : m_analysis->populationNames()) {
        const auto members = m_analysis->populationMembers(name);
        addItem(tr("%1 (%2 events)").arg(name).arg(members ? members->size() : 0), name);
    }
    const int index = findData(chosen);
    setCurrentIndex(index < 0 ? 0 : index);
}

std::shared_ptr<const Dataset> scopedDataset(std::shared_ptr<const Dataset> data, const ResultScope& scope) {
    if (!data || scope.isAll()) return data;
    return std::make_shared<const Dataset>(selectMembers(*data, *scope.members));
}

std::shared_ptr<const LabelVector> wholeLabels(std::shared_ptr<const LabelVector> labels, const ResultScope& scope,
                                               std::size_t n) {
    if (!labels || scope.isAll()) return labels;
    return std::make_shared<const LabelVector>(scatterLabels(*labels, *scope.members, n));
}

}  // namespace clusterlens::views
