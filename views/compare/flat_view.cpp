#include "compare/flat_view.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

#include "analysis_session.hpp"
#include "clusterlens/errors.hpp"
#include "compare/compared_pair.hpp"
#include "compare/export_path.hpp"
#include "flow_layout.hpp"
#include "figure/figure_export_dialog.hpp"
#include "compare/matched_pairs_model.hpp"
#include "jobs/job_runner.hpp"

namespace clusterlens::views {

namespace {

const QString kFlatSlot = QStringLiteral("compare-flat");

QComboBox* labelingChoice(QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
    return box;
}

}  // namespace

FlatComparisonView::FlatComparisonView(JobRunner* runner, AnalysisSession* session, QWidget* parent)
    : QWidget(parent),
      m_runner(runner),
      m_session(session),
      m_choiceA(labelingChoice(this)),
      m_choiceB(labelingChoice(this)),
      m_method(new QComboBox(this)),
      m_scores(new QLabel(this)),
      m_heatmap(new ContingencyHeatmap(this)),
      m_model(new MatchedPairsModel(this)),
      m_table(new QTableView(this)),
      m_exportHeatmap(new QToolButton(this)),
      m_exportTable(new QToolButton(this)) {
    m_method->addItem(tr("Hungarian (optimal)"), static_cast<int>(MatchingMethod::Hungarian));
    m_method->addItem(tr("Greedy (fast)"), static_cast<int>(MatchingMethod::Greedy));
    m_method->setToolTip(tr("How clusters of A are matched 1-to-1 to clusters of B, maximising the summed F1"));
    m_scores->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_scores->setWordWrap(true);
    m_exportHeatmap->setText(tr("Export heatmap\u2026"));
    m_exportTable->setText(tr("Export table\u2026"));
    m_exportHeatmap->setEnabled(false);
    m_exportTable->setEnabled(false);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_table->setToolTip(tr("Click a pair to select the points the two clusters share"));

    // The choices and exports wrap onto more lines in a narrow column instead of widening it.
    auto* choices = new FlowLayout;
    choices->addWidget(labelledField(tr("A:"), m_choiceA, this));
    choices->addWidget(labelledField(tr("B:"), m_choiceB, this));
    choices->addWidget(labelledField(tr("Matching:"), m_method, this));
    choices->addWidget(m_exportHeatmap);
    choices->addWidget(m_exportTable);
    auto* split = new QSplitter(Qt::Vertical, this);
    // Many clusters make the heatmap wider than the view: it scrolls sideways instead of squeezing
    // hundreds of columns into slivers.
    auto* heatmapScroll = new QScrollArea(this);
    heatmapScroll->setWidget(m_heatmap);
    heatmapScroll->setWidgetResizable(true);
    heatmapScroll->setFrameShape(QFrame::NoFrame);
    heatmapScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    split->addWidget(heatmapScroll);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(choices);
    layout->addWidget(m_scores);
    layout->addWidget(split, 1);

    m_recomputeSoon.setSingleShot(true);
    m_recomputeSoon.setInterval(0);
    connect(&m_recomputeSoon, &QTimer::timeout, this, [this] { recompute(); });
    connect(m_session, &AnalysisSession::labelingsChanged, this, &FlatComparisonView::refreshChoices);
    connect(m_session, &AnalysisSession::selectionChanged, this, [this](const QObject* origin) {
        // Another view may pass the same points on (an echo): the outline stays while they are the
        // outlined cell's points.
        if (origin == this || !m_cellSelection) return;
        if (*m_session->selection() == *m_cellSelection) return;
        m_cellSelection.reset();
        m_heatmap->setHighlightedCell({});
    });
    connect(m_choiceA, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_choiceB, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_method, &QComboBox::currentIndexChanged, this, [this] { recompute(true); });
    connect(m_heatmap, &ContingencyHeatmap::cellClicked, this, &FlatComparisonView::selectCell);
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (index.isValid()) selectCell({index.row(), index.row()});
    });
    connect(m_exportHeatmap, &QToolButton::clicked, this, &FlatComparisonView::chooseHeatmapExport);
    connect(m_exportTable, &QToolButton::clicked, this, &FlatComparisonView::chooseTableExport);
    refreshChoices();
}

QString FlatComparisonView::labelingA() const {
    return m_choiceA->currentText();
}
QString FlatComparisonView::labelingB() const {
    return m_choiceB->currentText();
}

MatchingMethod FlatComparisonView::matchingMethod() const {
    return static_cast<MatchingMethod>(m_method->currentData().toInt());
}

void FlatComparisonView::setLabelings(const QString& nameA, const QString& nameB) {
    const QSignalBlocker blockA(m_choiceA), blockB(m_choiceB);
    if (m_choiceA->findText(nameA) >= 0) m_choiceA->setCurrentText(nameA);
    if (m_choiceB->findText(nameB) >= 0) m_choiceB->setCurrentText(nameB);
    recompute();
}

void FlatComparisonView::setMatchingMethod(MatchingMethod method) {
    m_method->setCurrentIndex(m_method->findData(static_cast<int>(method)));
}

void FlatComparisonView::refreshChoices() {
    const QStringList names = m_session->labelingNames();
    const QString a = labelingA(), b = labelingB();
    {
        const QSignalBlocker blockA(m_choiceA), blockB(m_choiceB);
        for (QComboBox* box : {m_choiceA, m_choiceB}) {
            box->clear();
            box->addItems(names);
        }
        const auto [indexA, indexB] = chooseComparedPair(names, m_known, a, b);
        m_choiceA->setCurrentIndex(indexA);
        m_choiceB->setCurrentIndex(indexB);
        m_known = names;
    }
    // Results often arrive several at a time (a file's ground truth, a batch of cuts): compare
    // once they are all in, on the next turn of the event loop.
    m_recomputeSoon.start();
}

void FlatComparisonView::recompute(bool force) {
    const auto a = m_session->labeling(labelingA()), b = m_session->labeling(labelingB());
    const MatchingMethod method = matchingMethod();
    if (!a || !b) {
        clearComparison(
            tr("Cut a dendrogram, pick density peaks or run k-means (or open a file with ground-truth "
               "labels) to compare two clusterings."));
        return;
    }
    if (!force && a == m_labelsA && b == m_labelsB) return;
    m_labelsA = a;
    m_labelsB = b;
    const QString nameA = labelingA(), nameB = labelingB();
    m_scores->setText(tr("Comparing\u2026"));
    m_runner->start<FlatComparison>(
        this, kFlatSlot, tr("Compare %1 with %2").arg(nameA, nameB),
        [a, b, nameA, nameB, method](JobControl& control) {
            return compareLabelings(a, b, nameA, nameB, method, &control);
        },
        [this](const JobOutcome<FlatComparison>& outcome) {
            if (outcome.state == JobState::Finished) return display(outcome.result);
            m_labelsA.reset();  // choosing the same pair again retries
            m_labelsB.reset();
            if (outcome.state == JobState::Failed) {
                clearComparison(outcome.message);
                Q_EMIT failed(outcome.message);
            }
        });
}

void FlatComparisonView::display(std::shared_ptr<const FlatComparison> comparison) {
    m_comparison = std::move(comparison);
    m_cellSelection.reset();
    m_heatmap->setComparison(m_comparison);
    m_model->setComparison(m_comparison);
    m_table->resizeColumnsToContents();
    m_scores->setText(scoresLine());
    m_exportHeatmap->setEnabled(true);
    m_exportTable->setEnabled(true);
    Q_EMIT comparisonReady();
}

void FlatComparisonView::clearComparison(const QString& message) {
    m_runner->cancelSlot(kFlatSlot);
    m_comparison.reset();
    m_labelsA.reset();
    m_labelsB.reset();
    m_cellSelection.reset();
    m_heatmap->setComparison(nullptr);
    m_model->setComparison(nullptr);
    m_scores->setText(message);
    m_exportHeatmap->setEnabled(false);
    m_exportTable->setEnabled(false);
}

QString FlatComparisonView::scoresLine() const {
    if (!m_comparison) return m_scores->text();
    return tr("%1 \u00b7 %2 vs %3 clusters")
        .arg(scoresText(*m_comparison))
        .arg(m_comparison->rows())
        .arg(m_comparison->cols());
}

void FlatComparisonView::selectCell(HeatmapCell cell) {
    if (!m_comparison || !cell.isValid() || static_cast<std::size_t>(cell.row) >= m_comparison->rows() ||
        static_cast<std::size_t>(cell.col) >= m_comparison->cols())
        return;
    m_heatmap->setHighlightedCell(cell);
    const auto r = static_cast<std::size_t>(cell.row), k = static_cast<std::size_t>(cell.col);
    m_cellSelection = std::make_shared<const IndexVector>(pointsInBoth(
        *m_comparison->labelsA, *m_comparison->labelsB, m_comparison->labelOfRow(r), m_comparison->labelOfCol(k)));
    m_session->setSelection(m_cellSelection, this);
}

void FlatComparisonView::exportHeatmap(const QString& path, const FigureExportOptions& options) const {
    if (!m_comparison) throw InvalidInput("There is no comparison of clusterings to export.");
    exportFigure(ContingencyFigure(m_comparison), path, options);
}

void FlatComparisonView::exportTable(const QString& path) const {
    if (!m_comparison) throw InvalidInput("There is no comparison of clusterings to export.");
    m_model->writeCsv(path);
}

void FlatComparisonView::chooseHeatmapExport() {
    const FigureExportSource source = figureExportSource();
    if (source.isValid()) runFigureExportDialog(source, this);
}

void FlatComparisonView::chooseTableExport() {
    const QString path = askCsvPath(this, tr("Export matched pairs"), QStringLiteral("matched_pairs.csv"));
    if (path.isEmpty()) return;
    try {
        exportTable(path);
    } catch (const std::exception& error) {
        showExportError(this, QString::fromStdString(error.what()));
    }
}

}  // namespace clusterlens::views
