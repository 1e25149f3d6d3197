#version 450
// psc-bench async: vertex shader with real compiler work. Specialization
// constants change the generated code: ITERS is the trip count of a loop the
// compiler unrolls, DEFORM selects one of four deformation bodies (dead
// branches are removed), SALT makes every pipeline of every phase distinct at
// no cost difference (one more immediate).
layout(constant_id = 0) const int ITERS = 4;
layout(constant_id = 1) const int DEFORM = 0;
layout(constant_id = 2) const float SALT = 0.0;

layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec4 in_color;

layout(set = 0, binding = 0) uniform Frame {
  mat4 view_proj;
  vec4 params[16];
  vec4 lights[8];
  vec4 light_colors[8];
  vec4 camera;
} frame;
layout(push_constant) uniform Push { mat4 model; } push;

layout(location = 0) out vec4 v_color;
layout(location = 1) out vec2 v_uv;
layout(location = 2) out vec3 v_normal;
layout(location = 3) out vec3 v_world;

mat3 rot_y (float a)
{
  float c = cos(a), s = sin(a);
  return mat3(c, 0.0, -s, 0.0, 1.0, 0.0, s, 0.0, c);
}

float hash13 (vec3 p)
{
  p = fract(p * 0.1031);
  p += dot(p, p.zyx + 31.32);
  return fract((p.x + p.y) * p.z);
}

void main()
{
  vec3 p = in_pos;
  vec3 n = in_normal;
  for (int k = 0; k < ITERS; k++) {
    vec4 prm = frame.params[k & 15];
    if (DEFORM == 0) {
      p += n * sin(dot(p, prm.xyz) + prm.w) * 0.01;
    } else if (DEFORM == 1) {
      mat3 r = rot_y(p.y * prm.x + prm.w);
      p = r * p;
      n = r * n;
    } else if (DEFORM == 2) {
      float h = hash13(p * prm.xyz + prm.w);
      p += n * (h - 0.5) * 0.02;
      n = normalize(n + vec3(h, 1.0 - h, h * h) * 0.1);
    } else {
      p = mix(p, p.zxy, clamp(prm.x * 0.1, 0.0, 1.0));
      n = normalize(cross(n, prm.xyz) + n * 2.0);
    }
  }
  vec4 world = push.model * vec4(p, 1.0);
  gl_Position = frame.view_proj * world + vec4(SALT * 1e-7 * in_uv.x, 0.0, 0.0, 0.0);
  v_color = in_color;
  v_uv = in_uv;
  v_normal = mat3(push.model) * n;
  v_world = world.xyz;
}
