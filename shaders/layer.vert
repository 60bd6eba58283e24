#version 330 core
// Draws a cached point layer (a texture holding every point rendered for a region of the data)
// as one quad. The region is given in normalised data coordinates and mapped with the same
// scale/offset uniform as the points, so panning and zooming move the cached image exactly.

layout(location = 0) in vec2 a_corner;   // (0,0), (1,0), (0,1), (1,1)

uniform vec4 u_region;                   // x0, y0, x1, y1 in normalised data coordinates
uniform vec2 u_origin;                   // bottom-left corner of the view
uniform vec2 u_scale;                    // 2 / view size

out vec2 v_uv;

void main() {
    vec2 n = mix(u_region.xy, u_region.zw, a_corner);
    gl_Position = vec4((n - u_origin) * u_scale - 1.0, 0.0, 1.0);
    v_uv = a_corner;
}
