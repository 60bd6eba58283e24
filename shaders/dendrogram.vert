#version 330 core
// Dendrogram geometry (links as pixel-wide quads, density strips, marks), built on the CPU in the
// pixel space of a region around the view. Panning and zooming change only the affine map from
// region pixels to clip space, so moving the view never touches the vertex buffer.

layout(location = 0) in vec2 a_position;  // region pixels, y downwards
layout(location = 1) in vec4 a_color;     // RGBA8, normalised

uniform vec4 u_transform;  // clip = a_position * u_transform.xy + u_transform.zw

out vec4 v_color;

void main() {
    gl_Position = vec4(a_position * u_transform.xy + u_transform.zw, 0.0, 1.0);
    v_color = a_color;
}
