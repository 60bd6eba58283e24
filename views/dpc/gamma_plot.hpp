#pragma once
// gamma = rho·delta sorted in decreasing order against its rank, on a log scale: the few peaks
// stand out above a slowly falling tail. The suggested peak count (suggestPeakCount, the largest
// drop) and the current count are marked, their labels set apart so they never overlap; a click
// at rank k asks for the top k peaks. Hovering a point shows its event (event_tooltip.hpp).

#include <QPointer>
#include <QWidget>

#include <cstddef>
#include <memory>
#include <vector>

#include "analysis_session.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "event_tooltip.hpp"

namespace clusterlens::views {

class GammaPlot : public QWidget {
    Q_OBJECT
public:
    explicit GammaPlot(QWidget* parent = nullptr);

    /// Sorts the gammas of `result` (O(n log n); null clears) and computes the suggestion.
    void setResult(const std::shared_ptr<const DensityPeaksResult>& result);
    /// The number of peaks chosen now (0: none), marked on the plot.
    void setCurrentCount(std::size_t count);

    std::size_t suggestedCount() const { return m_suggested; }
    /// Ranks shown: the first shownRanks() gammas.
    std::size_t shownRanks() const { return m_sorted.size(); }
    /// Widget x of rank k (1-based), for tests and the click mapping.
    double xOfRank(std::size_t k) const;
    /// Widget position of the point at rank k (1-based).
    QPointF pointOfRank(std::size_t k) const;
    /// Text boxes of the "knee" and "chosen" labels as last painted (empty when not shown).
    const std::vector<QRectF>& markLabelBoxes() const { return m_markBoxes; }

    /// Where hover tooltips find an event's cluster and populations (null: left out).
    void setAnalysis(const AnalysisSession* analysis) { m_analysis = analysis; }
    /// The whole-dataset index of each point (a run on a population's members); null: the points are
    /// the dataset's events in order. Tooltips name events by these indices.
    void setEventIndices(std::shared_ptr<const IndexVector> events) { m_events = std::move(events); }
    /// The hover tooltip for the mouse at `pos`: the event of the point under it, else empty.
    QString tooltipAt(QPointF pos) const;

    QSize sizeHint() const override { return {320, 180}; }
    QSize minimumSizeHint() const override { return {200, 120}; }

Q_SIGNALS:
    void topKRequested(std::size_t k);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRectF plotRect() const;
    double yOf(double gamma) const;
    void paintMarks(QPainter& painter);

    std::shared_ptr<const DensityPeaksResult> m_result;
    std::vector<double> m_sorted;        // the largest gammas, decreasing, floored for the log axis
    std::vector<std::int64_t> m_ranked;  // the points of m_sorted, rank order
    std::vector<QRectF> m_markBoxes;
    QPointer<const AnalysisSession> m_analysis;
    std::shared_ptr<const IndexVector> m_events;
    double m_logMin = 0.0, m_logMax = 1.0;
    std::size_t m_suggested = 0;
    std::size_t m_current = 0;
};

}  // namespace clusterlens::views
