#pragma once
// Widget showing the contingency heatmap of a flat comparison (contingency_figure.hpp). A click
// on a cell outlines it and reports it, so the owner can select the points the two clusters share.

#include <QWidget>

#include <memory>
#include <optional>

#include "compare/contingency_figure.hpp"

namespace clusterlens::views {

class ContingencyHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit ContingencyHeatmap(QWidget* parent = nullptr);

    /// Shows `comparison` (null: a hint to choose two labelings).
    void setComparison(std::shared_ptr<const FlatComparison> comparison);
    const std::shared_ptr<const FlatComparison>& comparison() const { return m_comparison; }

    /// The figure as painted, highlight included; empty without a comparison.
    const std::optional<ContingencyFigure>& figure() const { return m_figure; }
    /// Widget rectangle of a cell in display order (empty without a comparison).
    QRectF cellRect(int row, int col) const;
    HeatmapCell highlightedCell() const { return m_figure ? m_figure->highlight() : HeatmapCell{}; }
    /// Outlines `cell` (invalid: none) without reporting it.
    void setHighlightedCell(HeatmapCell cell);

    QSize sizeHint() const override { return {560, 460}; }
    QSize minimumSizeHint() const override { return {260, 220}; }

Q_SIGNALS:
    /// The user clicked the cell at display position (row, col).
    void cellClicked(clusterlens::views::HeatmapCell cell);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    std::shared_ptr<const FlatComparison> m_comparison;
    std::optional<ContingencyFigure> m_figure;
};

}  // namespace clusterlens::views

Q_DECLARE_METATYPE(clusterlens::views::HeatmapCell)
