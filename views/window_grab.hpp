#pragma once
// A picture of a window as the user sees it, for screenshots and GUI tests.

#include <QImage>

class QWidget;

namespace clusterlens::views {

/// QWidget::grab() renders a QOpenGLWidget without what paintGL() paints with QPainter (the painter
/// is redirected while grabbing), so each visible OpenGL view's own framebuffer — axes and labels
/// included — is drawn over its place.
QImage grabWindowWithViews(QWidget& window);

}  // namespace clusterlens::views
