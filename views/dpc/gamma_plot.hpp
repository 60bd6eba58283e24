#pragma once
// gamma = rho·delta sorted in decreasing order against its rank, on a log scale: the few peaks
// stand out above a slowly falling tail. The suggested peak count (suggestPeakCount, the largest
// drop) and the current count are marked; a click at rank k asks for the top k peaks.

#include <QWidget>

#include <cstddef>
#include <memory>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"

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

    QSize sizeHint() const override { return {320, 180}; }
    QSize minimumSizeHint() const override { return {200, 120}; }

Q_SIGNALS:
    void topKRequested(std::size_t k);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRectF plotRect() const;
    double yOf(double gamma) const;

    std::vector<double> m_sorted;  // the largest gammas, decreasing, floored for the log axis
    double m_logMin = 0.0, m_logMax = 1.0;
    std::size_t m_suggested = 0;
    std::size_t m_current = 0;
};

}  // namespace clusterlens::views
