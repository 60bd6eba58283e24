// PopulationsPanel: what runs as jobs — the medians of the details table and the exports — and the
// dialogs that start them.

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QSettings>
#include <QTableWidget>

#include <cmath>

#include "analysis_session.hpp"
#include "figure/figure_export_dialog.hpp"
#include "figure/population_stats_figure.hpp"
#include "jobs/job_runner.hpp"
#include "populations/cluster_choice_dialog.hpp"
#include "populations/population_export.hpp"
#include "populations/population_stats.hpp"
#include "populations/populations_panel.hpp"
#include "session/session_document.hpp"
#include "session/session_recorder.hpp"

namespace clusterlens::views {

namespace {

const QString kExportDirKey = QStringLiteral("populations/exportDirectory");

QString chooseSaveFile(QWidget* parent, const QString& title, const QString& name, const QString& filter) {
    QSettings settings;
    const QString path = QFileDialog::getSaveFileName(
        parent, title, QFileInfo(settings.value(kExportDirKey).toString(), name).absoluteFilePath(), filter);
    if (!path.isEmpty()) settings.setValue(kExportDirKey, QFileInfo(path).absolutePath());
    return path;
}

/// A file name from a population name (which may hold slashes and other characters files cannot).
QString fileStem(const QString& name) {
    QString stem = name;
    for (QChar& c : stem)
        if (!c.isLetterOrNumber() && c != QLatin1Char('-') && c != QLatin1Char('_')) c = QLatin1Char('_');
    return stem.isEmpty() ? QStringLiteral("population") : stem;
}

}  // namespace

void PopulationsPanel::updateDetails() {
    const QString name = currentPopulation();
    const Population* population = m_document->population(name);
    m_details->setRowCount(0);
    if (!population || !m_raw || m_raw->n != m_document->session().data.n) {
        m_detailsTitle->setText(population ? tr("Medians: no data") : tr("Select a population to see its medians."));
        m_runner->cancelSlot(QStringLiteral("population-details"));
        return;
    }
    m_detailsTitle->setText(tr("Medians of \u201c%1\u201d (%2 events, values as read)\u2026")
                                .arg(name, QLocale().toString(static_cast<qulonglong>(population->members.size()))));
    const auto raw = m_raw;
    const Members members = population->members;
    Session one;
    one.data.n = m_raw->n;
    one.populations.push_back(*population);
    one.populations.back().parent.clear();
    const QStringList markers = m_markers;
    m_runner->start<PopulationStatistics>(
        this, QStringLiteral("population-details"), tr("Medians of %1").arg(name),
        [one = std::move(one), raw, markers](JobControl& control) {
            return populationStatistics(one, *raw, markers, &control);
        },
        [this, name](const JobOutcome<PopulationStatistics>& outcome) {
            if (outcome.state != JobState::Finished || outcome.result->rows.empty()) return;
            const PopulationStatistics& statistics = *outcome.result;
            m_details->setRowCount(static_cast<int>(statistics.markers.size()));
            for (int row = 0; row < statistics.markers.size(); ++row) {
                const double median = statistics.rows.front().medians[static_cast<std::size_t>(row)];
                m_details->setItem(row, 0, new QTableWidgetItem(statistics.markers[row]));
                auto* value = new QTableWidgetItem(std::isnan(median) ? QStringLiteral("\u2013")
                                                                      : QLocale().toString(median, 'g', 6));
                value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                m_details->setItem(row, 1, value);
            }
            m_detailsTitle->setText(m_detailsTitle->text().remove(QStringLiteral("\u2026")));
            Q_EMIT detailsShown(name);
        });
}

void PopulationsPanel::chooseClusters() {
    ClusterChoiceDialog dialog(m_analysis, SessionRecorder::populationsLabeling(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    fromClusters(dialog.labeling(), dialog.clusters());
}

void PopulationsPanel::exportStatisticsTo(const QString& path) {
    if (!m_raw || m_document->populations().empty()) {
        Q_EMIT message(tr("There are no populations to export."), true);
        return;
    }
    auto session = std::make_shared<const Session>(m_document->session());
    const auto raw = m_raw;
    const QStringList markers = m_markers;
    const std::string file = path.toStdString();
    m_runner->start<bool>(
        this, QStringLiteral("population-statistics"), tr("Export population statistics"),
        [session, raw, markers, file](JobControl& control) {
            writeStatisticsCsv(file, populationStatistics(*session, *raw, markers, &control));
            return true;
        },
        [this, path](const JobOutcome<bool>& outcome) {
            if (outcome.state == JobState::Failed)
                Q_EMIT message(tr("Statistics not exported: %1").arg(outcome.message), true);
            if (outcome.state != JobState::Finished) return;
            Q_EMIT message(tr("Population statistics written to %1").arg(path), false);
            Q_EMIT exported(path);
        });
}

void PopulationsPanel::exportEventsTo(const QString& population, const QString& path) {
    const Population* chosen = m_document->population(population);
    if (!chosen) return;
    const DatasetReference reference = m_document->session().data;
    const auto analysed = m_analysed ? m_analysed : m_raw;
    const Members members = chosen->members;
    const std::string file = path.toStdString();
    m_runner->start<bool>(
        this, QStringLiteral("population-events"), tr("Export events of %1").arg(population),
        [reference, analysed, members, file](JobControl& control) {
            exportPopulationEvents(file, reference, analysed, members, &control);
            return true;
        },
        [this, path, population, count = members.size()](const JobOutcome<bool>& outcome) {
            if (outcome.state == JobState::Failed)
                Q_EMIT message(tr("Events not exported: %1").arg(outcome.message), true);
            if (outcome.state != JobState::Finished) return;
            Q_EMIT message(tr("%1 events of \u201c%2\u201d written to %3").arg(count).arg(population, path), false);
            Q_EMIT exported(path);
        });
}

void PopulationsPanel::chooseStatisticsFigure() {
    if (!m_raw || m_document->populations().empty())
        return Q_EMIT message(tr("There are no populations to draw."), true);
    withStatisticsSource([this](const FigureExportSource& source) {
        if (!source.isValid()) return;
        const QString path = runFigureExportDialog(source, this);
        if (!path.isEmpty()) Q_EMIT message(tr("Wrote %1").arg(path), false);
    });
}

void PopulationsPanel::withStatisticsSource(std::function<void(const FigureExportSource&)> use) {
    if (!m_raw || m_document->populations().empty()) return use(FigureExportSource{});
    m_runner->start<PopulationStatistics>(
        this, QStringLiteral("population-statistics"), tr("Population statistics figure"),
        [session = m_document->session(), raw = m_raw, markers = m_markers](JobControl& control) {
            return populationStatistics(session, *raw, markers, &control);
        },
        [this, raw = m_raw, use = std::move(use)](const JobOutcome<PopulationStatistics>& outcome) {
            // Cancelled in the Jobs panel: the user chose not to wait; replaced: the newer request calls.
            if (outcome.state == JobState::Cancelled) return;
            if (outcome.state == JobState::Failed)
                Q_EMIT message(tr("Population statistics not computed: %1").arg(outcome.message), true);
            use(outcome.state == JobState::Finished
                    ? populationStatisticsSource(outcome.result, *raw, m_document->path())
                    : FigureExportSource{});
        });
}

void PopulationsPanel::chooseStatisticsExport() {
    const QString path =
        chooseSaveFile(this, tr("Export population statistics"), QStringLiteral("populations.csv"), tr("CSV (*.csv)"));
    if (!path.isEmpty()) exportStatisticsTo(path);
}

void PopulationsPanel::chooseEventsExport() {
    const QString name = currentPopulation();
    if (name.isEmpty()) return;
    const QString path = chooseSaveFile(this, tr("Export events of \u201c%1\u201d").arg(name),
                                        fileStem(name) + QStringLiteral(".fcs"), tr("FCS 3.1 (*.fcs);;CSV (*.csv)"));
    if (!path.isEmpty()) exportEventsTo(name, path);
}

}  // namespace clusterlens::views
