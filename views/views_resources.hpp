#pragma once
// The views library's Qt resources (the GLSL shaders) live in a static library, whose resource
// initialiser a linker may drop; anything reading ":/clusterlens/shaders/..." calls this first.

#include <QString>

namespace clusterlens::views {

/// Registers the views resources once; cheap after the first call.
void ensureViewsResources();

/// Text of shaders/NAME from the resources; empty when missing.
QString shaderSource(const QString& name);

}  // namespace clusterlens::views
