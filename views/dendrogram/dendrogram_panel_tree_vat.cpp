// DendrogramPanel: the iVAT image in the tree's leaf order under the tree. It takes a VAT run on the
// tree's events and features when one is offered (the VAT view's), else computes one as a job on the
// features the tree was computed on (the active ones where those are not known); then builds the
// render source in the leaf order (makeVatRenderSourceInOrder) on a worker, so the strip only renders
// the pixels in view.

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLocale>
#include <QPushButton>

#include <cstdint>
#include <vector>

#include "clusterlens/vat/viewport.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/tree_vat_strip.hpp"
#include "dpc/dpc_run.hpp"
#include "vat/vat_run.hpp"

namespace clusterlens::views {

namespace {

const QString kTreeVatSlot = QStringLiteral("dendrogram-tree-ivat");

struct TreeVat {
    std::shared_ptr<const VatRun> run;
    std::shared_ptr<const VatRenderSource> source;
};

// `run`, or a VAT run of `request` (the tree's events and features) when null, and its matrix with rows
// in the leaf `order`.
TreeVat computeTreeVat(std::shared_ptr<const VatRun> run, const VatRequest& request, const ResultScope& scope,
                       const std::vector<std::int64_t>& order, JobControl& control) {
    if (!run) {
        VatRun computed = computeVatRun(request, control);
        computed.scope = scope;
        run = std::make_shared<const VatRun>(std::move(computed));
    }
    control.checkCancelled();
    const std::vector<float> x = featureMatrix(*run->request.dataset, run->request.columns);
    auto source = std::make_shared<const VatRenderSource>(
        makeVatRenderSourceInOrder(*run->vat, x.data(), run->request.columns.size(), order));
    return {std::move(run), std::move(source)};
}

}  // namespace

QWidget* DendrogramPanel::buildTreeVatControls(QWidget* parent) {
    auto* box = new QWidget(parent);
    m_treeVatBox = new QCheckBox(tr("iVAT in tree order"), box);
    m_treeVatBox->setToolTip(
        tr("Under the tree, the iVAT image of the same events with rows and columns in the tree's leaf "
           "order: the tree's clusters should be dark blocks under their subtrees"));
    connect(m_treeVatBox, &QCheckBox::toggled, this, [this](bool shown) {
        refreshTreeVat();
        Q_EMIT treeVatShownChanged(shown);
    });
    m_treeVatCancel = new QPushButton(tr("Cancel"), box);
    m_treeVatCancel->setToolTip(tr("Stop computing the VAT order for the iVAT in tree order"));
    m_treeVatCancel->hide();
    connect(m_treeVatCancel, &QPushButton::clicked, this, &DendrogramPanel::cancelTreeVat);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_treeVatBox);
    row->addWidget(m_treeVatCancel);
    return box;
}

void DendrogramPanel::setTreeVatShown(bool shown) {
    m_treeVatBox->setChecked(shown);
}

bool DendrogramPanel::treeVatShown() const {
    return m_treeVatBox->isChecked();
}

void DendrogramPanel::offerVatRun(std::shared_ptr<const VatRun> run) {
    if (!run || !run->vat) return;
    m_offeredVat = std::move(run);
    // A run on the tree's events replaces one being computed or shown.
    if (treeVatShown() && vatRunFitsTree(*m_offeredVat)) {
        m_vatRun = m_offeredVat;
        refreshTreeVat();
    }
}

void DendrogramPanel::cancelTreeVat() {
    if (m_treeVatJob != 0) m_runner->cancel(m_treeVatJob);
}

void DendrogramPanel::setLinkageFeatures(LinkageFeatures source) {
    m_linkageFeatures = std::move(source);
}

FeatureSelection DendrogramPanel::treeFeatures(bool* known) const {
    const QStringList names = m_linkageFeatures ? m_linkageFeatures(m_linkageName) : QStringList();
    FeatureSelection selection = names.isEmpty() ? FeatureSelection{} : selectFeatures(m_features.dataset, names);
    const bool found = !names.isEmpty() && static_cast<qsizetype>(selection.columns.size()) == names.size();
    if (known) *known = found;
    return found ? selection : m_features;
}

bool DendrogramPanel::vatRunFitsTree(const VatRun& run) const {
    if (!linkedToData() || !run.vat || run.sampledFrom > 0 || run.n() != m_layout->leafCount) return false;
    // The tree's features in the same order, so that the distances are the same sums.
    if (run.request.columns != treeFeatures().columns) return false;
    if (run.scope.isAll() || m_scope.isAll()) return run.scope.isAll() && m_scope.isAll();
    return *run.scope.members == *m_scope.members;
}

void DendrogramPanel::refreshTreeVat() {
    m_runner->cancelSlot(kTreeVatSlot);
    m_treeVatJob = 0;
    m_treeVatCancel->hide();
    m_treeVat->setSource(nullptr);
    m_treeVat->setVisible(treeVatShown() && m_layout);
    if (!treeVatShown() || !m_layout) return;
    if (!(m_vatRun && vatRunFitsTree(*m_vatRun))) m_vatRun = m_offeredVat;
    const bool reuse = m_vatRun && vatRunFitsTree(*m_vatRun);
    bool featuresKnown = false;
    const FeatureSelection features = treeFeatures(&featuresKnown);
    if (!reuse && (!linkedToData() || features.columns.empty())) {
        m_treeVat->setStatus(
            tr("The iVAT in tree order needs the tree's events in the open dataset and at least "
               "one active feature."));
        return;
    }
    const QString points = QLocale().toString(static_cast<qulonglong>(m_layout->leafCount));
    const QString on = featuresKnown
                           ? tr("the tree's %n feature(s)", nullptr, static_cast<int>(features.columns.size()))
                           : tr("the %n active feature(s) (the tree's are not known)", nullptr,
                                static_cast<int>(features.columns.size()));
    m_treeVat->setStatus(reuse ? tr("Ordering the VAT run's matrix by the tree's leaves\u2026")
                               : tr("Computing the VAT order of %1 points on %2 for the iVAT in tree order\u2026 "
                                    "(Cancel stops it)")
                                     .arg(points, on));
    VatRequest request;
    request.dataset = features.dataset;
    request.columns = features.columns;
    const std::vector<std::int64_t> order(m_layout->order.begin(), m_layout->order.end());
    const auto run = reuse ? m_vatRun : nullptr;
    const ResultScope scope = m_scope;
    const auto layout = m_layout;
    m_treeVatJob = m_runner->start<TreeVat>(
        this, kTreeVatSlot, tr("iVAT in tree order: %1 points").arg(points),
        [run, request, scope, order](JobControl& control) {
            return computeTreeVat(run, request, scope, order, control);
        },
        [this, layout](const JobOutcome<TreeVat>& outcome) {
            m_treeVatJob = 0;
            m_treeVatCancel->hide();
            if (outcome.state == JobState::Cancelled) return m_treeVat->setStatus(tr("Cancelled."));
            if (outcome.state != JobState::Finished)
                return m_treeVat->setStatus(tr("No iVAT in tree order: %1").arg(outcome.message));
            if (layout != m_layout) return;
            m_vatRun = outcome.result->run;
            m_treeVat->setSource(outcome.result->source);
        });
    m_treeVatCancel->setVisible(!reuse);
}

}  // namespace clusterlens::views
