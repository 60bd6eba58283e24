#include "scatter/scatter_widget.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QLineF>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <utility>

#include "scatter/layer_cache.hpp"
#include "scatter/scatter_renderer.hpp"

namespace clusterlens::views {

namespace {

constexpr double kWheelZoomPerStep = 1.2;  // one notch (120 units) magnifies by 20 %
constexpr double kClickTolerance = 3.0;    // pixels a right-click may move and still be a click
constexpr double kBuildBudgetMs = 15.0;    // point rendering per frame while a layer is built
constexpr int kRefineDelayMs = 150;        // idle time after a zoom before the sharp layer is built

}  // namespace

ScatterWidget::ScatterWidget(QWidget* parent)
    : QOpenGLWidget(parent), m_renderer(std::make_unique<ScatterRenderer>()), m_layers(std::make_unique<LayerCache>()) {
    setFocusPolicy(Qt::StrongFocus);
    m_refineTimer.setSingleShot(true);
    m_refineTimer.setInterval(kRefineDelayMs);
    connect(&m_refineTimer, &QTimer::timeout, this, &ScatterWidget::invalidateLayer);
    setMouseTracking(false);
    setMinimumSize(minimumSizeHint());
    connect(this, &QOpenGLWidget::frameSwapped, this, [this] {
        if (m_drewData && m_drawnPending) {
            m_drawnPending = false;
            Q_EMIT dataDrawn();
        }
    });
}

ScatterWidget::~ScatterWidget() {
    // The context may already be gone (aboutToBeDestroyed released everything); otherwise free
    // the GL objects while it is still current.
    if (QOpenGLContext* gl = context()) {
        // ~QOpenGLWidget destroys the context after our members are gone: no callback then.
        disconnect(gl, nullptr, this, nullptr);
        if (gl->isValid()) {
            makeCurrent();
            m_renderer->release();
            m_layers->release();
            doneCurrent();
        }
    }
}

void ScatterWidget::initializeGL() {
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &ScatterWidget::releaseGL, Qt::UniqueConnection);
    m_glError.clear();
    if (!m_renderer->initialize(&m_glError) || !m_layers->initialize(&m_glError)) {
        qWarning("clusterlens: %s", qPrintable(m_glError));
        m_renderer->release();
    }
    m_glRenderer = m_renderer->rendererString();
    m_uploadPending = m_data != nullptr;
    m_dataChanged = true;
    m_frontIsCurrent = false;
    m_selectionPending = !m_selection.isEmpty();
}

void ScatterWidget::releaseGL() {
    makeCurrent();
    m_renderer->release();
    m_layers->release();
    doneCurrent();
}

void ScatterWidget::invalidateLayer() {
    m_contentChanged = true;
    update();
}

void ScatterWidget::resizeGL(int, int) {
    m_settled = false;
}

void ScatterWidget::setData(std::shared_ptr<const ScatterData> data, bool keepView, bool keepSelection) {
    const bool sameRows = m_data && data && m_data->datasetSize == data->datasetSize;
    const QList<qsizetype> old = std::exchange(m_selection, {});
    m_data = std::move(data);
    if (!keepView) m_view.reset();
    if (!keepView || !m_data) cancelPolygonGate();  // its vertices belong to the old coordinates
    m_uploadPending = m_data != nullptr;
    m_drawnPending = m_data != nullptr;
    // Same points in a new colouring keep the old layer on screen until the new one is complete.
    (keepView ? m_contentChanged : m_dataChanged) = true;
    m_frontIsCurrent = false;
    m_settled = false;
    applySelection(keepSelection && sameRows ? old : QList<qsizetype>(), false);
    update();
    if (m_selection != old) Q_EMIT selectionChanged(m_selection);
}

void ScatterWidget::setSelection(const QList<qsizetype>& rows) {
    applySelection(rows, true);
}

void ScatterWidget::clearSelection() {
    applySelection({}, true);
}

void ScatterWidget::applySelection(QList<qsizetype> rows, bool notify) {
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    if (!m_data) {
        rows.clear();
    } else {
        // Dataset rows -> draw slots: the buffer is in draw order, not dataset order.
        std::vector<std::uint8_t> chosen(m_data->datasetSize, 0);
        for (qsizetype r : rows)
            if (r >= 0 && static_cast<std::size_t>(r) < chosen.size()) chosen[static_cast<std::size_t>(r)] = 1;
        m_selectionFlags.assign(m_data->pointCount, 0);
        for (std::size_t slot = 0; slot < m_data->pointCount; ++slot)
            m_selectionFlags[slot] = chosen[m_data->indices[slot]] ? 255 : 0;
        rows.erase(std::remove_if(rows.begin(), rows.end(),
                                  [&](qsizetype r) { return r < 0 || static_cast<std::size_t>(r) >= chosen.size(); }),
                   rows.end());
    }
    // An unchanged selection must not cost a layer rebuild. std::equal, not QList's ==: Qt 6.4's passes
    // an empty list's null data to memcmp (UBSan: null pointer passed as argument 2).
    if (std::equal(rows.cbegin(), rows.cend(), m_selection.cbegin(), m_selection.cend())) return;
    m_selection = std::move(rows);
    m_selectionPending = true;
    m_contentChanged = true;
    m_settled = false;
    update();
    if (notify) Q_EMIT selectionChanged(m_selection);
}

void ScatterWidget::selectInRect(const QRectF& widgetRect) {
    if (!m_data) return;
    const QRectF plot = plotRect();
    const QPointF a = m_view.toNormalized(widgetRect.topLeft(), plot);
    const QPointF b = m_view.toNormalized(widgetRect.bottomRight(), plot);
    const double u0 = std::min(a.x(), b.x()), u1 = std::max(a.x(), b.x());
    const double v0 = std::min(a.y(), b.y()), v1 = std::max(a.y(), b.y());
    QList<qsizetype> rows;
    const auto& p = m_data->positions;
    for (std::size_t slot = 0; slot < m_data->pointCount; ++slot) {
        const double u = p[2 * slot], v = p[2 * slot + 1];
        if (u >= u0 && u <= u1 && v >= v0 && v <= v1) rows.push_back(static_cast<qsizetype>(m_data->indices[slot]));
    }
    applySelection(std::move(rows), true);
}

void ScatterWidget::selectInPolygon(const QPolygonF& widgetPolygon) {
    if (!m_data || widgetPolygon.size() < 3) return;
    // The polygon goes to normalised data coordinates once; the points are then tested where they live.
    const QRectF plot = plotRect();
    std::vector<QPointF> poly;
    poly.reserve(static_cast<std::size_t>(widgetPolygon.size()));
    for (const QPointF& q : widgetPolygon) poly.push_back(m_view.toNormalized(q, plot));
    double u0 = poly[0].x(), u1 = u0, v0 = poly[0].y(), v1 = v0;
    for (const QPointF& q : poly) {
        u0 = std::min(u0, q.x()), u1 = std::max(u1, q.x());
        v0 = std::min(v0, q.y()), v1 = std::max(v1, q.y());
    }
    QList<qsizetype> rows;
    const auto& p = m_data->positions;
    for (std::size_t slot = 0; slot < m_data->pointCount; ++slot) {
        const double u = p[2 * slot], v = p[2 * slot + 1];
        if (u < u0 || u > u1 || v < v0 || v > v1) continue;
        // Even-odd rule: count the polygon edges that a ray to +u crosses.
        bool inside = false;
        for (std::size_t a = 0, b = poly.size() - 1; a < poly.size(); b = a++) {
            const double ya = poly[a].y(), yb = poly[b].y();
            if ((ya > v) != (yb > v) && u < poly[a].x() + (v - ya) * (poly[b].x() - poly[a].x()) / (yb - ya))
                inside = !inside;
        }
        if (inside) rows.push_back(static_cast<qsizetype>(m_data->indices[slot]));
    }
    applySelection(std::move(rows), true);
}

void ScatterWidget::setDiagonalVisible(bool visible) {
    if (visible == m_diagonal) return;
    m_diagonal = visible;
    update();
}

void ScatterWidget::setShapesVisible(bool visible) {
    if (visible == m_shapes) return;
    m_shapes = visible;
    update();
}

void ScatterWidget::setPlaceholderText(const QString& text) {
    m_placeholder = text;
    update();
}

void ScatterWidget::setLegendVisible(bool visible) {
    if (visible == m_legend) return;
    m_legend = visible;
    update();
}

void ScatterWidget::resetView() {
    m_view.reset();
    m_settled = false;
    update();
}

void ScatterWidget::setViewWindow(const ViewWindow& window) {
    m_view = window;
    m_refineTimer.start();
    m_settled = false;
    update();
}

void ScatterWidget::panByPixels(QPointF delta) {
    m_view.panPixels(delta, plotRect());
    m_settled = false;
    update();
}

void ScatterWidget::zoomAt(QPointF widgetPos, double factor) {
    m_view.zoomAt(widgetPos, factor, plotRect());
    m_refineTimer.start();
    m_settled = false;
    update();
}

QRectF ScatterWidget::plotRect() const {
    const QFontMetrics metrics(font());
    const double left = metrics.height() + 14 + metrics.horizontalAdvance(QStringLiteral("-8888.88"));
    const double bottom = 2 * metrics.height() + 16;
    const QSizeF legend = legendSize();
    const double top = metrics.height() / 2 + 8 + legend.height();
    const double right = 18 + legend.width();
    return QRectF(left, top, std::max(10.0, width() - left - right), std::max(10.0, height() - top - bottom));
}

QPointF ScatterWidget::mapFromData(double x, double y) const {
    if (!m_data) return {};
    return m_view.toPixel({m_data->toNormalizedX(x), m_data->toNormalizedY(y)}, plotRect());
}

QPointF ScatterWidget::mapToData(QPointF widgetPos) const {
    if (!m_data) return {};
    const QPointF n = m_view.toNormalized(widgetPos, plotRect());
    return {m_data->toDataX(n.x()), m_data->toDataY(n.y())};
}

float ScatterWidget::pointSizePixels() const {
    const std::size_t n = m_data ? m_data->pointCount : 0;
    const float logical = n <= 2'000 ? 7.0f : n <= 20'000 ? 4.5f : n <= 200'000 ? 3.0f : 2.0f;
    return logical * static_cast<float>(devicePixelRatioF());
}

QSize ScatterWidget::plotPixels() const {
    const double dpr = devicePixelRatioF();
    const QRectF plot = plotRect();
    return {qRound(plot.width() * dpr), qRound(plot.height() * dpr)};
}

void ScatterWidget::uploadPending() {
    if (m_uploadPending) {
        m_renderer->upload(*m_data);
        ++m_dataUploads;
        m_uploadPending = false;
        m_selectionPending = true;
    }
    if (m_selectionPending) {
        m_renderer->uploadSelection(m_selectionFlags);
        m_selectionPending = false;
    }
}

void ScatterWidget::planLayer(QSize plot) {
    const int count = m_renderer->pointCount();
    const LayerRegion wanted = layerRegionFor(m_view, plot);
    if (m_dataChanged || m_contentChanged) {
        if (m_dataChanged) m_layers->dropFront();
        m_dataChanged = m_contentChanged = false;
        m_refineTimer.stop();
        m_layers->beginBuild(wanted, count);
        return;
    }
    const bool building = m_layers->isBuilding();
    if (!building && !m_layers->hasFront()) {
        m_layers->beginBuild(wanted, count);
        return;
    }
    const LayerRegion& current = building ? m_layers->buildRegion() : m_layers->frontRegion();
    if (!current.sameScale(m_view, plot)) {
        // Zoomed or resized: show the old layer scaled and rebuild once the user pauses.
        if (!m_refineTimer.isActive()) m_refineTimer.start();
        return;
    }
    // Build the next layer while the view is still half a margin inside the front one, so a
    // steady pan never reaches its edge; restart a build only once the view has left it.
    const double slack = building ? 0.0 : 0.5 * LayerRegion::marginFraction;
    if (!current.covers(m_view, slack)) m_layers->beginBuild(wanted, count);
}

void ScatterWidget::renderPoints() {
    auto* gl = context()->functions();
    uploadPending();
    const QSize plot = plotPixels();
    planLayer(plot);
    if (m_layers->isBuilding()) {
        ScatterDrawParams params;
        params.pointSize = pointSizePixels();
        params.alpha = m_data->pointCount <= 20'000 ? 0.85f : m_data->pointCount <= 200'000 ? 0.6f : 0.45f;
        params.hasSelection = !m_selection.isEmpty();
        const auto draw = [&](int first, int count, const std::array<float, 4>& clip) {
            params.clipTransform = clip;
            m_renderer->draw(params, first, count);
        };
        if (m_layers->continueBuild(draw, kBuildBudgetMs, defaultFramebufferObject()))
            m_frontIsCurrent = true;
        else
            QMetaObject::invokeMethod(this, qOverload<>(&QWidget::update), Qt::QueuedConnection);
    }
    // The layer is composited into the plot area only, in device pixels, origin at the bottom.
    const double dpr = devicePixelRatioF();
    const QRectF area = plotRect();
    const int x = qRound(area.left() * dpr), y = qRound((height() - area.bottom()) * dpr);
    gl->glViewport(x, y, plot.width(), plot.height());
    gl->glEnable(GL_SCISSOR_TEST);
    gl->glScissor(x, y, plot.width(), plot.height());
    m_layers->composite(m_view, plot, QRect(x, y, plot.width(), plot.height()), defaultFramebufferObject());
    const LayerRegion& front = m_layers->frontRegion();
    m_settled = m_frontIsCurrent && m_layers->hasFront() && front.covers(m_view) && front.sameScale(m_view, plot);
    gl->glDisable(GL_SCISSOR_TEST);
    gl->glViewport(0, 0, qRound(width() * dpr), qRound(height() * dpr));
}

void ScatterWidget::paintGL() {
    QPainter painter(this);
    painter.beginNativePainting();
    auto* gl = context()->functions();
    gl->glClearColor(1.0f, 1.0f, 1.0f, 1.0f);
    gl->glClear(GL_COLOR_BUFFER_BIT);
    m_drewData = false;
    m_settled = false;
    if (m_data && m_renderer->isReady()) {
        renderPoints();
        m_drewData = m_frontIsCurrent;
    }
    painter.endNativePainting();

    painter.setRenderHint(QPainter::Antialiasing, false);
    if (!m_glError.isEmpty())
        paintMessage(painter, m_glError);
    else if (!m_data)
        paintMessage(painter, m_placeholder.isEmpty() ? tr("Open a dataset: File \u2192 Open, drop a file here, or "
                                                           "File \u2192 Open demo dataset.")
                                                      : m_placeholder);
    else {
        paintAxes(painter);
        if (m_diagonal) paintDiagonal(painter);
        if (m_shapes) paintShapes(painter);
        if (m_legend) paintLegend(painter);
        paintOverlay(painter);
    }
    if (m_drag == Drag::Lasso && m_lasso.size() > 1) {
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(QPen(QColor(0x20, 0x60, 0xc0), 1.2, Qt::DashLine));
        painter.setBrush(QColor(0x20, 0x60, 0xc0, 40));
        painter.drawPolygon(m_lasso);
    }
    if (m_polygonGate) paintPolygonGate(painter);
    if (m_drag == Drag::Select) {
        painter.setPen(QPen(QColor(0x20, 0x60, 0xc0), 1.0, Qt::DashLine));
        painter.setBrush(QColor(0x20, 0x60, 0xc0, 40));
        painter.drawRect(QRectF(m_dragStart, m_dragLast).normalized());
    }
}

void ScatterWidget::mousePressEvent(QMouseEvent* event) {
    if (polygonGateMouse(event)) return;
    const bool select = event->button() == Qt::RightButton ||
                        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    const bool lasso = event->button() == Qt::LeftButton && (event->modifiers() & Qt::ControlModifier);
    if (lasso) {
        m_drag = Drag::Lasso;
        m_lasso = QPolygonF({event->position()});
    } else if (select)
        m_drag = Drag::Select;
    else if (event->button() == Qt::LeftButton)
        m_drag = Drag::Pan;
    else
        return QOpenGLWidget::mousePressEvent(event);
    m_dragStart = m_dragLast = event->position();
    event->accept();
}

void ScatterWidget::mouseMoveEvent(QMouseEvent* event) {
    if (polygonGateMouse(event)) return;
    if (m_drag == Drag::Pan)
        panByPixels(event->position() - m_dragLast);
    else if (m_drag == Drag::Select)
        update();
    else if (m_drag == Drag::Lasso) {
        // Vertices closer than a pixel add nothing but test cost.
        if (QLineF(m_lasso.back(), event->position()).length() >= 1.0) m_lasso.append(event->position());
        update();
    } else
        return QOpenGLWidget::mouseMoveEvent(event);
    m_dragLast = event->position();
    event->accept();
}

void ScatterWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (m_drag == Drag::Select) {
        m_dragLast = event->position();
        const QRectF band = QRectF(m_dragStart, m_dragLast).normalized();
        m_drag = Drag::None;
        if (band.width() < kClickTolerance && band.height() < kClickTolerance)
            clearSelection();
        else
            selectInRect(band);
        update();
    } else if (m_drag == Drag::Lasso) {
        m_drag = Drag::None;
        const QRectF bounds = m_lasso.boundingRect();
        if (m_lasso.size() < 3 || (bounds.width() < kClickTolerance && bounds.height() < kClickTolerance))
            clearSelection();
        else
            selectInPolygon(m_lasso);
        m_lasso.clear();
        update();
    } else if (m_drag == Drag::Pan) {
        m_drag = Drag::None;
    } else {
        return QOpenGLWidget::mouseReleaseEvent(event);
    }
    event->accept();
}

void ScatterWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    if (polygonGateMouse(event)) return;
    if (event->button() == Qt::LeftButton) resetView();
    event->accept();
}

void ScatterWidget::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0.0) zoomAt(event->position(), std::pow(kWheelZoomPerStep, steps));
    event->accept();
}

void ScatterWidget::keyPressEvent(QKeyEvent* event) {
    if (polygonGateKey(event)) return;
    if (event->key() == Qt::Key_Home || event->key() == Qt::Key_R)
        resetView();
    else if (event->key() == Qt::Key_Escape)
        clearSelection();
    else
        return QOpenGLWidget::keyPressEvent(event);
    event->accept();
}

}  // namespace clusterlens::views
