// DendrogramPanel: the minimum cluster size of cuts and the clustermap under the tree.

#include <QComboBox>
#include <QHBoxLayout>
#include <QSpinBox>

#include "dendrogram/clustermap_widget.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"

namespace clusterlens::views {

namespace {

enum ClustermapMode { ClustermapOff, ClustermapZScore, ClustermapMinMax };

}  // namespace

QWidget* DendrogramPanel::buildCutControls(QWidget* parent) {
    auto* box = new QWidget(parent);
    m_minSize = new QSpinBox(box);
    m_minSize->setRange(1, 1);
    m_minSize->setPrefix(tr("min "));
    m_minSize->setKeyboardTracking(false);
    m_minSize->setToolTip(
        tr("Minimum cluster size: smaller clusters are drawn grey as small/outliers, listed apart, "
           "and k counts only the clusters of at least this many events"));
    connect(m_minSize, &QSpinBox::valueChanged, this, [this] {
        if (!m_updating && m_cut) applyCut(clusterCount());
    });
    m_heatmapMode = new QComboBox(box);
    m_heatmapMode->addItems({tr("no clustermap"), tr("medians, z-score"), tr("medians, min\u2013max")});
    m_heatmapMode->setCurrentIndex(ClustermapZScore);
    m_heatmapMode->setToolTip(
        tr("Heatmap of the active markers' medians per cluster under the tree, scaled per marker"));
    connect(m_heatmapMode, &QComboBox::currentIndexChanged, this, [this] { refreshClustermap(); });
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_minSize);
    row->addWidget(m_heatmapMode);
    return box;
}

int DendrogramPanel::minClusterSize() const {
    return m_minSize->value();
}

void DendrogramPanel::setMinClusterSize(int m) {
    m_minSize->setValue(m);
}

void DendrogramPanel::setClustermapMode(int mode) {
    m_heatmapMode->setCurrentIndex(mode);
}

int DendrogramPanel::clustermapMode() const {
    return m_heatmapMode->currentIndex();
}

void DendrogramPanel::refreshClustermap() {
    m_runner->cancelSlot(QStringLiteral("dendrogram-clustermap"));
    const int mode = m_heatmapMode->currentIndex();
    if (!m_layout || mode == ClustermapOff || !m_features.fits(*m_layout)) {
        m_clustermap->setClustermap(nullptr);
        return;
    }
    const MarkerScaling scaling = mode == ClustermapMinMax ? MarkerScaling::MinMax : MarkerScaling::ZScore;
    if (m_layout->leafCount <= inlineLimit) {
        m_clustermap->setClustermap(buildClustermap(*m_layout, m_cut.get(), m_features, scaling));
        return;
    }
    const auto layout = m_layout;
    const auto cut = m_cut;
    const FeatureSelection features = m_features;
    m_runner->start<std::shared_ptr<const Clustermap>>(
        this, QStringLiteral("dendrogram-clustermap"), tr("Clustermap medians"),
        [layout, cut, features, scaling](JobControl& control) {
            return buildClustermap(*layout, cut.get(), features, scaling, &control);
        },
        [this, layout, cut](const JobOutcome<std::shared_ptr<const Clustermap>>& outcome) {
            if (outcome.state == JobState::Finished && layout == m_layout && cut == m_cut)
                m_clustermap->setClustermap(*outcome.result);
        });
}

}  // namespace clusterlens::views
