// The GUI's view state in a session: every field survives JSON; empty, malformed or foreign text and
// unknown keys give the defaults for what is missing, so view states of other versions open.

#include "gui_test_main.hpp"
#include "session/view_state.hpp"

using namespace clusterlens::views;

class ViewStateTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyFieldSurvivesJson();
    void malformedOrForeignTextGivesDefaults();
    void unknownKeysAreIgnoredAndMissingOnesDefault();
};

void ViewStateTest::everyFieldSurvivesJson() {
    ViewState state;
    state.xAxis = QStringLiteral("CD3 ü/\"x\"");
    state.yAxis = QStringLiteral("SSC-A");
    state.embedding = 2;
    state.scatterWindow = std::array<double, 4>{0.125, 0.5, -0.03, 1.0 / 3.0};
    state.activeFeatures = {QStringLiteral("FSC-A"), QStringLiteral("CD4")};
    state.colouring = QStringLiteral("cut of average linkage (k=4)");
    state.dendrogramLinkage = QStringLiteral("average linkage");
    state.dendrogramClusters = 4;
    state.colourMarker = QStringLiteral("CD8");
    state.dendrogramMinSize = 25;
    state.dendrogramHeatmap = QStringLiteral("minmax");
    state.dendrogramThresholdMarks = false;  // both differ from their defaults
    state.dendrogramTreeIvat = true;
    state.dendrogramStrips = {{QStringLiteral("labels"), QStringLiteral("k-means (k=5)")},
                              {QStringLiteral("none"), {}},
                              {QStringLiteral("marker"), QStringLiteral("CD4")}};
    state.vatStrips = {{QStringLiteral("marker"), QStringLiteral("CD3")}};
    state.dpcResult = QStringLiteral("DPC gaussian, dc 2 %");
    state.vatEntry = QStringLiteral("VAT euclidean");
    state.vatClusters = 3;
    state.vatImage = QStringLiteral("ivat");
    state.dockLayout = QByteArray(
        "\x00\x01\xff"
        "binary",
        9);
    QCOMPARE(viewStateFromJson(viewStateToJson(state)), state);
}

void ViewStateTest::malformedOrForeignTextGivesDefaults() {
    for (const char* text : {"", "{", "[1,2]", "null", "\"text\"", "{\"scatter\": 5}"})
        QCOMPARE(viewStateFromJson(text), ViewState{});
}

void ViewStateTest::unknownKeysAreIgnoredAndMissingOnesDefault() {
    const ViewState state = viewStateFromJson(
        R"({"version": 7, "future": {"x": 1}, "colouring": "k-means", "scatter": {"x": "A", "window": [1, 2]}})");
    QCOMPARE(state.colouring, QStringLiteral("k-means"));
    QCOMPARE(state.xAxis, QStringLiteral("A"));
    QVERIFY(!state.scatterWindow.has_value());  // a window needs four numbers
    QCOMPARE(state.embedding, -1);
    QCOMPARE(state.dendrogramClusters, 0);
    QVERIFY(state.dendrogramThresholdMarks);  // on unless a state says otherwise
    QVERIFY(!state.dendrogramTreeIvat);
}

CLUSTERLENS_GUI_TEST_MAIN(ViewStateTest)
#include "view_state_test.moc"
