// ClusteringPanel: the form. One row per engine option, with the CLI's spelling in the tooltips
// so a setting found in the GUI can be reproduced with `clusterlens-cli hca`.

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "dendrogram/clustering_panel.hpp"
#include "flow_layout.hpp"
#include "jobs/run_controls.hpp"
#include "populations/run_on_choice.hpp"
#include "result_names.hpp"

namespace clusterlens::views {

void ClusteringPanel::buildForm() {
    m_linkage = new QComboBox(this);
    m_linkage->addItem(tr("Mahalanobis (MHCA)"), QStringLiteral("mahalanobis"));
    for (const char* method : {"single", "complete", "average", "weighted", "centroid", "median", "ward"})
        m_linkage->addItem(tr("%1 (Euclidean)").arg(QLatin1String(method)), QLatin1String(method));
    m_linkage->setToolTip(
        tr("--linkage. Classic linkages other than single keep an N\u00d7N distance matrix "
           "(at most 65,536 points)."));

    m_variant = new QComboBox(this);
    for (MhcaVariant variant : {MhcaVariant::Full, MhcaVariant::Centroid})
        m_variant->addItem(mhcaVariantDisplayName(variant), QLatin1String(mhcaVariantName(variant)));
    m_variant->setToolTip(
        tr("--variant: distance of clusters from all their members (full), or from their centroids (centroid, "
           "quicker)."));

    m_threshold = new QDoubleSpinBox(this);
    m_threshold->setRange(0.001, 1.0);
    m_threshold->setDecimals(3);
    m_threshold->setSingleStep(0.05);
    m_threshold->setValue(0.5);
    m_threshold->setToolTip(tr("--threshold: relative cluster size from which the pure Mahalanobis distance is used."));

    m_subthreshold = new QComboBox(this);
    for (const char* mode : {"mahal", "mahal0", "euclid", "euclid-mahal"})
        m_subthreshold->addItem(QLatin1String(mode), QLatin1String(mode));
    m_subthreshold->setToolTip(tr("--subthreshold: shape used for clusters below the threshold size."));

    m_normalize = new QCheckBox(tr("Unit-determinant covariances"), this);
    m_normalize->setToolTip(tr("--normalize: covariances normalized to unit determinant"));

    m_apriori = new QComboBox(this);
    m_apriori->addItem(tr("none"));
    m_apriori->addItem(tr("from a file"));
    m_apriori->addItem(tr("from k-means"));
    m_apriori->addItem(tr("from a labeling"));
    m_apriori->setToolTip(
        tr("--apriori FILE or --apriori-kmeans K: groups clustered first, then merged as clusters. "
           "From a labeling: each cluster is a group, unlabelled events belong to none."));
    m_aprioriOptions = new QStackedWidget(this);
    m_aprioriOptions->addWidget(new QWidget(m_aprioriOptions));
    auto* filePage = new QWidget(m_aprioriOptions);
    auto* fileRow = new QHBoxLayout(filePage);
    fileRow->setContentsMargins(0, 0, 0, 0);
    m_aprioriFile = new QLineEdit(filePage);
    m_aprioriFile->setPlaceholderText(tr("one group id per point, 0 = no group"));
    auto* browse = new QPushButton(tr("Browse\u2026"), filePage);
    connect(browse, &QPushButton::clicked, this, &ClusteringPanel::chooseAprioriFile);
    fileRow->addWidget(m_aprioriFile, 1);
    fileRow->addWidget(browse);
    m_aprioriOptions->addWidget(filePage);
    m_kmeansK = new QSpinBox(m_aprioriOptions);
    m_kmeansK->setRange(1, 100000);
    m_kmeansK->setValue(50);
    m_kmeansK->setPrefix(tr("K = "));
    m_kmeansSeed = new QSpinBox(m_aprioriOptions);
    m_kmeansSeed->setRange(0, 2'000'000'000);
    m_kmeansSeed->setValue(1);
    m_kmeansSeed->setPrefix(tr("seed "));
    // K and the seed wrap onto two lines in a narrow column.
    m_aprioriOptions->addWidget(flowRow({m_kmeansK, m_kmeansSeed}, m_aprioriOptions));
    m_aprioriLabeling = new QComboBox(m_aprioriOptions);
    m_aprioriLabeling->setToolTip(tr("Any labeling of the session: k-means, a cut, density peaks, the populations"));
    m_aprioriOptions->addWidget(m_aprioriLabeling);
    m_runOn = new RunOnChoice(m_analysis, this);

    m_backend = newBackendChoice(this);
    m_featuresLabel = new QLabel(this);
    m_featuresLabel->setWordWrap(true);
    const RunControls controls = newRunControls(tr("Run clustering"), this);
    m_runButton = controls.run;
    m_cancelButton = controls.cancel;
    m_progress = controls.progress;
    m_status = controls.status;
    connect(m_runButton, &QPushButton::clicked, this, &ClusteringPanel::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &ClusteringPanel::cancel);
    connect(m_linkage, &QComboBox::currentIndexChanged, this, &ClusteringPanel::updateEnabled);
    connect(m_apriori, &QComboBox::currentIndexChanged, this, &ClusteringPanel::updateEnabled);

    auto* form = new QFormLayout;
    // In a narrow column a field too wide beside its label goes under it.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(tr("Run on"), m_runOn);
    form->addRow(tr("Linkage"), m_linkage);
    form->addRow(tr("Variant"), m_variant);
    form->addRow(tr("Threshold"), m_threshold);
    form->addRow(tr("Sub-threshold"), m_subthreshold);
    form->addRow(QString(), m_normalize);
    form->addRow(tr("A-priori groups"), m_apriori);
    form->addRow(QString(), m_aprioriOptions);
    form->addRow(tr("Backend"), m_backend);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_featuresLabel);
    layout->addLayout(form);
    addRunControls(layout, controls);
    layout->addStretch(1);
}

}  // namespace clusterlens::views
