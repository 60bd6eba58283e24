#include "populations/cluster_choice_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QListWidget>
#include <QLocale>

#include <algorithm>
#include <map>

#include "analysis_session.hpp"

namespace clusterlens::views {

ClusterChoiceDialog::ClusterChoiceDialog(const AnalysisSession* analysis, const QString& excluded, QWidget* parent)
    : QDialog(parent), m_analysis(analysis), m_labeling(new QComboBox(this)), m_clusters(new QListWidget(this)) {
    setWindowTitle(tr("Population from clusters"));
    for (const QString& name : analysis->labelingNames())
        if (name != excluded) m_labeling->addItem(name);
    m_clusters->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Labeling"), m_labeling);
    form->addRow(tr("Clusters"), m_clusters);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_labeling, &QComboBox::currentTextChanged, this, &ClusterChoiceDialog::fillClusters);
    fillClusters();
}

void ClusterChoiceDialog::fillClusters() {
    m_clusters->clear();
    const auto labels = m_analysis->labeling(m_labeling->currentText());
    if (!labels) return;
    std::map<std::int32_t, std::size_t> sizes;
    for (std::int32_t label : *labels)
        if (label >= 0) ++sizes[label];
    for (const auto& [label, size] : sizes) {
        auto* item = new QListWidgetItem(
            tr("cluster %1 (%2 events)").arg(label).arg(QLocale().toString(static_cast<qulonglong>(size))), m_clusters);
        item->setData(Qt::UserRole, label);
    }
}

QString ClusterChoiceDialog::labeling() const {
    return m_labeling->currentText();
}

std::vector<std::int32_t> ClusterChoiceDialog::clusters() const {
    std::vector<std::int32_t> ids;
    for (const QListWidgetItem* item : m_clusters->selectedItems()) ids.push_back(item->data(Qt::UserRole).toInt());
    std::sort(ids.begin(), ids.end());
    return ids;
}

}  // namespace clusterlens::views
