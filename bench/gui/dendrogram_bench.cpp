// clusterlens-dendrogram-bench [--leaves N] [--tree single1d|random] [--frames F] [--zoom Z]
//                              [--width W] [--height H] [--seed S] [--log] [--grab FILE]
// Layout time and frame time of the dendrogram of N leaves (default 10^6). The tree is the exact
// single linkage of N one-dimensional points drawn from a mixture of Gaussians (Kruskal on the
// gaps between sorted neighbours: long chains, the hard case for level of detail), or a random
// binary tree with increasing heights. The layout is timed as the job computes it (best of three).
// Then the widget shows the tree zoomed in Z times along the leaves and pans: each frame moves the
// view by a few pixels and is timed from the request until the frame was swapped to the window.
// The pan travels beyond the geometry region's margin, so frames that rebuild the geometry are
// part of the statistics. Prints one JSON object with the renderer (GL_RENDERER).

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "bench_setup.hpp"
#include "frame_timing.hpp"
#include "opengl_setup.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

Linkage withSizes(std::size_t n, std::vector<Merge> merges) {
    std::vector<std::int64_t> size(2 * n - 1, 1);
    for (std::size_t i = 0; i < merges.size(); ++i) {
        Merge& m = merges[i];
        if (m.a > m.b) std::swap(m.a, m.b);
        m.size = size[n + i] = size[static_cast<std::size_t>(m.a)] + size[static_cast<std::size_t>(m.b)];
    }
    return Linkage{n, std::move(merges)};
}

/// Exact single linkage of n points on a line: sorted neighbours' gaps merged in increasing order.
Linkage singleLinkage1d(std::size_t n, std::mt19937_64& rng) {
    std::vector<double> x(n);
    std::uniform_int_distribution<int> component(0, 7);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (double& v : x) {
        const int c = component(rng);
        v = 10.0 * c + (0.3 + 0.2 * c) * normal(rng);
    }
    std::sort(x.begin(), x.end());
    std::vector<std::size_t> gaps(n - 1);
    std::iota(gaps.begin(), gaps.end(), 0);
    std::stable_sort(gaps.begin(), gaps.end(),
                     [&](std::size_t a, std::size_t b) { return x[a + 1] - x[a] < x[b + 1] - x[b]; });
    // Union-find over positions; each root remembers its current cluster id.
    std::vector<std::size_t> parent(n), cluster(n);
    std::iota(parent.begin(), parent.end(), 0);
    std::iota(cluster.begin(), cluster.end(), 0);
    const auto find = [&](std::size_t p) {
        while (parent[p] != p) p = parent[p] = parent[parent[p]];
        return p;
    };
    std::vector<Merge> merges;
    merges.reserve(n - 1);
    for (std::size_t g : gaps) {
        const std::size_t a = find(g), b = find(g + 1);
        merges.push_back(
            {static_cast<std::int64_t>(cluster[a]), static_cast<std::int64_t>(cluster[b]), x[g + 1] - x[g], 0});
        parent[b] = a;
        cluster[a] = n + merges.size() - 1;
    }
    return withSizes(n, std::move(merges));
}

/// Random binary tree: two random live clusters merge at each step, heights increasing.
Linkage randomTree(std::size_t n, std::mt19937_64& rng) {
    std::vector<std::int64_t> live(n);
    std::iota(live.begin(), live.end(), 0);
    std::vector<Merge> merges;
    merges.reserve(n - 1);
    std::exponential_distribution<double> step(1.0);
    double h = 0.0;
    while (live.size() > 1) {
        std::uniform_int_distribution<std::size_t> pick(0, live.size() - 1);
        const std::size_t i = pick(rng);
        std::size_t j = pick(rng);
        while (j == i) j = pick(rng);
        h += step(rng);
        merges.push_back({live[i], live[j], h, 0});
        live[i] = static_cast<std::int64_t>(n + merges.size() - 1);
        live[j] = live.back();
        live.pop_back();
    }
    return withSizes(n, std::move(merges));
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
    const QCommandLineOption leaves(QStringLiteral("leaves"), QStringLiteral("Leaves."), QStringLiteral("N"),
                                    QStringLiteral("1000000"));
    const QCommandLineOption tree(QStringLiteral("tree"), QStringLiteral("single1d or random."), QStringLiteral("T"),
                                  QStringLiteral("single1d"));
    const QCommandLineOption zoom(QStringLiteral("zoom"), QStringLiteral("Horizontal magnification while panning."),
                                  QStringLiteral("Z"), QStringLiteral("8"));
    const PanOptions pan;
    const QCommandLineOption grab(QStringLiteral("grab"), QStringLiteral("Save the first full view to FILE (PNG)."),
                                  QStringLiteral("FILE"));
    const QCommandLineOption logHeights(QStringLiteral("log"), QStringLiteral("Logarithmic height axis."));
    parser.addOptions({leaves, tree, pan.frames, zoom, pan.width, pan.height, pan.seed, grab, logHeights});
    parser.process(app);
    const auto n = static_cast<std::size_t>(parser.value(leaves).toULongLong());
    const int frameCount = pan.frameCount(parser);
    const bool random = parser.value(tree) == QLatin1String("random");

    std::mt19937_64 rng(pan.seedValue(parser));
    QElapsedTimer clock;
    clock.start();
    const Linkage linkage = random ? randomTree(n, rng) : singleLinkage1d(n, rng);
    const double generateMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    std::shared_ptr<const DendrogramLayout> layout;
    double layoutMs = 1e300;
    for (int run = 0; run < 3; ++run) {
        clock.restart();
        layout = std::make_shared<const DendrogramLayout>(buildDendrogramLayout(linkage));
        layoutMs = std::min(layoutMs, static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }

    DendrogramWidget widget;
    pan.show(widget, parser);
    clock.restart();
    QEventLoop drawn;
    QObject::connect(&widget, &DendrogramWidget::contentDrawn, &drawn, &QEventLoop::quit);
    widget.setLogHeights(parser.isSet(logHeights));
    widget.setTree(layout);
    drawn.exec();
    const double firstDrawMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    const double fullViewBuildMs = widget.lastBuildMs();
    if (parser.isSet(grab)) widget.grabFramebuffer().save(parser.value(grab));
    if (!widget.glError().isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(widget.glError()));
        return 1;
    }

    // Zoom in about the middle and wait for the sharp geometry of that zoom.
    widget.zoomAt(widget.plotRect().center(), parser.value(zoom).toDouble(), 1.0);
    drawn.exec();
    const int buildsBefore = widget.geometryBuilds();
    std::vector<double> times, builds;
    times.reserve(static_cast<std::size_t>(frameCount));
    for (int f = 0; f < frameCount; ++f) {
        // 100 frames one way, then back: 800 pixels, beyond the region's margin of half a plot.
        const double step = (f / 100) % 2 == 0 ? 8.0 : -8.0;
        const int before = widget.geometryBuilds();
        clock.restart();
        widget.panByPixels(QPointF(step, 0.0));
        times.push_back(waitForFrame(widget, clock));
        if (widget.geometryBuilds() != before) builds.push_back(widget.lastBuildMs());
    }
    std::printf(
        "{\"workload\": \"dendrogram pan, %zu leaves (%s), %dx%d, zoom %gx\", \"renderer\": \"%s\", \"leaves\": %zu, "
        "\"inversions\": %zu, \"frames\": %d, \"median_ms\": %.2f, \"p90_ms\": %.2f, \"max_ms\": %.2f, "
        "\"geometry_builds\": %zu, \"max_build_ms\": %.2f, \"full_view_build_ms\": %.2f, \"first_draw_ms\": %.2f, "
        "\"layout_ms\": %.2f, \"generate_ms\": %.2f, \"links\": %zu, \"strips\": %zu}\n",
        n, random ? "random tree" : "single linkage of 1-D mixture", widget.width(), widget.height(),
        parser.value(zoom).toDouble(), qPrintable(widget.glRenderer()), n, layout->inversionCount, frameCount,
        percentile(times, 0.5), percentile(times, 0.9), *std::max_element(times.begin(), times.end()),
        static_cast<std::size_t>(widget.geometryBuilds() - buildsBefore),
        builds.empty() ? 0.0 : *std::max_element(builds.begin(), builds.end()), fullViewBuildMs, firstDrawMs, layoutMs,
        generateMs, widget.geometry().links.size(), widget.geometry().strips.size());
    return 0;
}
