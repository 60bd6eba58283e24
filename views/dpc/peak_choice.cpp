#include "dpc/peak_choice.hpp"

#include <QElapsedTimer>
#include <QUndoCommand>

#include <algorithm>

namespace clusterlens::views {

namespace {

/// One change of the peaks; consecutive threshold changes merge, so dragging a line is one step.
class SetPeaksCommand : public QUndoCommand {
public:
    static constexpr int kThresholdId = 1;

    SetPeaksCommand(PeakChoice* choice, std::vector<std::int64_t> before, std::vector<std::int64_t> after,
                    const QString& text, bool mergeable)
        : QUndoCommand(text),
          m_choice(choice),
          m_before(std::move(before)),
          m_after(std::move(after)),
          m_mergeable(mergeable) {}

    void redo() override { m_choice->apply(m_after); }
    void undo() override { m_choice->apply(m_before); }
    int id() const override { return m_mergeable ? kThresholdId : -1; }
    bool mergeWith(const QUndoCommand* other) override {
        if (other->id() != id()) return false;
        m_after = static_cast<const SetPeaksCommand*>(other)->m_after;
        setText(other->text());
        return true;
    }

private:
    PeakChoice* m_choice;
    std::vector<std::int64_t> m_before;
    std::vector<std::int64_t> m_after;
    bool m_mergeable;
};

}  // namespace

PeakChoice::PeakChoice(QObject* parent) : QObject(parent) {}

// UBSan found UndoRecorder::onPeaksIndexChanged, called from this destructor's ~QUndoStack, calling
// into the DpcPanel that owns the choice while that panel was inside its ~QWidget.
PeakChoice::~PeakChoice() {
    m_undo.blockSignals(true);
}

void PeakChoice::setResult(std::shared_ptr<const DensityPeaksResult> result) {
    m_undo.clear();
    m_result = std::move(result);
    apply({});
}

void PeakChoice::choose(std::vector<std::int64_t> peaks, const QString& how, bool fromThresholds) {
    if (!m_result) return;
    const auto n = static_cast<std::int64_t>(m_result->rho.size());
    peaks.erase(std::remove_if(peaks.begin(), peaks.end(), [n](std::int64_t p) { return p < 0 || p >= n; }),
                peaks.end());
    std::sort(peaks.begin(), peaks.end());
    peaks.erase(std::unique(peaks.begin(), peaks.end()), peaks.end());
    std::vector<std::int64_t> current = m_peaks;
    std::sort(current.begin(), current.end());
    if (peaks == current) return;
    m_undo.push(new SetPeaksCommand(this, m_peaks, std::move(peaks), how, fromThresholds));
}

void PeakChoice::chooseTopK(std::size_t k) {
    if (!m_result) return;
    k = std::clamp<std::size_t>(k, 1, m_result->rho.size());
    choose(peaksTopK(*m_result, k), tr("Top %1 by \u03b3").arg(k));
}

void PeakChoice::chooseByThresholds(double rhoMin, double deltaMin) {
    if (!m_result) return;
    choose(peaksByThreshold(*m_result, rhoMin, deltaMin),
           tr("\u03c1 > %1, \u03b4 > %2").arg(rhoMin, 0, 'g', 4).arg(deltaMin, 0, 'g', 4), true);
}

void PeakChoice::togglePeak(std::int64_t p) {
    if (!m_result || p < 0 || static_cast<std::size_t>(p) >= m_result->rho.size()) return;
    std::vector<std::int64_t> peaks = m_peaks;
    const auto it = std::find(peaks.begin(), peaks.end(), p);
    const bool remove = it != peaks.end();
    if (remove)
        peaks.erase(it);
    else
        peaks.push_back(p);
    choose(std::move(peaks), remove ? tr("Remove peak at point %1").arg(p) : tr("Add peak at point %1").arg(p));
}

void PeakChoice::apply(const std::vector<std::int64_t>& peaks) {
    QElapsedTimer timer;
    timer.start();
    if (!m_result || peaks.empty()) {
        m_peaks.clear();
        m_labels.reset();
    } else {
        auto labels = std::make_shared<LabelVector>(assignFromPeaks(*m_result, peaks));
        // Label order is density order: list each peak under the cluster it founded.
        m_peaks.assign(peaks.size(), -1);
        for (std::int64_t p : peaks) m_peaks[static_cast<std::size_t>((*labels)[static_cast<std::size_t>(p)])] = p;
        m_labels = std::move(labels);
    }
    m_assignMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    Q_EMIT peaksChanged();
}

}  // namespace clusterlens::views
