#version 450
// The scene's mesh fragment shader. Built with one of:
//   -DMODE_LIT            Lambert lighting from the scene's lights
//   -DMODE_LIT -DHDR      the same, scaled into HDR range (RGBA16F targets)
//   -DMODE_TEXTURED       the immutable-sampler texture, tinted
//   -DMODE_COLOR          vertex colour
//   -DMODE_COLOR -DALPHA  vertex colour, translucent (drawn with blending)
//   -DMODE_LIT -DTINT     the lit variant with a warm tint: the asynchronous
//                         mode hot-reloads MODE_LIT with it
// Specialization: constant 0 picks a material variant, constant 1 the number
// of lights.

layout(constant_id = 0) const int MATERIAL = 0;
layout(constant_id = 1) const int LIGHT_COUNT = 1;

layout(push_constant) uniform Push {
  vec4 rect;
  vec4 params;
} pc;

layout(set = 0, binding = 0) uniform Scene {
  vec4 light_dir[4];
  vec4 light_color[4];
  vec4 palette[8];
} scene;
layout(set = 0, binding = 1) uniform sampler2D tex;

layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;
layout(location = 2) in vec4 v_color;

layout(location = 0) out vec4 out_color;

vec3 material_color ()
{
  return scene.palette[(MATERIAL + int (pc.params.z)) & 7].rgb;
}

void main ()
{
#if defined(MODE_LIT)
  vec2 bump = (v_uv - 0.5) * (0.4 + 0.3 * float (MATERIAL));
  vec3 n = normalize (v_normal + vec3 (bump, 0.0));
  vec3 c = vec3 (0.06);
  for (int i = 0; i < LIGHT_COUNT; ++i)
    c += max (dot (n, normalize (scene.light_dir[i].xyz)), 0.0) * scene.light_color[i].rgb;
  c *= material_color ();
#if defined(TINT)
  c *= vec3 (1.3, 0.6, 0.3);
#endif
#if defined(HDR)
  c *= 3.0;
#endif
  out_color = vec4 (c, 1.0);
#elif defined(MODE_TEXTURED)
  vec3 t = texture (tex, v_uv * float (MATERIAL + 1)).rgb;
  out_color = vec4 (t * material_color () * (0.4 + 0.2 * float (LIGHT_COUNT)), 1.0);
#elif defined(MODE_COLOR)
  vec3 c = mix (v_color.rgb, material_color (), 0.25 * float (MATERIAL));
  c *= 0.5 + 0.25 * float (LIGHT_COUNT);
#if defined(ALPHA)
  out_color = vec4 (c, 0.35 + 0.15 * float (MATERIAL));
#else
  out_color = vec4 (c, 1.0);
#endif
#else
#error "define MODE_LIT, MODE_TEXTURED or MODE_COLOR"
#endif
}
