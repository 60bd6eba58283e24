// Cluster shapes on the data scatter (issue "evidence for every peak and every cut"): the ellipse of
// a Gaussian cluster is its sample covariance's 95 % contour in data units, through the scatter's
// normalisation; the widget draws it in the cluster's colour only while asked, and the scatter figure
// (what `plot scatter --cluster-shapes` writes) carries it.

#include <QImage>
#include <QPainter>

#include <cmath>
#include <random>

#include "gui_test_main.hpp"
#include "palette.hpp"
#include "scatter/cluster_shapes.hpp"
#include "scatter/scatter_data.hpp"
#include "scatter/scatter_figure.hpp"
#include "scatter/scatter_widget.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

/// Two correlated Gaussian clusters in (x, y): label 0 around (10, 5) with covariance
/// [[4, 1.5], [1.5, 1]], label 1 around (30, 20) round with sd 2; 600 points each, seeded.
std::shared_ptr<const Dataset> twoClusters() {
    std::mt19937 random(11);
    std::normal_distribution<double> normal(0.0, 1.0);
    auto d = std::make_shared<Dataset>();
    d->n = 1200;
    d->d = 2;
    d->features = {"x", "y"};
    for (std::size_t i = 0; i < d->n; ++i) {
        const double a = normal(random), b = normal(random);
        const bool first = i < 600;
        // Cholesky factor of [[4, 1.5], [1.5, 1]]: [[2, 0], [0.75, sqrt(0.4375)]].
        const double x = first ? 10.0 + 2.0 * a : 30.0 + 2.0 * a;
        const double y = first ? 5.0 + 0.75 * a + std::sqrt(0.4375) * b : 20.0 + 2.0 * b;
        d->values.push_back(static_cast<float>(x));
        d->values.push_back(static_cast<float>(y));
        d->labels.push_back(first ? 0 : 1);
    }
    return d;
}

struct Moments {
    double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0;
};

/// Sample mean and covariance (n − 1) of label `label`, straight from the dataset's values.
Moments momentsOf(const Dataset& d, int label) {
    Moments m;
    double n = 0;
    for (std::size_t i = 0; i < d.n; ++i)
        if (d.labels[i] == label) m.mx += d.values[2 * i], m.my += d.values[2 * i + 1], ++n;
    m.mx /= n, m.my /= n;
    for (std::size_t i = 0; i < d.n; ++i) {
        if (d.labels[i] != label) continue;
        const double dx = d.values[2 * i] - m.mx, dy = d.values[2 * i + 1] - m.my;
        m.sxx += dx * dx, m.sxy += dx * dy, m.syy += dy * dy;
    }
    m.sxx /= n - 1, m.sxy /= n - 1, m.syy /= n - 1;
    return m;
}

/// (p − mean)ᵀ S⁻¹ (p − mean) for a point in data units.
double mahalanobis2(const Moments& m, double x, double y) {
    const double dx = x - m.mx, dy = y - m.my, det = m.sxx * m.syy - m.sxy * m.sxy;
    return (m.syy * dx * dx - 2 * m.sxy * dx * dy + m.sxx * dy * dy) / det;
}

std::shared_ptr<const ScatterData> prepared(ColourMode mode) {
    return std::make_shared<const ScatterData>(prepareScatter({twoClusters(), {}, mode, nullptr}));
}

}  // namespace

class ClusterShapesTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theEllipseIsTheSampleCovariancesContourInDataUnits();
    void theWidgetDrawsItOnlyWhenAskedAndOnlyForLabels();
    void theFigureCarriesTheEllipses();
};

void ClusterShapesTest::theEllipseIsTheSampleCovariancesContourInDataUnits() {
    const auto data = prepared(ColourMode::Labels);
    QCOMPARE(data->shapes.size(), std::size_t{2});
    const auto dataset = twoClusters();
    for (const ClusterShape& shape : data->shapes) {
        const Moments m = momentsOf(*dataset, shape.label);
        QCOMPARE(shape.count, std::size_t{600});
        // The outline, mapped to data units, lies on the 95 % contour of the test's own covariance.
        const QPolygonF outline =
            shapeOutline(shape, [&](double u, double v) { return QPointF(data->toDataX(u), data->toDataY(v)); });
        QCOMPARE(outline.size(), 97);
        for (const QPointF& p : outline) {
            const double r2 = mahalanobis2(m, p.x(), p.y());
            QVERIFY2(std::abs(r2 - kShapeRadius2) < 1e-3 * kShapeRadius2,
                     qPrintable(QStringLiteral("label %1: r2 %2").arg(shape.label).arg(r2)));
        }
        QVERIFY(std::abs(data->toDataX(shape.meanU) - m.mx) < 1e-4 * std::abs(m.mx) + 1e-6);
    }
    // The first cluster was drawn with covariance [[4, 1.5], [1.5, 1]]: its sample estimate is close.
    const Moments first = momentsOf(*dataset, 0);
    QVERIFY(std::abs(first.sxx - 4.0) < 0.5 && std::abs(first.sxy - 1.5) < 0.25 && std::abs(first.syy - 1.0) < 0.15);
    // Density colouring has no clusters to shape.
    QVERIFY(prepared(ColourMode::Density)->shapes.empty());
}

void ClusterShapesTest::theWidgetDrawsItOnlyWhenAskedAndOnlyForLabels() {
    ScatterWidget w;
    w.resize(640, 520);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const auto data = prepared(ColourMode::Labels);
    w.setData(data);
    QTRY_VERIFY_WITH_TIMEOUT(w.isSettled(), 20'000);
    const ClusterShape& round = data->shapes[1];
    // Around the rightmost point of the round cluster's ellipse.
    const auto map = [&](double u, double v) { return w.mapFromData(data->toDataX(u), data->toDataY(v)); };
    const QPointF rim = shapeOutline(round, map).front();
    // Pixels of the outline's colour (the cluster's colour, darkened) around that point.
    const QColor outlineColour = labelColour(*data, round.label).darker(125);
    const auto outlineNear = [&](const QImage& image) {
        int found = 0;
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx) {
                const QColor p = image.pixelColor(rim.toPoint() + QPoint(dx, dy));
                found += std::abs(p.red() - outlineColour.red()) < 24 &&
                                 std::abs(p.green() - outlineColour.green()) < 24 &&
                                 std::abs(p.blue() - outlineColour.blue()) < 24
                             ? 1
                             : 0;
            }
        return found;
    };
    const int before = outlineNear(w.grabFramebuffer());
    w.setShapesVisible(true);
    QVERIFY(w.shapesVisible());
    const int after = outlineNear(w.grabFramebuffer());
    QVERIFY2(before == 0 && after >= 4,
             qPrintable(QStringLiteral("%1 outline pixels before, %2 after").arg(before).arg(after)));
    // Coloured by density there are no clusters: the same picture with and without shapes.
    w.setData(prepared(ColourMode::Density));
    QTRY_VERIFY_WITH_TIMEOUT(w.isSettled(), 20'000);
    const QImage withShapes = w.grabFramebuffer();
    w.setShapesVisible(false);
    QCOMPARE(w.grabFramebuffer(), withShapes);
}

void ClusterShapesTest::theFigureCarriesTheEllipses() {
    const auto data = prepared(ColourMode::Labels);
    const auto render = [&](bool shapes) {
        ScatterFigureOptions options;
        options.clusterShapes = shapes;
        const ScatterFigure figure(data, options);
        QImage image(720, 600, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        figure.paint(painter, image.rect());
        return image;
    };
    const QImage plain = render(false), shaped = render(true);
    QVERIFY(plain != shaped);
    int changed = 0;
    for (int y = 0; y < plain.height(); ++y)
        for (int x = 0; x < plain.width(); ++x) changed += plain.pixel(x, y) != shaped.pixel(x, y) ? 1 : 0;
    QVERIFY2(changed > 500, qPrintable(QString::number(changed)));  // two ellipses and the subtitle's note
}

CLUSTERLENS_GUI_TEST_MAIN(ClusterShapesTest)
#include "cluster_shapes_test.moc"
