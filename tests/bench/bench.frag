#version 450
// Benchmark fragment shader: up to 4 colour outputs, 2 specialization constants.
layout(constant_id = 0) const int MODE = 0;
layout(constant_id = 2) const bool TINT = false;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) in vec4 v_color;
layout(location = 1) in vec2 v_uv;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
void main() {
  vec4 c = v_color * texture(tex, v_uv);
  if (TINT) c.rgb *= 0.5;
  c.a = float(MODE & 7) / 7.0;
  o0 = c; o1 = c.bgra; o2 = c.gbra; o3 = vec4(c.r);
}
