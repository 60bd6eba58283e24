// The DPC panel's figure exports: the decision graph and the γ-rank plot, each with the commands
// that redraw it headless (`dpc` with the run's exact dc, then `plot decision|gamma`) and the
// methods paragraph.

#include "dpc/decision_figure.hpp"
#include "dpc/dpc_panel.hpp"
#include "dpc/gamma_figure.hpp"
#include "dpc/peak_choice.hpp"
#include "figure/methods_text.hpp"

#include <QCheckBox>

namespace clusterlens::views {

namespace {

QString kernelName(DensityKernel kernel) {
    return kernel == DensityKernel::Gaussian ? QStringLiteral("gaussian") : QStringLiteral("cutoff");
}

/// `clusterlens-cli dpc INPUT ... --dc X --kernel K --out DPC.csv`: the run's table again, with the
/// dc it used (exactly, however it was chosen).
QString dpcCommand(const DpcRun& run) {
    const Dataset& data = *run.request.dataset;
    QStringList columns;
    for (std::size_t c : run.request.columns) columns << QString::fromStdString(data.features[c]);
    const DensityPeaksResult& r = *run.result;
    return shellCommand(
        QStringList{QStringLiteral("clusterlens-cli"), QStringLiteral("dpc")} + datasetInputWords(data, columns) +
        QStringList{QStringLiteral("--dc"), QString::number(r.dc.value, 'g', 17), QStringLiteral("--kernel"),
                    kernelName(r.kernel), QStringLiteral("--out"), QStringLiteral("DPC.csv")});
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
    source.command = {QStringLiteral("clusterlens-cli"), QStringLiteral("plot"), QStringLiteral("decision"),
                      QStringLiteral("DPC.csv")};
    if (!peaks.empty()) {
        QStringList list;
        for (std::int64_t p : peaks) list << QString::number(p);
        source.command << QStringLiteral("--peaks") << list.join(QLatin1Char(','));
    }
    if (m_logRho->isChecked()) source.command << QStringLiteral("--log-rho");
    if (m_logDelta->isChecked()) source.command << QStringLiteral("--log-delta");
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
    source.command = {QStringLiteral("clusterlens-cli"), QStringLiteral("plot"), QStringLiteral("gamma"),
                      QStringLiteral("DPC.csv")};
    if (peaks > 0) source.command << QStringLiteral("--peaks-top") << QString::number(peaks);
    return source;
}

}  // namespace clusterlens::views
