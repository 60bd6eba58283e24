#include "dendrogram/dendrogram_widget.hpp"

#include <QElapsedTimer>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <utility>

#include "dendrogram/dendrogram_axes.hpp"
#include "dendrogram/dendrogram_renderer.hpp"

namespace clusterlens::views {

namespace {

constexpr int kTreeRefineDelayMs = 120;  // idle time after a zoom before the sharp geometry is built
constexpr double kRugHeight = 5.0;

bool sameScale(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::abs(b);
}

}  // namespace

DendrogramWidget::DendrogramWidget(QWidget* parent)
    : QOpenGLWidget(parent), m_renderer(std::make_unique<DendrogramRenderer>()) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    // A right-drag zooms into a rectangle; a right click without a drag opens the menu on release.
    setContextMenuPolicy(Qt::PreventContextMenu);
    setMinimumSize(minimumSizeHint());
    m_refineTimer.setSingleShot(true);
    m_refineTimer.setInterval(kTreeRefineDelayMs);
    connect(&m_refineTimer, &QTimer::timeout, this, &DendrogramWidget::contentChanged);
    connect(this, &QOpenGLWidget::frameSwapped, this, [this] {
        if (m_drawnPending && m_layout && !m_contentChanged) {
            m_drawnPending = false;
            Q_EMIT contentDrawn();
        }
    });
}

DendrogramWidget::~DendrogramWidget() {
    // As ScatterWidget: free the GL objects while the context still exists, then stop listening.
    if (QOpenGLContext* gl = context()) {
        disconnect(gl, nullptr, this, nullptr);
        if (gl->isValid()) {
            makeCurrent();
            m_renderer->release();
            doneCurrent();
        }
    }
}

void DendrogramWidget::initializeGL() {
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &DendrogramWidget::releaseGL, Qt::UniqueConnection);
    m_glError.clear();
    if (!m_renderer->initialize(&m_glError)) {
        qWarning("clusterlens: %s", qPrintable(m_glError));
        m_renderer->release();
    }
    m_glRenderer = m_renderer->rendererString();
    m_region.valid = false;
    m_contentChanged = true;
}

void DendrogramWidget::releaseGL() {
    makeCurrent();
    m_renderer->release();
    m_region.valid = false;
    doneCurrent();
}

void DendrogramWidget::resizeGL(int, int) {
    m_region.valid = false;
}

void DendrogramWidget::contentChanged() {
    m_contentChanged = true;
    m_drawnPending = true;
    update();
}

void DendrogramWidget::setTree(std::shared_ptr<const DendrogramLayout> layout) {
    m_layout = std::move(layout);
    m_cut.reset();
    m_selection = LeafSelection();
    m_collapsed.assign(m_layout ? m_layout->leafCount - 1 : 0, 0);
    m_collapsedNodes.clear();
    m_thresholdMarks.reset();
    m_hoverNode = -1;
    if (m_layout) {
        m_scale = HeightScale::forLayout(*m_layout, m_scale.logarithmic);
        m_view.reset(*m_layout, m_scale);
    }
    contentChanged();
}

void DendrogramWidget::setCut(std::shared_ptr<const DendrogramCut> cut) {
    m_cut = std::move(cut);
    contentChanged();
}

void DendrogramWidget::setSelectedLeaves(const std::vector<std::int64_t>& leafIds) {
    if (!m_layout) return;
    LeafSelection selection = leafIds.empty() ? LeafSelection() : LeafSelection(*m_layout, leafIds);
    if (selection.isEmpty() && m_selection.isEmpty()) return;
    m_selection = std::move(selection);
    contentChanged();
}

void DendrogramWidget::setFeatures(FeatureSelection features) {
    m_features = std::move(features);
}

void DendrogramWidget::setPointNames(std::shared_ptr<const std::vector<std::string>> names) {
    m_pointNames = std::move(names);
    update();
}

void DendrogramWidget::setLogHeights(bool logarithmic) {
    if (logarithmic == m_scale.logarithmic) return;
    m_scale.logarithmic = logarithmic;
    if (m_layout) {
        // Keep the leaves in view, show the whole height range in the new scale.
        const double x0 = m_view.x0(), x1 = m_view.x1();
        m_scale = HeightScale::forLayout(*m_layout, logarithmic);
        m_view.reset(*m_layout, m_scale);
        m_view.setWindow(x0, x1, m_view.y0(), m_view.y1());
    }
    contentChanged();
}

void DendrogramWidget::toggleCollapsed(std::int32_t node) {
    if (!m_layout || m_layout->isLeaf(node) || node > m_layout->root()) return;
    std::uint8_t& flag = m_collapsed[m_layout->row(node)];
    flag = flag ? 0 : 1;
    if (flag)
        m_collapsedNodes.push_back(node);
    else
        m_collapsedNodes.erase(std::remove(m_collapsedNodes.begin(), m_collapsedNodes.end(), node),
                               m_collapsedNodes.end());
    contentChanged();
    Q_EMIT collapsedChanged();
}

void DendrogramWidget::expandAll() {
    if (m_collapsedNodes.empty()) return;
    std::fill(m_collapsed.begin(), m_collapsed.end(), 0);
    m_collapsedNodes.clear();
    contentChanged();
    Q_EMIT collapsedChanged();
}

bool DendrogramWidget::isCollapsed(std::int32_t node) const {
    return m_layout && !m_layout->isLeaf(node) && node <= m_layout->root() && m_collapsed[m_layout->row(node)];
}

void DendrogramWidget::resetView() {
    if (m_layout) m_view.reset(*m_layout, m_scale);
    update();
}

void DendrogramWidget::panByPixels(QPointF delta) {
    m_view.panPixels(delta, plotRect());
    update();
}

void DendrogramWidget::zoomAt(QPointF widgetPos, double fx, double fy) {
    m_view.zoomAt(widgetPos, fx, fy, plotRect());
    m_refineTimer.start();
    update();
}

void DendrogramWidget::zoomToSubtree(std::int32_t node) {
    if (!m_layout || node < 0 || node > m_layout->root()) return;
    const auto n = static_cast<std::size_t>(node);
    const double pad = 0.04 * m_layout->size[n] + 0.5;
    m_view.setWindow(m_layout->first[n] - pad, m_layout->first[n] + m_layout->size[n] + pad, m_view.y0(), m_view.y1());
    m_refineTimer.start();
    update();
}

QRectF DendrogramWidget::plotRect() const {
    const QFontMetrics metrics(font());
    const double left = heightAxisWidth(font());
    const double bottom = 2 * metrics.height() + 8 + colourStripsExtent(font(), drawnStripCount());
    const double top = metrics.height() + 10;
    const double right = 14;
    return QRectF(left, top, std::max(10.0, width() - left - right), std::max(10.0, height() - top - bottom));
}

QSize DendrogramWidget::plotPixels() const {
    const double dpr = devicePixelRatioF();
    const QRectF plot = plotRect();
    return {qRound(plot.width() * dpr), qRound(plot.height() * dpr)};
}

DendrogramWidget::Region DendrogramWidget::regionFor(QSize plot) const {
    Region r;
    const int mx = plot.width() / 2, my = plot.height() / 2;
    const double ux = (m_view.x1() - m_view.x0()) / plot.width();
    const double uy = (m_view.y1() - m_view.y0()) / plot.height();
    r.window = DendrogramView::exact(m_view.x0() - mx * ux, m_view.x1() + mx * ux, m_view.y0() - my * uy,
                                     m_view.y1() + my * uy);
    r.pixels = QSize(plot.width() + 2 * mx, plot.height() + 2 * my);
    r.valid = true;
    return r;
}

bool DendrogramWidget::regionServes(const Region& region, QSize plot, bool exactScale) const {
    if (!region.valid) return false;
    const DendrogramView& w = region.window;
    const bool covers =
        m_view.x0() >= w.x0() && m_view.x1() <= w.x1() && m_view.y0() >= w.y0() && m_view.y1() <= w.y1();
    if (!covers || !exactScale) return covers;
    return sameScale((w.x1() - w.x0()) / region.pixels.width(), (m_view.x1() - m_view.x0()) / plot.width()) &&
           sameScale((w.y1() - w.y0()) / region.pixels.height(), (m_view.y1() - m_view.y0()) / plot.height());
}

void DendrogramWidget::buildGeometry(QSize plot) {
    QElapsedTimer clock;
    clock.start();
    const Region region = regionFor(plot);
    const double dpr = devicePixelRatioF();
    GeometryRequest request;
    request.layout = m_layout.get();
    request.cut = m_cut.get();
    request.selection = m_selection.isEmpty() ? nullptr : &m_selection;
    request.collapsed = m_collapsedNodes.empty() ? nullptr : &m_collapsed;
    request.view = region.window;
    request.scale = m_scale;
    request.area = QRectF(QPointF(0, 0), QSizeF(region.pixels));
    request.lineWidth = dpr;
    request.minSubtreeWidth = dpr;
    request.rugHeight = kRugHeight * dpr;
    m_geometry = buildDendrogramGeometry(request);
    m_renderer->upload(m_geometry);
    m_region = region;
    m_contentChanged = false;
    m_refineTimer.stop();
    ++m_geometryBuilds;
    m_lastBuildMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

// Region pixels (y downwards) -> clip space of the plot viewport for the current view.
std::array<float, 4> DendrogramWidget::regionTransform() const {
    const DendrogramView& r = m_region.window;
    const double vw = m_view.x1() - m_view.x0(), vh = m_view.y1() - m_view.y0();
    const double sx = (r.x1() - r.x0()) / m_region.pixels.width() * 2.0 / vw;
    const double ox = (r.x0() - m_view.x0()) * 2.0 / vw - 1.0;
    const double sy = -(r.y1() - r.y0()) / m_region.pixels.height() * 2.0 / vh;
    const double oy = (r.y1() - m_view.y0()) * 2.0 / vh - 1.0;
    return {static_cast<float>(sx), static_cast<float>(sy), static_cast<float>(ox), static_cast<float>(oy)};
}

void DendrogramWidget::renderTree() {
    auto* gl = context()->functions();
    const QSize plot = plotPixels();
    if (m_contentChanged || !regionServes(m_region, plot, false))
        buildGeometry(plot);
    else if (!regionServes(m_region, plot, true) && !m_refineTimer.isActive())
        m_refineTimer.start();
    const double dpr = devicePixelRatioF();
    const QRectF area = plotRect();
    const int x = qRound(area.left() * dpr), y = qRound((height() - area.bottom()) * dpr);
    gl->glViewport(x, y, plot.width(), plot.height());
    gl->glEnable(GL_SCISSOR_TEST);
    gl->glScissor(x, y, plot.width(), plot.height());
    m_renderer->draw(regionTransform());
    gl->glDisable(GL_SCISSOR_TEST);
    gl->glViewport(0, 0, qRound(width() * dpr), qRound(height() * dpr));
}

void DendrogramWidget::paintGL() {
    QPainter painter(this);
    painter.beginNativePainting();
    auto* gl = context()->functions();
    gl->glClearColor(1.0f, 1.0f, 1.0f, 1.0f);
    gl->glClear(GL_COLOR_BUFFER_BIT);
    if (m_layout && m_renderer->isReady()) renderTree();
    painter.endNativePainting();
    paintOverlay(painter);
}

}  // namespace clusterlens::views
