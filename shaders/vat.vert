#version 330 core
// One quad showing the rendered VAT/iVAT image. The image may be older than the view (a render of
// the new view is under way), so the quad covers where the image's window lies in the current view:
// u_rect = (left, top, right, bottom) in clip space. Image row 0 is the top row of the window.

layout(location = 0) in vec2 a_corner;  // (0,0), (1,0), (0,1), (1,1); y grows downwards

uniform vec4 u_rect;

out vec2 v_uv;

void main() {
    gl_Position = vec4(mix(u_rect.xy, u_rect.zw, a_corner), 0.0, 1.0);
    v_uv = a_corner;
}
