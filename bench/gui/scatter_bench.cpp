// clusterlens-scatter-bench [--points N] [--frames F] [--width W] [--height H] [--seed S]
// Frame time of the data scatter while panning N random points (default 1M): each frame moves the
// view by a few pixels and is timed from the update request until the frame was swapped to the
// window (render, composition and buffer swap). The pan travels far enough to leave the retained
// layer's margin, so frames that rebuild the layer are part of the statistics. Prints one JSON
// object: workload, renderer (GL_RENDERER), n, frames, median_ms, p90_ms, max_ms, plus the
// one-off preparation time and the time until all points were first on screen.

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "bench_setup.hpp"
#include "frame_timing.hpp"
#include "opengl_setup.hpp"
#include "scatter/scatter_data.hpp"
#include "scatter/scatter_widget.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

/// Twelve anisotropic Gaussian clusters plus 5 % uniform background: a cytometry-like density.
std::shared_ptr<const Dataset> randomPoints(std::size_t n, std::uint64_t seed) {
    auto d = std::make_shared<Dataset>();
    d->n = n;
    d->d = 2;
    d->features = {"x", "y"};
    d->values.resize(2 * n);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> uniform(0.0f, 100.0f);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<std::array<float, 4>> clusters(12);
    for (auto& c : clusters) c = {uniform(rng), uniform(rng), 1.0f + uniform(rng) / 15.0f, 1.0f + uniform(rng) / 25.0f};
    for (std::size_t i = 0; i < n; ++i) {
        if (i % 20 == 0) {
            d->values[2 * i] = uniform(rng);
            d->values[2 * i + 1] = uniform(rng);
            continue;
        }
        const auto& c = clusters[i % clusters.size()];
        d->values[2 * i] = c[0] + c[2] * normal(rng);
        d->values[2 * i + 1] = c[1] + c[3] * normal(rng);
    }
    return d;
}

}  // namespace

using clusterlens::bench::msSince;
using clusterlens::bench::PanOptions;
using clusterlens::bench::percentile;
using clusterlens::bench::waitForFrame;

int main(int argc, char* argv[]) {
    setUpOpenGl(false);
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption points = clusterlens::bench::valueOption("points", "Number of points.", "N", "1000000");
    const PanOptions pan;
    parser.addOptions({points, pan.frames, pan.width, pan.height, pan.seed});
    parser.process(app);
    const auto n = static_cast<std::size_t>(parser.value(points).toULongLong());
    const int frameCount = pan.frameCount(parser);

    ScatterWidget widget;
    pan.show(widget, parser);

    const auto dataset = randomPoints(n, pan.seedValue(parser));
    QElapsedTimer clock;
    clock.start();
    auto data = std::make_shared<const ScatterData>(prepareScatter({dataset, {}, ColourMode::Density, nullptr}));
    const double prepareMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;

    // First display: upload plus the complete first layer, spread over several frames.
    clock.restart();
    QEventLoop drawn;
    QObject::connect(&widget, &ScatterWidget::dataDrawn, &drawn, &QEventLoop::quit);
    widget.setData(data);
    drawn.exec();
    const double firstDrawMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    if (!widget.glError().isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(widget.glError()));
        return 1;
    }

    std::vector<double> times;
    times.reserve(static_cast<std::size_t>(frameCount));
    for (int f = 0; f < frameCount; ++f) {
        // 100 frames one way, then back: 800 pixels, beyond the layer margin of half a plot.
        const double step = (f / 100) % 2 == 0 ? 8.0 : -8.0;
        clock.restart();
        widget.panByPixels(QPointF(step, step / 2));
        times.push_back(waitForFrame(widget, clock));
    }
    std::printf(
        "{\"workload\": \"scatter pan, %zu points, %dx%d, density colours\", "
        "\"renderer\": \"%s\", \"n\": %zu, \"frames\": %d, \"median_ms\": %.2f, \"p90_ms\": %.2f, "
        "\"max_ms\": %.2f, \"first_draw_ms\": %.2f, \"prepare_ms\": %.2f, \"uploads\": %d}\n",
        n, widget.width(), widget.height(), qPrintable(widget.glRenderer()), n, frameCount, percentile(times, 0.5),
        percentile(times, 0.9), *std::max_element(times.begin(), times.end()), firstDrawMs, prepareMs,
        widget.dataUploads());
    return 0;
}
