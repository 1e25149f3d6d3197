#version 450
// The asynchronous mode's fallback ("ubershader-style"): one generic
// fragment shader for every pipeline layout whose set 0 is the scene set and
// whose push range reaches the fragment stage. Paired with panel-vert.glsl
// (no vertex input), it fills the tile's bounding quad with grey and
// palette-coloured stripes while the tile's own pipeline compiles.

layout(push_constant) uniform Push {
  vec4 rect;
  vec4 params;
} pc;

layout(set = 0, binding = 0) uniform Scene {
  vec4 light_dir[4];
  vec4 light_color[4];
  vec4 palette[8];
} scene;

layout(location = 0) out vec4 out_color;

void main ()
{
  vec3 base = scene.palette[int (pc.params.z) & 7].rgb;
  float stripe = step (0.5, fract ((gl_FragCoord.x + gl_FragCoord.y) / 8.0));
  out_color = vec4 (mix (vec3 (0.3), base, 0.3 + 0.5 * stripe), 1.0);
}
