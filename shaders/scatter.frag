#version 330 core
// Round, softly edged point sprites. Square points (u_round false) skip the per-fragment work,
// which matters for 1-2 pixel points where roundness is invisible anyway.

flat in vec4 v_color;
uniform bool u_round;
out vec4 fragColor;

void main() {
    float alpha = v_color.a;
    if (u_round) {
        vec2 c = gl_PointCoord * 2.0 - 1.0;
        float r2 = dot(c, c);
        if (r2 > 1.0)
            discard;
        alpha *= 1.0 - smoothstep(0.55, 1.0, r2);
    }
    fragColor = vec4(v_color.rgb, alpha);
}
