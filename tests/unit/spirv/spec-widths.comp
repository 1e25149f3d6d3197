#version 450
// Specialization constants of 8-, 16- and 64-bit integer and 16-bit float
// types (parsed only, never compiled by a driver).
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(constant_id = 5) const int64_t L = 9;
layout(constant_id = 6) const uint16_t S = uint16_t(4);
layout(constant_id = 7) const int8_t C = int8_t(2);
layout(constant_id = 8) const float16_t H = float16_t(0.5);
layout(constant_id = 9) const uint64_t UL = 1ul;
layout(set = 0, binding = 0) buffer Out { int64_t l; uint64_t ul; float f; int i; } o;
void main() {
  int x = int(gl_GlobalInvocationID.x);
  o.l = L * int64_t(x);
  o.ul = UL * uint64_t(x);
  o.f = float(H * float16_t(x));
  o.i = int(S * uint16_t(x)) + int(C * int8_t(x));
}
