#pragma once
// Timing helpers shared by the GUI benchmark programs.

#include <QElapsedTimer>
#include <QEventLoop>
#include <QOpenGLWidget>

#include <algorithm>
#include <vector>

namespace clusterlens::bench {

/// Linear-interpolated percentile (p in [0, 1]) of a non-empty sample.
inline double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const double pos = p * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

/// Milliseconds since `clock` was (re)started.
inline double msSince(const QElapsedTimer& clock) {
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

/// Runs the event loop until `widget` swapped a frame; returns msSince(clock) at that moment.
inline double waitForFrame(QOpenGLWidget& widget, const QElapsedTimer& clock) {
    QEventLoop loop;
    QObject::connect(&widget, &QOpenGLWidget::frameSwapped, &loop, &QEventLoop::quit);
    loop.exec();
    return msSince(clock);
}

}  // namespace clusterlens::bench
