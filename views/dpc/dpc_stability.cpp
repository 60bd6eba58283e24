// The decision graph's "Stability across dc": the dc sweep of the chosen peaks as a job, its
// persistence and step-by-step strip shown in the peak table (clusterlens/cluster/dc_sweep.hpp says how
// a peak is matched).

#include <QLabel>
#include <QLocale>

#include <algorithm>

#include "clusterlens/cluster/dc_sweep.hpp"
#include "dpc/dpc_panel.hpp"
#include "dpc/peak_choice.hpp"
#include "dpc/peak_table_model.hpp"
#include "jobs/job_runner.hpp"

namespace clusterlens::views {

namespace {

const QString kStabilitySlot = QStringLiteral("dpc-stability");

}  // namespace

void DpcPanel::checkStability() {
    const auto run = m_run;
    const std::vector<std::int64_t> peaks = m_choice->peaks();
    if (!run || peaks.empty()) return;
    m_pickStatus->setText(tr("Checking the %1 peaks at %2 cutoffs\u2026").arg(peaks.size()).arg(kSweepSteps));
    m_runner->start<DcSweep>(
        this, kStabilitySlot, tr("Density peaks stability: %1 peaks, %2 cutoffs").arg(peaks.size()).arg(kSweepSteps),
        [run, peaks](JobControl& control) {
            const std::vector<float> x = featureMatrix(*run->request.dataset, run->request.columns);
            DensityPeaksOptions options = run->request.options;
            options.dc.reset();  // the sweep chooses dc
            return sweepDc(x.data(), run->request.dataset->n, run->request.columns.size(), options,
                           sweepPercents(kSweepLowPercent, kSweepHighPercent, kSweepSteps), peaks.size(), peaks,
                           assignFromPeaks(*run->result, peaks), run->request.backend, &control)
                .result;
        },
        [this, run](const JobOutcome<DcSweep>& outcome) {
            if (outcome.state == JobState::Failed)
                Q_EMIT message(tr("Stability across dc failed: %1").arg(outcome.message), true);
            if (outcome.state != JobState::Finished || run != m_run) return;
            const DcSweep& sweep = *outcome.result;
            const auto kept = std::count(sweep.persistence.begin(), sweep.persistence.end(), 1.0);
            m_table->setStability(sweep);
            m_pickStatus->setText(tr("Stability across dc (%1 % to %2 %, %3 cutoffs): %4 of %5 peaks keep their "
                                     "cluster among the top %5 by \u03b3 at every cutoff.")
                                      .arg(QLocale().toString(kSweepLowPercent))
                                      .arg(QLocale().toString(kSweepHighPercent))
                                      .arg(kSweepSteps)
                                      .arg(kept)
                                      .arg(sweep.chosen.size()));
        });
}

}  // namespace clusterlens::views
