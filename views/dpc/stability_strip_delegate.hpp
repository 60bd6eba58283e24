#pragma once
// Draws the peak table's "Stable across dc" cells as a stability strip: one small square per cutoff of
// the dc sweep, smallest dc on the left, filled with the cluster's colour where the peak was kept among
// the top K by gamma and only outlined where it was not, followed by the share as text.

#include <QStyledItemDelegate>

namespace clusterlens::views {

class StabilityStripDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    /// Side of one step's square, and the gap between squares, in device-independent pixels.
    static constexpr int kSquare = 9;
    static constexpr int kGap = 2;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

}  // namespace clusterlens::views
