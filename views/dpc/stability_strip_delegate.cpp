#include "dpc/stability_strip_delegate.hpp"

#include <QApplication>
#include <QColor>
#include <QPainter>
#include <QVariantList>

#include "dpc/peak_table_model.hpp"

namespace clusterlens::views {

namespace {

constexpr int kStripMargin = 4;

int stripWidth(int steps) {
    return steps > 0 ? steps * StabilityStripDelegate::kSquare + (steps - 1) * StabilityStripDelegate::kGap : 0;
}

}  // namespace

void StabilityStripDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                   const QModelIndex& index) const {
    const QVariantList kept = index.data(PeakTableModel::PresenceRole).toList();
    if (kept.isEmpty()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem base = option;
    initStyleOption(&base, index);
    base.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &base, painter, widget);

    const QColor colour = index.siblingAtColumn(PeakTableModel::ClusterColumn).data(Qt::DecorationRole).value<QColor>();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    const QRect cell = option.rect.adjusted(kStripMargin, 0, -kStripMargin, 0);
    const int top = cell.center().y() - kSquare / 2;
    for (int s = 0; s < kept.size(); ++s) {
        const QRect square(cell.left() + s * (kSquare + kGap), top, kSquare - 1, kSquare - 1);
        painter->setPen(colour.darker(130));
        painter->setBrush(kept[s].toBool() ? QBrush(colour) : QBrush(Qt::NoBrush));
        painter->drawRect(square);
    }
    painter->restore();
    const QRect text = cell.adjusted(stripWidth(static_cast<int>(kept.size())) + kStripMargin, 0, 0, 0);
    painter->setPen(
        option.palette.color(option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(text, Qt::AlignRight | Qt::AlignVCenter, index.data(Qt::DisplayRole).toString());
}

QSize StabilityStripDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    const QVariantList kept = index.data(PeakTableModel::PresenceRole).toList();
    if (!kept.isEmpty()) size.setWidth(size.width() + stripWidth(static_cast<int>(kept.size())) + 3 * kStripMargin);
    return size;
}

}  // namespace clusterlens::views
