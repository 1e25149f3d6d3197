#version 450
// The scene's mesh vertex shader. Built twice:
//   -DLAYOUT_PNU: position + normal + uv (binding 0, stride 32)
//   -DLAYOUT_PC:  position + colour      (binding 0, stride 28)
// Both variants write the same outputs, so every fragment shader of the
// scene links with either of them.

layout(location = 0) in vec3 in_position;
#if defined(LAYOUT_PNU)
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
#elif defined(LAYOUT_PC)
layout(location = 1) in vec4 in_color;
#else
#error "define LAYOUT_PNU or LAYOUT_PC"
#endif

// rect: centre (xy) and half extent (zw) in normalized device coordinates;
// params: rotation (radians), depth, palette index, unused.
layout(push_constant) uniform Push {
  vec4 rect;
  vec4 params;
} pc;

layout(set = 0, binding = 0) uniform Scene {
  vec4 light_dir[4];
  vec4 light_color[4];
  vec4 palette[8];
} scene;

layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;
layout(location = 2) out vec4 v_color;

void main ()
{
  float c = cos (pc.params.x);
  float s = sin (pc.params.x);
  vec2 p = vec2 (c * in_position.x - s * in_position.y,
                 s * in_position.x + c * in_position.y);
  gl_Position = vec4 (pc.rect.xy + p * pc.rect.zw, pc.params.y, 1.0);
#if defined(LAYOUT_PNU)
  v_normal = in_normal;
  v_uv = in_uv;
  v_color = scene.palette[int (pc.params.z) & 7];
#else
  v_normal = vec3 (0.0, 0.0, 1.0);
  v_uv = in_position.xy * 0.5 + 0.5;
  v_color = in_color;
#endif
}
