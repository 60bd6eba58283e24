// clusterlens-vat-bench [--points N] [--dims D] [--frames F] [--zoom Z] [--step PX]
//                       [--direction horizontal|diagonal] [--width W] [--height H] [--vat] [--seed S]
//                       [--grab FILE]
// Frame time of the VAT view while panning an iVAT (or, with --vat, a VAT) image of N points (default
// 10^6) on this machine's OpenGL (Mesa llvmpipe under Xvfb: the host path, CPU renders uploaded as a
// texture). The points lie on a line in D dimensions (default 14), in 8 groups along it, so their exact
// minimum spanning tree is the chain of sorted neighbours and vatFromTree gives the exact VAT order in
// O(N log N) instead of the O(N^2 D) the VAT job needs. The widget shows the matrix zoomed in Z times
// and pans by PX pixels per frame (off the diagonal by default: no symmetric viewport to exploit), each
// frame timed from the pan until it was swapped to the window; renders run off the GUI thread meanwhile
// and are counted. Also times single viewport renders at 2048^2 (iVAT and VAT; the whole matrix and an
// off-diagonal quarter) and how long the view takes to settle after the last pan. Prints one JSON object
// with the renderer (GL_RENDERER) and how frames reach the screen.

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "clusterlens/vat/metric.hpp"
#include "clusterlens/vat/vat.hpp"
#include "clusterlens/vat/viewport.hpp"
#include "bench_setup.hpp"
#include "frame_timing.hpp"
#include "opengl_setup.hpp"
#include "vat/vat_frame_renderer.hpp"
#include "vat/vat_run.hpp"
#include "vat/vat_widget.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::bench::msSince;
using clusterlens::bench::PanOptions;
using clusterlens::bench::percentile;
using clusterlens::bench::waitForFrame;

namespace {

/// n points at t·c in d dimensions (c fixed, |c| = 1), t from 8 Gaussian groups along the line.
std::vector<float> pointsOnALine(std::size_t n, std::size_t d, std::mt19937_64& rng) {
    std::vector<double> direction(d);
    std::uniform_real_distribution<double> uniform(0.5, 1.5);
    for (double& c : direction) c = uniform(rng);
    const double norm = std::sqrt(std::inner_product(direction.begin(), direction.end(), direction.begin(), 0.0));
    std::uniform_int_distribution<int> group(0, 7);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<float> x(n * d);
    for (std::size_t i = 0; i < n; ++i) {
        const int g = group(rng);
        const double t = 12.0 * g + (0.4 + 0.15 * g) * normal(rng);
        for (std::size_t j = 0; j < d; ++j) x[i * d + j] = static_cast<float>(t * direction[j] / norm);
    }
    return x;
}

/// The exact VAT of points on a line: the chain of sorted neighbours walked from one end.
VatResult vatOfLine(const std::vector<float>& x, std::size_t n, std::size_t d) {
    std::vector<std::int64_t> sorted(n);
    std::iota(sorted.begin(), sorted.end(), 0);
    std::sort(sorted.begin(), sorted.end(), [&](std::int64_t a, std::int64_t b) {
        return x[static_cast<std::size_t>(a) * d] < x[static_cast<std::size_t>(b) * d];
    });
    std::vector<MstEdge> chain(n - 1);
    for (std::size_t k = 0; k + 1 < n; ++k) {
        const auto a = static_cast<std::size_t>(sorted[k]), b = static_cast<std::size_t>(sorted[k + 1]);
        chain[k] = {sorted[k], sorted[k + 1], metricDistance(&x[a * d], &x[b * d], d, Metric::Euclidean)};
    }
    const auto start = static_cast<std::size_t>(std::min(sorted.front(), sorted.back()));
    return vatFromTree(chain, n, start);
}

/// Best of three renders of a side x side viewport: the whole matrix (symmetric), or its top-right
/// quarter (rows [0, n/2), columns [n/2, n): no symmetry to exploit).
double renderMs(const VatFrameRenderer& renderer, VatImageKind kind, int side, bool offDiagonal) {
    const auto n = static_cast<double>(renderer.n());
    VatViewport viewport;
    viewport.row1 = offDiagonal ? n / 2 : n;
    viewport.col0 = offDiagonal ? n / 2 : 0.0;
    viewport.col1 = n;
    viewport.width = viewport.height = side;
    viewport.kind = kind;
    std::vector<float> pixels(static_cast<std::size_t>(side) * static_cast<std::size_t>(side));
    double best = 1e300;
    for (int run = 0; run < 3; ++run) {
        QElapsedTimer clock;
        clock.start();
        renderer.render(viewport, pixels.data());
        best = std::min(best, msSince(clock));
    }
    return best;
}

void waitForSettled(VatWidget& widget) {
    while (!widget.isSettled()) {
        QEventLoop loop;
        QObject::connect(&widget, &VatWidget::frameSettled, &loop, &QEventLoop::quit);
        QObject::connect(&widget, &QOpenGLWidget::frameSwapped, &loop, &QEventLoop::quit);
        widget.update();
        loop.exec();
    }
}

}  // namespace

int main(int argc, char* argv[]) {
    setUpOpenGl(false);
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption points(QStringLiteral("points"), QStringLiteral("Points."), QStringLiteral("N"),
                                    QStringLiteral("1000000"));
    const QCommandLineOption dims(QStringLiteral("dims"), QStringLiteral("Dimensions."), QStringLiteral("D"),
                                  QStringLiteral("14"));
    const QCommandLineOption zoom(QStringLiteral("zoom"), QStringLiteral("Magnification while panning."),
                                  QStringLiteral("Z"), QStringLiteral("16"));
    const QCommandLineOption step(QStringLiteral("step"), QStringLiteral("Pixels panned per frame."),
                                  QStringLiteral("PX"), QStringLiteral("8"));
    const PanOptions pan("1000", "1000", "20251121");
    const QCommandLineOption direction(QStringLiteral("direction"),
                                       QStringLiteral("horizontal (off the diagonal) or diagonal (along it)."),
                                       QStringLiteral("DIR"), QStringLiteral("horizontal"));
    const QCommandLineOption vat(QStringLiteral("vat"), QStringLiteral("Pan the VAT image instead of the iVAT image."));
    const QCommandLineOption grab(QStringLiteral("grab"), QStringLiteral("Save the first full view to FILE (PNG)."),
                                  QStringLiteral("FILE"));
    parser.addOptions({points, dims, pan.frames, zoom, step, direction, pan.width, pan.height, pan.seed, vat, grab});
    parser.process(app);
    const auto n = static_cast<std::size_t>(parser.value(points).toULongLong());
    const auto d = static_cast<std::size_t>(std::max(1, parser.value(dims).toInt()));
    const int frameCount = pan.frameCount(parser);
    const double stepPx = parser.value(step).toDouble();
    if (n < 2) {
        std::fprintf(stderr, "--points must be at least 2\n");
        return 2;
    }

    std::mt19937_64 rng(pan.seedValue(parser));
    QElapsedTimer clock;
    clock.start();
    const std::vector<float> x = pointsOnALine(n, d, rng);
    auto result = std::make_shared<const VatResult>(vatOfLine(x, n, d));
    const double orderMs = msSince(clock);
    clock.restart();
    auto source = std::make_shared<const VatRenderSource>(makeVatRenderSource(*result, x.data(), d));
    auto run = std::make_shared<VatRun>();
    run->vat = result;
    run->renderer = VatFrameRenderer::create(std::move(source), false);
    run->rank.assign(n, 0);
    for (std::size_t p = 0; p < n; ++p)
        run->rank[static_cast<std::size_t>(result->order[p])] = static_cast<std::int64_t>(p);
    const double sourceMs = msSince(clock);
    const double ivat2048 = renderMs(*run->renderer, VatImageKind::Ivat, 2048, false);
    const double vat2048 = renderMs(*run->renderer, VatImageKind::Vat, 2048, false);
    const double ivat2048Off = renderMs(*run->renderer, VatImageKind::Ivat, 2048, true);
    const double vat2048Off = renderMs(*run->renderer, VatImageKind::Vat, 2048, true);
    const bool diagonal = parser.value(direction) == QLatin1String("diagonal");

    VatWidget widget;
    VatDisplay display;
    display.kind = parser.isSet(vat) ? VatImageKind::Vat : VatImageKind::Ivat;
    widget.setDisplay(display);
    pan.show(widget, parser);
    clock.restart();
    widget.setRun(run);
    waitForSettled(widget);
    const double firstSettledMs = msSince(clock);
    if (!widget.glError().isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(widget.glError()));
        return 1;
    }
    if (parser.isSet(grab)) widget.grabFramebuffer().save(parser.value(grab));

    widget.zoomAt(widget.plotRect().center(), parser.value(zoom).toDouble());
    waitForSettled(widget);
    const int rendersBefore = widget.renderCount();
    std::vector<double> times, renders;
    int settledFrames = 0;
    int lastCount = widget.renderCount();
    for (int f = 0; f < frameCount; ++f) {
        // 100 frames one way, then back.
        const double s = (f / 100) % 2 == 0 ? -stepPx : stepPx;
        clock.restart();
        widget.panByPixels(QPointF(s, diagonal ? s : 0.0));
        times.push_back(waitForFrame(widget, clock));
        settledFrames += widget.isSettled() ? 1 : 0;
        if (widget.renderCount() != lastCount) {
            lastCount = widget.renderCount();
            renders.push_back(widget.lastRenderMs());
        }
    }
    clock.restart();
    waitForSettled(widget);
    const double settleMs = msSince(clock);
    const VatViewport shown = widget.shownViewport();
    std::printf(
        "{\"workload\": \"%s pan %s, %zu points x %zu dims, %dx%d image, zoom %gx, %g px per frame\", "
        "\"renderer\": \"%s\", \"path\": \"%s\", \"frames\": %d, \"median_ms\": %.2f, \"p90_ms\": %.2f, "
        "\"max_ms\": %.2f, \"renders_while_panning\": %d, \"render_median_ms\": %.2f, \"render_max_ms\": %.2f, "
        "\"frames_at_full_resolution\": %d, \"settle_after_pan_ms\": %.2f, \"first_view_ms\": %.2f, "
        "\"viewport_2048_ivat_ms\": %.2f, \"viewport_2048_vat_ms\": %.2f, \"viewport_2048_offdiagonal_ivat_ms\": %.2f, "
        "\"viewport_2048_offdiagonal_vat_ms\": %.2f, \"order_ms\": %.2f, \"render_source_ms\": %.2f}\n",
        parser.isSet(vat) ? "VAT" : "iVAT", diagonal ? "along the diagonal" : "off the diagonal", n, d, shown.width,
        shown.height, parser.value(zoom).toDouble(), stepPx, qPrintable(widget.glRenderer()),
        qPrintable(widget.renderPath()), frameCount, percentile(times, 0.5), percentile(times, 0.9),
        *std::max_element(times.begin(), times.end()), widget.renderCount() - rendersBefore,
        renders.empty() ? 0.0 : percentile(renders, 0.5),
        renders.empty() ? 0.0 : *std::max_element(renders.begin(), renders.end()), settledFrames, settleMs,
        firstSettledMs, ivat2048, vat2048, ivat2048Off, vat2048Off, orderMs, sourceMs);
    return 0;
}
