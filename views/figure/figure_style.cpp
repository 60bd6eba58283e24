#include "figure/figure_style.hpp"

namespace clusterlens::views {

namespace {

constexpr LegendPosition kPositions[] = {LegendPosition::Auto, LegendPosition::None,   LegendPosition::Right,
                                         LegendPosition::Top,  LegendPosition::Bottom, LegendPosition::Left};

}  // namespace

QString legendPositionName(LegendPosition position) {
    switch (position) {
        case LegendPosition::Auto:
            return QStringLiteral("auto");
        case LegendPosition::None:
            return QStringLiteral("none");
        case LegendPosition::Right:
            return QStringLiteral("right");
        case LegendPosition::Top:
            return QStringLiteral("top");
        case LegendPosition::Bottom:
            return QStringLiteral("bottom");
        case LegendPosition::Left:
            return QStringLiteral("left");
    }
    return {};
}

std::optional<LegendPosition> legendPositionFromName(const QString& name) {
    for (LegendPosition position : kPositions)
        if (name.compare(legendPositionName(position), Qt::CaseInsensitive) == 0) return position;
    return std::nullopt;
}

QStringList legendPositionNames() {
    QStringList names;
    for (LegendPosition position : kPositions) names << legendPositionName(position);
    return names;
}

}  // namespace clusterlens::views
