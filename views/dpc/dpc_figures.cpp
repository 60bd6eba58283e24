// The DPC panel's figure exports: the decision graph and the γ-rank plot, each with the commands
// that redraw it headless (`plot decision|gamma --session FILE --name NAME` from the saved session
// that stores the run; else `dpc` with the run's exact dc, then `plot decision|gamma DPC.csv`) and
// the methods paragraph.

#include "dpc/decision_figure.hpp"
#include "dpc/dpc_panel.hpp"
#include "dpc/gamma_figure.hpp"
#include "dpc/peak_choice.hpp"
#include "figure/methods_text.hpp"
#include "session/session_results.hpp"
#include "clusterlens/session/population.hpp"

#include <QCheckBox>
#include <QDoubleSpinBox>

namespace clusterlens::views {

namespace {

QString kernelName(DensityKernel kernel) {
    return kernel == DensityKernel::Gaussian ? QStringLiteral("gaussian") : QStringLiteral("cutoff");
}

/// `clusterlens-cli dpc INPUT ... --dc X --kernel K --out DPC.csv`: the run's table again, with the
/// dc it used (exactly, however it was chosen); for a run on a population, that population of the
/// session (whose file the user names), so that the table holds the same whole-dataset indices.
QString dpcCommand(const DpcRun& run) {
    const Dataset& data = *run.request.dataset;
    QStringList columns;
    for (std::size_t c : run.request.columns) columns << QString::fromStdString(data.features[c]);
    const DensityPeaksResult& r = *run.result;
    return shellCommand(
        QStringList{QStringLiteral("clusterlens-cli"), QStringLiteral("dpc")} + datasetInputWords(data, columns) +
        QStringList{QStringLiteral("--dc"), QString::number(r.dc.value, 'g', 17), QStringLiteral("--kernel"),
                    kernelName(r.kernel)} +
        (run.scope.isAll() ? QStringList()
                           : QStringList{QStringLiteral("--session"), QStringLiteral("SESSION.clusterlens"),
                                         QStringLiteral("--population"), run.scope.population}) +
        QStringList{QStringLiteral("--out"), QStringLiteral("DPC.csv")});
}

/// `--peaks` of the run's peak positions: values of the DPC table's index column (whole-dataset
/// indices for a run on a population).
QStringList peakWords(const DpcRun& run, const std::vector<std::int64_t>& peaks) {
    if (peaks.empty()) return {};
    QStringList list;
    for (std::int64_t p : run.scope.isAll() ? peaks : positionsToIndices(peaks, *run.scope.members))
        list << QString::number(p);
    return {QStringLiteral("--peaks"), list.join(QLatin1Char(','))};
}

/// `plot KIND DPC.csv OPTIONS` after the prelude, and `plot KIND --name NAME OPTIONS` on the stored
/// result (session_recorder.cpp stores a run under dpcResultName).
void setCommands(FigureExportSource& source, const DpcRun& run, const QString& kind, const QStringList& options) {
    const QStringList plot = {QStringLiteral("clusterlens-cli"), QStringLiteral("plot"), kind};
    source.command = plot + QStringList{QStringLiteral("DPC.csv")} + options;
    source.sessionCommand = plot + QStringList{QStringLiteral("--name"), dpcResultName(run)};
    if (!run.scope.isAll()) source.sessionCommand << QStringLiteral("--population") << run.scope.population;
    source.sessionCommand += options;
}

FigureExportSource dpcSource(const DpcRun& run, std::size_t peaks) {
    FigureExportSource source;
    source.prelude = dpcCommand(run);
    source.dataFiles = {QString::fromStdString(run.request.dataset->provenance.path)};
    source.methods = densityPeaksMethods(
        run.result->rho.size(), describeDc(run.result->dc),
        run.result->kernel == DensityKernel::Gaussian ? QObject::tr("Gaussian") : QObject::tr("cutoff"), peaks);
    return source;
}

}  // namespace

FigureExportSource DpcPanel::decisionExportSource() const {
    if (!m_run) return {};
    const std::vector<std::int64_t> peaks = m_choice->peaks();
    FigureExportSource source = dpcSource(*m_run, peaks.size());
    source.title = tr("Export decision graph");
    source.name = tr("Decision graph");
    source.suggestedName = QStringLiteral("decision_graph");
    source.figure = [this](bool) -> std::unique_ptr<Figure> { return m_run ? figure() : nullptr; };
    QStringList options = peakWords(*m_run, peaks);
    if (m_logRho->isChecked()) options << QStringLiteral("--log-rho");
    if (m_logDelta->isChecked()) options << QStringLiteral("--log-delta");
    if (m_useThresholds->isChecked())
        options << QStringLiteral("--rho-min") << QString::number(m_rhoMin->value(), 'g', 17)
                << QStringLiteral("--delta-min") << QString::number(m_deltaMin->value(), 'g', 17);
    setCommands(source, *m_run, QStringLiteral("decision"), options);
    return source;
}

FigureExportSource DpcPanel::gammaExportSource() const {
    if (!m_run) return {};
    const std::size_t peaks = m_choice->peaks().size();
    FigureExportSource source = dpcSource(*m_run, peaks);
    source.title = tr("Export \u03b3-rank plot");
    source.name = tr("\u03b3-rank plot");
    source.suggestedName = QStringLiteral("gamma_rank");
    source.figure = [this](bool) -> std::unique_ptr<Figure> {
        if (!m_run) return nullptr;
        GammaFigureOptions options;
        options.chosen = m_choice->peaks().size();
        return std::make_unique<GammaFigure>(m_run->result, std::move(options));
    };
    const QStringList options =
        peaks > 0 ? QStringList{QStringLiteral("--peaks-top"), QString::number(peaks)} : QStringList();
    setCommands(source, *m_run, QStringLiteral("gamma"), options);
    return source;
}

}  // namespace clusterlens::views
