#include "dendrogram/dendrogram_panel.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

#include "analysis_session.hpp"
#include "colour_strip_chooser.hpp"
#include "clusterlens/hca/fix_monotonic.hpp"
#include "clusterlens/hca/linkage_cut.hpp"
#include "dendrogram/cluster_table_model.hpp"
#include "dendrogram/clustermap_widget.hpp"
#include "dendrogram/dendrogram_figure.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "dendrogram/tree_vat_strip.hpp"
#include "populations/run_on_choice.hpp"
#include "populations/scope_mapping.hpp"
#include "result_names.hpp"

namespace clusterlens::views {

namespace {

constexpr int kMaxClusters = 10'000;  // a cluster table row each
constexpr std::size_t kCachedLayouts = 3;

struct CutResult {
    std::shared_ptr<const DendrogramCut> cut;
    std::shared_ptr<const ClusterTable> table;
};

CutResult computeCut(const Linkage& linkage, const DendrogramLayout& layout, int k, std::size_t minSize,
                     const FeatureSelection& features, JobControl* control) {
    auto cut = std::make_shared<const DendrogramCut>(cutIntoPopulations(linkage, layout, k, minSize));
    auto table = std::make_shared<const ClusterTable>(summarizeCut(layout, *cut, features, control));
    return {std::move(cut), std::move(table)};
}

}  // namespace

DendrogramPanel::DendrogramPanel(JobRunner* runner, AnalysisSession* analysis, QWidget* parent)
    : QWidget(parent),
      m_runner(runner),
      m_analysis(analysis),
      m_widget(new DendrogramWidget(this)),
      m_tableModel(new ClusterTableModel(this)),
      m_clustermap(new ClustermapWidget(m_widget, this)) {
    m_strips = new ColourStripChooser(m_analysis, this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_tableModel);
    proxy->setSortRole(Qt::UserRole);
    m_table = new QTableView(this);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->sortByColumn(ClusterTableModel::ClusterColumn, Qt::AscendingOrder);
    // The header and three clusters stay visible however small the dock gets.
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              3 * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth());
    connect(m_table, &QTableView::clicked, this, [this, proxy](const QModelIndex& index) {
        selectSubtree(m_tableModel->rootOf(proxy->mapToSource(index).row()));
    });
    connect(m_table, &QTableView::doubleClicked, this, [this, proxy](const QModelIndex& index) {
        m_widget->zoomToSubtree(m_tableModel->rootOf(proxy->mapToSource(index).row()));
    });

    // The clustermap sits right under the tree, outside the splitter's handle.
    auto* tree = new QWidget(this);
    auto* treeLayout = new QVBoxLayout(tree);
    treeLayout->setContentsMargins(0, 0, 0, 0);
    treeLayout->setSpacing(0);
    treeLayout->addWidget(m_widget, 1);
    treeLayout->addWidget(m_clustermap);
    m_treeVat = new TreeVatStrip(m_widget, tree);
    treeLayout->addWidget(m_treeVat, 1);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(tree);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(buildToolbar());
    layout->addWidget(m_strips);
    layout->addWidget(splitter, 1);
    connect(m_strips, &ColourStripChooser::stripsChanged, this,
            [this] { m_widget->setStrips(stripsInScope(m_strips->strips(), m_scope)); });

    connect(m_widget, &DendrogramWidget::subtreeClicked, this, &DendrogramPanel::selectSubtree);
    connect(m_widget, &DendrogramWidget::selectionCleared, this, [this] { selectSubtree(-1); });
    connect(m_widget, &DendrogramWidget::cutHeightChosen, this, [this](double height) {
        if (!m_layout) return;
        // The populations (clusters of at least the minimum size) of the cut at that height.
        const DendrogramCut plain =
            cutIntoClusters(*m_layout, std::min(clustersAtHeight(*m_layout, height), kMaxClusters));
        int populations = 0;
        for (const std::int32_t root : plain.roots)
            populations += m_layout->size[static_cast<std::size_t>(root)] >= minClusterSize() ? 1 : 0;
        setClusterCount(std::max(populations, 1));
    });
    connect(m_analysis, &AnalysisSession::linkagesChanged, this, &DendrogramPanel::refreshLinkages);
    connect(m_analysis, &AnalysisSession::selectionChanged, this, &DendrogramPanel::onSessionSelection);
    refreshLinkages();
    updateInfo();
}

DendrogramPanel::~DendrogramPanel() = default;

void DendrogramPanel::setDataSource(std::shared_ptr<const Dataset> dataset, const QStringList& activeFeatures) {
    m_dataset = std::move(dataset);
    m_features = selectFeatures(m_dataset, activeFeatures);
    m_strips->setDataset(m_dataset);
    followScope();
    m_widget->setEventSource(linkedToData() ? m_analysis : nullptr, m_scope.members);
    m_widget->setPointNames(m_dataset && !m_dataset->pointNames.empty()
                                ? std::shared_ptr<const std::vector<std::string>>(m_dataset, &m_dataset->pointNames)
                                : nullptr);
    // The table's means and the clustermap follow the active features.
    if (m_cut)
        applyCut(clusterCount());
    else
        refreshClustermap();
    updateInfo();
}

void DendrogramPanel::refreshLinkages() {
    const QStringList names = m_analysis->linkageNames();
    m_updating = true;
    m_linkages->clear();
    m_linkages->addItems(names);
    m_linkages->setCurrentIndex(static_cast<int>(names.indexOf(m_linkageName)));
    m_updating = false;
    if (!m_linkageName.isEmpty() && m_analysis->linkage(m_linkageName) != m_linkage) {
        // The shown tree left the session (a new dataset) or was replaced under the same name.
        if (m_analysis->linkage(m_linkageName))
            showLinkage(m_linkageName);
        else
            applyLayout(QString(), nullptr);
    }
}

void DendrogramPanel::showLinkage(const QString& name) {
    auto linkage = m_analysis->linkage(name);
    if (!linkage) return;
    m_linkageName = name;
    m_linkage = linkage;
    m_updating = true;
    m_linkages->setCurrentIndex(static_cast<int>(m_analysis->linkageNames().indexOf(name)));
    m_updating = false;
    for (auto it = m_layouts.begin(); it != m_layouts.end();)
        it = it->second.first.expired() ? m_layouts.erase(it) : std::next(it);
    if (auto cached = m_layouts.find(linkage.get()); cached != m_layouts.end())
        return applyLayout(name, cached->second.second);
    if (linkage->leafCount <= inlineLimit) {
        try {
            return applyLayout(name, std::make_shared<const DendrogramLayout>(buildDendrogramLayout(*linkage)));
        } catch (const std::exception& error) {
            Q_EMIT message(tr("Dendrogram of %1: %2").arg(name, QString::fromUtf8(error.what())), true);
            return;
        }
    }
    m_info->setText(
        tr("Laying out %1 leaves\u2026").arg(QLocale().toString(static_cast<qulonglong>(linkage->leafCount))));
    m_runner->start<DendrogramLayout>(
        this, QStringLiteral("dendrogram-layout"), tr("Dendrogram layout: %1").arg(name),
        [linkage](JobControl& control) { return buildDendrogramLayout(*linkage, &control); },
        [this, name, linkage](const JobOutcome<DendrogramLayout>& outcome) {
            if (outcome.state == JobState::Finished && m_linkage == linkage) applyLayout(name, outcome.result);
            updateInfo();
        });
}

void DendrogramPanel::applyLayout(const QString& name, std::shared_ptr<const DendrogramLayout> layout) {
    if (layout && m_linkage) {
        if (m_layouts.size() >= kCachedLayouts) m_layouts.erase(m_layouts.begin());
        m_layouts[m_linkage.get()] = {m_linkage, layout};
    }
    if (!layout) {
        m_linkageName.clear();
        m_linkage.reset();
    }
    m_layout = std::move(layout);
    followScope();
    m_cut.reset();
    m_cutLabeling.clear();
    m_tableModel->setTable(nullptr);
    m_runner->cancelSlot(QStringLiteral("dendrogram-cut"));
    m_widget->setTree(m_layout);
    refreshTreeVat();
    // An MHCA tree's threshold is known from its stored name or description.
    if (const auto threshold =
            m_layout && m_linkage ? mhcaThresholdOf(name, m_analysis->linkageDescription(name)) : std::nullopt)
        m_widget->setThresholdMarks(buildThresholdMarks(*m_linkage, *threshold));
    m_widget->setEventSource(linkedToData() ? m_analysis : nullptr, m_scope.members);
    m_updating = true;
    m_clusters->setRange(1, m_layout ? static_cast<int>(std::min<std::size_t>(m_layout->leafCount, kMaxClusters)) : 1);
    m_clusters->setValue(1);
    m_minSize->setRange(1, m_layout ? static_cast<int>(std::min<std::size_t>(m_layout->leafCount, 1'000'000'000)) : 1);
    m_minSize->setValue(m_layout ? static_cast<int>(defaultMinClusterSize(m_layout->leafCount)) : 1);
    m_updating = false;
    refreshClustermap();
    if (m_layout && linkedToData()) onSessionSelection(nullptr);
    updateInfo();
    if (m_layout) Q_EMIT treeShown(name);
}

int DendrogramPanel::clusterCount() const {
    return m_clusters->value();
}

void DendrogramPanel::setClusterCount(int k) {
    m_clusters->setValue(k);
}

void DendrogramPanel::setLogHeights(bool logarithmic) {
    m_heightScale->setCurrentIndex(logarithmic ? 1 : 0);
}

void DendrogramPanel::applyCut(int k) {
    if (!m_layout || !m_linkage) return;
    m_runner->cancelSlot(QStringLiteral("dendrogram-cut"));
    if (k <= 1) return showCut(nullptr, nullptr);
    const auto minSize = static_cast<std::size_t>(minClusterSize());
    if (m_layout->leafCount <= inlineLimit) {
        CutResult result = computeCut(*m_linkage, *m_layout, k, minSize, m_features, nullptr);
        return showCut(std::move(result.cut), std::move(result.table));
    }
    const auto layout = m_layout;
    const auto linkage = m_linkage;
    const FeatureSelection features = m_features;
    m_runner->start<CutResult>(
        this, QStringLiteral("dendrogram-cut"), tr("Dendrogram cut (k = %1)").arg(k),
        [linkage, layout, k, minSize, features](JobControl& control) {
            return computeCut(*linkage, *layout, k, minSize, features, &control);
        },
        [this, layout](const JobOutcome<CutResult>& outcome) {
            if (outcome.state == JobState::Finished && layout == m_layout)
                showCut(outcome.result->cut, outcome.result->table);
        });
}

void DendrogramPanel::showCut(std::shared_ptr<const DendrogramCut> cut, std::shared_ptr<const ClusterTable> table) {
    m_cut = std::move(cut);
    m_widget->setCut(m_cut);
    m_tableModel->setTable(std::move(table));
    m_cutLabeling.clear();
    if (m_cut && linkedToData()) {
        m_cutLabeling = m_cut->population.empty()
                            ? dendrogramCutName(m_linkageName, m_cut->k)
                            : dendrogramCutName(m_linkageName, m_cut->populations, m_cut->minSize);
        // The labels stay inside the shared cut: the session holds them without a copy. Events of
        // small clusters are -1 there (grey, as noise); a tree of a population labels its members only.
        m_analysis->addLabeling(
            m_cutLabeling,
            wholeLabels(std::shared_ptr<const LabelVector>(m_cut, &m_cut->sharedLabels()), m_scope, m_dataset->n),
            m_scope);
        m_analysis->setColouring(m_cutLabeling);
    }
    refreshClustermap();
    updateInfo();
    // The k asked for: fewer populations than that exist only when the tree has no more.
    if (m_cut) Q_EMIT cutApplied(clusterCount());
}

void DendrogramPanel::selectSubtree(std::int32_t node) {
    if (!m_layout) return;
    auto leaves = std::make_shared<IndexVector>(node >= 0 ? subtreeLeaves(*m_layout, node) : IndexVector());
    m_widget->setSelectedLeaves(*leaves);
    // Leaf k of a population's tree is its k-th member.
    if (linkedToData())
        m_analysis->setSelection(std::make_shared<const IndexVector>(indicesOfPositions(m_scope, *leaves)), m_widget);
    updateInfo();
}

void DendrogramPanel::onSessionSelection(const QObject* origin) {
    if (origin == m_widget || !m_layout || !linkedToData()) return;
    m_widget->setSelectedLeaves(positionsInScope(m_scope, *m_analysis->selection()));
    updateInfo();
}

bool DendrogramPanel::treeFitsData() const {
    return m_layout && m_dataset && m_dataset->n == m_layout->leafCount;
}

bool DendrogramPanel::linkedToData() const {
    return m_layout && m_dataset && scopeFitsData(m_scope, m_layout->leafCount, m_dataset->n);
}

void DendrogramPanel::followScope() {
    // A tree of a population has a leaf per member: means, clustermap and strips are the members'.
    m_scope = m_layout ? m_analysis->linkageScope(m_linkageName) : ResultScope{};
    const bool members = !m_scope.isAll() && linkedToData();
    m_features = selectFeatures(members ? scopedDataset(m_dataset, m_scope) : m_dataset, m_features.names);
    m_widget->setFeatures(m_features);
    m_widget->setStrips(stripsInScope(m_strips->strips(), m_scope));
}

void DendrogramPanel::fixHeights() {
    if (!m_linkage) return;
    const QString name = tr("%1 (monotonic)").arg(m_linkageName);
    auto fixed = std::make_shared<const Linkage>(fixNonMonotonic(*m_linkage, MonotonicFix::Eps));
    m_analysis->addLinkage(
        name, std::move(fixed),
        tr("%1 with decreasing heights raised as mhca's fixNonMonotHca (eps); for display only").arg(m_linkageName),
        m_scope);
    showLinkage(name);
}

void DendrogramPanel::updateInfo() {
    m_fix->setVisible(m_layout && m_layout->inversionCount > 0);
    if (!m_layout) {
        m_info->clear();
        return;
    }
    // Inversions are flagged on the plot itself; here only what the plot cannot say.
    if (m_dataset && !linkedToData())
        m_info->setText(
            tr("%1 leaves \u2260 %2 points: not linked to the data").arg(m_layout->leafCount).arg(m_dataset->n));
    else if (m_cut && !m_cut->population.empty())
        m_info->setText(tr("+ %n small cluster(s) (grey)", nullptr, m_cut->k - m_cut->populations));
    else
        m_info->clear();
    const QString description = m_analysis->linkageDescription(m_linkageName);
    m_linkages->setToolTip(description.isEmpty() ? tr("Hierarchical clusterings of the current dataset") : description);
}

}  // namespace clusterlens::views
