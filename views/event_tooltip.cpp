#include "event_tooltip.hpp"

#include <QLocale>

#include <algorithm>

#include "analysis_session.hpp"

namespace clusterlens::views {

namespace {

void appendValues(QStringList& lines, const std::vector<EventValue>& values) {
    const QLocale locale;
    const std::size_t shown = std::min(values.size(), kMaxTooltipValues);
    for (std::size_t j = 0; j < shown; ++j)
        lines << QStringLiteral("%1: %2").arg(values[j].name, locale.toString(values[j].value, 'g', 5));
    if (values.size() > shown) lines << QObject::tr("\u2026 %1 more").arg(values.size() - shown);
}

}  // namespace

QString eventTooltipText(std::int64_t index, const std::vector<EventValue>& values, const QString& cluster,
                         const QStringList& populations) {
    QStringList lines;
    lines << QObject::tr("Event %1").arg(index);
    appendValues(lines, values);
    if (!cluster.isEmpty()) lines << QObject::tr("Cluster: %1").arg(cluster);
    if (!populations.isEmpty()) lines << QObject::tr("Populations: %1").arg(populations.join(QStringLiteral(", ")));
    return lines.join(QLatin1Char('\n'));
}

QString groupTooltipText(const EventGroup& group, const std::vector<EventValue>& values) {
    const QLocale locale;
    QStringList lines;
    lines << group.name;
    lines << QObject::tr("Size: %1 events").arg(locale.toString(static_cast<qlonglong>(group.size)));
    if (group.size > 1) lines << QObject::tr("Merge height: %1").arg(locale.toString(group.height, 'g', 6));
    lines << QObject::tr("Leaves %1\u2013%2 of the tree's order")
                 .arg(locale.toString(static_cast<qlonglong>(group.firstPosition)),
                      locale.toString(static_cast<qlonglong>(group.lastPosition)));
    appendValues(lines, values);
    return lines.join(QLatin1Char('\n'));
}

QStringList populationsContaining(const AnalysisSession& analysis, std::int64_t index) {
    QStringList names;
    for (const QString& name : analysis.populationNames()) {
        const auto members = analysis.populationMembers(name);
        if (members && std::binary_search(members->begin(), members->end(), index)) names << name;
    }
    return names;
}

QString colouringClusterOf(const AnalysisSession& analysis, std::int64_t index) {
    const auto labels = analysis.colouringLabels();
    if (!labels || index < 0 || static_cast<std::size_t>(index) >= labels->size()) return {};
    const int label = (*labels)[static_cast<std::size_t>(index)];
    // The scatter's own naming of labels (a population's name, "noise", "cluster k"), so both agree.
    ScatterData named;
    named.labelStyle = analysis.labelingStyle(analysis.colouring());
    return QStringLiteral("%1 (%2)").arg(labelName(named, label), analysis.colouring());
}

QString describeEvent(const AnalysisSession* analysis, std::int64_t index, const std::vector<EventValue>& values) {
    if (!analysis) return eventTooltipText(index, values, {}, {});
    return eventTooltipText(index, values, colouringClusterOf(*analysis, index),
                            populationsContaining(*analysis, index));
}

}  // namespace clusterlens::views
