#include "dendrogram/threshold_marks.hpp"

#include <QLocale>
#include <QObject>
#include <QPainter>
#include <QPolygonF>
#include <QRegularExpression>

#include "clusterlens/hca/threshold_crossings.hpp"

namespace clusterlens::views {

namespace {

constexpr double kMarkSize = 9.0;  // logical pixels (points in a vector figure)

QString minSizeText(const ThresholdMarks& marks) {
    return QObject::tr("T\u00b7N = %1 events (T = %2)")
        .arg(QLocale().toString(static_cast<qulonglong>(marks.minSize)))
        .arg(marks.threshold);
}

}  // namespace

std::optional<double> mhcaThresholdOf(const QString& linkageName, const QString& description) {
    // hcaResultName's spelling, then optionally " on POPULATION" or a copy number " (2)".
    static const QRegularExpression name(QStringLiteral("^MHCA (?:full|centroid) t=([^ ]+)(?: .*)?$"));
    static const QRegularExpression cli(
        QStringLiteral("^clusterlens-cli hca(?: .*)? --linkage '?mahalanobis'?(?: |$)"));
    static const QRegularExpression cliThreshold(QStringLiteral(" --threshold '?([^ ']+)'?(?: |$)"));
    static const QRegularExpression panel(QStringLiteral("^MHCA [^;]*; threshold ([^;]+)(?:;|$)"));
    QString text;
    if (const auto match = name.match(linkageName); match.hasMatch())
        text = match.captured(1);
    else if (const auto command = panel.match(description); command.hasMatch())
        text = command.captured(1);
    else if (cli.match(description).hasMatch())
        text = cliThreshold.match(description).hasMatch() ? cliThreshold.match(description).captured(1)
                                                          : QStringLiteral("0.5");  // hca's default
    bool ok = false;
    const double threshold = text.toDouble(&ok);
    if (!ok || !(threshold > 0.0 && threshold <= 1.0)) return std::nullopt;
    return threshold;
}

std::shared_ptr<const ThresholdMarks> buildThresholdMarks(const Linkage& linkage, double threshold) {
    const ThresholdCrossings found = thresholdCrossings(linkage, mhcaThresholdSize(threshold, linkage.leafCount));
    auto marks = std::make_shared<ThresholdMarks>();
    marks->threshold = threshold;
    marks->minSize = found.minSize;
    for (const ThresholdCrossing& crossing : found.crossings) marks->crossings.push_back(crossing.height);
    if (found.allReached) marks->allReached = found.allReached->height;
    return marks;
}

QString thresholdCrossingText(const ThresholdMarks& marks) {
    return QObject::tr("cluster reaches %1: full Mahalanobis from here").arg(minSizeText(marks));
}

QString thresholdAllReachedText(const ThresholdMarks& marks) {
    return QObject::tr("every cluster has %1 or more from here").arg(minSizeText(marks));
}

QString thresholdLegendText(const ThresholdMarks& marks) {
    return QObject::tr("\u25b6 cluster reaches %1: full Mahalanobis from here; \u25b7\u2508 every cluster from here")
        .arg(minSizeText(marks));
}

QColor thresholdMarkColor() {
    // Teal: apart from the cluster palette's first colours and the inversions' magenta.
    return {0x00, 0x86, 0x8a};
}

std::vector<ThresholdMarkPosition> thresholdMarkPositions(const ThresholdMarks& marks, const QRectF& plot,
                                                          const DendrogramView& view, const HeightScale& scale) {
    std::vector<ThresholdMarkPosition> positions;
    const auto add = [&](double height, bool allReached, const QString& text) {
        const QPointF tip(plot.left() + kMarkSize, view.toPixel(view.x0(), scale.toAxis(height), plot).y());
        if (tip.y() >= plot.top() - 0.5 && tip.y() <= plot.bottom() + 0.5) positions.push_back({tip, allReached, text});
    };
    const QString crossing = thresholdCrossingText(marks);
    for (const double height : marks.crossings) add(height, false, crossing);
    if (marks.allReached) add(*marks.allReached, true, thresholdAllReachedText(marks));
    return positions;
}

void paintThresholdMarks(QPainter& painter, const ThresholdMarks& marks, const QRectF& plot, const DendrogramView& view,
                         const HeightScale& scale, double lineWidth) {
    const std::vector<ThresholdMarkPosition> positions = thresholdMarkPositions(marks, plot, view, scale);
    const QColor color = thresholdMarkColor();
    painter.save();
    painter.setClipRect(plot.adjusted(-1, -kMarkSize, 1, kMarkSize));
    painter.setRenderHint(QPainter::Antialiasing, true);
    // The all-reached mark (hollow, with its line) first: a crossing at the same height stays filled.
    for (const bool allReached : {true, false})
        for (const ThresholdMarkPosition& mark : positions) {
            if (mark.allReached != allReached) continue;
            if (allReached) {
                painter.setPen(QPen(color, lineWidth, Qt::DotLine));
                painter.drawLine(mark.tip, QPointF(plot.right(), mark.tip.y()));
            }
            painter.setPen(QPen(color.darker(130), lineWidth));
            painter.setBrush(allReached ? QColor(Qt::white) : color);
            const QPolygonF triangle({mark.tip, mark.tip + QPointF(-kMarkSize, -kMarkSize / 2),
                                      mark.tip + QPointF(-kMarkSize, kMarkSize / 2)});
            painter.drawPolygon(triangle);
        }
    painter.restore();
}

}  // namespace clusterlens::views
