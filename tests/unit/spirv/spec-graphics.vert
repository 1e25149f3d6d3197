#version 450
// A vertex stage with two specialization constants (IDs 0 and 3).
layout(constant_id = 3) const float SCALE = 1.0;
layout(constant_id = 0) const int VARIANT = 0;
layout(location = 0) in vec3 in_pos;
void main() {
  gl_Position = vec4(in_pos * SCALE + float(VARIANT), 1.0);
}
