// MainWindow: opening a data file through the Open dialog (File > Open, drag and drop), reopening a
// recent file with the options last used for it, importing labels from a file, and telling which
// results are stale once the channels or the transform changed.

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

#include <algorithm>

#include "analysis_session.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/session/session_file.hpp"
#include "compare/flat_view.hpp"
#include "compare/heights_view.hpp"
#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "dpc/dpc_panel.hpp"
#include "jobs/job_runner.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"
#include "open/open_dialog.hpp"
#include "palette.hpp"
#include "result_names.hpp"
#include "session/result_staleness.hpp"
#include "session/session_document.hpp"
#include "session/session_recorder.hpp"
#include "vat/vat_panel.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

namespace {

const QString kLabelsDirKey = QStringLiteral("files/lastLabelsDirectory");

/// Labels of a file as a labeling of the session: class names kept, no features or transform (an
/// imported labeling is never stale).
LabelingResult importedLabeling(const QString& name, const QString& path, LabelFile file) {
    LabelingResult result;
    result.info.name = name.toStdString();
    result.info.description = QObject::tr("imported from %1").arg(path).toStdString();
    result.labels = std::move(file.labels);
    result.clusterNames = std::move(file.names);
    return result;
}

std::shared_ptr<const LabelStyle> styleWithNames(const std::vector<std::string>& names) {
    if (names.empty()) return nullptr;
    auto style = std::make_shared<LabelStyle>();
    for (std::size_t i = 0; i < names.size(); ++i) {
        style->names << QString::fromStdString(names[i]);
        style->colours.push_back(Palette::labelColor(static_cast<int>(i)));
    }
    return style;
}

}  // namespace

void MainWindow::connectOpening() {
    QMenu* file = menuBar()->actions().first()->menu();
    const QList<QAction*> actions = file->actions();
    const auto separator = std::find_if(actions.begin(), actions.end(), [](QAction* a) { return a->isSeparator(); });
    auto* import = new QAction(tr("&Import labels\u2026"), this);
    import->setStatusTip(tr("Read labels of every event (FlowSOM, Leiden, manual gates) from a CSV or TSV file"));
    connect(import, &QAction::triggered, this, &MainWindow::importLabels);
    file->insertAction(separator == actions.end() ? nullptr : *separator, import);

    connect(m_session, &DatasetSession::currentChanged, this, [this](bool newRows) {
        if (newRows) keepFileLabels();
    });

    m_stale = new StaleMarker(this);
    for (QComboBox* box : m_dendrogramPanel->findChildren<QComboBox*>())
        m_stale->watch(box, StaleMarker::Kind::Linkage);
    for (QComboBox* box : m_heightsView->findChildren<QComboBox*>()) m_stale->watch(box, StaleMarker::Kind::Linkage);
    for (QComboBox* box : m_flatView->findChildren<QComboBox*>()) m_stale->watch(box, StaleMarker::Kind::Labeling);
    m_dpcPanel->watchStaleness(m_stale);
    m_vatPanel->watchStaleness(m_stale);
    connect(m_document, &SessionDocument::resultsChanged, this, [this] { updateStaleness(false); });
    connect(m_document, &SessionDocument::documentReset, this, [this] { updateStaleness(false); });
    connect(m_datasetPanel, &DatasetPanel::activeFeaturesChanged, this, [this] { updateStaleness(true); });
    connect(m_session, &DatasetSession::currentChanged, this, [this](bool newRows) { updateStaleness(!newRows); });
}

void MainWindow::keepFileLabels() {
    const auto current = m_session->current();
    if (!current || current->labels.empty()) return;
    for (const QString& name : m_analysis->labelingNames()) {
        if (!isGroundTruthName(name)) continue;
        // The class names of a file's label column name its labels.
        const auto style = styleWithNames(current->labelNames);
        if (style) m_analysis->setLabelingStyle(name, style);
        // The file's labels were not computed on any channels: they never become stale; they keep
        // their class names in the session.
        const LabelingResult* stored = findNamed(m_document->session().labelings, name.toStdString());
        if (!stored || (stored->info.features.empty() && stored->info.transform.empty() &&
                        stored->clusterNames == current->labelNames))
            continue;
        LabelingResult kept = *stored;
        kept.info.features.clear();
        kept.info.transform.clear();
        kept.clusterNames = current->labelNames;
        const bool modified = m_document->isModified();
        m_document->putLabeling(std::move(kept));
        m_document->setModified(modified);
    }
}

void MainWindow::updateStaleness(bool contextChanged) {
    const std::vector<StaleResult> fresh = m_stale->update(m_document->session(), m_recorder->context());
    if (!contextChanged || fresh.empty()) return;
    QStringList names;
    for (const StaleResult& r : fresh) names << QStringLiteral("%1 \u201c%2\u201d").arg(r.kind, r.name);
    const QString count = fresh.size() == 1 ? tr("1 result is") : tr("%1 results are").arg(fresh.size());
    m_logPanel->warning(tr("%1 now stale (computed on other channels or another transform): %2")
                            .arg(count, names.join(QStringLiteral(", "))));
    statusBar()->showMessage(tr("%1 stale: run again to use the current channels and transform").arg(count), 8000);
}

void MainWindow::openWithDialog(const QString& path) {
    if (path.isEmpty()) return;
    if (looksLikeSession(path.toStdString())) {
        openSession(path);
        return;
    }
    if (m_openDialog) m_openDialog->close();
    auto* dialog = new OpenDialog(m_runner, path, rememberedOpenChoice(path), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_openDialog = dialog;
    connect(dialog, &QObject::destroyed, this, [this, dialog] {
        if (m_openDialog == dialog) m_openDialog = nullptr;
    });
    connect(dialog, &QDialog::accepted, this, [this, dialog, path] {
        const OpenChoice choice = dialog->choice();
        const std::shared_ptr<const Dataset> inspected = dialog->reusableData();
        afterUnsavedWork([this, path, choice, inspected] {
            rememberOpenChoice(path, choice);
            m_session->open(path, choice, inspected);
        });
    });
    // Window-modal and non-blocking: the file is read behind it as a job.
    dialog->open();
}

void MainWindow::openRecentData(const QString& path) {
    const std::optional<OpenChoice> remembered = rememberedOpenChoice(path);
    if (!remembered || looksLikeSession(path.toStdString())) {
        openFile(path);
        return;
    }
    afterUnsavedWork([this, path, choice = *remembered] { m_session->open(path, choice); });
}

void MainWindow::importLabels() {
    QSettings settings;
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import labels"), settings.value(kLabelsDirKey).toString(),
                                     tr("Labels (*.csv *.tsv *.txt *.gz);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(kLabelsDirKey, QFileInfo(path).absolutePath());
    importLabelsFrom(path);
}

void MainWindow::importLabelsFrom(const QString& path) {
    const auto raw = m_session->raw();
    const QString fileName = QFileInfo(path).fileName();
    if (!raw) {
        showLabelsError(fileName, tr("Open a dataset first: labels belong to its events."));
        return;
    }
    const std::string file = path.toStdString();
    m_runner->start<LabelFile>(
        this, QStringLiteral("import-labels"), tr("Import labels %1").arg(fileName),
        [file, raw](JobControl&) { return readLabelFile(file, raw->n, raw->pointNames); },
        [this, path, fileName, raw](const JobOutcome<LabelFile>& outcome) {
            if (outcome.state == JobState::Cancelled) return;
            if (outcome.state == JobState::Failed || m_session->raw() != raw) {
                showLabelsError(fileName, outcome.state == JobState::Failed
                                              ? outcome.message
                                              : tr("another dataset was opened while the file was read"));
                return;
            }
            QString name = QFileInfo(path).completeBaseName();
            for (int k = 2; m_analysis->labeling(name); ++k)
                name = QStringLiteral("%1 (%2)").arg(QFileInfo(path).completeBaseName()).arg(k);
            LabelingResult result = importedLabeling(name, path, *outcome.result);
            auto labels = std::make_shared<const LabelVector>(result.labels);
            const auto style = styleWithNames(result.clusterNames);
            const std::size_t classes = result.clusterNames.size();
            m_document->putLabeling(std::move(result));
            m_analysis->setLabelingStyle(name, style);
            m_analysis->addLabeling(name, labels);
            m_logPanel->info(classes > 0 ? tr("Imported labels \u201c%1\u201d from %2: %3 classes (%4)")
                                               .arg(name, fileName)
                                               .arg(classes)
                                               .arg(style->names.join(QStringLiteral(", ")))
                                         : tr("Imported labels \u201c%1\u201d from %2").arg(name, fileName));
        });
}

void MainWindow::showLabelsError(const QString& fileName, const QString& reason) {
    const QString text = tr("Could not import labels from \u201c%1\u201d.").arg(fileName);
    m_logPanel->error(QStringLiteral("%1 %2").arg(text, reason));
    if (!m_labelsErrorBox) {
        m_labelsErrorBox = new QMessageBox(QMessageBox::Warning, tr("Import labels"), QString(), QMessageBox::Ok, this);
        m_labelsErrorBox->setObjectName(QStringLiteral("LabelsErrorBox"));
    }
    m_labelsErrorBox->setText(text);
    m_labelsErrorBox->setInformativeText(reason + tr("\n\nYour labelings are unchanged."));
    m_labelsErrorBox->open();
}

}  // namespace clusterlens::gui
