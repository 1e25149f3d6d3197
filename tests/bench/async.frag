#version 450
// psc-bench async: fragment shader with real compiler work. LIGHTS is the
// trip count of an unrolled lighting loop, MODE selects the shading model
// (dead branches are removed), FOG adds a tail, SALT makes every pipeline of
// every phase distinct at no cost difference.
layout(constant_id = 0) const int LIGHTS = 2;
layout(constant_id = 1) const int MODE = 0;
layout(constant_id = 2) const bool FOG = false;
layout(constant_id = 3) const float SALT = 0.0;

layout(set = 0, binding = 0) uniform Frame {
  mat4 view_proj;
  vec4 params[16];
  vec4 lights[8];
  vec4 light_colors[8];
  vec4 camera;
} frame;
layout(set = 0, binding = 1) uniform sampler2D tex;

layout(location = 0) in vec4 v_color;
layout(location = 1) in vec2 v_uv;
layout(location = 2) in vec3 v_normal;
layout(location = 3) in vec3 v_world;

layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

const float PI = 3.14159265;

float ggx (float nh, float rough)
{
  float a2 = rough * rough * rough * rough;
  float d = nh * nh * (a2 - 1.0) + 1.0;
  return a2 / (PI * d * d);
}

void main()
{
  vec4 albedo = v_color * texture(tex, v_uv + vec2(SALT * 1e-9, 0.0));
  vec3 n = normalize(v_normal);
  vec3 v = normalize(frame.camera.xyz - v_world);
  vec3 acc = vec3(0.0);
  for (int i = 0; i < LIGHTS; i++) {
    vec3 ld = frame.lights[i].xyz - v_world;
    float dist = length(ld);
    vec3 l = ld / dist;
    float att = 1.0 / (1.0 + frame.lights[i].w * dist * dist);
    float nl = max(dot(n, l), 0.0);
    vec3 c = frame.light_colors[i].rgb * att;
    if (MODE == 0) {
      acc += c * nl;
    } else if (MODE == 1) {
      vec3 h = normalize(l + v);
      acc += c * (nl + pow(max(dot(n, h), 0.0), frame.light_colors[i].w * 64.0 + 1.0));
    } else if (MODE == 2) {
      vec3 h = normalize(l + v);
      float nh = max(dot(n, h), 0.0);
      float nv = max(dot(n, v), 1e-3);
      float rough = clamp(frame.params[i].x, 0.05, 1.0);
      float k = (rough + 1.0) * (rough + 1.0) / 8.0;
      float g = (nl / (nl * (1.0 - k) + k)) * (nv / (nv * (1.0 - k) + k));
      vec3 f = vec3(0.04) + (1.0 - vec3(0.04)) * pow(1.0 - max(dot(h, v), 0.0), 5.0);
      acc += c * nl * ((1.0 - f) * albedo.rgb / PI + ggx(nh, rough) * g * f / (4.0 * nl * nv + 1e-3));
    } else {
      float band = floor(nl * 4.0) / 4.0;
      acc += c * band + c * step(0.95, max(dot(reflect(-l, n), v), 0.0));
    }
  }
  vec4 c = vec4(acc * albedo.rgb, albedo.a);
  if (FOG) {
    float d = length(frame.camera.xyz - v_world);
    c.rgb = mix(c.rgb, frame.params[15].rgb, 1.0 - exp(-d * frame.params[15].w));
  }
  o0 = c; o1 = vec4(n * 0.5 + 0.5, 1.0); o2 = vec4(v_world, 1.0); o3 = vec4(acc, 1.0);
}
