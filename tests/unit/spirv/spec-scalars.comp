#version 450
// Specialization constants of 32- and 64-bit scalar types and booleans,
// declared out of ID order (test-spirv.c reads them back sorted).
layout(local_size_x = 1) in;
layout(constant_id = 4) const double D = 2.5;
layout(constant_id = 0) const bool B = true;
layout(constant_id = 1) const int I = 7;
layout(constant_id = 2) const uint U = 3u;
layout(constant_id = 3) const float F = 1.5;
layout(constant_id = 10) const bool B2 = false;
layout(set = 0, binding = 0) buffer Out { double d; float f; int i; uint u; } o;
void main() {
  o.d = D;
  o.f = F;
  o.i = B ? I : 0;
  o.u = B2 ? U : 1u;
}
