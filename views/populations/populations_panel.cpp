#include "populations/populations_panel.hpp"

#include <QColorDialog>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

#include "analysis_session.hpp"
#include "flow_layout.hpp"
#include "jobs/job_runner.hpp"
#include "populations/population_commands.hpp"
#include "populations/population_model.hpp"
#include "session/session_document.hpp"
#include "session/session_recorder.hpp"

namespace clusterlens::views {

PopulationsPanel::PopulationsPanel(SessionDocument* document, AnalysisSession* analysis, QUndoStack* undo,
                                   JobRunner* runner, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_analysis(analysis),
      m_undo(undo),
      m_runner(runner),
      m_model(new PopulationModel(document, this)),
      m_tree(new QTreeView(this)),
      m_details(new QTableWidget(0, 2, this)),
      m_detailsTitle(new QLabel(this)) {
    m_tree->setObjectName(QStringLiteral("PopulationsTree"));
    m_tree->setModel(m_model);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(PopulationModel::NameColumn, QHeaderView::Stretch);
    for (int column = PopulationModel::CountColumn; column < PopulationModel::ColumnCount; ++column)
        m_tree->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);

    // A long population name wraps rather than widening the forms' column.
    m_detailsTitle->setWordWrap(true);
    m_details->setObjectName(QStringLiteral("PopulationDetails"));
    m_details->setHorizontalHeaderLabels({tr("Marker"), tr("Median")});
    m_details->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_details->verticalHeader()->hide();
    m_details->setEditTriggers(QAbstractItemView::NoEditTriggers);

    auto* detailsBox = new QWidget(this);
    auto* detailsLayout = new QVBoxLayout(detailsBox);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_detailsTitle);
    detailsLayout->addWidget(m_details);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_tree);
    split->addWidget(detailsBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    // The toolbar's buttons wrap onto more lines in a narrow column, so that the tree and the
    // medians keep the dock's width and their count and median columns stay in view.
    QWidget* toolbar = buildToolbar();
    toolbar->setObjectName(QStringLiteral("PopulationsToolbar"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(toolbar);
    layout->addWidget(split);

    connect(m_model, &PopulationModel::renameRequested, this,
            [this](const QString& from, const QString& to) { rename(from, to); });
    connect(m_model, &PopulationModel::visibilityRequested, this, &PopulationsPanel::setPopulationVisible);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_tree->expandAll();
        updateDetails();
        updateEnabled();
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateDetails();
        updateEnabled();
    });
    connect(m_analysis, &AnalysisSession::selectionChanged, this, &PopulationsPanel::updateEnabled);
    connect(m_document, &SessionDocument::populationsChanged, this, &PopulationsPanel::refreshLabeling);
    connect(m_document, &SessionDocument::populationStyleChanged, this, &PopulationsPanel::refreshLabeling);
    connect(m_document, &SessionDocument::documentReset, this, &PopulationsPanel::refreshLabeling);
    auto* deleteKey = new QAction(this);
    deleteKey->setShortcut(QKeySequence::Delete);
    deleteKey->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(deleteKey, &QAction::triggered, this, &PopulationsPanel::removeSelected);
    m_tree->addAction(deleteKey);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const QString name = m_model->nameAt(m_tree->indexAt(at));
        if (name.isEmpty()) return;
        QMenu menu(this);
        menu.addAction(tr("Analyse this population"), this, [this, name] { Q_EMIT analyseRequested(name); });
        menu.exec(m_tree->viewport()->mapToGlobal(at));
    });
    updateEnabled();
}

QToolButton* PopulationsPanel::addButton(QWidget* bar, const QString& text, const QString& tip,
                                         std::function<void()> action) {
    auto* button = new QToolButton(bar);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    connect(button, &QToolButton::clicked, this, std::move(action));
    bar->layout()->addWidget(button);
    return button;
}

QWidget* PopulationsPanel::buildToolbar() {
    auto* bar = new QWidget(this);
    new FlowLayout(bar, 2);  // bar takes it as its layout
    m_gate = addButton(bar, tr("Gate"),
                       tr("A population of the selected points (in any view), inside the current population"),
                       [this] { gateSelection(); });
    addButton(bar, tr("Clusters\u2026"), tr("A population of chosen clusters of a labeling"),
              [this] { chooseClusters(); });
    m_and = addButton(bar, tr("AND"), tr("Events in every selected population"),
                      [this] { combineSelected(PopulationOp::And); });
    m_or = addButton(bar, tr("OR"), tr("Events in any selected population"),
                     [this] { combineSelected(PopulationOp::Or); });
    m_andNot = addButton(bar, tr("AND NOT"), tr("Events of the first selected population in none of the others"),
                         [this] { combineSelected(PopulationOp::AndNot); });
    m_not = addButton(bar, tr("NOT"), tr("The events of the parent outside the selected population"),
                      [this] { combineSelected(PopulationOp::Not); });
    m_colour = addButton(bar, tr("Colour\u2026"), tr("Recolour the current population"), [this] { chooseColour(); });
    m_delete = addButton(bar, tr("Delete"), tr("Delete the selected populations and those inside them"),
                         [this] { removeSelected(); });
    addButton(bar, tr("Show"), tr("Colour every view by the visible populations"), [this] { colourByPopulations(); });
    addButton(bar, tr("Statistics\u2026"), tr("Export counts and medians of every population as CSV"),
              [this] { chooseStatisticsExport(); });
    addButton(bar, tr("Figure\u2026"), tr("Export counts and medians of every population as a figure"),
              [this] { chooseStatisticsFigure(); });
    m_events = addButton(bar, tr("Events\u2026"), tr("Export the current population's events as FCS or CSV"),
                         [this] { chooseEventsExport(); });
    m_analyse =
        addButton(bar, tr("Analyse"),
                  tr("Run the next analyses (clustering, density peaks, VAT, k-means) on the current population"),
                  [this] { analyseCurrent(); });
    return bar;
}

void PopulationsPanel::setDataSource(std::shared_ptr<const Dataset> raw, std::shared_ptr<const Dataset> analysed,
                                     const QStringList& markers) {
    m_raw = std::move(raw);
    m_analysed = std::move(analysed);
    m_markers = markers;
    updateDetails();
    updateEnabled();
}

QString PopulationsPanel::push(Population population) {
    const QString name = QString::fromStdString(population.name);
    if (population.members.empty()) {
        Q_EMIT message(tr("\u201c%1\u201d would hold no events; no population was made.").arg(name), true);
        return {};
    }
    m_undo->push(new AddPopulationCommand(m_document, std::move(population)));
    setCurrentPopulation(name);
    colourByPopulations();
    return name;
}

QString PopulationsPanel::gateSelection(const QString& name) {
    const auto selection = m_analysis->selection();
    if (!selection || selection->empty()) {
        Q_EMIT message(tr("Select events in a view first (a rectangle, a lasso, a subtree, a block or a cell)."), true);
        return {};
    }
    const QString parent = currentPopulation();
    const Session& session = m_document->session();
    const QString chosen = name.isEmpty() ? uniquePopulationName(session, tr("Gate")) : name;
    const QString definition = parent.isEmpty() ? tr("gate of %1 events").arg(selection->size())
                                                : tr("gate of %1 events within %2").arg(selection->size()).arg(parent);
    return push(gatePopulation(session, chosen, parent, *selection, definition));
}

QString PopulationsPanel::fromClusters(const QString& labeling, const std::vector<std::int32_t>& clusters,
                                       const QString& name) {
    const auto labels = m_analysis->labeling(labeling);
    if (!labels || clusters.empty()) {
        Q_EMIT message(tr("Choose a labeling and at least one of its clusters."), true);
        return {};
    }
    QStringList ids;
    for (std::int32_t c : clusters) ids << QString::number(c);
    const Session& session = m_document->session();
    const QString base =
        clusters.size() == 1 ? tr("%1 cluster %2").arg(labeling, ids.first()) : tr("%1 clusters").arg(labeling);
    const QString chosen = name.isEmpty() ? uniquePopulationName(session, base) : name;
    return push(gatePopulation(session, chosen, currentPopulation(), membersOfClusters(*labels, clusters),
                               tr("clusters %1 of %2").arg(ids.join(QStringLiteral(", ")), labeling)));
}

QString PopulationsPanel::combine(PopulationOp op, const QStringList& names, const QString& name) {
    const Session& session = m_document->session();
    const QString base = op == PopulationOp::Not
                             ? tr("NOT %1").arg(names.value(0))
                             : names.join(QLatin1Char(' ') + populationOpName(op) + QLatin1Char(' '));
    try {
        return push(
            combinePopulations(session, op, names, name.isEmpty() ? uniquePopulationName(session, base) : name));
    } catch (const std::exception& error) {
        Q_EMIT message(QString::fromUtf8(error.what()), true);
        return {};
    }
}

bool PopulationsPanel::rename(const QString& from, const QString& to) {
    const QString name = to.trimmed();
    if (name.isEmpty() || name == from) return false;
    if (m_document->population(name)) {
        Q_EMIT message(tr("A population called \u201c%1\u201d exists already.").arg(name), true);
        return false;
    }
    m_undo->push(new RenamePopulationCommand(m_document, from, name));
    setCurrentPopulation(name);
    return true;
}

void PopulationsPanel::recolour(const QString& name, const QColor& colour) {
    if (!m_document->population(name) || !colour.isValid()) return;
    m_undo->push(new RecolourPopulationCommand(m_document, name, colour.name(QColor::HexRgb)));
}

void PopulationsPanel::setPopulationVisible(const QString& name, bool visible) {
    const Population* population = m_document->population(name);
    if (!population || population->visible == visible) return;
    m_undo->push(new ShowPopulationCommand(m_document, name, visible));
}

void PopulationsPanel::remove(const QString& name) {
    if (!m_document->population(name)) return;
    m_undo->push(new RemovePopulationCommand(m_document, name));
}

void PopulationsPanel::refreshLabeling() {
    if (m_document->populations().empty() && !m_analysis->labeling(SessionRecorder::populationsLabeling())) return;
    const Session& session = m_document->session();
    const auto dataset = m_analysed ? m_analysed : m_raw;
    if (!dataset || dataset->n != session.data.n) return;
    PopulationLabels drawn = populationLabels(session);
    auto style = std::make_shared<LabelStyle>();
    style->colours = std::move(drawn.colours);
    style->names = std::move(drawn.names);
    style->unlabelled = tr("in no shown population");
    const QString name = SessionRecorder::populationsLabeling();
    // The style first: the labeling's arrival recolours the views that show it.
    m_analysis->setLabelingStyle(name, std::move(style));
    m_analysis->addLabeling(name, std::move(drawn.labels));
}

void PopulationsPanel::colourByPopulations() {
    refreshLabeling();
    const QString name = SessionRecorder::populationsLabeling();
    if (m_analysis->labeling(name) && m_analysis->colouring() != name) m_analysis->setColouring(name);
}

QString PopulationsPanel::currentPopulation() const {
    const QModelIndexList rows = m_tree->selectionModel()->selectedRows();
    if (rows.size() == 1) return m_model->nameAt(rows.first());
    return rows.isEmpty() ? QString() : m_model->nameAt(m_tree->currentIndex());
}

void PopulationsPanel::setCurrentPopulation(const QString& name) {
    const QModelIndex index = m_model->indexOf(name);
    if (!index.isValid()) {
        m_tree->clearSelection();
        return;
    }
    m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

QStringList PopulationsPanel::selectedPopulations() const {
    QStringList names;
    for (const QModelIndex& row : m_tree->selectionModel()->selectedRows()) names << m_model->nameAt(row);
    return names;
}

void PopulationsPanel::updateEnabled() {
    const qsizetype selected = m_tree->selectionModel()->selectedRows().size();
    const auto selection = m_analysis->selection();
    m_gate->setEnabled(selection && !selection->empty());
    for (QToolButton* button : {m_and, m_or, m_andNot}) button->setEnabled(selected >= 2);
    for (QToolButton* button : {m_not, m_colour}) button->setEnabled(selected == 1);
    m_delete->setEnabled(selected >= 1);
    m_events->setEnabled(selected == 1 && (m_raw || m_analysed));
    m_analyse->setEnabled(selected == 1);
}

void PopulationsPanel::analyseCurrent() {
    const QString name = currentPopulation();
    if (!name.isEmpty()) Q_EMIT analyseRequested(name);
}

void PopulationsPanel::combineSelected(PopulationOp op) {
    combine(op, selectedPopulations());
}

void PopulationsPanel::removeSelected() {
    const QStringList names = selectedPopulations();
    if (names.isEmpty()) return;
    m_undo->beginMacro(names.size() == 1 ? tr("Delete population \u201c%1\u201d").arg(names.first())
                                         : tr("Delete %1 populations").arg(names.size()));
    // A population inside another selected one went with it.
    for (const QString& name : names) remove(name);
    m_undo->endMacro();
}

void PopulationsPanel::chooseColour() {
    const QString name = currentPopulation();
    const Population* population = m_document->population(name);
    if (!population) return;
    const QColor colour = QColorDialog::getColor(QColor(QString::fromStdString(population->colour)), this,
                                                 tr("Colour of \u201c%1\u201d").arg(name));
    recolour(name, colour);
}

}  // namespace clusterlens::views
