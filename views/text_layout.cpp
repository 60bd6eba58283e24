#include "text_layout.hpp"

#include <algorithm>

namespace clusterlens::views {

HeaderTexts fitHeaderTexts(const QString& left, const QStringList& rightVariants, double width,
                           const QFontMetricsF& metrics, double gap) {
    const double leftWidth = metrics.horizontalAdvance(left);
    for (const QString& right : rightVariants) {
        const double rightWidth = metrics.horizontalAdvance(right);
        if (leftWidth + (right.isEmpty() ? 0.0 : rightWidth + gap) <= width) return {left, right};
    }
    QString right = rightVariants.isEmpty() ? QString() : rightVariants.back();
    right = metrics.elidedText(right, Qt::ElideRight, std::max(0.0, width));
    const double room = width - (right.isEmpty() ? 0.0 : metrics.horizontalAdvance(right) + gap);
    return {metrics.elidedText(left, Qt::ElideRight, std::max(0.0, room)), right};
}

std::vector<QRectF> placeLabels(const std::vector<std::vector<QRectF>>& candidates, std::vector<QRectF> taken,
                                const QRectF& bounds) {
    std::vector<QRectF> placed(candidates.size());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        for (const QRectF& box : candidates[i]) {
            if (!bounds.contains(box)) continue;
            if (std::any_of(taken.begin(), taken.end(), [&box](const QRectF& t) { return t.intersects(box); }))
                continue;
            placed[i] = box;
            taken.push_back(box);
            break;
        }
    }
    return placed;
}

}  // namespace clusterlens::views
