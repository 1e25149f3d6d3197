#version 450
// A screen-space panel (two triangles, no vertex buffer) used to composite
// the offscreen targets into the final image.

layout(push_constant) uniform Push {
  vec4 rect;
  vec4 params;
} pc;

layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;
layout(location = 2) out vec4 v_color;

const vec2 corners[6] = vec2[] (
  vec2 (-1.0, -1.0), vec2 (1.0, -1.0), vec2 (1.0, 1.0),
  vec2 (-1.0, -1.0), vec2 (1.0, 1.0), vec2 (-1.0, 1.0));

void main ()
{
  vec2 p = corners[gl_VertexIndex % 6];
  gl_Position = vec4 (pc.rect.xy + p * pc.rect.zw, pc.params.y, 1.0);
  v_normal = vec3 (0.0, 0.0, 1.0);
  v_uv = p * 0.5 + 0.5;
  v_color = vec4 (1.0);
}
