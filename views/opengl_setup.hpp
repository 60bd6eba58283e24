#pragma once
// OpenGL set-up shared by the application, the GUI tests and the benchmark. Call before the
// QApplication is constructed: every QOpenGLWidget then gets an OpenGL 3.3 core context (our
// shaders are GLSL 330) that shares resources with the window's compositor.

namespace clusterlens::views {

/// Sets the default QSurfaceFormat (3.3 core, 8-bit stencil for QPainter clipping) and
/// Qt::AA_ShareOpenGLContexts. `vsync` false lets frame-time measurements exceed the refresh rate.
void setUpOpenGl(bool vsync = true);

}  // namespace clusterlens::views
