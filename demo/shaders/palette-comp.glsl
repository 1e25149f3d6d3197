#version 450
// Fills the scene's uniform data (lights and an 8-entry palette) on the GPU
// at the start of each frame. Specialization constant 0 scales saturation.

layout(local_size_x = 8) in;

layout(constant_id = 0) const float SATURATION = 0.8;

layout(push_constant) uniform Push {
  uint seed;
} pc;

layout(set = 0, binding = 0) buffer Scene {
  vec4 light_dir[4];
  vec4 light_color[4];
  vec4 palette[8];
} scene;

vec3 hue (float h)
{
  vec3 k = abs (fract (vec3 (h) + vec3 (0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0);
  return clamp (k - 1.0, 0.0, 1.0);
}

void main ()
{
  uint i = gl_GlobalInvocationID.x;
  float h = float ((i * 3u + pc.seed) % 8u) / 8.0;
  scene.palette[i] = vec4 (mix (vec3 (1.0), hue (h), SATURATION), 1.0);
  if (i < 4u) {
    float a = 0.6 + 1.3 * float (i);
    scene.light_dir[i] = vec4 (cos (a) * 0.7, sin (a) * 0.7, 0.7, 0.0);
    scene.light_color[i] = vec4 (mix (vec3 (0.55), hue (0.15 * float (i)), 0.5), 1.0);
  }
}
