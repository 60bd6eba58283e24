// clusterlens-heights-bench [--points N] [--frames F] [--width W] [--height H] [--seed S]
// The point-height comparison view of two clusterings of N points (default 1M): a random tree and
// the same tree with every merge height perturbed by up to +-30 %, so the points lie in a band
// about the diagonal. Measures the comparison job (heights, Pearson, Spearman and the drawable
// scatter), the time until all points were first on screen, and the frame time while panning, as
// clusterlens-scatter-bench does (each frame timed from the pan until it was swapped to the
// window). Prints one JSON object.

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "analysis_session.hpp"
#include "compare/heights_view.hpp"
#include "jobs/job_runner.hpp"
#include "bench_setup.hpp"
#include "frame_timing.hpp"
#include "opengl_setup.hpp"
#include "scatter/scatter_widget.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

/// Random binary tree over n leaves (scipy convention), heights growing with the merge index.
Linkage randomTree(std::size_t n, std::mt19937_64& rng) {
    std::vector<std::int64_t> active(n), size(2 * n - 1, 1);
    for (std::size_t i = 0; i < n; ++i) active[i] = static_cast<std::int64_t>(i);
    Linkage linkage;
    linkage.leafCount = n;
    linkage.merges.reserve(n - 1);
    std::size_t count = n;
    const auto take = [&] {
        const std::size_t slot = std::uniform_int_distribution<std::size_t>(0, count - 1)(rng);
        const std::int64_t id = active[slot];
        active[slot] = active[--count];
        return id;
    };
    for (std::size_t row = 0; row + 1 < n; ++row) {
        const std::int64_t a = take(), b = take();
        const auto id = static_cast<std::size_t>(n + row);
        size[id] = size[static_cast<std::size_t>(a)] + size[static_cast<std::size_t>(b)];
        linkage.merges.push_back({std::min(a, b), std::max(a, b), static_cast<double>(row + 1) / n, size[id]});
        active[count++] = static_cast<std::int64_t>(id);
    }
    return linkage;
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
    const auto n = std::max<std::size_t>(2, parser.value(points).toULongLong());
    const int frameCount = pan.frameCount(parser);

    std::mt19937_64 rng(pan.seedValue(parser));
    auto a = std::make_shared<Linkage>(randomTree(n, rng));
    auto b = std::make_shared<Linkage>(*a);
    std::uniform_real_distribution<double> perturb(0.7, 1.3);
    for (Merge& m : b->merges) m.height *= perturb(rng);

    JobRunner runner;
    AnalysisSession session;
    HeightsView view(&runner, &session);
    pan.show(view, parser);
    ScatterWidget* scatter = view.scatter();

    // One job runs once both linkages are in the session; the first frame with every point follows.
    QElapsedTimer clock;
    QEventLoop ready, drawn;
    QObject::connect(&view, &HeightsView::comparisonReady, &ready, &QEventLoop::quit);
    QObject::connect(scatter, &ScatterWidget::dataDrawn, &drawn, &QEventLoop::quit);
    clock.start();
    session.addLinkage(QStringLiteral("A"), a);
    session.addLinkage(QStringLiteral("B"), b);
    if (!view.comparison() || view.comparison()->nameB != QLatin1String("B")) ready.exec();
    const double jobMs = msSince(clock);
    clock.restart();
    drawn.exec();
    const double firstDrawMs = msSince(clock);
    if (!scatter->glError().isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(scatter->glError()));
        return 1;
    }

    std::vector<double> times;
    times.reserve(static_cast<std::size_t>(frameCount));
    for (int f = 0; f < frameCount; ++f) {
        const double step = (f / 100) % 2 == 0 ? 8.0 : -8.0;  // 800 pixels: beyond the layer margin
        clock.restart();
        scatter->panByPixels(QPointF(step, step / 2));
        QEventLoop loop;
        QObject::connect(scatter, &QOpenGLWidget::frameSwapped, &loop, &QEventLoop::quit);
        loop.exec();
        times.push_back(msSince(clock));
    }
    std::printf(
        "{\"workload\": \"point-height view pan, %zu points, %dx%d, density colours, diagonal\", "
        "\"renderer\": \"%s\", \"n\": %zu, \"frames\": %d, \"median_ms\": %.2f, \"p90_ms\": %.2f, "
        "\"max_ms\": %.2f, \"comparison_job_ms\": %.2f, \"first_draw_ms\": %.2f, \"pearson\": %.4f, "
        "\"spearman\": %.4f, \"uploads\": %d}\n",
        n, scatter->width(), scatter->height(), qPrintable(scatter->glRenderer()), n, frameCount,
        percentile(times, 0.5), percentile(times, 0.9), *std::max_element(times.begin(), times.end()), jobMs,
        firstDrawMs, view.comparison()->pearson, view.comparison()->spearman, scatter->dataUploads());
    return 0;
}
