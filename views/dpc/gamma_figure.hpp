#pragma once
// The γ-rank plot as a publication figure: γ = ρ·δ in decreasing order against its rank, on a log
// axis, the chosen peaks in their cluster colours, the suggested count (the largest drop, "knee")
// and the chosen count as vertical lines named in the legend, so no label sits on the data. The
// DPC panel's export and `clusterlens-cli plot gamma` paint it.

#include <memory>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "figure/figure.hpp"

namespace clusterlens::views {

/// The largest gammas in decreasing order: enough ranks to show the knee at `suggested` with room
/// on both sides (at least 30, three times the suggestion), values floored at half the smallest
/// positive one so a log axis can show them. O(n log m).
std::vector<double> rankedGammas(const DensityPeaksResult& result, std::size_t suggested);

struct GammaFigureOptions {
    QString title;           ///< empty: "γ = ρ·δ by rank"
    std::size_t chosen = 0;  ///< the top `chosen` gammas are the peaks (0: none)
};

class GammaFigure : public Figure {
public:
    GammaFigure(std::shared_ptr<const DensityPeaksResult> result, GammaFigureOptions options);

    void paint(QPainter& painter, const QRectF& area) const override;
    QSize defaultSize() const override { return {640, 500}; }
    QString ownTitle() const override;
    /// Above the plot: the marks' names are long and the plot needs the width for the ranks.
    LegendPosition preferredLegend() const override { return LegendPosition::Top; }

    std::size_t suggested() const { return m_suggested; }
    std::size_t shownRanks() const { return m_sorted.size(); }

private:
    AxisSpec xAxis() const;
    AxisSpec yAxis() const;
    QString subtitle() const;
    FigureLegend legend() const;

    std::shared_ptr<const DensityPeaksResult> m_result;
    GammaFigureOptions m_options;
    std::vector<double> m_sorted;
    std::vector<std::int32_t> m_peakLabel;  // cluster of the r-th largest gamma, r < chosen
    std::size_t m_suggested = 0;
};

}  // namespace clusterlens::views
