#pragma once
// The "Run on" choice of every analysis form: all events, or one population of the session (the
// AnalysisSession's mirror of them). The list follows the session; a population that disappears falls
// back to all events.

#include <QComboBox>

#include <memory>
#include <utility>

#include "analysis_session.hpp"
#include "clusterlens/dataset.hpp"
#include "jobs/job_runner.hpp"

namespace clusterlens::views {

class RunOnChoice : public QComboBox {
    Q_OBJECT
public:
    explicit RunOnChoice(AnalysisSession* analysis, QWidget* parent = nullptr);

    /// The events the next run uses: all, or the chosen population with its members.
    ResultScope scope() const;
    /// Chooses a population by name (empty: all events); false when the session has no such population.
    bool setPopulation(const QString& name);

private:
    void refresh();

    AnalysisSession* m_analysis;
};

/// The events of `scope` as a dataset: `data` itself for all events, else its members' rows
/// (selectMembers). Throws InvalidInput when the population does not fit the data (a member >= n).
std::shared_ptr<const Dataset> scopedDataset(std::shared_ptr<const Dataset> data, const ResultScope& scope);

/// Runs `compute` (a panel's job function, given a copy of `request` whose dataset holds the events of
/// `scope`) and records the scope in the run it returns. For DpcRun and VatRun.
template <class Run, class Request, class Compute>
Run runOnScope(const Request& request, const ResultScope& scope, Compute compute) {
    Request scoped = request;
    scoped.dataset = scopedDataset(request.dataset, scope);
    Run run = compute(scoped);
    run.scope = scope;
    return run;
}

/// Starts a panel's analysis as a job of `receiver` in `slot`: `compute(request, control)` on the events
/// of `scope` (runOnScope), `onDone` with the outcome on the GUI thread. For DpcRun and VatRun.
template <class Run, class Request, class Compute, class OnDone>
JobId startOnScope(JobRunner* runner, QObject* receiver, const QString& slot, const QString& name,
                   const Request& request, const ResultScope& scope, Compute compute, OnDone onDone) {
    return runner->start<Run>(
        receiver, slot, name,
        [request, scope, compute](JobControl& control) {
            return runOnScope<Run>(request, scope, [&](const Request& r) { return compute(r, control); });
        },
        std::move(onDone));
}

/// Labels of the analysed events (one per event of `scope`) as whole-dataset labels of n events, -1 for
/// events outside the population (scatterLabels).
std::shared_ptr<const LabelVector> wholeLabels(std::shared_ptr<const LabelVector> labels, const ResultScope& scope,
                                               std::size_t n);

}  // namespace clusterlens::views
