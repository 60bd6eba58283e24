#pragma once
// The publication figure of a decision graph: rho (x) against delta (y), linear or log axes, the
// points in their cluster colours (grey before peaks are chosen), the peaks circled and numbered,
// and the threshold lines when they chose the peaks. Up to vectorPointLimit points are drawn one
// by one (vector output); more are drawn as an image inside the vector frame, so a figure of 10^6
// points stays small. The GUI's export and `clusterlens-cli plot decision` paint this figure.

#include <QPointF>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "analysis_session.hpp"
#include "clusterlens/cluster/density_peaks.hpp"
#include "dpc/decision_scale.hpp"
#include "figure/figure.hpp"

namespace clusterlens::views {

struct DecisionFigureOptions {
    QString title;                              ///< first line; empty: "Decision graph"
    QString subtitle;                           ///< second line (dc, kernel); N and K are added
    std::shared_ptr<const LabelVector> labels;  ///< colours; null: grey points
    std::vector<std::int64_t> peaks;            ///< in label order (peaks[c] founded cluster c)
    std::optional<QPointF> thresholds;          ///< (rhoMin, deltaMin) lines
    bool logRho = false;
    bool logDelta = false;
    std::vector<QString> clusterNames;  ///< optional names by label; else "cluster c"
};

class DecisionFigure : public Figure {
public:
    static constexpr std::size_t vectorPointLimit = 50'000;

    DecisionFigure(std::shared_ptr<const DensityPeaksResult> result, DecisionFigureOptions options);

    void paint(QPainter& painter, const QRectF& area) const override;
    QSize defaultSize() const override { return {640, 560}; }
    QString ownTitle() const override;

    QRectF plotRect(const QRectF& area) const;
    QPointF mapToPlot(double rho, double delta, const QRectF& plot) const;
    bool drawsImage() const { return m_result->rho.size() > vectorPointLimit; }

private:
    XYLayout layout(const QRectF& area) const;
    QString subtitle() const;
    AxisSpec xAxis() const;
    AxisSpec yAxis() const;
    FigureLegend legend() const;
    void paintPoints(QPainter& painter, const QRectF& plot) const;
    void paintImage(QPainter& painter, const QRectF& plot) const;
    void paintMarks(QPainter& painter, const QRectF& plot) const;
    QColor colourOf(std::size_t i) const;

    std::shared_ptr<const DensityPeaksResult> m_result;
    DecisionFigureOptions m_options;
    DecisionScale m_scale;
    double m_x0 = 0.0, m_x1 = 1.0, m_y0 = 0.0, m_y1 = 1.0;  // plot-coordinate range with a margin
};

}  // namespace clusterlens::views
