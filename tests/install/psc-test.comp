// The smallest useful compute shader for the install, Python and API tests:
// one push constant, one storage buffer, so a pipeline layout and a
// descriptor-set layout are part of the request.
#version 450

layout(local_size_x = 8) in;

layout(push_constant) uniform Push {
  uint base;
} push;

layout(std430, set = 0, binding = 0) buffer Out {
  uint values[];
} out_buf;

void main()
{
  out_buf.values[gl_GlobalInvocationID.x] = push.base + gl_GlobalInvocationID.x;
}
