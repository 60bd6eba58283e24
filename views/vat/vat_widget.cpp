#include "vat/vat_widget.hpp"

#include <QElapsedTimer>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>

#include "vat/vat_frame_renderer.hpp"
#include "vat/vat_gl_renderer.hpp"
#include "vat/vat_interop_target.hpp"
#include "vat/vat_run.hpp"

namespace clusterlens::views {

namespace {

const QString kFrameSlot = QStringLiteral("vat-frame");
constexpr int kLevelSampleSide = 256;  // interop path: levels from a small host render of the same view

bool sameContent(const VatDisplay& a, const VatDisplay& b) {
    const bool vatMode = a.kind == VatImageKind::Vat && a.mode != b.mode;
    return a.kind == b.kind && !vatMode && a.lowPercent == b.lowPercent && a.highPercent == b.highPercent;
}

}  // namespace

VatWidget::VatWidget(QWidget* parent)
    : QOpenGLWidget(parent), m_gl(std::make_unique<VatGlRenderer>()), m_frames(std::make_unique<JobRunner>()) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(minimumSizeHint());
    connect(this, &QOpenGLWidget::frameSwapped, this, [this] {
        if (m_settledPending && isSettled()) {
            m_settledPending = false;
            Q_EMIT frameSettled();
        }
    });
}

VatWidget::~VatWidget() {
    m_frames.reset();  // waits for a render still running; its result is dropped
    // As the other GL views: free GL objects (and the CUDA registration) while the context exists.
    if (QOpenGLContext* gl = context()) {
        disconnect(gl, nullptr, this, nullptr);
        if (gl->isValid()) {
            makeCurrent();
            m_interop.reset();
            m_gl->release();
            doneCurrent();
        }
    }
}

void VatWidget::initializeGL() {
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &VatWidget::releaseGL, Qt::UniqueConnection);
    m_glError.clear();
    if (!m_gl->initialize(&m_glError)) {
        qWarning("clusterlens: %s", qPrintable(m_glError));
        m_gl->release();
    }
    m_glVendor = m_gl->vendorString();
    m_glRenderer = m_gl->rendererString();
    m_interop = VatInteropTarget::create(&m_interopReason);
    m_colormapDirty = true;
    // A new context has an empty texture: upload the host image again, render again on the interop path.
    m_hasShown = false;
    if (m_shownImage && !m_incoming) {
        m_incoming = m_shownImage;
        m_incomingGeneration = m_shownGeneration;
    }
    updateRenderPath();
}

void VatWidget::releaseGL() {
    makeCurrent();
    m_interop.reset();
    m_gl->release();
    m_hasShown = false;
    doneCurrent();
}

void VatWidget::resizeGL(int, int) {
    m_settledPending = true;
}

void VatWidget::changed(bool content) {
    if (content) ++m_generation;
    m_failed.reset();
    m_settledPending = true;
    update();
}

void VatWidget::setRun(std::shared_ptr<const VatRun> run) {
    m_frames->cancelSlot(kFrameSlot);
    m_renderJob = 0;
    m_run = std::move(run);
    m_window.reset(m_run ? m_run->n() : 0);
    m_cuts.clear();
    m_block.reset();
    m_marked.reset();
    m_labels.reset();
    m_hasShown = false;
    m_shownImage.reset();
    m_incoming.reset();
    m_hoverText.clear();
    updateRenderPath();
    changed(true);
    Q_EMIT viewChanged();
}

void VatWidget::setDisplay(const VatDisplay& display) {
    const bool content = !sameContent(display, m_display);
    m_colormapDirty =
        m_colormapDirty || display.colormap != m_display.colormap || display.reversed != m_display.reversed;
    m_display = display;
    changed(content);
}

void VatWidget::setHoldLevels(bool hold) {
    m_holdLevels = hold;
    if (!hold && m_shownImage) {
        m_lo = m_shownImage->lo;
        m_hi = m_shownImage->hi;
    }
    update();
}

void VatWidget::setCutBoundaries(std::vector<std::size_t> boundaries) {
    m_cuts = std::move(boundaries);
    changed(false);
}

void VatWidget::setSelectedBlock(std::size_t first, std::size_t last) {
    if (!m_run || m_run->n() == 0) return;
    last = std::min(last, m_run->n() - 1);
    m_block = std::make_pair(std::min(first, last), last);
    changed(false);
}

void VatWidget::clearSelectedBlock() {
    if (!m_block) return;
    m_block.reset();
    changed(false);
}

void VatWidget::setMarkedPositions(std::shared_ptr<const std::vector<std::int64_t>> positions) {
    m_marked = positions && !positions->empty() ? std::move(positions) : nullptr;
    changed(false);
}

void VatWidget::setLabels(std::shared_ptr<const LabelVector> labels) {
    m_labels = labels && m_run && labels->size() == m_run->n() ? std::move(labels) : nullptr;
    changed(false);
}

void VatWidget::setStrips(std::shared_ptr<const ColourStrips> strips) {
    m_strips = std::move(strips);
    changed(false);
}

void VatWidget::resetView() {
    m_window.reset(m_run ? m_run->n() : 0);
    changed(false);
    Q_EMIT viewChanged();
}

void VatWidget::panByPixels(QPointF delta) {
    m_window.panPixels(delta, plotRect().size());
    changed(false);
    Q_EMIT viewChanged();
}

void VatWidget::zoomAt(QPointF widgetPos, double factor) {
    m_window.zoomAt(widgetPos - plotRect().topLeft(), factor, plotRect().size());
    changed(false);
    Q_EMIT viewChanged();
}

void VatWidget::setWindow(double row0, double col0, double span) {
    m_window.setWindow(row0, col0, span);
    changed(false);
    Q_EMIT viewChanged();
}

QRect VatWidget::plotDeviceRect() const {
    const QFontMetrics metrics(font());
    const double dpr = devicePixelRatioF();
    // Left: row labels, the selection rug and the colouring strip; top: the same for columns.
    const double left = metrics.horizontalAdvance(QStringLiteral("0 000 000")) + 24.0;
    const double top = metrics.height() + 22.0;
    const double strips = stripsExtent();
    const double side = std::max(20.0, std::min(width() - left - 10.0 - strips, height() - top - 10.0 - strips));
    return {qRound(left * dpr), qRound(top * dpr), qRound(side * dpr), qRound(side * dpr)};
}

QRectF VatWidget::plotRect() const {
    const QRect r = plotDeviceRect();
    const double dpr = devicePixelRatioF();
    return {r.x() / dpr, r.y() / dpr, r.width() / dpr, r.height() / dpr};
}

QSize VatWidget::imagePixels() const {
    const QRect r = plotDeviceRect();
    return {std::min(r.width(), maxImageSide), std::min(r.height(), maxImageSide)};
}

QPointF VatWidget::positionsAt(QPointF widgetPos) const {
    return m_window.positionsAt(widgetPos - plotRect().topLeft(), plotRect().size());
}

QPointF VatWidget::widgetPoint(double column, double row) const {
    return m_window.plotPoint(column, row, plotRect().size()) + plotRect().topLeft();
}

VatViewport VatWidget::wantedViewport() const {
    // iVAT pixels are always the representatives' range maximum: the pixel mode does not change them.
    const VatPixelMode mode = m_display.kind == VatImageKind::Ivat ? VatPixelMode::Representative : m_display.mode;
    return m_window.viewport(imagePixels(), m_display.kind, mode);
}

bool VatWidget::isSettled() const {
    return m_run && m_hasShown && m_shownGeneration == m_generation && sameViewport(m_shownViewport, wantedViewport());
}

bool VatWidget::usesInterop() const {
    return m_interop && m_run && m_run->renderer->onDevice();
}

void VatWidget::updateRenderPath() {
    const QString gl = QStringLiteral("GL: %1, %2").arg(m_glVendor, m_glRenderer);
    QString text;
    if (!m_run)
        text = tr("VAT frames: no image yet (%1; interop: %2)").arg(gl, m_interopReason);
    else if (usesInterop())
        text = tr("VAT frames: CUDA\u2013OpenGL interop, the kernel writes the GL pixel buffer (%1)").arg(gl);
    else {
        // Interop needs the run's renderer on the device; say why it is not, or why interop is unusable.
        QString why = m_interopReason;
        if (m_interop)
            why = m_run->renderer->note().isEmpty() ? tr("the VAT was computed on the CPU backend")
                                                    : m_run->renderer->note();
        text = tr("VAT frames: %1 \u2192 host memory \u2192 texture (%2; interop: %3)")
                   .arg(m_run->renderer->description(), gl, why);
    }
    if (text == m_renderPath) return;
    m_renderPath = text;
    Q_EMIT renderPathChanged(m_renderPath);
}

void VatWidget::showImage(const VatViewport& viewport, quint64 generation, float lo, float hi) {
    m_hasShown = true;
    m_shownViewport = viewport;
    m_shownGeneration = generation;
    if (!m_holdLevels || !(m_hi > m_lo)) {
        m_lo = lo;
        m_hi = hi;
    }
}

void VatWidget::renderWithInterop(const VatViewport& wanted) {
    const VatFrameRenderer& renderer = *m_run->renderer;
    try {
        QElapsedTimer clock;
        clock.start();
        m_interop->renderInto(renderer, wanted, *m_gl);
        VatViewport sample = wanted;
        sample.width = std::min(wanted.width, kLevelSampleSide);
        sample.height = std::min(wanted.height, kLevelSampleSide);
        const VatImage levels = renderVatImage(renderer, sample, m_display);
        showImage(wanted, m_generation, levels.lo, levels.hi);
        m_shownImage.reset();
        ++m_renderCount;
        m_lastRenderMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    } catch (const std::exception& error) {
        // The interop path failed on this machine: the host path shows the same frames.
        m_interop.reset();
        m_interopReason = tr("failed: %1").arg(QString::fromUtf8(error.what()));
        updateRenderPath();
        Q_EMIT renderFailed(m_interopReason);
    }
}

void VatWidget::scheduleHostRender() {
    const VatViewport wanted = wantedViewport();
    const quint64 generation = m_generation;
    if (m_incoming && m_incomingGeneration == generation && sameViewport(m_incoming->viewport, wanted)) return;
    if (m_hasShown && m_shownGeneration == generation && sameViewport(m_shownViewport, wanted)) return;
    if (m_failed && m_failed->second == generation && sameViewport(m_failed->first, wanted)) return;
    // One render at a time: a newer view waits for the one in flight, unless the content changed.
    if (m_renderJob != 0 && m_renderingGeneration == generation) return;
    const auto renderer = m_run->renderer;
    const VatDisplay display = m_display;
    m_renderingViewport = wanted;
    m_renderingGeneration = generation;
    m_renderJob = m_frames->start<VatImage>(
        this, kFrameSlot, QStringLiteral("VAT frame"),
        [renderer, wanted, display](JobControl& control) {
            return renderVatImage(*renderer, wanted, display, &control);
        },
        [this, generation](const JobOutcome<VatImage>& outcome) { onHostImage(outcome, generation); });
}

void VatWidget::onHostImage(const JobOutcome<VatImage>& outcome, quint64 generation) {
    m_renderJob = 0;
    if (outcome.state == JobState::Finished && generation == m_generation) {
        m_incoming = outcome.result;
        m_incomingGeneration = generation;
        ++m_renderCount;
        m_lastRenderMs = outcome.result->milliseconds;
    } else if (outcome.state == JobState::Failed) {
        m_failed = std::make_pair(m_renderingViewport, generation);
        Q_EMIT renderFailed(outcome.message);
    }
    update();  // uploads the image and asks for the latest view
}

std::array<float, 4> VatWidget::imageRect() const {
    const auto x = [this](double column) {
        return static_cast<float>((column - m_window.col0()) / m_window.span() * 2.0 - 1.0);
    };
    const auto y = [this](double row) {
        return static_cast<float>(1.0 - (row - m_window.row0()) / m_window.span() * 2.0);
    };
    return {x(m_shownViewport.col0), y(m_shownViewport.row0), x(m_shownViewport.col1), y(m_shownViewport.row1)};
}

void VatWidget::paintGL() {
    QPainter painter(this);
    painter.beginNativePainting();
    auto* gl = context()->functions();
    gl->glClearColor(1.0f, 1.0f, 1.0f, 1.0f);
    gl->glClear(GL_COLOR_BUFFER_BIT);
    const QRect plot = plotDeviceRect();
    const int fbHeight = qRound(height() * devicePixelRatioF());
    gl->glViewport(plot.x(), fbHeight - plot.y() - plot.height(), plot.width(), plot.height());
    gl->glEnable(GL_SCISSOR_TEST);
    gl->glScissor(plot.x(), fbHeight - plot.y() - plot.height(), plot.width(), plot.height());
    // The part of the plot no image covers yet (a pan ahead of its render).
    gl->glClearColor(0.85f, 0.85f, 0.85f, 1.0f);
    gl->glClear(GL_COLOR_BUFFER_BIT);
    if (m_run && m_gl->isReady()) {
        if (m_colormapDirty) {
            m_gl->uploadColormap(vatColourTable(m_display));
            m_colormapDirty = false;
        }
        if (m_incoming) {
            m_gl->uploadImage(QSize(m_incoming->viewport.width, m_incoming->viewport.height),
                              m_incoming->pixels.data());
            m_shownImage = std::exchange(m_incoming, nullptr);
            showImage(m_shownImage->viewport, m_incomingGeneration, m_shownImage->lo, m_shownImage->hi);
        }
        const VatViewport wanted = wantedViewport();
        if (usesInterop() && !isSettled()) renderWithInterop(wanted);
        if (!usesInterop() && wanted.width > 0) scheduleHostRender();
        if (m_hasShown) m_gl->draw(imageRect(), m_lo, m_hi, static_cast<float>(m_display.gamma));
    }
    gl->glDisable(GL_SCISSOR_TEST);
    gl->glViewport(0, 0, qRound(width() * devicePixelRatioF()), fbHeight);
    painter.endNativePainting();
    paintOverlay(painter);
}

}  // namespace clusterlens::views
