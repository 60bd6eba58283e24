#version 330 core
// Colours VAT/iVAT distances as the engine's colormapIndex() does (engine/src/cpu/colormap.cpp):
// clip to the levels [u_lo, u_hi] (percentiles of the rendered image), normalise (0 or 1 when the
// levels are equal; NaN gives 0), raise to u_gamma and look up entry round(t * 255) of the colormap table
// (256 x 1, the engine's colormapTable), so the screen, the exported figures and the command line's
// PNG show the same colours.

in vec2 v_uv;

uniform sampler2D u_image;     // R32F distances, texel row 0 = image row 0 (the top)
uniform sampler2D u_colormap;  // RGB8, 256 x 1
uniform float u_lo;
uniform float u_hi;
uniform float u_gamma;

out vec4 fragColor;

void main() {
    float v = texture(u_image, v_uv).r;
    float t;
    if (isnan(v))
        t = 0.0;
    else if (u_hi > u_lo)
        t = (clamp(v, u_lo, u_hi) - u_lo) / (u_hi - u_lo);
    else
        t = v <= u_lo ? 0.0 : 1.0;
    t = pow(t, u_gamma);
    int index = clamp(int(floor(t * 255.0 + 0.5)), 0, 255);
    fragColor = vec4(texelFetch(u_colormap, ivec2(index, 0), 0).rgb, 1.0);
}
