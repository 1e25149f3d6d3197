#version 450
// Benchmark vertex shader: 4 attributes, 2 specialization constants.
layout(constant_id = 0) const int VARIANT = 0;
layout(constant_id = 1) const float SCALE = 1.0;
layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec4 in_color;
layout(set = 0, binding = 0) uniform Frame { mat4 view_proj; } frame;
layout(push_constant) uniform Push { mat4 model; } push;
layout(location = 0) out vec4 v_color;
layout(location = 1) out vec2 v_uv;
void main() {
  vec3 p = in_pos * SCALE + in_normal * 0.01 * float(VARIANT);
  gl_Position = frame.view_proj * push.model * vec4(p, 1.0);
  v_color = in_color;
  v_uv = in_uv;
}
