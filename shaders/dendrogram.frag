#version 330 core
// Flat colour: the geometry is already cut to whole pixels, so no per-fragment work is needed
// (every instruction here costs at every covered pixel on a software rasteriser).

in vec4 v_color;
out vec4 fragColor;

void main() {
    fragColor = v_color;
}
