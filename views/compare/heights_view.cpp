#include "compare/heights_view.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QHBoxLayout>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

#include "compare/compared_pair.hpp"
#include "analysis_session.hpp"
#include "clusterlens/compare/height_discordance.hpp"
#include "clusterlens/errors.hpp"
#include "figure/figure_export_dialog.hpp"
#include "compare/heights_figure.hpp"
#include "flow_layout.hpp"
#include "jobs/job_runner.hpp"
#include "scatter/scatter_widget.hpp"

namespace clusterlens::views {

namespace {

const QString kHeightsSlot = QStringLiteral("compare-heights");

QComboBox* linkageChoice(QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(14);
    return box;
}

}  // namespace

HeightsView::HeightsView(JobRunner* runner, AnalysisSession* session, QWidget* parent)
    : QWidget(parent),
      m_runner(runner),
      m_session(session),
      m_choiceA(linkageChoice(this)),
      m_choiceB(linkageChoice(this)),
      m_import(new QToolButton(this)),
      m_equal(new QCheckBox(tr("Same range on both axes"), this)),
      m_colourChoice(new QComboBox(this)),
      m_export(new QToolButton(this)),
      m_discordantCount(new QSpinBox(this)),
      m_selectDiscordant(new QToolButton(this)),
      m_stats(new QLabel(this)),
      m_scatter(new ScatterWidget(this)) {
    m_import->setText(tr("Import linkage\u2026"));
    m_import->setToolTip(tr("Add a linkage CSV (a,b,height,size) of the same points to the session"));
    m_export->setText(tr("Export figure\u2026"));
    m_export->setEnabled(false);
    m_equal->setToolTip(tr("Use one range on both axes when the heights share a unit (e.g. GPU vs CPU MHCA)"));
    m_colourChoice->addItem(tr("density"));
    m_colourChoice->addItem(tr("rank difference"));
    m_colourChoice->setToolTip(
        tr("Colour the points by the density of their neighbourhood, or by how differently the two trees place "
           "them: |height rank in A \u2212 rank in B|"));
    m_discordantCount->setRange(1, 1);
    m_discordantCount->setEnabled(false);
    m_discordantCount->setToolTip(tr("How many points to select"));
    m_selectDiscordant->setText(tr("Select most discordant:"));
    m_selectDiscordant->setEnabled(false);
    m_selectDiscordant->setToolTip(
        tr("Select, in every view, the points the two trees place most differently: the largest difference "
           "between a point's height rank in A and in B. Points both trees place alike are never selected."));
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stats->setWordWrap(true);
    m_scatter->setDiagonalVisible(true);
    m_scatter->setPlaceholderText(
        tr("Compute two hierarchical clusterings (Clustering panel) or import a linkage "
           "CSV to compare the heights of every point in them here."));

    // The choices and buttons wrap onto more lines in a narrow column instead of widening it.
    auto* choices = new FlowLayout;
    choices->addWidget(labelledField(tr("A:"), m_choiceA, this));
    choices->addWidget(labelledField(tr("B:"), m_choiceB, this));
    choices->addWidget(m_import);
    choices->addWidget(m_equal);
    choices->addWidget(labelledField(tr("Colour:"), m_colourChoice, this));
    // The count and its button stay together on one line.
    auto* discordant = new QWidget(this);
    auto* discordantRow = new QHBoxLayout(discordant);
    discordantRow->setContentsMargins(0, 0, 0, 0);
    discordantRow->addWidget(m_selectDiscordant);
    discordantRow->addWidget(m_discordantCount);
    choices->addWidget(discordant);
    choices->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(choices);
    layout->addWidget(m_stats);
    layout->addWidget(m_scatter, 1);

    m_recomputeSoon.setSingleShot(true);
    m_recomputeSoon.setInterval(0);
    connect(&m_recomputeSoon, &QTimer::timeout, this, [this] { recompute(); });
    connect(m_session, &AnalysisSession::linkagesChanged, this, &HeightsView::refreshChoices);
    connect(m_session, &AnalysisSession::selectionChanged, this, &HeightsView::onSessionSelection);
    connect(m_choiceA, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_choiceB, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_equal, &QCheckBox::toggled, this, &HeightsView::setEqualAxes);
    connect(m_colourChoice, &QComboBox::currentIndexChanged, this,
            [this](int index) { setColour(index == 1 ? HeightsColour::RankDifference : HeightsColour::Density); });
    connect(m_scatter, &ScatterWidget::selectionChanged, this, &HeightsView::onScatterSelection);
    connect(m_import, &QToolButton::clicked, this, &HeightsView::chooseImport);
    connect(m_export, &QToolButton::clicked, this, &HeightsView::chooseExport);
    connect(m_selectDiscordant, &QToolButton::clicked, this, [this] { selectMostDiscordant(discordantChoice()); });
    refreshChoices();
}

QString HeightsView::linkageA() const {
    return m_choiceA->currentText();
}
QString HeightsView::linkageB() const {
    return m_choiceB->currentText();
}

void HeightsView::setLinkages(const QString& nameA, const QString& nameB) {
    const QSignalBlocker blockA(m_choiceA), blockB(m_choiceB);
    if (m_choiceA->findText(nameA) >= 0) m_choiceA->setCurrentText(nameA);
    if (m_choiceB->findText(nameB) >= 0) m_choiceB->setCurrentText(nameB);
    recompute();
}

void HeightsView::setEqualAxes(bool equal) {
    if (equal == m_equalAxes) return;
    m_equalAxes = equal;
    const QSignalBlocker block(m_equal);
    m_equal->setChecked(equal);
    replot();
}

void HeightsView::setColour(HeightsColour colour) {
    if (colour == m_colour) return;
    m_colour = colour;
    const QSignalBlocker block(m_colourChoice);
    m_colourChoice->setCurrentIndex(colour == HeightsColour::RankDifference ? 1 : 0);
    replot();
}

void HeightsView::refreshChoices() {
    const QStringList names = m_session->linkageNames();
    const QString a = linkageA(), b = linkageB();
    {
        const QSignalBlocker blockA(m_choiceA), blockB(m_choiceB);
        for (QComboBox* box : {m_choiceA, m_choiceB}) {
            box->clear();
            for (const QString& name : names) box->addItem(name);
            for (int i = 0; i < box->count(); ++i)
                box->setItemData(i, m_session->linkageDescription(names[i]), Qt::ToolTipRole);
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

void HeightsView::recompute(bool force) {
    const auto a = m_session->linkage(linkageA()), b = m_session->linkage(linkageB());
    if (!a || !b) {
        clearPlot(
            tr("Compute hierarchical clusterings (or import a linkage CSV) to compare the heights of "
               "every point in two of them."));
        return;
    }
    if (!force && a == m_linkageA && b == m_linkageB) return;
    m_linkageA = a;
    m_linkageB = b;
    m_pending = true;
    const QString nameA = linkageA(), nameB = linkageB();
    const bool equal = m_equalAxes;
    const HeightsColour colour = m_colour;
    m_stats->setText(tr("Computing point heights\u2026"));
    m_runner->start<Plot>(
        this, kHeightsSlot, tr("Point heights: %1 vs %2").arg(nameA, nameB),
        [a, b, nameA, nameB, equal, colour](JobControl& control) {
            auto comparison = std::make_shared<const HeightsComparison>(compareHeights(*a, *b, nameA, nameB, &control));
            auto scatter = std::make_shared<const ScatterData>(heightsScatter(*comparison, equal, colour, &control));
            return Plot{std::move(comparison), std::move(scatter)};
        },
        [this](const JobOutcome<Plot>& outcome) {
            m_pending = false;
            if (outcome.state == JobState::Finished) return display(*outcome.result);
            m_linkageA.reset();  // choosing the same pair again retries
            m_linkageB.reset();
            if (outcome.state == JobState::Failed) clearPlot(outcome.message);  // the job runner reports it
        });
}

void HeightsView::replot() {
    if (m_pending || !m_comparison) return recompute(true);
    const auto comparison = m_comparison;
    const bool equal = m_equalAxes;
    const HeightsColour colour = m_colour;
    m_runner->start<Plot>(
        this, kHeightsSlot, tr("Point heights plot"),
        [comparison, equal, colour](JobControl& control) {
            return Plot{comparison,
                        std::make_shared<const ScatterData>(heightsScatter(*comparison, equal, colour, &control))};
        },
        [this](const JobOutcome<Plot>& outcome) {
            if (outcome.state == JobState::Finished) display(*outcome.result);
        });
}

void HeightsView::display(const Plot& plot) {
    m_comparison = plot.comparison;
    m_syncing = true;
    m_scatter->setData(plot.scatter);
    applySessionSelection();
    m_syncing = false;
    m_stats->setText(statsText());
    m_stats->setToolTip(tr("A: %1\nB: %2")
                            .arg(m_session->linkageDescription(m_comparison->nameA),
                                 m_session->linkageDescription(m_comparison->nameB)));
    m_export->setEnabled(true);
    const std::size_t discordant = m_comparison->discordantCount();
    const bool anyDiscordant = discordant > 0;
    m_discordantCount->setEnabled(anyDiscordant);
    m_selectDiscordant->setEnabled(anyDiscordant);
    if (anyDiscordant) {  // about 1 % of the points by default, never more than differ
        const int most = static_cast<int>(std::min<std::size_t>(discordant, 1'000'000'000));
        m_discordantCount->setRange(1, most);
        m_discordantCount->setValue(std::clamp(static_cast<int>(m_comparison->pointCount() / 100), 1, most));
    }
    Q_EMIT comparisonReady();
}

void HeightsView::clearPlot(const QString& message) {
    m_runner->cancelSlot(kHeightsSlot);
    m_pending = false;
    m_comparison.reset();
    m_linkageA.reset();
    m_linkageB.reset();
    m_syncing = true;
    m_scatter->setData(nullptr);
    m_syncing = false;
    m_stats->setText(message);
    m_stats->setToolTip({});
    m_export->setEnabled(false);
    m_discordantCount->setEnabled(false);
    m_selectDiscordant->setEnabled(false);
}

std::size_t HeightsView::discordantChoice() const {
    return static_cast<std::size_t>(m_discordantCount->value());
}

void HeightsView::selectMostDiscordant(std::size_t count) {
    if (!m_comparison) return;
    const std::vector<std::size_t> chosen = mostDiscordant(m_comparison->rankDifference, count);
    auto selection = std::make_shared<IndexVector>(chosen.begin(), chosen.end());
    std::sort(selection->begin(), selection->end());
    m_session->setSelection(std::move(selection), this);
    m_syncing = true;
    applySessionSelection();
    m_syncing = false;
}

QString HeightsView::statsText() const {
    if (!m_comparison) return m_stats->text();
    QString text = tr("%1 \u00b7 N = %2")
                       .arg(correlationText(*m_comparison),
                            QLocale().toString(static_cast<qulonglong>(m_comparison->pointCount())));
    text += tr(" \u00b7 %1 placed differently (rank in A \u2260 rank in B)")
                .arg(QLocale().toString(static_cast<qulonglong>(m_comparison->discordantCount())));
    const HeightsRange r = heightsRange(*m_comparison, m_equalAxes);
    if (!(std::max(r.xMin, r.yMin) < std::min(r.xMax, r.yMax)))
        text += tr(" \u00b7 the diagonal y = x lies outside the plot");
    return text;
}

void HeightsView::onScatterSelection() {
    if (m_syncing) return;
    const auto& rows = m_scatter->selection();
    m_session->setSelection(std::make_shared<const IndexVector>(rows.begin(), rows.end()), this);
}

void HeightsView::onSessionSelection(const QObject* origin) {
    if (origin == this || !m_scatter->data()) return;
    m_syncing = true;
    applySessionSelection();
    m_syncing = false;
}

void HeightsView::applySessionSelection() {
    const auto selection = m_session->selection();
    m_scatter->setSelection(QList<qsizetype>(selection->begin(), selection->end()));
}

void HeightsView::importLinkage(const QString& path) {
    const std::size_t expected = m_datasetSize;
    m_runner->start<Linkage>(
        this, QStringLiteral("import-linkage"), tr("Import linkage %1").arg(QFileInfo(path).fileName()),
        [file = path.toStdString()](JobControl&) { return readLinkageCsv(file); },
        [this, path, expected](const JobOutcome<Linkage>& outcome) {
            if (outcome.state == JobState::Failed) return m_stats->setText(outcome.message);
            if (outcome.state != JobState::Finished) return;
            if (expected != 0 && outcome.result->leafCount != expected)
                return report(tr("%1 clusters %2 points, but the dataset has %3: a linkage must cluster the "
                                 "points of the open dataset.")
                                  .arg(path, QLocale().toString(static_cast<qulonglong>(outcome.result->leafCount)),
                                       QLocale().toString(static_cast<qulonglong>(expected))));
            const QString name = tr("imported: %1").arg(QFileInfo(path).fileName());
            m_session->addLinkage(name, outcome.result, tr("imported from %1").arg(path));
            setLinkages(linkageA(), name);
        });
}

void HeightsView::report(const QString& message) {
    m_stats->setText(message);
    Q_EMIT failed(message);
}

void HeightsView::exportFigure(const QString& path, const FigureExportOptions& options) const {
    if (!m_comparison) throw InvalidInput("There is no point-height comparison to export.");
    views::exportFigure(HeightsFigure(m_comparison, m_equalAxes, m_colour), path, options);
}

void HeightsView::chooseImport() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import linkage"), QString(), tr("Linkage CSV (*.csv);;All files (*)"));
    if (!path.isEmpty()) importLinkage(path);
}

void HeightsView::chooseExport() {
    const FigureExportSource source = figureExportSource();
    if (source.isValid()) runFigureExportDialog(source, this);
}

}  // namespace clusterlens::views
