// DendrogramPanel: the toolbar, importing a linkage CSV and the exports (figure, Newick, labels
// of the cut, linkage CSV).

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "analysis_session.hpp"
#include "colour_strip_chooser.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/io/labels.hpp"
#include "dendrogram/clustermap_widget.hpp"
#include "dendrogram/dendrogram_figure.hpp"
#include "dendrogram/dendrogram_newick.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "figure/figure_export_dialog.hpp"
#include "figure/methods_text.hpp"
#include "flow_layout.hpp"
#include "populations/run_on_choice.hpp"
#include "populations/scope_mapping.hpp"

namespace clusterlens::views {

QWidget* DendrogramPanel::buildToolbar() {
    auto* bar = new QWidget(this);
    m_linkages = new QComboBox(bar);
    m_linkages->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_linkages->setMinimumContentsLength(12);
    m_linkages->setPlaceholderText(tr("no tree"));
    m_linkages->setToolTip(tr("Hierarchical clusterings of the current dataset"));
    connect(m_linkages, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (!m_updating && !name.isEmpty() && name != m_linkageName) showLinkage(name);
    });
    auto* import = new QPushButton(tr("Import\u2026"), bar);
    import->setToolTip(tr("Read a linkage CSV (a,b,height,size; scipy convention)"));
    connect(import, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import linkage"), QString(),
                                                          tr("Linkage CSV (*.csv);;All files (*)"));
        if (!path.isEmpty()) importLinkage(path);
    });
    m_clusters = new QSpinBox(bar);
    m_clusters->setRange(1, 1);
    m_clusters->setPrefix(tr("k = "));
    m_clusters->setSpecialValueText(tr("no cut"));
    m_clusters->setKeyboardTracking(false);
    m_clusters->setToolTip(tr("Number of clusters of the cut (or drag the cut line)"));
    connect(m_clusters, &QSpinBox::valueChanged, this, [this](int k) {
        if (!m_updating) applyCut(k);
    });
    m_heightScale = new QComboBox(bar);
    m_heightScale->addItems({tr("linear heights"), tr("log heights")});
    connect(m_heightScale, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_widget->setLogHeights(index == 1); });
    m_info = new QLabel(bar);
    m_info->setTextFormat(Qt::PlainText);
    m_fix = new QPushButton(tr("Fix heights"), bar);
    m_fix->setToolTip(
        tr("Add a copy whose decreasing heights are raised as mhca's fixNonMonotHca does "
           "(for display; the heights then no longer describe the data)"));
    connect(m_fix, &QPushButton::clicked, this, &DendrogramPanel::fixHeights);

    // Two rows: which tree and what to do with it; how it is cut and drawn. The second wraps onto
    // more lines in a narrow column rather than widening it.
    auto* tree = new QHBoxLayout;
    tree->addWidget(m_linkages, 1);
    tree->addWidget(import);
    tree->addWidget(buildExportButton());
    auto* cutRow = new QWidget(bar);
    auto* cut = new FlowLayout(cutRow);
    cut->addWidget(m_clusters);
    cut->addWidget(buildCutControls(cutRow));
    cut->addWidget(m_heightScale);
    cut->addWidget(m_info);
    cut->addWidget(m_fix);
    cut->addWidget(buildTreeVatControls(cutRow));
    auto* rows = new QVBoxLayout(bar);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->addLayout(tree);
    rows->addWidget(cutRow);
    return bar;
}

QToolButton* DendrogramPanel::buildExportButton() {
    auto* button = new QToolButton(this);
    button->setText(tr("Export"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    menu->addAction(tr("Figure (SVG, PDF, PNG)\u2026"), this, &DendrogramPanel::chooseFigureExport);
    menu->addAction(tr("Newick tree\u2026"), this, [this] {
        chooseFileExport(tr("Export Newick"), tr("Newick (*.nwk *.newick *.tree)"), &DendrogramPanel::exportNewickTo);
    });
    QAction* labels = menu->addAction(tr("Labels of the cut (CSV)\u2026"), this, [this] {
        chooseFileExport(tr("Export labels"), tr("Labels CSV (*.csv)"), &DendrogramPanel::exportLabelsTo);
    });
    menu->addAction(tr("Linkage (CSV)\u2026"), this, [this] {
        chooseFileExport(tr("Export linkage"), tr("Linkage CSV (*.csv)"), &DendrogramPanel::exportLinkageTo);
    });
    connect(menu, &QMenu::aboutToShow, this, [this, labels, menu] {
        for (QAction* action : menu->actions()) action->setEnabled(m_layout != nullptr);
        labels->setEnabled(m_cut != nullptr);
    });
    button->setMenu(menu);
    return button;
}

void DendrogramPanel::importLinkage(const QString& path) {
    const std::string file = path.toStdString();
    m_runner->start<Linkage>(
        this, QStringLiteral("dendrogram-import"), tr("Import %1").arg(QFileInfo(path).fileName()),
        [file](JobControl&) { return readLinkageCsv(file); },
        [this, path](const JobOutcome<Linkage>& outcome) {
            if (outcome.state != JobState::Finished) return;
            QString name = tr("imported: %1").arg(QFileInfo(path).fileName());
            for (int copy = 2; m_analysis->linkage(name); ++copy)
                name = tr("imported: %1 (%2)").arg(QFileInfo(path).fileName()).arg(copy);
            m_analysis->addLinkage(name, outcome.result, tr("imported from %1").arg(QDir::toNativeSeparators(path)));
            Q_EMIT message(tr("Imported %1: %2 leaves").arg(path).arg(outcome.result->leafCount), false);
            showLinkage(name);
        });
}

std::unique_ptr<DendrogramFigure> DendrogramPanel::figure(bool currentViewOnly) const {
    if (!m_layout) return nullptr;
    DendrogramFigureOptions options;
    options.title = m_linkageName;
    options.logHeights = m_widget->logHeights();
    if (currentViewOnly) showDendrogramView(options, m_widget->view());  // as `plot dendrogram` reads it
    options.cut = m_cut;
    options.strips = stripsInScope(m_strips->strips(), m_scope);
    options.collapsed = m_widget->collapsedFlags();
    options.thresholdMarks = m_widget->shownThresholdMarks();
    options.clustermap = m_clustermap->clustermap();
    if (m_dataset && !m_dataset->pointNames.empty() && treeFitsData())
        options.pointNames = std::shared_ptr<const std::vector<std::string>>(m_dataset, &m_dataset->pointNames);
    return std::make_unique<DendrogramFigure>(m_layout, std::move(options));
}

void DendrogramPanel::exportFigureTo(const QString& path, const FigureExportOptions& options, bool currentViewOnly) {
    const auto shown = figure(currentViewOnly);
    if (!shown) return;
    try {
        exportFigure(*shown, path, options);
        Q_EMIT message(tr("Wrote %1").arg(path), false);
    } catch (const std::exception& error) {
        Q_EMIT message(tr("Export failed: %1").arg(QString::fromUtf8(error.what())), true);
    }
}

namespace {

// Runs a file export as a job of its own slot, so a second export of another kind never cancels
// a file being written. A failure reaches the log through the job runner.
template <class Write>
void startExport(JobRunner* runner, DendrogramPanel* panel, const QString& slot, const QString& path, Write write) {
    runner->start<bool>(
        panel, slot, QObject::tr("Export %1").arg(QFileInfo(path).fileName()),
        [write](JobControl& control) {
            write(control);
            return true;
        },
        [panel, path](const JobOutcome<bool>& outcome) {
            if (outcome.state == JobState::Finished) Q_EMIT panel->message(QObject::tr("Wrote %1").arg(path), false);
        });
}

}  // namespace

void DendrogramPanel::exportNewickTo(const QString& path) {
    if (!m_layout) return;
    const auto layout = m_layout;
    const auto dataset = treeFitsData() ? m_dataset : nullptr;
    const std::string file = path.toStdString();
    startExport(m_runner, this, QStringLiteral("export-newick"), path, [layout, dataset, file](JobControl& control) {
        const bool named = dataset && !dataset->pointNames.empty();
        writeNewickFile(file, *layout, named ? &dataset->pointNames : nullptr, &control);
    });
}

void DendrogramPanel::exportLabelsTo(const QString& path) {
    if (!m_cut) return;
    // A tree of a population labels the whole dataset, its non-members -1, as the session stores the cut.
    std::shared_ptr<const LabelVector> labels(m_cut, &m_cut->sharedLabels());
    if (linkedToData()) labels = wholeLabels(std::move(labels), m_scope, m_dataset->n);
    const std::string file = path.toStdString();
    startExport(m_runner, this, QStringLiteral("export-labels"), path,
                [labels, file](JobControl&) { writeLabelsCsv(file, *labels); });
}

void DendrogramPanel::exportLinkageTo(const QString& path) {
    if (!m_linkage) return;
    const auto linkage = m_linkage;
    const std::string file = path.toStdString();
    startExport(m_runner, this, QStringLiteral("export-linkage"), path,
                [linkage, file](JobControl&) { writeLinkageCsv(file, *linkage); });
}

FigureExportSource DendrogramPanel::figureExportSource() const {
    FigureExportSource source;
    if (!m_layout) return source;
    source.title = tr("Export dendrogram");
    source.name = tr("Dendrogram");
    source.suggestedName = QStringLiteral("dendrogram");
    source.viewOnly = tr("Only the part in view (leaves and heights)");
    source.figure = [this](bool viewOnly) -> std::unique_ptr<Figure> { return figure(viewOnly); };
    const QStringList plot = {QStringLiteral("clusterlens-cli"), QStringLiteral("plot"), QStringLiteral("dendrogram")};
    QStringList options;
    if (m_cut && m_cut->k > 1)
        options << QStringLiteral("--cut-k") << QString::number(m_cut->populations)
                << QStringLiteral("--min-cluster-size") << QString::number(m_cut->minSize);
    if (const auto& map = m_clustermap->clustermap(); map && m_dataset) {
        options << QStringLiteral("--heatmap") << datasetInputWords(*m_dataset, map->markers);
        if (map->scaling == MarkerScaling::MinMax)
            options << QStringLiteral("--heatmap-scale") << QStringLiteral("minmax");
    }
    if (m_widget->logHeights()) options << QStringLiteral("--log");
    QStringList collapsed;  // as scipy numbers clusters: n + the merge row that made it
    const std::vector<std::uint8_t>& flags = m_widget->collapsedFlags();
    for (std::size_t row = 0; row < flags.size(); ++row)
        if (flags[row]) collapsed << QString::number(m_layout->leafCount + row);
    if (!collapsed.isEmpty()) options << QStringLiteral("--collapse") << collapsed.join(QLatin1Char(','));
    if (const auto marks = m_widget->shownThresholdMarks())
        options << QStringLiteral("--threshold-marks")
                << QString::number(marks->threshold, 'g', QLocale::FloatingPointShortest);
    source.command = plot + QStringList{resultFileName(m_linkageName)} + options +
                     stripWords(*m_strips, *m_analysis, m_dataset.get(), false);
    source.sessionCommand = plot + QStringList{QStringLiteral("--name"), m_linkageName} + options +
                            stripWords(*m_strips, *m_analysis, m_dataset.get(), true);
    source.viewOptions = dendrogramViewWords(m_widget->view(), m_widget->logHeights());
    if (m_dataset && treeFitsData()) source.dataFiles = {QString::fromStdString(m_dataset->provenance.path)};
    const QString description = m_analysis->linkageDescription(m_linkageName);
    source.methods = hierarchicalMethods(m_layout->leafCount, description.isEmpty() ? m_linkageName : description,
                                         m_cut ? m_cut->k : 0);
    return source;
}

void DendrogramPanel::chooseFigureExport() {
    const FigureExportSource source = figureExportSource();
    if (!source.isValid()) return;
    const QString path = runFigureExportDialog(source, this);
    if (!path.isEmpty()) Q_EMIT message(tr("Wrote %1").arg(path), false);
}

void DendrogramPanel::chooseFileExport(const QString& title, const QString& filter,
                                       void (DendrogramPanel::*exporter)(const QString&)) {
    const QString path = QFileDialog::getSaveFileName(this, title, QString(), filter);
    if (!path.isEmpty()) (this->*exporter)(path);
}

}  // namespace clusterlens::views
