#version 330 core
// Data scatter, one GL_POINTS vertex per point. Positions arrive normalised to [0,1]^2 once, at
// upload; pan and zoom only change u_origin/u_scale, so moving the view never touches the buffers.
// The colour is looked up here, once per point, rather than once per fragment: a software
// rasteriser (Mesa llvmpipe) pays for every fragment-shader instruction at 1M points.

layout(location = 0) in vec2 a_position;
layout(location = 1) in float a_value;    // density in [0,1], or a cluster label (-1 = noise)
layout(location = 2) in float a_selected; // 0 or 1

uniform vec2 u_origin;   // normalised coordinates of the bottom-left corner of the view
uniform vec2 u_scale;    // 2 / view size
uniform float u_pointSize;
uniform float u_alpha;
uniform int u_mode;                // 0: colour by density, 1: colour by label
uniform sampler2D u_colormap;      // continuous colormap, width x 1
uniform sampler2D u_labelColors;   // categorical palette, u_labelCount x 1
uniform int u_labelCount;
uniform vec4 u_noiseColor;
uniform bool u_hasSelection;

flat out vec4 v_color;

vec4 baseColor() {
    if (u_mode == 0) {
        float width = float(textureSize(u_colormap, 0).x);
        float t = clamp(a_value, 0.0, 1.0);
        return texture(u_colormap, vec2((t * (width - 1.0) + 0.5) / width, 0.5));
    }
    int label = int(round(a_value));
    if (label < 0)
        return u_noiseColor;
    return texelFetch(u_labelColors, ivec2(label % u_labelCount, 0), 0);
}

void main() {
    // Subtracting the origin before scaling keeps float precision when zoomed in deeply.
    gl_Position = vec4((a_position - u_origin) * u_scale - 1.0, 0.0, 1.0);
    vec4 color = baseColor();
    float size = u_pointSize;
    if (u_hasSelection) {
        if (a_selected > 0.5) {
            size += 1.0;
            color.a = 1.0;
        } else {
            // Unselected points fade towards light grey so the selection stands out.
            color = vec4(mix(color.rgb, vec3(0.78), 0.75), color.a * 0.35);
        }
    }
    gl_PointSize = size;
    v_color = vec4(color.rgb, color.a * u_alpha);
}
