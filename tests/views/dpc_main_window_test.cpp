// The decision graph in the real main window on a real dataset (SIPU R15, 600 points in 15
// Gaussian clusters): the DPC job runs on the dataset panel's active features, the knee of the
// gamma plot picks the peaks, and the labels colour the data scatter through the analysis
// session. With CLUSTERLENS_SCREENSHOTS=1 the window is saved to docs/screenshots/decision.png.

#include <QDockWidget>
#include <QSignalSpy>

#include "analysis_session.hpp"
#include "dataset_session.hpp"
#include "dpc/decision_graph.hpp"
#include "dpc/dpc_panel.hpp"
#include "dpc/gamma_plot.hpp"
#include "dpc/peak_choice.hpp"
#include "gui_test_main.hpp"
#include "main_window.hpp"
#include "scatter/scatter_widget.hpp"
#include "window_grab.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;

namespace {

constexpr int kTimeoutMs = 90'000;

}  // namespace

class DpcMainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { m_window.reset(); }
    void kneePeaksColourTheDataScatter();

private:
    std::unique_ptr<MainWindow> m_window;
};

void DpcMainWindowTest::initTestCase() {
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1600, 1000);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QSignalSpy drawn(m_window->scatter(), &ScatterWidget::dataDrawn);
    m_window->openFile(QStringLiteral(CLUSTERLENS_DATA_DIR "/benchmarks/sipu/r15.data.gz"));
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kTimeoutMs);
}

void DpcMainWindowTest::kneePeaksColourTheDataScatter() {
    DpcPanel* panel = m_window->dpcPanel();
    QVERIFY(panel);
    auto* dock = qobject_cast<QDockWidget*>(panel->parentWidget());
    QVERIFY(dock);
    QSignalSpy shown(panel, &DpcPanel::resultShown);
    QSignalSpy failed(panel, &DpcPanel::failed);
    DensityPeaksOptions options;
    options.kernel = DensityKernel::Gaussian;
    panel->setOptions(options, Backend::Cpu);
    panel->run();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0 || failed.count() > 0, kTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(panel->lastRun()->result->rho.size(), m_window->session()->current()->n);

    const std::size_t knee = panel->gammaPlot()->suggestedCount();
    QCOMPARE(knee, std::size_t{15});
    QSignalSpy recoloured(m_window->scatter(), &ScatterWidget::dataDrawn);
    panel->applyTopK(knee);
    QCOMPARE(m_window->analysis()->colouring(), QStringLiteral("DPC (k=15)"));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->scatter()->data() && m_window->scatter()->data()->mode == ColourMode::Labels,
                             kTimeoutMs);
    QCOMPARE(m_window->scatter()->data()->labelValues.size(), std::size_t{15});
    panel->setLogAxes(false, false);

    if (qEnvironmentVariableIntValue("CLUSTERLENS_SCREENSHOTS") == 1) {
        dock->raise();
        m_window->resizeDocks({dock}, {1000}, Qt::Horizontal);
        QTRY_VERIFY_WITH_TIMEOUT(panel->graph()->isSettled() && m_window->scatter()->isSettled(), kTimeoutMs);
        QTest::qWait(500);
        const QString path = QStringLiteral(CLUSTERLENS_SOURCE_DIR "/docs/screenshots/decision.png");
        QVERIFY(grabWindowWithViews(*m_window).save(path));
        std::printf("saved %s\n", qPrintable(path));
    }
}

CLUSTERLENS_GUI_TEST_MAIN(DpcMainWindowTest)
#include "dpc_main_window_test.moc"
