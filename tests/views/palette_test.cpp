// The categorical palettes: the first colours stay Tableau's and Okabe–Ito's, and 40 clusters get 40
// colours that differ visibly (no cycling after a dozen).

#include <QColor>

#include <cmath>

#include "gui_test_main.hpp"
#include "palette.hpp"

using namespace clusterlens::views;

namespace {

// Plain RGB distance: two colours closer than this are hard to tell apart as points on a plot
// (Tableau's light tones lie 25 to 60 from their neighbours).
constexpr double kMinDistance = 40.0;

double rgbDistance(const QColor& a, const QColor& b) {
    return std::hypot(a.red() - b.red(), a.green() - b.green(), a.blue() - b.blue());
}

// The smallest distance from a colour added after the `named` colours of a palette to any colour
// before it, among the first `count` labels (the named colours are the palette authors' choice).
double closestAdded(int named, int count, PaletteKind kind) {
    double closest = 1e9;
    for (int j = named; j < count; ++j)
        for (int i = 0; i < j; ++i)
            closest = std::min(closest,
                               rgbDistance(Palette::labelColor(i, kind, count), Palette::labelColor(j, kind, count)));
    return closest;
}

}  // namespace

class PaletteTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void firstColoursAreTableauAndOkabeIto() {
        QCOMPARE(Palette::labelColor(0), QColor(0x1f, 0x77, 0xb4));
        QCOMPARE(Palette::labelColor(1), QColor(0xff, 0x7f, 0x0e));
        QCOMPARE(Palette::labelColor(0, PaletteKind::OkabeIto, 40), QColor(0xe6, 0x9f, 0x00));
        QCOMPARE(Palette::labelColor(6, PaletteKind::OkabeIto, 40), QColor(0xcc, 0x79, 0xa7));
    }
    void fortyClustersGetFortyDistinctColours() {
        QVERIFY(Palette::categoricalColors().size() >= 40);
        // Tableau's 18 and Okabe–Ito's 7, then colours that keep clear of every colour before them.
        const double tableau = closestAdded(18, 40, PaletteKind::Tableau);
        QVERIFY2(tableau >= kMinDistance, qPrintable(QString::number(tableau)));
        const double okabeIto = closestAdded(7, 40, PaletteKind::OkabeIto);
        QVERIFY2(okabeIto >= kMinDistance, qPrintable(QString::number(okabeIto)));
        // No colour repeats among the first 64 labels.
        QVERIFY(closestAdded(1, 64, PaletteKind::Tableau) > 0.0);
    }
    void generatedColoursAreNeitherGreyNorNoise() {
        for (const QColor& c : Palette::categoricalColors()) {
            QVERIFY(c != Palette::noiseColor());
            QVERIFY2(std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()}) > 30,
                     qPrintable(c.name()));
        }
    }
    void theSameLabelHasTheSameColourEverywhere() {
        for (int label = 0; label < 64; ++label)
            QCOMPARE(Palette::labelColor(label), Palette::labelColor(label, PaletteKind::Tableau, 64));
    }
};

CLUSTERLENS_GUI_TEST_MAIN(PaletteTest)
#include "palette_test.moc"
