#pragma once
// One marker's (feature's) expression as a continuous colour: the robust range of its values (the
// 1st to 99th percentile, so a few extreme events do not flatten the rest) mapped onto the
// palette's continuous colormap. The data scatter, the colour strips of the dendrogram and VAT
// views and `clusterlens-cli plot scatter --colour-by marker:NAME` all colour through here.

#include <QColor>
#include <QString>

#include <cstddef>

#include "clusterlens/dataset.hpp"

namespace clusterlens::views {

struct MarkerScale {
    std::size_t column = 0;
    double low = 0.0;   ///< expression at the colour bar's low end (1st percentile)
    double high = 1.0;  ///< expression at the high end (99th percentile); > low
    QString title;      ///< the marker with its transform, "CD3 (arcsinh/5)"

    /// Position of `value` on the bar in [0, 1] (clamped); non-finite values give 0.
    double normalised(double value) const;
    QColor colour(double value) const;
};

/// The robust range of feature `column` over all events of `dataset`: nearest-rank 1st and 99th
/// percentiles of its finite values, widened when they coincide. O(N) time (selection, not a sort),
/// O(N) temporary memory. Throws InvalidInput when `column` is not a feature.
MarkerScale markerScale(const Dataset& dataset, std::size_t column);

/// The feature named `name` (short name, or the long name such as FCS $PnS); -1 when none is.
std::ptrdiff_t markerColumn(const Dataset& dataset, const QString& name);

}  // namespace clusterlens::views
