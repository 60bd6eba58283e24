// The VAT page on two well separated groups: the VAT job shows its image, the k largest cuts enter the
// analysis session as a labeling that matches the groups and colours the views, a diagonal drag selects
// the points of one group in the session, a selection made elsewhere is marked, exports write a PNG of
// the requested size, a PDF and ORDER.csv, and bad input gives a clear error while the page stays usable.

#include <QFile>
#include <QImage>
#include <QCheckBox>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>

#include "analysis_session.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "vat/vat_panel.hpp"
#include "vat/vat_widget.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kJobTimeoutMs = 60'000;
constexpr std::size_t kPerGroup = 50;
constexpr std::uint64_t kSeed = 20251122;

/// Two groups (sd 0.5) 15 units apart in 3-D; point i belongs to group i % 2.
std::shared_ptr<const Dataset> twoGroups() {
    std::printf("two groups, seed %llu\n", static_cast<unsigned long long>(kSeed));
    std::mt19937_64 random(kSeed);
    std::normal_distribution<double> normal(0.0, 0.5);
    auto data = std::make_shared<Dataset>();
    data->n = 2 * kPerGroup;
    data->d = 3;
    data->features = {"a", "b", "c"};
    for (std::size_t i = 0; i < data->n; ++i)
        for (std::size_t j = 0; j < data->d; ++j)
            data->values.push_back(
                static_cast<float>((j == 0 ? 15.0 * static_cast<double>(i % 2) : 0.0) + normal(random)));
    return data;
}

void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &event);
}

}  // namespace

class VatPanelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void computeJobShowsTheImage();
    void cutLabelsEnterTheSession();
    void diagonalDragSelectsInTheSession();
    void selectionFromOtherViewsIsMarked();
    void exportsWriteValidFiles();
    void badInputGivesAClearError();
    void aSampledRunSaysSoAndLabelsOnlyTheSample();

private:
    std::unique_ptr<JobRunner> m_runner;
    std::unique_ptr<AnalysisSession> m_session;
    std::unique_ptr<VatPanel> m_panel;
    std::shared_ptr<const Dataset> m_data;
};

void VatPanelTest::initTestCase() {
    m_runner = std::make_unique<JobRunner>();
    m_session = std::make_unique<AnalysisSession>();
    m_panel = std::make_unique<VatPanel>(m_runner.get(), m_session.get());
    m_panel->resize(760, 820);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    m_data = twoGroups();
}

void VatPanelTest::cleanupTestCase() {
    m_panel.reset();
    m_runner.reset();
}

void VatPanelTest::computeJobShowsTheImage() {
    m_panel->setDataSource(m_data, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
    m_panel->setBackend(Backend::Cpu);
    m_panel->setMetric(Metric::Manhattan);
    QSignalSpy shown(m_panel.get(), &VatPanel::resultShown);
    QSignalSpy failed(m_panel.get(), &VatPanel::failed);
    m_panel->run();
    QVERIFY(m_panel->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0 || failed.count() > 0, kJobTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    const auto run = m_panel->lastRun();
    QCOMPARE(run->n(), m_data->n);
    QCOMPARE(run->vat->metric, Metric::Manhattan);
    QVERIFY(run->backend.startsWith(QStringLiteral("cpu")));
    QCOMPARE(m_panel->widget()->run(), run);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->widget()->isSettled(), kJobTimeoutMs);
}

void VatPanelTest::cutLabelsEnterTheSession() {
    QSignalSpy applied(m_panel.get(), &VatPanel::cutApplied);
    m_panel->setClusterCount(2);
    QCOMPARE(applied.count(), 1);
    const QString name = QStringLiteral("VAT cuts (k=2)");
    QCOMPARE(m_panel->cutLabeling(), name);
    QCOMPARE(m_session->colouring(), name);
    const auto labels = m_session->labeling(name);
    QVERIFY(labels);
    QCOMPARE(labels->size(), m_data->n);
    // One label per group, and the two groups apart.
    for (std::size_t i = 0; i < m_data->n; ++i) QCOMPARE((*labels)[i], (*labels)[i % 2]);
    QVERIFY((*labels)[0] != (*labels)[1]);
    QCOMPARE(m_panel->widget()->cutBoundaries(), (std::vector<std::size_t>{kPerGroup}));
    m_panel->setClusterCount(1);
    QVERIFY(m_panel->widget()->cutBoundaries().empty());
    m_panel->setClusterCount(2);
}

void VatPanelTest::diagonalDragSelectsInTheSession() {
    VatWidget* widget = m_panel->widget();
    QSignalSpy changed(m_session.get(), &AnalysisSession::selectionChanged);
    const QPointF from = widget->widgetPoint(50.5, 50.5), to = widget->widgetPoint(99.5, 99.5);
    sendMouse(widget, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    QMouseEvent move(QEvent::MouseMove, to, widget->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
    QApplication::sendEvent(widget, &move);
    sendMouse(widget, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
    // The press carried no Shift: that drag panned (nothing to pan at the whole view), no selection.
    QCOMPARE(changed.count(), 0);
    QMouseEvent press(QEvent::MouseButtonPress, from, widget->mapToGlobal(from), Qt::LeftButton, Qt::LeftButton,
                      Qt::ShiftModifier);
    QApplication::sendEvent(widget, &press);
    QApplication::sendEvent(widget, &move);
    sendMouse(widget, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
    QCOMPARE(changed.count(), 1);
    const auto selection = m_session->selection();
    QCOMPARE(selection->size(), kPerGroup);
    QVERIFY(std::is_sorted(selection->begin(), selection->end()));
    const auto group = selection->front() % 2;
    QVERIFY(std::all_of(selection->begin(), selection->end(), [group](std::int64_t i) { return i % 2 == group; }));

    // A click inside the other cut block selects that block.
    QTest::mouseClick(widget, Qt::LeftButton, {}, widget->widgetPoint(20.5, 25.5).toPoint());
    QCOMPARE(changed.count(), 2);
    QCOMPARE(m_session->selection()->size(), kPerGroup);
    QVERIFY(m_session->selection()->front() % 2 != group);
}

void VatPanelTest::selectionFromOtherViewsIsMarked() {
    m_session->setSelection(std::make_shared<const IndexVector>(IndexVector{1, 3, 5, 98}), nullptr);
    QCOMPARE(m_panel->widget()->markedCount(), std::size_t{4});
    QVERIFY(!m_panel->widget()->selectedBlock());
    m_session->setSelection(nullptr, nullptr);
    QCOMPARE(m_panel->widget()->markedCount(), std::size_t{0});
}

void VatPanelTest::exportsWriteValidFiles() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QSignalSpy exported(m_panel.get(), &VatPanel::exported);
    const QString png = dir.filePath(QStringLiteral("vat.png"));
    const QString pdf = dir.filePath(QStringLiteral("vat.pdf"));
    const QString order = dir.filePath(QStringLiteral("ORDER.csv"));
    FigureExportOptions options;
    options.size = QSize(900, 820);
    m_panel->exportFigureTo(png, options, false);
    QTRY_VERIFY_WITH_TIMEOUT(exported.count() == 1, kJobTimeoutMs);
    m_panel->exportFigureTo(pdf, {}, true);
    QTRY_VERIFY_WITH_TIMEOUT(exported.count() == 2, kJobTimeoutMs);
    m_panel->exportOrderTo(order);
    QTRY_VERIFY_WITH_TIMEOUT(exported.count() == 3, kJobTimeoutMs);

    const QImage image(png);
    QCOMPARE(image.size(), QSize(900, 820));
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    QVERIFY(pdfFile.read(5) == "%PDF-");

    QFile csv(order);
    QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
    QTextStream in(&csv);
    QCOMPARE(in.readLine(), QStringLiteral("position,index,cut"));
    const VatResult& vat = *m_panel->lastRun()->vat;
    for (std::size_t k = 0; k < vat.n; ++k) {
        const QStringList fields = in.readLine().split(QLatin1Char(','));
        QCOMPARE(fields.size(), 3);
        QCOMPARE(fields[0].toULongLong(), k);
        QCOMPARE(fields[1].toLongLong(), vat.order[k]);
        QCOMPARE(fields[2].toDouble(), vat.cut[k]);
    }
    QVERIFY(in.readLine().isNull());
}

void VatPanelTest::badInputGivesAClearError() {
    auto single = std::make_shared<Dataset>();
    single->n = 1;
    single->d = 1;
    single->features = {"a"};
    single->values = {1.0f};
    QSignalSpy failed(m_panel.get(), &VatPanel::failed);
    m_panel->setDataSource(single, {QStringLiteral("a")});
    QVERIFY(!m_panel->widget()->run());
    m_panel->run();
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() > 0, kJobTimeoutMs);
    QVERIFY2(!failed.at(0).at(0).toString().isEmpty(), "the engine says what is wrong");
    qInfo("%s", qPrintable(failed.at(0).at(0).toString()));
    QVERIFY(!m_panel->isRunning());
    // Nothing to export: a message, no crash.
    QSignalSpy message(m_panel.get(), &VatPanel::message);
    m_panel->exportOrderTo(QStringLiteral("/nonexistent/ORDER.csv"));
    QCOMPARE(message.count(), 1);
    QCOMPARE(message.at(0).at(1).toBool(), true);
}

void VatPanelTest::aSampledRunSaysSoAndLabelsOnlyTheSample() {
    m_panel->setDataSource(m_data, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
    m_panel->setBackend(Backend::Cpu);
    m_panel->setMetric(Metric::Euclidean);
    QCheckBox* sample = nullptr;
    for (QCheckBox* box : m_panel->findChildren<QCheckBox*>())
        if (box->text() == QStringLiteral("Sample (sVAT)")) sample = box;
    QSpinBox* size = nullptr;
    for (QSpinBox* box : m_panel->findChildren<QSpinBox*>())
        if (box->maximum() == 10'000'000) size = box;
    QVERIFY(sample && size);
    sample->setChecked(true);
    size->setValue(20);
    QSignalSpy shown(m_panel.get(), &VatPanel::resultShown);
    m_panel->run();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, kJobTimeoutMs);
    const auto run = m_panel->lastRun();
    QCOMPARE(run->n(), std::size_t{20});
    QCOMPARE(run->sampledFrom, m_data->n);
    QVERIFY(run->scope.members && run->scope.members->size() == 20);
    // The figure (and so every export) is titled as a sample.
    const QString title = m_panel->figureExportSource().figure(false)->title();
    QVERIFY2(title.contains(QStringLiteral("sample of 20 of 100")), qPrintable(title));
    // Both groups are in the sample, and a cut labels exactly the sampled events.
    std::set<std::int64_t> groups;
    for (std::int64_t i : *run->scope.members) groups.insert(i % 2);
    QCOMPARE(groups.size(), std::size_t{2});
    m_panel->setClusterCount(2);
    QCOMPARE(m_panel->cutLabeling(), QStringLiteral("sampled VAT cuts (k=2)"));
    const auto labels = m_session->labeling(m_panel->cutLabeling());
    QVERIFY(labels);
    QCOMPARE(static_cast<std::size_t>(std::count_if(labels->begin(), labels->end(), [](int l) { return l >= 0; })),
             std::size_t{20});
    std::map<std::int64_t, int> labelOfGroup;  // the two groups are the two clusters of the sample
    for (std::int64_t i : *run->scope.members) {
        const int label = (*labels)[static_cast<std::size_t>(i)];
        QCOMPARE(labelOfGroup.emplace(i % 2, label).first->second, label);
    }
    QVERIFY(labelOfGroup[0] != labelOfGroup[1]);
    sample->setChecked(false);
}

CLUSTERLENS_GUI_TEST_MAIN(VatPanelTest)
#include "vat_panel_test.moc"
