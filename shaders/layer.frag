#version 330 core
// Copies the opaque point layer (points already blended onto the plot background).

in vec2 v_uv;
uniform sampler2D u_layer;
out vec4 fragColor;

void main() {
    fragColor = texture(u_layer, v_uv);
}
