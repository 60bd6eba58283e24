// Widgets of the density-peaks page and their connections; the behaviour is in dpc_panel.cpp.

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "dpc/decision_graph.hpp"
#include "flow_layout.hpp"
#include "dpc/dpc_panel.hpp"
#include "populations/run_on_choice.hpp"
#include "session/result_staleness.hpp"
#include "dpc/gamma_plot.hpp"
#include "dpc/peak_choice.hpp"
#include "dpc/peak_table_model.hpp"
#include "dpc/stability_strip_delegate.hpp"

namespace clusterlens::views {

namespace {

enum ExportKind { ExportFigure, ExportLabels, ExportTable, ExportGamma };

/// A form whose fields go under their labels when the controls' column is narrow.
QFormLayout* narrowForm(QWidget* box) {
    auto* form = new QFormLayout(box);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    return form;
}

QDoubleSpinBox* thresholdBox(QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setDecimals(4);
    box->setRange(0.0, 1e12);
    box->setKeyboardTracking(false);
    // Room for a value, not for 10^12 in full: the controls' column stays narrow.
    box->setMinimumWidth(100);
    return box;
}

}  // namespace

QWidget* DpcPanel::buildRunBox() {
    auto* box = new QGroupBox(tr("Density peaks"), this);
    auto* form = narrowForm(box);
    m_featuresLabel = new QLabel(box);
    m_featuresLabel->setWordWrap(true);
    form->addRow(m_featuresLabel);
    m_runOn = new RunOnChoice(m_analysis, box);
    form->addRow(tr("Run on"), m_runOn);
    m_kernel = new QComboBox(box);
    m_kernel->addItem(tr("Gaussian"), static_cast<int>(DensityKernel::Gaussian));
    m_kernel->addItem(tr("Cutoff (count within dc)"), static_cast<int>(DensityKernel::Cutoff));
    m_kernel->setToolTip(
        tr("Gaussian: every pair of events adds to the density, so without a GPU all n² pairs are computed "
           "(minutes from about 100,000 events on a laptop). Cutoff: counts the events within dc; without a GPU a "
           "kd-tree finds them (about 16 s for 200,000 events in 14 markers on two cores)."));
    form->addRow(tr("Kernel"), m_kernel);
    m_dcMode = new QComboBox(box);
    m_dcMode->addItem(tr("Quantile of pairwise distances"));
    m_dcMode->addItem(tr("Value"));
    form->addRow(tr("Cutoff dc"), m_dcMode);
    m_dcPercent = new QDoubleSpinBox(box);
    m_dcPercent->setRange(0.01, 50.0);
    m_dcPercent->setDecimals(2);
    m_dcPercent->setValue(2.0);
    m_dcPercent->setSuffix(QStringLiteral(" %"));
    form->addRow(tr("Quantile"), m_dcPercent);
    m_dcValue = new QDoubleSpinBox(box);
    m_dcValue->setRange(1e-9, 1e9);
    m_dcValue->setDecimals(4);
    m_dcValue->setValue(1.0);
    m_dcValue->setMinimumWidth(100);
    form->addRow(tr("dc value"), m_dcValue);
    m_dcMethod = new QComboBox(box);
    m_dcMethod->addItem(tr("Exact (all pairs)"), true);
    m_dcMethod->addItem(tr("Sampled (10\u2076 random pairs)"), false);
    form->addRow(tr("Quantile by"), m_dcMethod);
    m_backend = new QComboBox(box);
    m_backend->addItem(tr("Auto"), static_cast<int>(Backend::Auto));
    m_backend->addItem(tr("CPU"), static_cast<int>(Backend::Cpu));
    m_backend->addItem(tr("CUDA"), static_cast<int>(Backend::Cuda));
    form->addRow(tr("Backend"), m_backend);
    // Long choices must not widen the controls' column; the popups show them in full.
    for (QComboBox* combo : {m_kernel, m_dcMode, m_dcMethod}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(10);
    }
    m_runButton = new QPushButton(tr("Run"), box);
    m_cancelButton = new QPushButton(tr("Cancel"), box);
    form->addRow(flowRow({m_runButton, m_cancelButton}, box));
    m_progress = new QProgressBar(box);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    form->addRow(m_progress);
    m_status = new QLabel(box);
    m_status->setWordWrap(true);
    form->addRow(m_status);
    return box;
}

QWidget* DpcPanel::buildPickBox() {
    auto* box = new QGroupBox(tr("Peaks"), this);
    auto* form = narrowForm(box);
    auto* hint = new QLabel(tr("Right-drag a rectangle or ctrl-drag a lasso around the peaks on the graph, "
                               "ctrl-click a point to add or remove one peak, drag the threshold lines, or "
                               "click the \u03b3 plot at rank K. Shift-drag selects events in every view."),
                            box);
    hint->setWordWrap(true);
    form->addRow(hint);
    m_useThresholds = new QCheckBox(tr("Threshold lines"), box);
    form->addRow(m_useThresholds);
    m_rhoMin = thresholdBox(box);
    m_deltaMin = thresholdBox(box);
    form->addRow(tr("\u03c1 min"), m_rhoMin);
    form->addRow(tr("\u03b4 min"), m_deltaMin);
    m_topK = new QSpinBox(box);
    m_topK->setRange(1, 1'000'000);
    m_topK->setValue(3);
    m_topKButton = new QPushButton(tr("Top K by \u03b3"), box);
    m_kneeButton = new QPushButton(tr("Knee"), box);
    m_kneeButton->setToolTip(tr("The suggested number of peaks: the largest drop in sorted \u03b3."));
    form->addRow(tr("K"), flowRow({m_topK, m_topKButton, m_kneeButton}, box));
    m_stabilityButton = new QPushButton(tr("Stability across dc"), box);
    m_stabilityButton->setToolTip(
        tr("Recompute \u03c1 and \u03b4 at %1 cutoffs from %2 % to %3 % of the pairwise distances and show, for each "
           "peak, at how many of them its cluster still holds one of the K points of largest \u03b3 (table column "
           "\u201cStable across dc\u201d).")
            .arg(kSweepSteps)
            .arg(kSweepLowPercent)
            .arg(kSweepHighPercent));
    form->addRow(m_stabilityButton);
    m_logRho = new QCheckBox(tr("log \u03c1"), box);
    m_logDelta = new QCheckBox(tr("log \u03b4"), box);
    form->addRow(tr("Axes"), flowRow({m_logRho, m_logDelta}, box));
    m_halo = new QCheckBox(tr("Halo as noise"), box);
    m_halo->setToolTip(tr("Halo: mark cluster borders as noise"));
    form->addRow(m_halo);
    auto* history = new QWidget(box);
    new FlowLayout(history);  // history takes it as its layout
    // Buttons only: Ctrl+Z belongs to the application's one undo stack, which holds these choices too.
    QAction* undo = m_choice->undoStack()->createUndoAction(this, tr("Undo"));
    QAction* redo = m_choice->undoStack()->createRedoAction(this, tr("Redo"));
    for (QAction* action : {undo, redo}) {
        auto* button = new QToolButton(box);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        history->layout()->addWidget(button);
    }
    form->addRow(history);
    m_pickStatus = new QLabel(box);
    m_pickStatus->setWordWrap(true);
    form->addRow(m_pickStatus);
    return box;
}

QWidget* DpcPanel::buildExportRow() {
    auto* row = new QWidget(this);
    // The buttons wrap onto a second line in a narrow column rather than widening it.
    auto* layout = new FlowLayout(row);
    const std::pair<QString, int> buttons[] = {{tr("Export graph\u2026"), ExportFigure},
                                               {tr("Export \u03b3 plot\u2026"), ExportGamma},
                                               {tr("Export labels\u2026"), ExportLabels},
                                               {tr("Export DPC.csv\u2026"), ExportTable}};
    for (const auto& [text, kind] : buttons) {
        auto* button = new QPushButton(text, row);
        connect(button, &QPushButton::clicked, this, [this, k = kind] { chooseExport(k); });
        layout->addWidget(button);
    }
    return row;
}

void DpcPanel::buildForm() {
    m_graph = new DecisionGraph(this);
    m_graph->setPlaceholderText(
        tr("Run density peaks (Run, above) to see the decision graph: \u03c1 against \u03b4 "
           "of every point."));
    m_gamma = new GammaPlot(this);
    m_tableView = new QTableView(this);
    m_tableView->setModel(m_table);
    m_tableView->setItemDelegateForColumn(PeakTableModel::StabilityColumn, new StabilityStripDelegate(m_tableView));
    m_tableView->verticalHeader()->hide();
    m_tableView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tableView->setSelectionMode(QAbstractItemView::NoSelection);

    // The controls take a narrow scrollable column, so the graph keeps most of a docked panel.
    auto* side = new QTabWidget(this);
    const std::pair<QWidget*, QString> pages[] = {{buildRunBox(), tr("Run")}, {buildPickBox(), tr("Peaks")}};
    for (const auto& [page, title] : pages) {
        auto* scroll = new QScrollArea(side);
        scroll->setWidget(page);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        // The column is never narrower than a page's controls, which would be cut off on the right.
        scroll->setMinimumWidth(page->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
        side->addTab(scroll, title);
    }
    side->setMaximumWidth(320);
    connect(this, &DpcPanel::resultShown, side, [side] { side->setCurrentIndex(1); });

    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_graph);
    right->addWidget(m_gamma);
    right->addWidget(m_tableView);
    right->setStretchFactor(0, 5);
    right->setStretchFactor(1, 2);
    right->setStretchFactor(2, 2);

    auto* main = new QSplitter(Qt::Horizontal, this);
    main->addWidget(side);
    main->addWidget(right);
    main->setStretchFactor(1, 1);
    m_exportRow = buildExportRow();
    m_stale = new StaleBanner(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_stale);
    layout->addWidget(main, 1);
    layout->addWidget(m_exportRow);
}

void DpcPanel::connectForm() {
    connect(m_runButton, &QPushButton::clicked, this, &DpcPanel::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &DpcPanel::cancel);
    connect(m_dcMode, &QComboBox::currentIndexChanged, this, &DpcPanel::updateEnabled);
    connect(m_graph, &DecisionGraph::regionPicked, this, [this](const QList<qsizetype>& rows) {
        m_useThresholds->setChecked(false);
        m_choice->choose(std::vector<std::int64_t>(rows.begin(), rows.end()),
                         tr("Region (%1 points)").arg(rows.size()));
    });
    connect(m_graph, &DecisionGraph::thresholdsDragged, this, &DpcPanel::applyThresholds);
    connectLinking();
    const auto thresholdsEdited = [this] {
        if (m_useThresholds->isChecked()) applyThresholds(m_rhoMin->value(), m_deltaMin->value());
    };
    connect(m_rhoMin, &QDoubleSpinBox::valueChanged, this, thresholdsEdited);
    connect(m_deltaMin, &QDoubleSpinBox::valueChanged, this, thresholdsEdited);
    connect(m_useThresholds, &QCheckBox::toggled, this, [this, thresholdsEdited](bool on) {
        if (!on) m_graph->setThresholds(std::nullopt);
        thresholdsEdited();
    });
    connect(m_topKButton, &QPushButton::clicked, this,
            [this] { applyTopK(static_cast<std::size_t>(m_topK->value())); });
    connect(m_kneeButton, &QPushButton::clicked, this, [this] {
        if (m_gamma->suggestedCount() > 0) applyTopK(m_gamma->suggestedCount());
    });
    connect(m_gamma, &GammaPlot::topKRequested, this, &DpcPanel::applyTopK);
    connect(m_stabilityButton, &QPushButton::clicked, this, &DpcPanel::checkStability);
    connect(m_logRho, &QCheckBox::toggled, this, [this] { showGraph(); });
    connect(m_logDelta, &QCheckBox::toggled, this, [this] { showGraph(); });
    connect(m_halo, &QCheckBox::toggled, this, [this] { onPeaksChanged(); });
    connect(m_choice, &PeakChoice::peaksChanged, this, &DpcPanel::onPeaksChanged);
}

}  // namespace clusterlens::views
