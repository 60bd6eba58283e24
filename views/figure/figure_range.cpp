#include "figure/figure_range.hpp"

#include <QLocale>

namespace clusterlens::views {

QString rangeText(double low, double high) {
    return QString::number(low, 'g', QLocale::FloatingPointShortest) + QLatin1Char(':') +
           QString::number(high, 'g', QLocale::FloatingPointShortest);
}

std::pair<double, double> readRangeText(const QString& text) {
    // The colon after the first character: LOW may start with a minus sign.
    const qsizetype colon = text.indexOf(QLatin1Char(':'), 1);
    return {text.left(colon).toDouble(), text.mid(colon + 1).toDouble()};
}

}  // namespace clusterlens::views
