// psc-bench churn: one compute pipeline per value of a specialization
// constant, so K distinct keys cost one small compile each.
#version 450

layout(local_size_x = 8) in;
layout(constant_id = 0) const uint SALT = 0u;

layout(std430, set = 0, binding = 0) buffer Out {
  uint values[];
} out_buf;

void main()
{
  out_buf.values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 7u + SALT;
}
