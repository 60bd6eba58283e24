// clusterlens-decision-bench [--points N] [--frames F] [--peaks K] [--seed S]
// The decision graph at N points (default 1M), under Xvfb/llvmpipe where no GPU exists:
//  - re-assignment after a peak change: assignFromPeaks alone and PeakChoice::apply (labels plus
//    cluster sizes), median over alternating top-K and top-(K+1) choices (target <= 20 ms at 1M);
//  - recolouring: the decision graph's drawable data rebuilt with the new labels;
//  - frame time while panning the graph (as clusterlens-scatter-bench does for the data scatter).
// rho, delta and the links are not computed here (an all-pairs pass over 10^6 points is the
// engine benchmark's subject): the points get random densities, and each point links to a random
// denser point with a random delta, which gives the assignment the same O(N) work as a real graph.
// Prints one JSON object.

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "dpc/decision_graph.hpp"
#include "dpc/peak_choice.hpp"
#include "bench_setup.hpp"
#include "frame_timing.hpp"
#include "opengl_setup.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

std::shared_ptr<const DensityPeaksResult> randomDecisionGraph(std::size_t n, std::uint64_t seed) {
    auto r = std::make_shared<DensityPeaksResult>();
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    r->rho.resize(n);
    for (double& v : r->rho) v = 1000.0 * uniform(rng) * uniform(rng);
    r->densityOrder.resize(n);
    std::iota(r->densityOrder.begin(), r->densityOrder.end(), std::int64_t{0});
    std::stable_sort(r->densityOrder.begin(), r->densityOrder.end(),
                     [&](std::int64_t a, std::int64_t b) { return r->rho[a] > r->rho[b]; });
    r->delta.resize(n);
    r->nearestHigher.resize(n);
    r->gamma.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto i = static_cast<std::size_t>(r->densityOrder[k]);
        // Most links are short (inside a cluster); a few are long (the peaks stand out).
        r->nearestHigher[i] =
            k == 0 ? -1 : r->densityOrder[static_cast<std::size_t>(uniform(rng) * static_cast<double>(k))];
        r->delta[i] = k == 0 ? 100.0 : uniform(rng) < 1e-5 ? 20.0 + 80.0 * uniform(rng) : 2.0 * uniform(rng);
        r->gamma[i] = r->rho[i] * r->delta[i];
    }
    return r;
}

double median(const std::vector<double>& v) {
    return clusterlens::bench::percentile(v, 0.5);
}

}  // namespace

using clusterlens::bench::msSince;
using clusterlens::bench::percentile;

int main(int argc, char* argv[]) {
    setUpOpenGl(false);
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption points = clusterlens::bench::valueOption("points", "Number of points.", "N", "1000000");
    const QCommandLineOption frames(QStringLiteral("frames"), QStringLiteral("Frames measured."), QStringLiteral("F"),
                                    QStringLiteral("200"));
    const QCommandLineOption peaks(QStringLiteral("peaks"), QStringLiteral("Peaks chosen."), QStringLiteral("K"),
                                   QStringLiteral("10"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Random seed."), QStringLiteral("S"),
                                  QStringLiteral("20261121"));
    parser.addOptions({points, frames, peaks, seed});
    parser.process(app);
    const auto n = static_cast<std::size_t>(parser.value(points).toULongLong());
    const auto k = static_cast<std::size_t>(std::max(1, parser.value(peaks).toInt()));
    const int frameCount = std::max(1, parser.value(frames).toInt());
    const auto result = randomDecisionGraph(n, parser.value(seed).toULongLong());

    std::vector<double> assignMs, applyMs, recolourMs;
    PeakChoice choice;
    choice.setResult(result);
    const DecisionScale scale = DecisionScale::of(*result, false, false);
    const auto coordinates = decisionCoordinates(*result, scale);
    for (int run = 0; run < 20; ++run) {
        const std::vector<std::int64_t> top = peaksTopK(*result, k + static_cast<std::size_t>(run % 2));
        QElapsedTimer clock;
        clock.start();
        const std::vector<std::int32_t> labels = assignFromPeaks(*result, top);
        assignMs.push_back(msSince(clock));
        choice.apply(top);
        applyMs.push_back(choice.lastAssignMs());
        clock.restart();
        const ScatterData data = decisionScatter(*coordinates, scale, choice.labels());
        recolourMs.push_back(msSince(clock));
    }

    DecisionGraph graph;
    graph.resize(1280, 800);
    clusterlens::bench::showExposed(graph);
    QElapsedTimer clock;
    clock.start();
    QEventLoop drawn;
    QObject::connect(&graph, &ScatterWidget::dataDrawn, &drawn, &QEventLoop::quit);
    graph.showResult(result, scale, choice.labels(), choice.peaks(), false);
    drawn.exec();
    const double firstDrawMs = msSince(clock);
    if (!graph.glError().isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(graph.glError()));
        return 1;
    }
    std::vector<double> frameMs;
    for (int f = 0; f < frameCount; ++f) {
        const double step = (f / 100) % 2 == 0 ? 8.0 : -8.0;
        clock.restart();
        graph.panByPixels(QPointF(step, step / 2));
        QEventLoop loop;
        QObject::connect(&graph, &QOpenGLWidget::frameSwapped, &loop, &QEventLoop::quit);
        loop.exec();
        frameMs.push_back(msSince(clock));
    }
    std::printf(
        "{\"workload\": \"decision graph, %zu points, %zu peaks\", \"renderer\": \"%s\", \"n\": %zu, "
        "\"assign_median_ms\": %.2f, \"apply_median_ms\": %.2f, \"recolour_median_ms\": %.2f, "
        "\"first_draw_ms\": %.2f, \"frames\": %d, \"frame_median_ms\": %.2f, \"frame_p90_ms\": %.2f, "
        "\"frame_max_ms\": %.2f}\n",
        n, k, qPrintable(graph.glRenderer()), n, median(assignMs), median(applyMs), median(recolourMs), firstDrawMs,
        frameCount, median(frameMs), percentile(frameMs, 0.9), *std::max_element(frameMs.begin(), frameMs.end()));
    return 0;
}
