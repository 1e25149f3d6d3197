#version 450
// Samples one of the offscreen targets (set 1, two immutable samplers).
// Specialization constant 0 picks the source: 0 = the HDR target (tone
// mapped), 1 = the resolved multisampled target.

layout(constant_id = 0) const int SOURCE = 0;

layout(set = 1, binding = 0) uniform sampler2D sources[2];

layout(location = 1) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main ()
{
  vec3 c = texture (sources[SOURCE], v_uv).rgb;
  if (SOURCE == 0)
    c = c / (vec3 (1.0) + c);
  out_color = vec4 (c, 1.0);
}
