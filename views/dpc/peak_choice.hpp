#pragma once
// The peaks chosen on a decision graph and the labels they give. Every choice (rectangle or lasso,
// top-K, thresholds, one peak added or removed) is an undoable command on one QUndoStack; applying a
// choice re-labels all points at once with assignFromPeaks (O(n): the nearest-higher links are followed in density
// order).

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <cstdint>
#include <memory>
#include <vector>

#include "analysis_session.hpp"
#include "clusterlens/cluster/density_peaks.hpp"

namespace clusterlens::views {

class PeakChoice : public QObject {
    Q_OBJECT
public:
    explicit PeakChoice(QObject* parent = nullptr);
    /// Drops the history without signals: ~QUndoStack clears it and would tell the listeners of the
    /// panel that owns this choice, which is half destroyed by then.
    ~PeakChoice() override;

    /// A new decision graph: no peaks, empty history.
    void setResult(std::shared_ptr<const DensityPeaksResult> result);
    const std::shared_ptr<const DensityPeaksResult>& result() const { return m_result; }

    /// Records `peaks` (point indices, any order, duplicates ignored) as the new choice. `how`
    /// names it in the undo history. Thresholds dragged in small steps merge into one command.
    void choose(std::vector<std::int64_t> peaks, const QString& how, bool fromThresholds = false);
    /// The k points of largest gamma (k clamped to [1, n]).
    void chooseTopK(std::size_t k);
    /// The points with rho > rhoMin and delta > deltaMin.
    void chooseByThresholds(double rhoMin, double deltaMin);
    /// Adds point `p` to the peaks, or removes it when it is one (a ctrl-click); one undo step.
    /// Ignored for an index outside the result.
    void togglePeak(std::int64_t p);

    /// The peaks in label order: peaks()[c] is the peak of cluster c (densest first).
    const std::vector<std::int64_t>& peaks() const { return m_peaks; }
    /// Labels of all n points (0..K-1), or null while no peak is chosen.
    std::shared_ptr<const LabelVector> labels() const { return m_labels; }
    /// Milliseconds the last re-assignment took.
    double lastAssignMs() const { return m_assignMs; }

    QUndoStack* undoStack() { return &m_undo; }

    /// Applies `peaks` without recording it (the undo commands call this).
    void apply(const std::vector<std::int64_t>& peaks);

Q_SIGNALS:
    /// The peaks and labels changed (a new choice, undo or redo, or a new result).
    void peaksChanged();

private:
    std::shared_ptr<const DensityPeaksResult> m_result;
    std::vector<std::int64_t> m_peaks;
    std::shared_ptr<const LabelVector> m_labels;
    double m_assignMs = 0.0;
    QUndoStack m_undo;
};

}  // namespace clusterlens::views
