#pragma once
// What the decision-graph tests share: three well separated Gaussian blobs, a DPC panel shown on them
// and synthetic mouse events.

#include <QApplication>
#include <QMouseEvent>
#include <QtTest>

#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "analysis_session.hpp"
#include "clusterlens/dataset.hpp"
#include "dpc/dpc_panel.hpp"
#include "jobs/job_runner.hpp"

namespace clusterlens::test {

inline constexpr std::size_t kDpcPointsPerBlob = 120;
inline constexpr std::uint64_t kDpcBlobSeed = 20240611;

/// Three Gaussian blobs (sd 0.5) centred 9 to 10 units apart; truth[i] = blob of point i (i % 3).
inline std::shared_ptr<const Dataset> threeBlobs(std::vector<int>& truth) {
    std::printf("three blobs, seed %llu\n", static_cast<unsigned long long>(kDpcBlobSeed));
    std::mt19937_64 random(kDpcBlobSeed);
    std::normal_distribution<double> normal(0.0, 0.5);
    const double centres[3][2] = {{0.0, 0.0}, {10.0, 0.0}, {5.0, 9.0}};
    auto data = std::make_shared<Dataset>();
    data->n = 3 * kDpcPointsPerBlob;
    data->d = 2;
    data->features = {"x", "y"};
    for (std::size_t i = 0; i < data->n; ++i) {
        const int blob = static_cast<int>(i % 3);
        truth.push_back(blob);
        data->values.push_back(static_cast<float>(centres[blob][0] + normal(random)));
        data->values.push_back(static_cast<float>(centres[blob][1] + normal(random)));
    }
    return data;
}

/// The test object of the DPC panel tests: showPanel() (from initTestCase) shows a DPC panel at 1200 x 900
/// on the three blobs, set to a Gaussian kernel at dc = 2% on the CPU and not run yet; the runner and
/// analysis are children of the test object, the panel is deleted by the test's cleanupTestCase.
class DpcBlobsPanelTest : public QObject {
protected:
    void showPanel() {
        m_data = threeBlobs(m_truth);
        m_runner = new views::JobRunner(this);
        m_analysis = new views::AnalysisSession(this);
        m_panel = new views::DpcPanel(m_runner, m_analysis);
        m_panel->resize(1200, 900);
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel));
        m_panel->setDataSource(m_data, {QStringLiteral("x"), QStringLiteral("y")});
        DensityPeaksOptions options;
        options.kernel = DensityKernel::Gaussian;
        options.dcPercent = 2.0;
        m_panel->setOptions(options, Backend::Cpu);
    }

    std::vector<int> m_truth;  ///< blob of each point
    std::shared_ptr<const Dataset> m_data;
    views::JobRunner* m_runner = nullptr;
    views::AnalysisSession* m_analysis = nullptr;
    views::DpcPanel* m_panel = nullptr;
};

inline void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons,
                      Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, modifiers);
    QApplication::sendEvent(w, &event);
}

}  // namespace clusterlens::test
