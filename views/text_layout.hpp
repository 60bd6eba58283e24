#pragma once
// Texts painted over a view that must not overlap one another at any widget width: a header line
// with a left and a right part (the dendrogram's "34 selected" and "8 inversions"), and labels next
// to marks (peak numbers on the decision graph, "knee" and "chosen" on the gamma plot).

#include <QFontMetricsF>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <vector>

namespace clusterlens::views {

struct HeaderTexts {
    QString left;
    QString right;
};

/// Fits a left-aligned and a right-aligned text into one line `width` pixels wide with at least
/// `gap` pixels between them. The right text takes the first of `rightVariants` (longest first)
/// that leaves the whole left text room; when none does, the last variant is used and the left text
/// is elided to the room left (then the right one too, if it alone is wider than the line).
HeaderTexts fitHeaderTexts(const QString& left, const QStringList& rightVariants, double width,
                           const QFontMetricsF& metrics, double gap = 12.0);

/// Places labels greedily, in the order given: label i takes the first of candidates[i] that lies
/// inside `bounds` and overlaps no rectangle of `taken` (marks to keep clear, labels placed before);
/// a label without such a place is left out (an empty rectangle). O(L^2 C).
std::vector<QRectF> placeLabels(const std::vector<std::vector<QRectF>>& candidates, std::vector<QRectF> taken,
                                const QRectF& bounds);

}  // namespace clusterlens::views
