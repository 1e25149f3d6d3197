/* psc-recipe-json.c: the recipe JSON form (docs/recipe-json.md):
 * psc_recipe_new_from_json and psc_recipe_to_json.
 *
 * Reading is untrusted input (DESIGN decision 14). In this order:
 *  1. the size (PSC_RECIPE_JSON_MAX_BYTES, before anything else is read);
 *  2. a lexical check of the whole text (lex_check): UTF-8, strict JSON
 *     tokens, nesting depth, the number of values (json-glib's tree costs
 *     some 80 bytes a value: 16 MiB of "0," would be 700 MB). json-glib 1.6 is more lenient than JSON
 *     (comments, single-quoted strings, hexadecimal and over-long
 *     integers, which it wraps, NUL escapes that truncate strings, lone
 *     surrogate escapes that give invalid UTF-8) and its parser recurses
 *     without a limit; this check keeps all of that from it;
 *  3. json-glib's parser builds the tree (JsonParser), noting a member
 *     given twice in one object (json-glib keeps the last silently);
 *  4. the tree is walked in a fixed order (stages, layout, flags, state,
 *     rendering) and the recipe built through the public setters of
 *     psc-recipe.h, so their checks and messages are the JSON form's;
 *     the walk adds the errors of the form itself (JSON types, unknown and
 *     missing members, integer ranges, base64, names, array bounds);
 *  5. psc_recipe_validate.
 * Every error names the JSON path of what it refuses (`stages[1].spirv`),
 * or "recipe JSON" for the document as a whole.
 *
 * Writing reads the recipe's private structure (psc-recipe-private.h) and
 * writes every member, in one fixed order, through JsonBuilder and
 * JsonGenerator: equal recipes built the same way give the same text.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-recipe-private.h"
#include "psc-vk-names.h"

#include <json-glib/json-glib.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Bounds of the form (docs/recipe-json.md, "Bounds"). */
#define JSON_MAX_DEPTH        16                   /* nested arrays and objects */
#define JSON_MAX_SPIRV_BYTES  (8u * 1024u * 1024u) /* decoded, all stages together */
#define JSON_MAX_FLAG_NAMES   32                   /* names in one flag set */
#define JSON_MAX_VALUES       (1u << 20)           /* values in the document (json-glib's nodes) */
#define JSON_MAX_NAME_SHOWN   64                   /* bytes of a name quoted in a message */

G_STATIC_ASSERT (PSC_RECIPE_JSON_VERSION == 1);

/* ------------------------------------------------------------------------
 * Paths and errors
 */

typedef struct {
  GString *path;          /* the JSON path of what is being read or written */
  GError **error;
  gboolean failed;        /* (writer) an error was set */
  gsize spirv_bytes;      /* (reader) decoded so far */
  PscRecipe *recipe;      /* (reader) being built */
  JsonBuilder *b;         /* (writer) */
} Ctx;

static gsize
enter (Ctx *c, const char *member)
{
  const gsize mark = c->path->len;
  if (mark > 0)
    g_string_append_c (c->path, '.');
  g_string_append (c->path, member);
  return mark;
}

static gsize
enter_index (Ctx *c, guint index)
{
  const gsize mark = c->path->len;
  g_string_append_printf (c->path, "[%u]", index);
  return mark;
}

static void
leave (Ctx *c, gsize mark)
{
  g_string_truncate (c->path, mark);
}

static gboolean fail (Ctx *c, PscError code, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

/* Sets the error (once) at the current path. Returns FALSE. */
static gboolean
fail (Ctx *c, PscError code, const char *fmt, ...)
{
  va_list ap;
  char *detail;

  if (c->failed)
    return FALSE;
  c->failed = TRUE;
  va_start (ap, fmt);
  detail = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  psc_recipe_fail (c->error, code, c->path->len > 0 ? c->path->str : "recipe JSON", "%s", detail);
  g_free (detail);
  return FALSE;
}

/* A name from the input, for a message: at most JSON_MAX_NAME_SHOWN bytes
 * (whole characters), "..." when cut. */
static char *
shown_name (const char *name)
{
  const char *end = name;
  while (*end != '\0' && end - name <= JSON_MAX_NAME_SHOWN)
    end = g_utf8_next_char (end);
  if (*end == '\0')
    return g_strdup (name);
  while (end - name > JSON_MAX_NAME_SHOWN)
    end = g_utf8_prev_char (end);
  return g_strdup_printf ("%.*s...", (int) (end - name), name);
}

/* An unknown member's name in the path: as it is when it looks like the
 * form's names (letters, digits, '_'), else ["name"] with '"' and '\\'
 * escaped, so the path stays readable and ends before the ": ". */
static gsize
enter_unknown (Ctx *c, const char *name)
{
  char *shown = shown_name (name);
  gboolean plain = *shown != '\0';
  gsize mark;

  for (const char *p = shown; *p != '\0'; p++)
    plain &= g_ascii_isalnum (*p) || *p == '_';
  if (plain)
    mark = enter (c, shown);
  else
    {
      mark = c->path->len;
      g_string_append (c->path, "[\"");
      for (const char *p = shown; *p != '\0'; p++)
        {
          if (*p == '"' || *p == '\\')
            g_string_append_c (c->path, '\\');
          g_string_append_c (c->path, *p);
        }
      g_string_append (c->path, "\"]");
    }
  g_free (shown);
  return mark;
}

/* ------------------------------------------------------------------------
 * 1-2. Size and lexical check
 */

static gboolean lex_fail (GError **error, PscError code, const char *text, const char *at,
                          const char *fmt, ...) G_GNUC_PRINTF (5, 6);

static gboolean
lex_fail (GError **error, PscError code, const char *text, const char *at, const char *fmt, ...)
{
  guint line = 1, column = 1;
  va_list ap;
  char *detail;

  for (const char *p = text; p < at; p++)
    {
      if (*p == '\n')
        {
          line++;
          column = 1;
        }
      else if (((guchar) *p & 0xC0) != 0x80)
        column++;
    }
  va_start (ap, fmt);
  detail = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  psc_recipe_fail (error, code, "recipe JSON", "line %u, column %u: %s", line, column, detail);
  g_free (detail);
  return FALSE;
}

static int
hex_value (char ch)
{
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  if (ch >= 'a' && ch <= 'f')
    return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F')
    return ch - 'A' + 10;
  return -1;
}

/* Four hex digits at p (p + 4 <= end), or -1. */
static int
hex4 (const char *p, const char *end)
{
  int v = 0;
  if (end - p < 4)
    return -1;
  for (int i = 0; i < 4; i++)
    {
      const int h = hex_value (p[i]);
      if (h < 0)
        return -1;
      v = v * 16 + h;
    }
  return v;
}

/* A string token starting at *pp (the opening quote). */
static gboolean
lex_string (const char *text, const char **pp, const char *end, GError **error)
{
  const char *p = *pp + 1;

  while (p < end && *p != '"')
    {
      const guchar ch = (guchar) *p;
      if (ch < 0x20)
        return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, p,
                         "a control character (0x%02x) in a string", ch);
      if (ch != '\\')
        {
          p++;
          continue;
        }
      if (p + 1 >= end)
        break;
      switch (p[1])
        {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
          p += 2;
          break;
        case 'u':
          {
            const int u = hex4 (p + 2, end);
            if (u < 0)
              return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, p,
                               "\\u needs four hexadecimal digits");
            if (u == 0)
              return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, p,
                               "\\u0000 (a NUL character) in a string");
            if (u >= 0xDC00 && u <= 0xDFFF)
              return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, p,
                               "a low surrogate \\u%04x without a high one", (guint) u);
            p += 6;
            if (u >= 0xD800 && u <= 0xDBFF)
              {
                const int lo = (end - p >= 2 && p[0] == '\\' && p[1] == 'u') ? hex4 (p + 2, end) : -1;
                if (lo < 0xDC00 || lo > 0xDFFF)
                  return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, p - 6,
                                   "a high surrogate \\u%04x without a low one", (guint) u);
                p += 6;
              }
            break;
          }
        default:
          return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, p, "an unknown escape");
        }
    }
  if (p >= end)
    return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, *pp, "a string without its end");
  *pp = p + 1;
  return TRUE;
}

static gboolean
is_digit (char ch)
{
  return ch >= '0' && ch <= '9';
}

/* A number token at *pp: JSON's grammar; an integer (no fraction, no
 * exponent) must fit 64 bits (signed), a number with either must be
 * finite as a double. */
static gboolean
lex_number (const char *text, const char **pp, const char *end, GError **error)
{
  const char *start = *pp, *p = *pp;
  gboolean integer = TRUE;

  if (p < end && *p == '-')
    p++;
  if (p >= end || !is_digit (*p))
    return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, start, "not a number");
  if (*p == '0')
    {
      p++;
      if (p < end && (is_digit (*p) || *p == 'x' || *p == 'X'))
        return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, start,
                         "a number with a leading zero (JSON numbers are decimal)");
    }
  else
    while (p < end && is_digit (*p))
      p++;
  if (p < end && *p == '.')
    {
      integer = FALSE;
      p++;
      if (p >= end || !is_digit (*p))
        return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, start, "a fraction without digits");
      while (p < end && is_digit (*p))
        p++;
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      integer = FALSE;
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if (p >= end || !is_digit (*p))
        return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, start, "an exponent without digits");
      while (p < end && is_digit (*p))
        p++;
    }
  {
    const gsize len = (gsize) (p - start);
    char buf[64];
    if (integer)
      {
        /* -9223372036854775808 .. 9223372036854775807 */
        const gboolean negative = *start == '-';
        const char *digits = start + (negative ? 1 : 0);
        const gsize n = (gsize) (p - digits);
        const char *limit = negative ? "9223372036854775808" : "9223372036854775807";
        if (n > 19 || (n == 19 && memcmp (digits, limit, 19) > 0))
          return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, start,
                           "an integer outside -2^63..2^63-1 (write a larger \"uint\" as a string)");
      }
    else if (len < sizeof buf)
      {
        memcpy (buf, start, len);
        buf[len] = '\0';
        if (!isfinite (g_ascii_strtod (buf, NULL)))
          return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, start,
                           "a number too large for a double");
      }
    else
      return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, start,
                       "a number of more than %u characters", (guint) sizeof buf - 1);
  }
  *pp = p;
  return TRUE;
}

static gboolean
lex_check (const char *text, gsize length, GError **error)
{
  const char *p = text, *end = text + length;
  const char *bad;
  guint depth = 0, values = 0;

  if (memchr (text, '\0', length) != NULL)
    return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, memchr (text, '\0', length),
                     "a NUL byte");
  if (!g_utf8_validate (text, (gssize) length, &bad))
    return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, bad, "not UTF-8");
  while (p < end)
    {
      const char *start = p;
      switch (*p)
        {
        case ' ': case '\t': case '\n': case '\r':
        case ',':
          p++;
          continue;
        case ':':
          /* the string before was a member's name, not a value */
          if (values > 0)
            values--;
          p++;
          continue;
        case '[': case '{':
          if (++depth > JSON_MAX_DEPTH)
            return lex_fail (error, PSC_ERROR_CAPACITY, text, p,
                             "nested deeper than %u arrays and objects", JSON_MAX_DEPTH);
          p++;
          break;
        case ']': case '}':
          if (depth > 0)
            depth--;
          p++;
          continue;
        case '"':
          if (!lex_string (text, &p, end, error))
            return FALSE;
          break;
        case '-': case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
          if (!lex_number (text, &p, end, error))
            return FALSE;
          break;
        default:
          {
            static const char *const literals[] = { "true", "false", "null" };
            gboolean found = FALSE;
            for (guint i = 0; i < G_N_ELEMENTS (literals) && !found; i++)
              {
                const gsize n = strlen (literals[i]);
                if ((gsize) (end - p) >= n && memcmp (p, literals[i], n) == 0 &&
                    ((gsize) (end - p) == n || !g_ascii_isalnum (p[n])))
                  {
                    p += n;
                    found = TRUE;
                  }
              }
            if (!found)
              return lex_fail (error, PSC_ERROR_INVALID_ARGUMENT, text, p,
                               *p == '/' ? "a comment (JSON has none)"
                               : *p == '\'' ? "a single-quoted string (JSON strings use \")"
                               : "not JSON");
          }
        }
      /* a value (or a member's name, uncounted at its ':') began at start */
      if (++values > JSON_MAX_VALUES)
        return lex_fail (error, PSC_ERROR_CAPACITY, text, start, "more than %u values",
                         JSON_MAX_VALUES);
    }
  return TRUE;
}

/* ------------------------------------------------------------------------
 * 3. Parsing: members given twice
 */

/* json-glib emits "object-start" as it opens an object, "object-member"
 * after each member was set and "object-end" as it closes it, inner
 * objects inside their member's turn; so a stack of the open objects'
 * sizes tells a member given twice (the size did not grow), with its name,
 * in memory bounded by the nesting (at most JSON_MAX_DEPTH, lex_check). */
typedef struct {
  struct {
    JsonObject *object;   /* NULL until its first member */
    guint size;
  } open[JSON_MAX_DEPTH + 1];
  guint depth;
  JsonObject *twice;      /* the first object with a member given twice (a reference) */
  char *twice_name;
} Dupes;

static void
on_object_start (JsonParser *parser, gpointer data)
{
  Dupes *d = data;

  if (d->depth < G_N_ELEMENTS (d->open))
    {
      d->open[d->depth].object = NULL;
      d->open[d->depth].size = 0;
    }
  d->depth++;
}

static void
on_object_member (JsonParser *parser, JsonObject *object, const char *name, gpointer data)
{
  Dupes *d = data;
  guint size;

  if (d->twice != NULL || d->depth == 0 || d->depth > G_N_ELEMENTS (d->open))
    return;
  size = json_object_get_size (object);
  if (d->open[d->depth - 1].object == NULL)
    d->open[d->depth - 1].object = object;
  else if (d->open[d->depth - 1].object != object)
    return;   /* not the parser's order: checked no further */
  if (size == d->open[d->depth - 1].size)
    {
      d->twice = json_object_ref (object);
      d->twice_name = g_strdup (name);
    }
  d->open[d->depth - 1].size = size;
}

static void
on_object_end (JsonParser *parser, JsonObject *object, gpointer data)
{
  Dupes *d = data;

  if (d->depth > 0)
    d->depth--;
}

/* The path of @target under @node, appended to c->path. */
static gboolean
find_object (Ctx *c, JsonNode *node, JsonObject *target)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      JsonObjectIter it;
      const char *name;
      JsonNode *member;
      if (o == target)
        return TRUE;
      json_object_iter_init_ordered (&it, o);
      while (json_object_iter_next_ordered (&it, &name, &member))
        {
          const gsize mark = enter_unknown (c, name);
          if (find_object (c, member, target))
            return TRUE;
          leave (c, mark);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          const gsize mark = enter_index (c, i);
          if (find_object (c, json_array_get_element (a, i), target))
            return TRUE;
          leave (c, mark);
        }
    }
  return FALSE;
}

/* ------------------------------------------------------------------------
 * 4. Reading values (the node's path is c->path)
 */

static const char *
node_kind (JsonNode *n)
{
  switch (JSON_NODE_TYPE (n))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      {
        const GType t = json_node_get_value_type (n);
        if (t == G_TYPE_INT64)
          return "an integer";
        if (t == G_TYPE_DOUBLE)
          return "a number with a fraction or an exponent";
        if (t == G_TYPE_BOOLEAN)
          return "a boolean";
        if (t == G_TYPE_STRING)
          return "a string";
        return "a value";
      }
    }
}

static gboolean
wrong_type (Ctx *c, JsonNode *n, const char *wanted)
{
  return fail (c, PSC_ERROR_INVALID_ARGUMENT, "%s expected, not %s", wanted, node_kind (n));
}

static gboolean
is_value (JsonNode *n, GType type)
{
  return JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == type;
}

static gboolean
read_object (Ctx *c, JsonNode *n, const char *const *known, JsonObject **out)
{
  JsonObjectIter it;
  const char *name;
  JsonNode *member;

  if (!JSON_NODE_HOLDS_OBJECT (n))
    return wrong_type (c, n, "an object");
  *out = json_node_get_object (n);
  json_object_iter_init_ordered (&it, *out);
  while (json_object_iter_next_ordered (&it, &name, &member))
    if (!g_strv_contains (known, name))
      {
        enter_unknown (c, name);
        return fail (c, PSC_ERROR_INVALID_ARGUMENT, "unknown member");
      }
  return TRUE;
}

/* An array of min..max elements. */
static gboolean
read_array (Ctx *c, JsonNode *n, guint min, guint max, JsonArray **out)
{
  guint len;

  if (!JSON_NODE_HOLDS_ARRAY (n))
    return wrong_type (c, n, "an array");
  *out = json_node_get_array (n);
  len = json_array_get_length (*out);
  if (len > max)
    return fail (c, PSC_ERROR_CAPACITY, "%u elements, at most %u", len, max);
  if (len < min)
    return fail (c, PSC_ERROR_INVALID_ARGUMENT, "%u elements, at least %u", len, min);
  return TRUE;
}

typedef gboolean (*ReadFn) (Ctx *c, JsonNode *n, PscVkType type, gpointer out);

static gboolean
read_bool (Ctx *c, JsonNode *n, PscVkType type, gpointer out)
{
  if (!is_value (n, G_TYPE_BOOLEAN))
    return wrong_type (c, n, "a boolean");
  *(gboolean *) out = json_node_get_boolean (n);
  return TRUE;
}

static gboolean
read_int64 (Ctx *c, JsonNode *n, PscVkType type, gpointer out)
{
  if (!is_value (n, G_TYPE_INT64))
    return wrong_type (c, n, "an integer");
  *(gint64 *) out = json_node_get_int (n);
  return TRUE;
}

/* guint, 0..G_MAXUINT32 */
static gboolean
read_uint (Ctx *c, JsonNode *n, PscVkType type, gpointer out)
{
  gint64 v = 0;
  if (!read_int64 (c, n, type, &v))
    return FALSE;
  if (v < 0 || v > (gint64) G_MAXUINT32)
    return fail (c, PSC_ERROR_INVALID_ARGUMENT, "%" G_GINT64_FORMAT " is outside 0..%u", v,
                 G_MAXUINT32);
  *(guint *) out = (guint) v;
  return TRUE;
}

/* guint64: an integer 0..2^63-1, or a string of decimal digits up to
 * 2^64-1. */
static gboolean
read_uint64 (Ctx *c, JsonNode *n, PscVkType type, gpointer out)
{
  if (is_value (n, G_TYPE_STRING))
    {
      const char *s = json_node_get_string (n);
      guint64 v = 0;
      gboolean digits = *s != '\0';
      for (const char *p = s; *p != '\0'; p++)
        digits &= is_digit (*p);
      if (!digits || !g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT64, &v, NULL))
        return fail (c, PSC_ERROR_INVALID_ARGUMENT,
                     "a string here is the decimal digits of 0..18446744073709551615");
      *(guint64 *) out = v;
      return TRUE;
    }
  {
    gint64 v;
    if (!is_value (n, G_TYPE_INT64))
      return wrong_type (c, n, "an integer (or a string of decimal digits)");
    v = json_node_get_int (n);
    if (v < 0)
      return fail (c, PSC_ERROR_INVALID_ARGUMENT, "%" G_GINT64_FORMAT " is negative", v);
    *(guint64 *) out = (guint64) v;
    return TRUE;
  }
}

static gboolean
read_double (Ctx *c, JsonNode *n, PscVkType type, gpointer out)
{
  if (is_value (n, G_TYPE_INT64))
    *(gdouble *) out = (gdouble) json_node_get_int (n);
  else if (is_value (n, G_TYPE_DOUBLE))
    *(gdouble *) out = json_node_get_double (n);
  else
    return wrong_type (c, n, "a number");
  if (!isfinite (*(gdouble *) out))
    return fail (c, PSC_ERROR_INVALID_ARGUMENT, "not a finite number");
  return TRUE;
}

/* gfloat: a number whose magnitude a float holds. */
static gboolean
read_float (Ctx *c, JsonNode *n, PscVkType type, gpointer out)
{
  gdouble d;
  if (!read_double (c, n, type, &d))
    return FALSE;
  if (fabs (d) > FLT_MAX)
    return fail (c, PSC_ERROR_INVALID_ARGUMENT, "%g is outside a float's range", d);
  *(gfloat *) out = (gfloat) d;
  return TRUE;
}

static gboolean
read_string (Ctx *c, JsonNode *n, PscVkType type, gpointer out)
{
  if (!is_value (n, G_TYPE_STRING))
    return wrong_type (c, n, "a string");
  *(const char **) out = json_node_get_string (n);
  return TRUE;
}

/* One name of @type (a flag-bits type: any of its names, one bit or
 * several). */
static gboolean
read_enum (Ctx *c, JsonNode *n, PscVkType type, gpointer out)
{
  const char *name;
  guint32 v;

  if (!is_value (n, G_TYPE_STRING))
    return wrong_type (c, n, psc_vk_type_is_flags (type) ? "a flag bit's name (a string)"
                                                         : "an enumerant's name (a string)");
  name = json_node_get_string (n);
  if (!psc_vk_name_to_value (type, name, &v))
    {
      char *shown = shown_name (name);
      fail (c, PSC_ERROR_INVALID_ARGUMENT, "\"%s\" is no %s name", shown, psc_vk_type_name (type));
      g_free (shown);
      return FALSE;
    }
  *(guint *) out = v;
  return TRUE;
}

/* A flag set: an array of names of @type, or'ed. */
static gboolean
read_flags (Ctx *c, JsonNode *n, PscVkType type, gpointer out)
{
  JsonArray *a;
  guint v = 0;

  if (!read_array (c, n, 0, JSON_MAX_FLAG_NAMES, &a))
    return FALSE;
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      const gsize mark = enter_index (c, i);
      guint bit;
      if (!read_enum (c, json_array_get_element (a, i), type, &bit))
        return FALSE;
      v |= bit;
      leave (c, mark);
    }
  *(guint *) out = v;
  return TRUE;
}

/* An integer or the one name @special stands for @special_value. */
static gboolean
read_index_or (Ctx *c, JsonNode *n, const char *special, guint special_value, guint *out)
{
  if (is_value (n, G_TYPE_STRING))
    {
      if (strcmp (json_node_get_string (n), special) != 0)
        {
          char *shown = shown_name (json_node_get_string (n));
          fail (c, PSC_ERROR_INVALID_ARGUMENT, "\"%s\": an integer or \"%s\"", shown, special);
          g_free (shown);
          return FALSE;
        }
      *out = special_value;
      return TRUE;
    }
  if (!is_value (n, G_TYPE_INT64))
    {
      char *wanted = g_strdup_printf ("an integer or \"%s\"", special);
      wrong_type (c, n, wanted);
      g_free (wanted);
      return FALSE;
    }
  return read_uint (c, n, 0, out);
}

/* Member @name of @o through @fn: absent is fine unless @required. */
static gboolean
field (Ctx *c, JsonObject *o, const char *name, gboolean required, ReadFn fn, PscVkType type,
       gpointer out)
{
  JsonNode *n = json_object_get_member (o, name);
  gsize mark;

  if (n == NULL && !required)
    return TRUE;
  mark = enter (c, name);
  if (n == NULL)
    return fail (c, PSC_ERROR_INVALID_ARGUMENT, "a required member is missing");
  if (!fn (c, n, type, out))
    return FALSE;
  leave (c, mark);
  return TRUE;
}

#define OPT(o, name, fn, out)        field (c, (o), (name), FALSE, (fn), 0, (out))
#define REQ(o, name, fn, out)        field (c, (o), (name), TRUE, (fn), 0, (out))
#define OPT_VK(o, name, fn, t, out)  field (c, (o), (name), FALSE, (fn), PSC_VK_##t, (out))
#define REQ_VK(o, name, fn, t, out)  field (c, (o), (name), TRUE, (fn), PSC_VK_##t, (out))

/* An optional member holding an object (*out NULL when absent) or an
 * array; the path is entered when present (leave with *mark). */
static gboolean
member_object (Ctx *c, JsonObject *o, const char *name, const char *const *known,
               JsonObject **out, gsize *mark)
{
  JsonNode *n = json_object_get_member (o, name);
  *out = NULL;
  if (n == NULL)
    return TRUE;
  *mark = enter (c, name);
  return read_object (c, n, known, out);
}

static gboolean
member_array (Ctx *c, JsonObject *o, const char *name, gboolean required, guint min, guint max,
              JsonArray **out, gsize *mark)
{
  JsonNode *n = json_object_get_member (o, name);
  *out = NULL;
  if (n == NULL && !required)
    return TRUE;
  *mark = enter (c, name);
  if (n == NULL)
    return fail (c, PSC_ERROR_INVALID_ARGUMENT, "a required member is missing");
  return read_array (c, n, min, max, out);
}

/* A setter's own failure: its error is already set. */
static gboolean
setter_failed (Ctx *c)
{
  c->failed = TRUE;
  return FALSE;
}

/* Strict base64 (RFC 4648, with padding) of whole 32-bit words. */
static gboolean
read_spirv (Ctx *c, JsonNode *n, GBytes **out)
{
  const char *s = NULL;
  gsize len, decoded, pad = 0;
  guchar *bytes;

  if (!read_string (c, n, 0, &s))
    return FALSE;
  len = strlen (s);
  if (len % 4 != 0)
    return fail (c, PSC_ERROR_INVALID_ARGUMENT, "not base64: %" G_GSIZE_FORMAT
                 " characters is not a multiple of 4", len);
  if (len > 0 && s[len - 1] == '=')
    pad = (len > 1 && s[len - 2] == '=') ? 2 : 1;
  for (gsize i = 0; i < len - pad; i++)
    if (!(g_ascii_isalnum (s[i]) || s[i] == '+' || s[i] == '/'))
      return fail (c, PSC_ERROR_INVALID_ARGUMENT, "not base64: character %" G_GSIZE_FORMAT
                   " (%s)", i, s[i] == '=' ? "'=' before the end" : "outside A-Z a-z 0-9 + /");
  decoded = len / 4 * 3 - pad;
  if (decoded % 4 != 0)
    return fail (c, PSC_ERROR_INVALID_ARGUMENT, "%" G_GSIZE_FORMAT
                 " bytes is not a whole number of 32-bit SPIR-V words", decoded);
  if (decoded > JSON_MAX_SPIRV_BYTES - c->spirv_bytes)
    return fail (c, PSC_ERROR_CAPACITY, "the recipe's SPIR-V would exceed %u bytes",
                 JSON_MAX_SPIRV_BYTES);
  bytes = g_base64_decode (s, &decoded);
  c->spirv_bytes += decoded;
  /* SPIR-V words, little-endian in the form: the host's order (psc-recipe.c
   * asserts a little-endian host). */
  *out = g_bytes_new_take (bytes, decoded);
  return TRUE;
}

/* ------------------------------------------------------------------------
 * 4. The recipe, member by member
 */

static const char *const spec_members[] = { "id", "int", "uint", "float", "bool", NULL };

static gboolean
read_specialization (Ctx *c, JsonArray *a, guint stage_index)
{
  PscRecipe *r = c->recipe;
  guint ids[PSC_MAX_SPEC_CONSTANTS];

  for (guint j = 0; j < json_array_get_length (a); j++)
    {
      const gsize mark = enter_index (c, j);
      static const char *const types[] = { "int", "uint", "float", "bool" };
      JsonObject *o;
      guint id;
      const char *type = NULL;
      gboolean ok;

      if (!read_object (c, json_array_get_element (a, j), spec_members, &o) ||
          !REQ (o, "id", read_uint, &id))
        return FALSE;
      for (guint k = 0; k < j; k++)
        if (ids[k] == id)
          {
            const gsize m = enter (c, "id");
            fail (c, PSC_ERROR_INVALID_ARGUMENT, "constant %u is already specialization[%u]", id, k);
            leave (c, m);
            return FALSE;
          }
      ids[j] = id;
      for (guint k = 0; k < G_N_ELEMENTS (types); k++)
        if (json_object_has_member (o, types[k]))
          {
            if (type != NULL)
              return fail (c, PSC_ERROR_INVALID_ARGUMENT, "both \"%s\" and \"%s\": one value", type,
                           types[k]);
            type = types[k];
          }
      if (type == NULL)
        return fail (c, PSC_ERROR_INVALID_ARGUMENT, "a value is missing: \"int\", \"uint\", "
                     "\"float\" or \"bool\"");
      if (strcmp (type, "int") == 0)
        {
          gint64 v = 0;
          ok = REQ (o, "int", read_int64, &v) &&
               (psc_recipe_set_specialization_int (r, stage_index, id, v, c->error) || setter_failed (c));
        }
      else if (strcmp (type, "uint") == 0)
        {
          guint64 v = 0;
          ok = REQ (o, "uint", read_uint64, &v) &&
               (psc_recipe_set_specialization_uint (r, stage_index, id, v, c->error) || setter_failed (c));
        }
      else if (strcmp (type, "float") == 0)
        {
          gdouble v = 0;
          ok = REQ (o, "float", read_double, &v) &&
               (psc_recipe_set_specialization_float (r, stage_index, id, v, c->error) || setter_failed (c));
        }
      else
        {
          gboolean v = 0;
          ok = REQ (o, "bool", read_bool, &v) &&
               (psc_recipe_set_specialization_bool (r, stage_index, id, v, c->error) || setter_failed (c));
        }
      if (!ok)
        return FALSE;
      leave (c, mark);
    }
  return TRUE;
}

static const char *const stage_members[] = { "stage", "entry_point", "spirv", "specialization", NULL };

static gboolean
read_stages (Ctx *c, JsonObject *root)
{
  JsonArray *a;
  gsize mark;

  if (!member_array (c, root, "stages", TRUE, 0, PSC_MAX_GRAPHICS_STAGES, &a, &mark))
    return FALSE;
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      JsonObject *o;
      guint stage;
      const char *entry = "main";
      JsonNode *spirv_node;
      GBytes *spirv = NULL;
      JsonArray *spec;
      gsize sm;
      gint index;

      if (!read_object (c, json_array_get_element (a, i), stage_members, &o) ||
          !REQ_VK (o, "stage", read_enum, SHADER_STAGE, &stage) ||
          !OPT (o, "entry_point", read_string, &entry))
        return FALSE;
      spirv_node = json_object_get_member (o, "spirv");
      sm = enter (c, "spirv");
      if (spirv_node == NULL)
        return fail (c, PSC_ERROR_INVALID_ARGUMENT, "a required member is missing");
      if (!read_spirv (c, spirv_node, &spirv))
        return FALSE;
      leave (c, sm);
      index = psc_recipe_add_stage (c->recipe, stage, spirv, entry, c->error);
      g_bytes_unref (spirv);
      if (index < 0)
        return setter_failed (c);
      if (!member_array (c, o, "specialization", FALSE, 0, PSC_MAX_SPEC_CONSTANTS, &spec, &sm))
        return FALSE;
      if (spec != NULL)
        {
          if (!read_specialization (c, spec, (guint) index))
            return FALSE;
          leave (c, sm);
        }
      leave (c, m);
    }
  leave (c, mark);
  return TRUE;
}

static const char *const sampler_members[] = {
  "mag_filter", "min_filter", "mipmap_mode", "address_modes", "mip_lod_bias", "min_lod",
  "max_lod", "anisotropy", "compare", "border_color", "unnormalized_coordinates",
  "reduction_mode", NULL,
};
static const char *const enable_max_members[] = { "enable", "max", NULL };
static const char *const enable_op_members[] = { "enable", "op", NULL };

/* A sampler description; its setters' paths are relative: prefixed here. */
static gboolean
read_sampler (Ctx *c, JsonNode *n, PscSamplerInfo **out)
{
  g_autoptr (PscSamplerInfo) s = psc_sampler_info_new ();
  JsonObject *o, *sub;
  JsonArray *modes;
  guint mag = s->mag_filter, min = s->min_filter, mip = s->mipmap_mode;
  guint uvw[3] = { s->address_u, s->address_v, s->address_w };
  gfloat bias = s->mip_lod_bias, min_lod = s->min_lod, max_lod = s->max_lod;
  gboolean aniso = s->anisotropy_enable, cmp = s->compare_enable, unnorm = s->unnormalized_coordinates;
  gfloat max_aniso = s->max_anisotropy;
  guint cmp_op = s->compare_op, border = s->border_color, reduction = s->reduction_mode;
  gsize mark;

  if (!read_object (c, n, sampler_members, &o) ||
      !OPT_VK (o, "mag_filter", read_enum, FILTER, &mag) ||
      !OPT_VK (o, "min_filter", read_enum, FILTER, &min) ||
      !OPT_VK (o, "mipmap_mode", read_enum, MIPMAP_MODE, &mip))
    return FALSE;
  if (!member_array (c, o, "address_modes", FALSE, 3, 3, &modes, &mark))
    return FALSE;
  if (modes != NULL)
    {
      for (guint i = 0; i < 3; i++)
        {
          const gsize m = enter_index (c, i);
          if (!read_enum (c, json_array_get_element (modes, i), PSC_VK_ADDRESS_MODE, &uvw[i]))
            return FALSE;
          leave (c, m);
        }
      leave (c, mark);
    }
  if (!OPT (o, "mip_lod_bias", read_float, &bias) || !OPT (o, "min_lod", read_float, &min_lod) ||
      !OPT (o, "max_lod", read_float, &max_lod))
    return FALSE;
  if (!member_object (c, o, "anisotropy", enable_max_members, &sub, &mark))
    return FALSE;
  if (sub != NULL)
    {
      if (!OPT (sub, "enable", read_bool, &aniso) || !OPT (sub, "max", read_float, &max_aniso))
        return FALSE;
      leave (c, mark);
    }
  if (!member_object (c, o, "compare", enable_op_members, &sub, &mark))
    return FALSE;
  if (sub != NULL)
    {
      if (!OPT (sub, "enable", read_bool, &cmp) || !OPT_VK (sub, "op", read_enum, COMPARE_OP, &cmp_op))
        return FALSE;
      leave (c, mark);
    }
  if (!OPT_VK (o, "border_color", read_enum, BORDER_COLOR, &border) ||
      !OPT (o, "unnormalized_coordinates", read_bool, &unnorm) ||
      !OPT_VK (o, "reduction_mode", read_enum, REDUCTION_MODE, &reduction))
    return FALSE;
  if (!psc_sampler_info_set_filters (s, mag, min, mip, c->error) ||
      !psc_sampler_info_set_address_modes (s, uvw[0], uvw[1], uvw[2], c->error) ||
      !psc_sampler_info_set_lod (s, bias, min_lod, max_lod, c->error) ||
      !psc_sampler_info_set_anisotropy (s, aniso, max_aniso, c->error) ||
      !psc_sampler_info_set_compare (s, cmp, cmp_op, c->error) ||
      !psc_sampler_info_set_border_color (s, border, c->error) ||
      !psc_sampler_info_set_reduction_mode (s, reduction, c->error))
    {
      if (c->error != NULL)
        g_prefix_error (c->error, "%s.", c->path->str);
      return setter_failed (c);
    }
  psc_sampler_info_set_unnormalized_coordinates (s, unnorm);
  *out = g_steal_pointer (&s);
  return TRUE;
}

static const char *const layout_members[] = { "sets", "push_constants", NULL };
static const char *const set_members[] = { "flags", "bindings", NULL };
static const char *const binding_members[] = {
  "binding", "type", "count", "stages", "flags", "immutable_samplers", NULL,
};
static const char *const push_members[] = { "stages", "offset", "size", NULL };

static gboolean
read_binding (Ctx *c, JsonNode *n, guint set)
{
  JsonObject *o;
  JsonArray *imm;
  guint binding, type, count = 1, stages, flags = 0;
  gsize mark;

  if (!read_object (c, n, binding_members, &o) ||
      !REQ (o, "binding", read_uint, &binding) ||
      !REQ_VK (o, "type", read_enum, DESCRIPTOR_TYPE, &type) ||
      !OPT (o, "count", read_uint, &count) ||
      !REQ_VK (o, "stages", read_flags, SHADER_STAGE, &stages) ||
      !OPT_VK (o, "flags", read_flags, BINDING_FLAGS, &flags))
    return FALSE;
  if (!psc_recipe_add_set_binding (c->recipe, set, binding, type, count, stages, flags, c->error))
    return setter_failed (c);
  if (!member_array (c, o, "immutable_samplers", FALSE, 0, PSC_MAX_IMMUTABLE_SAMPLERS, &imm, &mark))
    return FALSE;
  if (imm != NULL)
    {
      for (guint k = 0; k < json_array_get_length (imm); k++)
        {
          const gsize m = enter_index (c, k);
          PscSamplerInfo *s;
          gboolean ok;
          if (!read_sampler (c, json_array_get_element (imm, k), &s))
            return FALSE;
          ok = psc_recipe_add_immutable_sampler (c->recipe, set, binding, s, c->error);
          psc_sampler_info_unref (s);
          if (!ok)
            return setter_failed (c);
          leave (c, m);
        }
      leave (c, mark);
    }
  return TRUE;
}

static gboolean
read_layout (Ctx *c, JsonObject *root)
{
  JsonObject *o;
  JsonArray *a;
  gsize mark, am;

  if (!member_object (c, root, "layout", layout_members, &o, &mark))
    return FALSE;
  if (o == NULL)
    return TRUE;
  if (!member_array (c, o, "sets", FALSE, 0, PSC_MAX_SET_LAYOUTS, &a, &am))
    return FALSE;
  for (guint s = 0; a != NULL && s < json_array_get_length (a); s++)
    {
      const gsize m = enter_index (c, s);
      JsonObject *so;
      JsonArray *bindings;
      guint flags = 0;
      gint set;
      gsize bm;
      if (!read_object (c, json_array_get_element (a, s), set_members, &so) ||
          !OPT_VK (so, "flags", read_flags, SET_LAYOUT_CREATE, &flags))
        return FALSE;
      set = psc_recipe_add_set_layout (c->recipe, flags, c->error);
      if (set < 0)
        return setter_failed (c);
      if (!member_array (c, so, "bindings", FALSE, 0, PSC_MAX_SET_BINDINGS, &bindings, &bm))
        return FALSE;
      for (guint b = 0; bindings != NULL && b < json_array_get_length (bindings); b++)
        {
          const gsize bi = enter_index (c, b);
          if (!read_binding (c, json_array_get_element (bindings, b), (guint) set))
            return FALSE;
          leave (c, bi);
        }
      leave (c, m);
    }
  if (a != NULL)
    leave (c, am);
  if (!member_array (c, o, "push_constants", FALSE, 0, PSC_MAX_PUSH_RANGES, &a, &am))
    return FALSE;
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      JsonObject *po;
      guint stages, offset = 0, size;
      if (!read_object (c, json_array_get_element (a, i), push_members, &po) ||
          !REQ_VK (po, "stages", read_flags, SHADER_STAGE, &stages) ||
          !OPT (po, "offset", read_uint, &offset) || !REQ (po, "size", read_uint, &size))
        return FALSE;
      if (!psc_recipe_add_push_constant_range (c->recipe, stages, offset, size, c->error))
        return setter_failed (c);
      leave (c, m);
    }
  leave (c, mark);
  return TRUE;
}

static const char *const vertex_input_members[] = { "bindings", "attributes", NULL };
static const char *const vertex_binding_members[] = { "binding", "stride", "input_rate", NULL };
static const char *const vertex_attribute_members[] = { "location", "binding", "format", "offset", NULL };

static gboolean
read_vertex_input (Ctx *c, JsonObject *o)
{
  JsonArray *a;
  gsize mark;

  if (!member_array (c, o, "bindings", FALSE, 0, PSC_MAX_VERTEX_BINDINGS, &a, &mark))
    return FALSE;
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      JsonObject *bo;
      guint binding, stride, rate = VK_VERTEX_INPUT_RATE_VERTEX;
      if (!read_object (c, json_array_get_element (a, i), vertex_binding_members, &bo) ||
          !REQ (bo, "binding", read_uint, &binding) || !REQ (bo, "stride", read_uint, &stride) ||
          !OPT_VK (bo, "input_rate", read_enum, VERTEX_INPUT_RATE, &rate))
        return FALSE;
      if (!psc_recipe_add_vertex_binding (c->recipe, binding, stride, rate, c->error))
        return setter_failed (c);
      leave (c, m);
    }
  if (a != NULL)
    leave (c, mark);
  if (!member_array (c, o, "attributes", FALSE, 0, PSC_MAX_VERTEX_ATTRIBUTES, &a, &mark))
    return FALSE;
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      JsonObject *ao;
      guint location, binding, format, offset = 0;
      if (!read_object (c, json_array_get_element (a, i), vertex_attribute_members, &ao) ||
          !REQ (ao, "location", read_uint, &location) || !REQ (ao, "binding", read_uint, &binding) ||
          !REQ_VK (ao, "format", read_enum, FORMAT, &format) || !OPT (ao, "offset", read_uint, &offset))
        return FALSE;
      if (!psc_recipe_add_vertex_attribute (c->recipe, location, binding, format, offset, c->error))
        return setter_failed (c);
      leave (c, m);
    }
  if (a != NULL)
    leave (c, mark);
  return TRUE;
}

static const char *const input_assembly_members[] = { "topology", "primitive_restart", NULL };
static const char *const tessellation_members[] = { "patch_control_points", NULL };
static const char *const viewport_members[] = { "viewports", "scissors", NULL };
static const char *const rasterization_members[] = {
  "polygon_mode", "cull_mode", "front_face", "line_width", "depth_clamp", "rasterizer_discard",
  "depth_bias", NULL,
};
static const char *const depth_bias_members[] = { "enable", "constant", "clamp", "slope", NULL };
static const char *const multisample_members[] = {
  "samples", "sample_shading", "min_sample_shading", "alpha_to_coverage", "alpha_to_one",
  "sample_mask", NULL,
};
static const char *const depth_stencil_members[] = {
  "depth_test", "depth_write", "depth_compare", "depth_bounds", "stencil_test", "front", "back", NULL,
};
static const char *const depth_bounds_members[] = { "enable", "min", "max", NULL };
static const char *const stencil_face_members[] = {
  "fail", "pass", "depth_fail", "compare", "compare_mask", "write_mask", "reference", NULL,
};
static const char *const color_blend_members[] = {
  "logic_op_enable", "logic_op", "constants", "attachments", NULL,
};
static const char *const blend_attachment_members[] = {
  "enable", "src_color", "dst_color", "color_op", "src_alpha", "dst_alpha", "alpha_op",
  "write_mask", NULL,
};

static gboolean
read_input_assembly (Ctx *c, JsonObject *o)
{
  PscRecipe *r = c->recipe;
  guint topology = r->topology;
  gboolean restart = r->primitive_restart;

  if (!OPT_VK (o, "topology", read_enum, TOPOLOGY, &topology) ||
      !OPT (o, "primitive_restart", read_bool, &restart))
    return FALSE;
  return psc_recipe_set_input_assembly (r, topology, restart, c->error) || setter_failed (c);
}

static gboolean
read_tessellation (Ctx *c, JsonObject *o)
{
  guint points = c->recipe->patch_control_points;

  if (!OPT (o, "patch_control_points", read_uint, &points))
    return FALSE;
  /* 0: not set (the default) */
  if (points == 0)
    return TRUE;
  return psc_recipe_set_patch_control_points (c->recipe, points, c->error) || setter_failed (c);
}

static gboolean
read_viewport (Ctx *c, JsonObject *o)
{
  guint viewports = c->recipe->viewport_count, scissors;

  if (!OPT (o, "viewports", read_uint, &viewports))
    return FALSE;
  scissors = viewports;
  if (!OPT (o, "scissors", read_uint, &scissors))
    return FALSE;
  return psc_recipe_set_viewport_count (c->recipe, viewports, scissors, c->error) || setter_failed (c);
}

static gboolean
read_rasterization (Ctx *c, JsonObject *o)
{
  PscRecipe *r = c->recipe;
  guint polygon = r->polygon_mode, cull = r->cull_mode, front = r->front_face;
  gfloat width = r->line_width;
  gboolean clamp = r->depth_clamp, discard = r->rasterizer_discard;
  gboolean bias = r->depth_bias_enable;
  gfloat constant = r->depth_bias_constant, bias_clamp = r->depth_bias_clamp, slope = r->depth_bias_slope;
  JsonObject *sub;
  gsize mark;

  if (!OPT_VK (o, "polygon_mode", read_enum, POLYGON_MODE, &polygon) ||
      !OPT_VK (o, "cull_mode", read_flags, CULL_MODE, &cull) ||
      !OPT_VK (o, "front_face", read_enum, FRONT_FACE, &front) ||
      !OPT (o, "line_width", read_float, &width) ||
      !OPT (o, "depth_clamp", read_bool, &clamp) ||
      !OPT (o, "rasterizer_discard", read_bool, &discard))
    return FALSE;
  if (!psc_recipe_set_rasterization (r, polygon, cull, front, width, c->error) ||
      !psc_recipe_set_rasterization_flags (r, clamp, discard, c->error))
    return setter_failed (c);
  if (!member_object (c, o, "depth_bias", depth_bias_members, &sub, &mark))
    return FALSE;
  if (sub != NULL)
    {
      if (!OPT (sub, "enable", read_bool, &bias) || !OPT (sub, "constant", read_float, &constant) ||
          !OPT (sub, "clamp", read_float, &bias_clamp) || !OPT (sub, "slope", read_float, &slope))
        return FALSE;
      leave (c, mark);
      if (!psc_recipe_set_depth_bias (r, bias, constant, bias_clamp, slope, c->error))
        return setter_failed (c);
    }
  return TRUE;
}

static gboolean
read_multisample (Ctx *c, JsonObject *o)
{
  PscRecipe *r = c->recipe;
  guint samples = r->samples;
  gboolean shading = r->sample_shading, a2c = r->alpha_to_coverage, a2o = r->alpha_to_one;
  gfloat min_shading = r->min_sample_shading;
  JsonArray *mask;
  gsize mark;

  if (!OPT_VK (o, "samples", read_enum, SAMPLE_COUNT, &samples) ||
      !OPT (o, "sample_shading", read_bool, &shading) ||
      !OPT (o, "min_sample_shading", read_float, &min_shading) ||
      !OPT (o, "alpha_to_coverage", read_bool, &a2c) ||
      !OPT (o, "alpha_to_one", read_bool, &a2o))
    return FALSE;
  if (!psc_recipe_set_multisample (r, samples, shading, min_shading, a2c, a2o, c->error))
    return setter_failed (c);
  if (!member_array (c, o, "sample_mask", FALSE, 1, 2, &mask, &mark))
    return FALSE;
  if (mask != NULL)
    {
      guint words[2] = { G_MAXUINT32, G_MAXUINT32 };
      for (guint i = 0; i < json_array_get_length (mask); i++)
        {
          const gsize m = enter_index (c, i);
          if (!read_uint (c, json_array_get_element (mask, i), 0, &words[i]))
            return FALSE;
          leave (c, m);
        }
      leave (c, mark);
      if (!psc_recipe_set_sample_mask (r, (guint64) words[1] << 32 | words[0], c->error))
        return setter_failed (c);
    }
  return TRUE;
}

static gboolean
read_stencil_face (Ctx *c, JsonObject *o, guint face)
{
  PscRecipe *r = c->recipe;
  const guint f = face == VK_STENCIL_FACE_BACK_BIT ? 1 : 0;
  guint fail_op = r->stencil[f].fail_op, pass_op = r->stencil[f].pass_op;
  guint depth_fail = r->stencil[f].depth_fail_op, compare = r->stencil[f].compare_op;
  guint compare_mask = r->stencil[f].compare_mask, write_mask = r->stencil[f].write_mask;
  guint reference = r->stencil[f].reference;
  JsonObject *so;
  gsize mark;

  if (!member_object (c, o, f ? "back" : "front", stencil_face_members, &so, &mark))
    return FALSE;
  if (so == NULL)
    return TRUE;
  if (!OPT_VK (so, "fail", read_enum, STENCIL_OP, &fail_op) ||
      !OPT_VK (so, "pass", read_enum, STENCIL_OP, &pass_op) ||
      !OPT_VK (so, "depth_fail", read_enum, STENCIL_OP, &depth_fail) ||
      !OPT_VK (so, "compare", read_enum, COMPARE_OP, &compare) ||
      !OPT (so, "compare_mask", read_uint, &compare_mask) ||
      !OPT (so, "write_mask", read_uint, &write_mask) ||
      !OPT (so, "reference", read_uint, &reference))
    return FALSE;
  leave (c, mark);
  return psc_recipe_set_stencil_face (r, face, fail_op, pass_op, depth_fail, compare, compare_mask,
                                      write_mask, reference, c->error) || setter_failed (c);
}

static gboolean
read_depth_stencil (Ctx *c, JsonObject *o)
{
  PscRecipe *r = c->recipe;
  gboolean test = r->depth_test, write = r->depth_write, bounds = r->depth_bounds_test;
  gboolean stencil = r->stencil_test;
  guint compare = r->depth_compare;
  gfloat min = r->min_depth_bounds, max = r->max_depth_bounds;
  JsonObject *sub;
  gsize mark;

  if (!OPT (o, "depth_test", read_bool, &test) || !OPT (o, "depth_write", read_bool, &write) ||
      !OPT_VK (o, "depth_compare", read_enum, COMPARE_OP, &compare))
    return FALSE;
  if (!psc_recipe_set_depth (r, test, write, compare, c->error))
    return setter_failed (c);
  if (!member_object (c, o, "depth_bounds", depth_bounds_members, &sub, &mark))
    return FALSE;
  if (sub != NULL)
    {
      if (!OPT (sub, "enable", read_bool, &bounds) || !OPT (sub, "min", read_float, &min) ||
          !OPT (sub, "max", read_float, &max))
        return FALSE;
      leave (c, mark);
      if (!psc_recipe_set_depth_bounds (r, bounds, min, max, c->error))
        return setter_failed (c);
    }
  if (!OPT (o, "stencil_test", read_bool, &stencil))
    return FALSE;
  if (!psc_recipe_set_stencil_test (r, stencil, c->error))
    return setter_failed (c);
  return read_stencil_face (c, o, VK_STENCIL_FACE_FRONT_BIT) &&
         read_stencil_face (c, o, VK_STENCIL_FACE_BACK_BIT);
}

static gboolean
read_color_blend (Ctx *c, JsonObject *o)
{
  PscRecipe *r = c->recipe;
  gboolean logic = r->logic_op_enable;
  guint op = r->logic_op;
  gfloat k[4];
  JsonArray *a;
  gsize mark;

  memcpy (k, r->blend_constants, sizeof k);
  if (!OPT (o, "logic_op_enable", read_bool, &logic) ||
      !OPT_VK (o, "logic_op", read_enum, LOGIC_OP, &op))
    return FALSE;
  if (!psc_recipe_set_logic_op (r, logic, op, c->error))
    return setter_failed (c);
  if (!member_array (c, o, "constants", FALSE, 4, 4, &a, &mark))
    return FALSE;
  if (a != NULL)
    {
      for (guint i = 0; i < 4; i++)
        {
          const gsize m = enter_index (c, i);
          if (!read_float (c, json_array_get_element (a, i), 0, &k[i]))
            return FALSE;
          leave (c, m);
        }
      leave (c, mark);
      if (!psc_recipe_set_blend_constants (r, k[0], k[1], k[2], k[3], c->error))
        return setter_failed (c);
    }
  if (!member_array (c, o, "attachments", FALSE, 0, PSC_MAX_COLOR_ATTACHMENTS, &a, &mark))
    return FALSE;
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      JsonNode *n = json_array_get_element (a, i);
      PscRecipeBlend bl = r->blend[i];
      JsonObject *bo;

      /* null: not set (no blending, RGBA) */
      if (JSON_NODE_HOLDS_NULL (n))
        {
          leave (c, m);
          continue;
        }
      if (!read_object (c, n, blend_attachment_members, &bo) ||
          !OPT (bo, "enable", read_bool, &bl.enable) ||
          !OPT_VK (bo, "src_color", read_enum, BLEND_FACTOR, &bl.src_color) ||
          !OPT_VK (bo, "dst_color", read_enum, BLEND_FACTOR, &bl.dst_color) ||
          !OPT_VK (bo, "color_op", read_enum, BLEND_OP, &bl.color_op) ||
          !OPT_VK (bo, "src_alpha", read_enum, BLEND_FACTOR, &bl.src_alpha) ||
          !OPT_VK (bo, "dst_alpha", read_enum, BLEND_FACTOR, &bl.dst_alpha) ||
          !OPT_VK (bo, "alpha_op", read_enum, BLEND_OP, &bl.alpha_op) ||
          !OPT_VK (bo, "write_mask", read_flags, COLOR_COMPONENT, &bl.write_mask))
        return FALSE;
      if (!psc_recipe_set_blend_attachment (r, i, bl.enable, bl.src_color, bl.dst_color, bl.color_op,
                                            bl.src_alpha, bl.dst_alpha, bl.alpha_op, bl.write_mask,
                                            c->error))
        return setter_failed (c);
      leave (c, m);
    }
  if (a != NULL)
    leave (c, mark);
  return TRUE;
}

static gboolean
read_dynamic_states (Ctx *c, JsonObject *root)
{
  JsonArray *a;
  gsize mark;

  if (!member_array (c, root, "dynamic_states", FALSE, 0, PSC_DYN_COUNT, &a, &mark))
    return FALSE;
  if (a == NULL)
    return TRUE;
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      guint state;
      if (!read_enum (c, json_array_get_element (a, i), PSC_VK_DYNAMIC_STATE, &state))
        return FALSE;
      leave (c, m);
      if (!psc_recipe_add_dynamic_state (c->recipe, state, c->error))
        return setter_failed (c);
    }
  leave (c, mark);
  return TRUE;
}

static const char *const rendering_members[] = {
  "color_formats", "depth_format", "stencil_format", "view_mask", NULL,
};
static const char *const render_pass_members[] = {
  "attachments", "subpasses", "dependencies", "subpass", NULL,
};
static const char *const pass_attachment_members[] = { "format", "samples", NULL };
static const char *const subpass_members[] = { "colors", "resolves", "inputs", "depth_stencil", NULL };
static const char *const dependency_members[] = {
  "src_subpass", "dst_subpass", "src_stage_mask", "dst_stage_mask", "src_access_mask",
  "dst_access_mask", "flags", NULL,
};

static gboolean
read_rendering (Ctx *c, JsonObject *o)
{
  PscRecipe *r = c->recipe;
  guint depth = r->depth_format, stencil = r->stencil_format, view_mask = r->view_mask;
  JsonArray *a;
  gsize mark;

  if (!member_array (c, o, "color_formats", FALSE, 0, PSC_MAX_COLOR_ATTACHMENTS, &a, &mark))
    return FALSE;
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      guint format;
      if (!read_enum (c, json_array_get_element (a, i), PSC_VK_FORMAT, &format))
        return FALSE;
      leave (c, m);
      if (!psc_recipe_add_color_format (r, format, c->error))
        return setter_failed (c);
    }
  if (a != NULL)
    leave (c, mark);
  if (!OPT_VK (o, "depth_format", read_enum, FORMAT, &depth) ||
      !OPT_VK (o, "stencil_format", read_enum, FORMAT, &stencil) ||
      !OPT (o, "view_mask", read_uint, &view_mask))
    return FALSE;
  if ((depth != r->depth_format || stencil != r->stencil_format) &&
      !psc_recipe_set_depth_stencil_format (r, depth, stencil, c->error))
    return setter_failed (c);
  if (view_mask != r->view_mask && !psc_recipe_set_view_mask (r, view_mask, c->error))
    return setter_failed (c);
  return TRUE;
}

/* An array of attachment indices or "VK_ATTACHMENT_UNUSED". */
static gboolean
read_refs (Ctx *c, JsonObject *o, const char *name, guint *refs, guint *n)
{
  JsonArray *a;
  gsize mark;

  *n = 0;
  if (!member_array (c, o, name, FALSE, 0, PSC_MAX_SUBPASS_REFS, &a, &mark))
    return FALSE;
  if (a == NULL)
    return TRUE;
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      if (!read_index_or (c, json_array_get_element (a, i), "VK_ATTACHMENT_UNUSED",
                          VK_ATTACHMENT_UNUSED, &refs[i]))
        return FALSE;
      leave (c, m);
    }
  *n = json_array_get_length (a);
  leave (c, mark);
  return TRUE;
}

static gboolean
read_render_pass (Ctx *c, JsonObject *o)
{
  PscRecipe *r = c->recipe;
  JsonArray *a;
  gsize mark;
  guint subpass = r->subpass;

  if (!member_array (c, o, "attachments", FALSE, 0, PSC_MAX_PASS_ATTACHMENTS, &a, &mark))
    return FALSE;
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      JsonObject *ao;
      guint format, samples = VK_SAMPLE_COUNT_1_BIT;
      if (!read_object (c, json_array_get_element (a, i), pass_attachment_members, &ao) ||
          !REQ_VK (ao, "format", read_enum, FORMAT, &format) ||
          !OPT_VK (ao, "samples", read_enum, SAMPLE_COUNT, &samples))
        return FALSE;
      if (psc_recipe_add_pass_attachment (r, format, samples, c->error) < 0)
        return setter_failed (c);
      leave (c, m);
    }
  if (a != NULL)
    leave (c, mark);

  if (!member_array (c, o, "subpasses", FALSE, 0, PSC_MAX_SUBPASSES, &a, &mark))
    return FALSE;
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      JsonObject *so;
      guint colors[PSC_MAX_SUBPASS_REFS], resolves[PSC_MAX_SUBPASS_REFS], inputs[PSC_MAX_SUBPASS_REFS];
      guint n_colors, n_resolves, n_inputs;
      gint depth_stencil = -1;
      JsonNode *ds;
      if (!read_object (c, json_array_get_element (a, i), subpass_members, &so) ||
          !read_refs (c, so, "colors", colors, &n_colors) ||
          !read_refs (c, so, "resolves", resolves, &n_resolves) ||
          !read_refs (c, so, "inputs", inputs, &n_inputs))
        return FALSE;
      ds = json_object_get_member (so, "depth_stencil");
      if (ds != NULL && !JSON_NODE_HOLDS_NULL (ds))
        {
          const gsize dm = enter (c, "depth_stencil");
          guint v;
          if (!is_value (ds, G_TYPE_INT64))
            return wrong_type (c, ds, "an attachment index (or null)");
          if (!read_uint (c, ds, 0, &v))
            return FALSE;
          if (v > (guint) G_MAXINT)
            return fail (c, PSC_ERROR_INVALID_ARGUMENT, "%u is outside 0..%d", v, G_MAXINT);
          depth_stencil = (gint) v;
          leave (c, dm);
        }
      if (psc_recipe_add_subpass (r, colors, n_colors, resolves, n_resolves, inputs, n_inputs,
                                  depth_stencil, c->error) < 0)
        return setter_failed (c);
      leave (c, m);
    }
  if (a != NULL)
    leave (c, mark);

  if (!member_array (c, o, "dependencies", FALSE, 0, PSC_MAX_SUBPASS_DEPENDENCIES, &a, &mark))
    return FALSE;
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      const gsize m = enter_index (c, i);
      JsonObject *dobj;
      guint src, dst, src_stages = 0, dst_stages = 0, src_access = 0, dst_access = 0, flags = 0;
      JsonNode *sn;
      gsize nm;
      if (!read_object (c, json_array_get_element (a, i), dependency_members, &dobj))
        return FALSE;
      for (guint k = 0; k < 2; k++)
        {
          const char *name = k == 0 ? "src_subpass" : "dst_subpass";
          sn = json_object_get_member (dobj, name);
          nm = enter (c, name);
          if (sn == NULL)
            return fail (c, PSC_ERROR_INVALID_ARGUMENT, "a required member is missing");
          if (!read_index_or (c, sn, "VK_SUBPASS_EXTERNAL", VK_SUBPASS_EXTERNAL, k == 0 ? &src : &dst))
            return FALSE;
          leave (c, nm);
        }
      if (!OPT_VK (dobj, "src_stage_mask", read_flags, PIPELINE_STAGE, &src_stages) ||
          !OPT_VK (dobj, "dst_stage_mask", read_flags, PIPELINE_STAGE, &dst_stages) ||
          !OPT_VK (dobj, "src_access_mask", read_flags, ACCESS, &src_access) ||
          !OPT_VK (dobj, "dst_access_mask", read_flags, ACCESS, &dst_access) ||
          !OPT_VK (dobj, "flags", read_flags, DEPENDENCY, &flags))
        return FALSE;
      if (!psc_recipe_add_subpass_dependency (r, src, dst, src_stages, dst_stages, src_access,
                                              dst_access, flags, c->error))
        return setter_failed (c);
      leave (c, m);
    }
  if (a != NULL)
    leave (c, mark);

  if (!OPT (o, "subpass", read_uint, &subpass))
    return FALSE;
  if (subpass != r->subpass && !psc_recipe_set_subpass (r, subpass, c->error))
    return setter_failed (c);
  return TRUE;
}

static const char *const root_members[] = {
  "version", "kind", "flags", "stages", "layout",
  "vertex_input", "input_assembly", "tessellation", "viewport", "rasterization", "multisample",
  "depth_stencil", "color_blend", "dynamic_states", "rendering", "render_pass", NULL,
};

/* The graphics state, in the order read: name, its members, its reader
 * (dynamic_states is an array, read apart). */
typedef gboolean (*StateFn) (Ctx *c, JsonObject *o);
static const struct {
  const char *name;
  const char *const *members;
  StateFn read;
} graphics_state[] = {
  { "vertex_input", vertex_input_members, read_vertex_input },
  { "input_assembly", input_assembly_members, read_input_assembly },
  { "tessellation", tessellation_members, read_tessellation },
  { "viewport", viewport_members, read_viewport },
  { "rasterization", rasterization_members, read_rasterization },
  { "multisample", multisample_members, read_multisample },
  { "depth_stencil", depth_stencil_members, read_depth_stencil },
  { "color_blend", color_blend_members, read_color_blend },
};

static gboolean
read_state_object (Ctx *c, JsonObject *root, const char *name, const char *const *members, StateFn fn)
{
  JsonObject *o;
  gsize mark;

  if (!member_object (c, root, name, members, &o, &mark))
    return FALSE;
  if (o == NULL)
    return TRUE;
  if (!fn (c, o))
    return FALSE;
  leave (c, mark);
  return TRUE;
}

static PscRecipe *
read_recipe (Ctx *c, JsonNode *root_node)
{
  JsonObject *root;
  gint64 version;
  const char *kind;
  guint flags = 0;
  static const char *const graphics_only[] = {
    "vertex_input", "input_assembly", "tessellation", "viewport", "rasterization", "multisample",
    "depth_stencil", "color_blend", "dynamic_states", "rendering", "render_pass", NULL,
  };

  if (root_node == NULL || !JSON_NODE_HOLDS_OBJECT (root_node))
    {
      fail (c, PSC_ERROR_INVALID_ARGUMENT, "the document is %s, not an object",
            root_node == NULL ? "empty" : node_kind (root_node));
      return NULL;
    }
  root = json_node_get_object (root_node);
  /* The version first: a newer form may have members this one lacks. */
  if (!REQ (root, "version", read_int64, &version))
    return NULL;
  if (version != PSC_RECIPE_JSON_VERSION)
    {
      enter (c, "version");
      fail (c, version > PSC_RECIPE_JSON_VERSION ? PSC_ERROR_UNSUPPORTED : PSC_ERROR_INVALID_ARGUMENT,
            "%" G_GINT64_FORMAT ": this library reads version %d%s", version, PSC_RECIPE_JSON_VERSION,
            version > PSC_RECIPE_JSON_VERSION ? " (and older)" : "");
      return NULL;
    }
  if (!read_object (c, root_node, root_members, &root) || !REQ (root, "kind", read_string, &kind))
    return NULL;
  if (strcmp (kind, "graphics") == 0)
    c->recipe = psc_recipe_new_graphics ();
  else if (strcmp (kind, "compute") == 0)
    {
      c->recipe = psc_recipe_new_compute ();
      for (guint i = 0; graphics_only[i] != NULL; i++)
        if (json_object_has_member (root, graphics_only[i]))
          {
            enter (c, graphics_only[i]);
            fail (c, PSC_ERROR_INVALID_ARGUMENT, "a compute recipe has no graphics state");
            return NULL;
          }
    }
  else
    {
      char *shown = shown_name (kind);
      enter (c, "kind");
      fail (c, PSC_ERROR_INVALID_ARGUMENT, "\"%s\": \"graphics\" or \"compute\"", shown);
      g_free (shown);
      return NULL;
    }

  if (!read_stages (c, root) || !read_layout (c, root) ||
      !OPT_VK (root, "flags", read_flags, PIPELINE_CREATE, &flags))
    return NULL;
  if (flags != 0 && !psc_recipe_set_create_flags (c->recipe, flags, c->error))
    {
      setter_failed (c);
      return NULL;
    }
  if (c->recipe->kind == PSC_RECIPE_KIND_GRAPHICS)
    {
      for (guint i = 0; i < G_N_ELEMENTS (graphics_state); i++)
        if (!read_state_object (c, root, graphics_state[i].name, graphics_state[i].members,
                                graphics_state[i].read))
          return NULL;
      if (!read_dynamic_states (c, root))
        return NULL;
      if (json_object_has_member (root, "rendering") && json_object_has_member (root, "render_pass"))
        {
          enter (c, "render_pass");
          fail (c, PSC_ERROR_INVALID_ARGUMENT,
                "a recipe renders with dynamic rendering (rendering) or a render pass, not both");
          return NULL;
        }
      if (!read_state_object (c, root, "rendering", rendering_members, read_rendering) ||
          !read_state_object (c, root, "render_pass", render_pass_members, read_render_pass))
        return NULL;
    }
  if (!psc_recipe_validate (c->recipe, c->error))
    {
      setter_failed (c);
      return NULL;
    }
  return g_steal_pointer (&c->recipe);
}

/**
 * psc_recipe_new_from_json:
 * @json: (array length=length) (element-type guint8): the recipe's JSON
 *   form (UTF-8)
 * @length: its length in bytes, or -1 if @json is NUL-terminated
 * @error: return location for a #GError
 *
 * Reads a recipe from its JSON form (see [Recipe JSON](recipe-json.html) for the
 * schema). The input is untrusted: a document over
 * %PSC_RECIPE_JSON_MAX_BYTES is %PSC_ERROR_CAPACITY before it is read, a
 * newer form (`"version"` above %PSC_RECIPE_JSON_VERSION) is
 * %PSC_ERROR_UNSUPPORTED, and anything else the form or the recipe's
 * setters refuse is %PSC_ERROR_INVALID_ARGUMENT, %PSC_ERROR_UNSUPPORTED or
 * %PSC_ERROR_CAPACITY with a message that starts with the JSON path
 * (`stages[1].specialization[3].int: ...`). The recipe read is checked
 * with [method@Psc.Recipe.validate].
 *
 * Returns: (transfer full) (nullable): the recipe, or %NULL with @error set
 *
 * Since: 0.3
 */
PscRecipe *
psc_recipe_new_from_json (const char  *json,
                          gssize       length,
                          GError     **error)
{
  g_autoptr (GString) path = NULL;
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) parse_error = NULL;
  Dupes dupes = { 0 };
  Ctx c = { NULL, error, FALSE, 0, NULL, NULL };
  PscRecipe *recipe = NULL;
  gsize len;

  g_return_val_if_fail (json != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  len = length < 0 ? strnlen (json, (gsize) PSC_RECIPE_JSON_MAX_BYTES + 1) : (gsize) length;
  if (len > PSC_RECIPE_JSON_MAX_BYTES)
    {
      if (length < 0)
        psc_recipe_fail (error, PSC_ERROR_CAPACITY, "recipe JSON", "more than %u bytes",
                         PSC_RECIPE_JSON_MAX_BYTES);
      else
        psc_recipe_fail (error, PSC_ERROR_CAPACITY, "recipe JSON", "%" G_GSIZE_FORMAT
                         " bytes, more than %u", len, PSC_RECIPE_JSON_MAX_BYTES);
      return NULL;
    }
  if (!lex_check (json, len, error))
    return NULL;

  parser = json_parser_new_immutable ();
  g_signal_connect (parser, "object-start", G_CALLBACK (on_object_start), &dupes);
  g_signal_connect (parser, "object-member", G_CALLBACK (on_object_member), &dupes);
  g_signal_connect (parser, "object-end", G_CALLBACK (on_object_end), &dupes);
  path = g_string_new (NULL);
  c.path = path;
  if (!json_parser_load_from_data (parser, json, (gssize) len, &parse_error))
    {
      /* "<data>:LINE:COLUMN: Parse error: ..." as the lexical errors say
       * it; json-glib may cut a quoted token inside a character: UTF-8
       * made valid. */
      g_autofree char *message = g_utf8_make_valid (parse_error->message, -1);
      guint line, column;
      int used = 0;
      if (sscanf (message, "<data>:%u:%u: %n", &line, &column, &used) == 2 && used > 0)
        psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "recipe JSON", "line %u, column %u: %s",
                         line, column, message + used);
      else
        psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "recipe JSON", "%s", message);
    }
  else if (dupes.twice != NULL)
    {
      JsonNode *root = json_parser_get_root (parser);
      char *shown = shown_name (dupes.twice_name);
      if (root != NULL && find_object (&c, root, dupes.twice))
        {
          enter_unknown (&c, dupes.twice_name);
          fail (&c, PSC_ERROR_INVALID_ARGUMENT, "a member given twice");
        }
      else
        fail (&c, PSC_ERROR_INVALID_ARGUMENT, "member \"%s\" given twice", shown);
      g_free (shown);
    }
  else
    recipe = read_recipe (&c, json_parser_get_root (parser));

  g_signal_handlers_disconnect_by_data (parser, &dupes);
  g_clear_pointer (&dupes.twice, json_object_unref);
  g_free (dupes.twice_name);
  g_clear_object (&c.recipe);
  return recipe;
}

/* ------------------------------------------------------------------------
 * Writing
 */

static void
w_member (Ctx *c, const char *name)
{
  json_builder_set_member_name (c->b, name);
}

static void
w_uint (Ctx *c, const char *name, guint v)
{
  w_member (c, name);
  json_builder_add_int_value (c->b, v);
}

static void
w_bool (Ctx *c, const char *name, gboolean v)
{
  w_member (c, name);
  json_builder_add_boolean_value (c->b, v != FALSE);
}

static void
w_double_value (Ctx *c, gdouble v)
{
  if (!isfinite (v))
    {
      fail (c, PSC_ERROR_INVALID_ARGUMENT, "%g: JSON has no such number", v);
      v = 0;
    }
  json_builder_add_double_value (c->b, v);
}

static void
w_float (Ctx *c, const char *name, gfloat v)
{
  const gsize mark = enter (c, name);
  w_member (c, name);
  w_double_value (c, (gdouble) v);
  leave (c, mark);
}

static void
w_enum_value (Ctx *c, PscVkType type, guint v)
{
  const char *name = psc_vk_value_to_name (type, v);
  if (name == NULL)
    {
      fail (c, PSC_ERROR_UNSUPPORTED, "%u has no %s name in the Vulkan headers this library was "
            "built with", v, psc_vk_type_name (type));
      name = "";
    }
  json_builder_add_string_value (c->b, name);
}

static void
w_enum (Ctx *c, const char *name, PscVkType type, guint v)
{
  const gsize mark = enter (c, name);
  w_member (c, name);
  w_enum_value (c, type, v);
  leave (c, mark);
}

/* A flag set as its bits, lowest first (VK_SHADER_STAGE_ALL as itself). */
static void
w_flags_value (Ctx *c, PscVkType type, guint v)
{
  json_builder_begin_array (c->b);
  if (type == PSC_VK_SHADER_STAGE && v == VK_SHADER_STAGE_ALL)
    json_builder_add_string_value (c->b, "VK_SHADER_STAGE_ALL");
  else
    for (guint bit = 0; bit < 32; bit++)
      if (v & (1u << bit))
        {
          const char *name = psc_vk_value_to_name (type, 1u << bit);
          if (name == NULL)
            {
              fail (c, PSC_ERROR_UNSUPPORTED, "bit 0x%x has no %s name in the Vulkan headers this "
                    "library was built with", 1u << bit, psc_vk_type_name (type));
              name = "";
            }
          json_builder_add_string_value (c->b, name);
        }
  json_builder_end_array (c->b);
}

static void
w_flags (Ctx *c, const char *name, PscVkType type, guint v)
{
  const gsize mark = enter (c, name);
  w_member (c, name);
  w_flags_value (c, type, v);
  leave (c, mark);
}

static void
w_index_or (Ctx *c, guint v, guint special_value, const char *special)
{
  if (v == special_value)
    json_builder_add_string_value (c->b, special);
  else
    json_builder_add_int_value (c->b, v);
}

static void
write_stage (Ctx *c, const PscRecipeStage *st)
{
  gsize size;
  const guchar *data = g_bytes_get_data (st->spirv, &size);
  char *b64 = g_base64_encode (data, size);

  json_builder_begin_object (c->b);
  w_enum (c, "stage", PSC_VK_SHADER_STAGE, st->stage);
  w_member (c, "entry_point");
  json_builder_add_string_value (c->b, st->entry_point);
  w_member (c, "spirv");
  json_builder_add_string_value (c->b, b64);
  g_free (b64);
  w_member (c, "specialization");
  json_builder_begin_array (c->b);
  for (guint j = 0; j < st->n_spec; j++)
    {
      const PscRecipeSpec *sp = &st->spec[j];
      const gsize mark = enter (c, "specialization");
      enter_index (c, j);
      json_builder_begin_object (c->b);
      w_uint (c, "id", sp->constant_id);
      switch (sp->type)
        {
        case PSC_RECIPE_SPEC_BOOL:
          w_bool (c, "bool", sp->value.b);
          break;
        case PSC_RECIPE_SPEC_INT:
          w_member (c, "int");
          json_builder_add_int_value (c->b, sp->value.i);
          break;
        case PSC_RECIPE_SPEC_UINT:
          w_member (c, "uint");
          if (sp->value.u <= (guint64) G_MAXINT64)
            json_builder_add_int_value (c->b, (gint64) sp->value.u);
          else
            {
              char digits[24];
              g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, sp->value.u);
              json_builder_add_string_value (c->b, digits);
            }
          break;
        case PSC_RECIPE_SPEC_FLOAT:
        default:
          w_member (c, "float");
          w_double_value (c, sp->value.f);
          break;
        }
      json_builder_end_object (c->b);
      leave (c, mark);
    }
  json_builder_end_array (c->b);
  json_builder_end_object (c->b);
}

static void
write_sampler (Ctx *c, const PscSamplerInfo *s)
{
  json_builder_begin_object (c->b);
  w_enum (c, "mag_filter", PSC_VK_FILTER, s->mag_filter);
  w_enum (c, "min_filter", PSC_VK_FILTER, s->min_filter);
  w_enum (c, "mipmap_mode", PSC_VK_MIPMAP_MODE, s->mipmap_mode);
  {
    const gsize mark = enter (c, "address_modes");
    w_member (c, "address_modes");
    json_builder_begin_array (c->b);
    w_enum_value (c, PSC_VK_ADDRESS_MODE, s->address_u);
    w_enum_value (c, PSC_VK_ADDRESS_MODE, s->address_v);
    w_enum_value (c, PSC_VK_ADDRESS_MODE, s->address_w);
    json_builder_end_array (c->b);
    leave (c, mark);
  }
  w_float (c, "mip_lod_bias", s->mip_lod_bias);
  w_float (c, "min_lod", s->min_lod);
  w_float (c, "max_lod", s->max_lod);
  {
    const gsize mark = enter (c, "anisotropy");
    w_member (c, "anisotropy");
    json_builder_begin_object (c->b);
    w_bool (c, "enable", s->anisotropy_enable);
    w_float (c, "max", s->max_anisotropy);
    json_builder_end_object (c->b);
    leave (c, mark);
  }
  {
    const gsize mark = enter (c, "compare");
    w_member (c, "compare");
    json_builder_begin_object (c->b);
    w_bool (c, "enable", s->compare_enable);
    w_enum (c, "op", PSC_VK_COMPARE_OP, s->compare_op);
    json_builder_end_object (c->b);
    leave (c, mark);
  }
  w_enum (c, "border_color", PSC_VK_BORDER_COLOR, s->border_color);
  w_bool (c, "unnormalized_coordinates", s->unnormalized_coordinates);
  w_enum (c, "reduction_mode", PSC_VK_REDUCTION_MODE, s->reduction_mode);
  json_builder_end_object (c->b);
}

static void
write_layout (Ctx *c, PscRecipe *r)
{
  const gsize mark = enter (c, "layout");

  w_member (c, "layout");
  json_builder_begin_object (c->b);
  w_member (c, "sets");
  json_builder_begin_array (c->b);
  for (guint s = 0; s < r->sets->len; s++)
    {
      const PscRecipeSet *set = &g_array_index (r->sets, PscRecipeSet, s);
      const gsize sm = enter (c, "sets");
      enter_index (c, s);
      json_builder_begin_object (c->b);
      w_flags (c, "flags", PSC_VK_SET_LAYOUT_CREATE, set->flags);
      w_member (c, "bindings");
      json_builder_begin_array (c->b);
      for (guint i = 0; i < set->bindings->len; i++)
        {
          const PscRecipeBinding *b = &g_array_index (set->bindings, PscRecipeBinding, i);
          const gsize bm = enter (c, "bindings");
          enter_index (c, i);
          json_builder_begin_object (c->b);
          w_uint (c, "binding", b->binding);
          w_enum (c, "type", PSC_VK_DESCRIPTOR_TYPE, b->descriptor_type);
          w_uint (c, "count", b->count);
          w_flags (c, "stages", PSC_VK_SHADER_STAGE, b->stages);
          w_flags (c, "flags", PSC_VK_BINDING_FLAGS, b->binding_flags);
          w_member (c, "immutable_samplers");
          json_builder_begin_array (c->b);
          for (guint k = 0; k < b->immutable->len; k++)
            {
              const gsize km = enter (c, "immutable_samplers");
              enter_index (c, k);
              write_sampler (c, g_ptr_array_index (b->immutable, k));
              leave (c, km);
            }
          json_builder_end_array (c->b);
          json_builder_end_object (c->b);
          leave (c, bm);
        }
      json_builder_end_array (c->b);
      json_builder_end_object (c->b);
      leave (c, sm);
    }
  json_builder_end_array (c->b);
  w_member (c, "push_constants");
  json_builder_begin_array (c->b);
  for (guint i = 0; i < r->n_push; i++)
    {
      const gsize pm = enter (c, "push_constants");
      enter_index (c, i);
      json_builder_begin_object (c->b);
      w_flags (c, "stages", PSC_VK_SHADER_STAGE, r->push[i].stages);
      w_uint (c, "offset", r->push[i].offset);
      w_uint (c, "size", r->push[i].size);
      json_builder_end_object (c->b);
      leave (c, pm);
    }
  json_builder_end_array (c->b);
  json_builder_end_object (c->b);
  leave (c, mark);
}

/* begin/end of a member object, with its path */
static gsize
w_begin_object (Ctx *c, const char *name)
{
  const gsize mark = enter (c, name);
  w_member (c, name);
  json_builder_begin_object (c->b);
  return mark;
}

static void
w_end_object (Ctx *c, gsize mark)
{
  json_builder_end_object (c->b);
  leave (c, mark);
}

static void
write_stencil_face (Ctx *c, const char *name, PscRecipe *r, guint f)
{
  const gsize mark = w_begin_object (c, name);
  w_enum (c, "fail", PSC_VK_STENCIL_OP, r->stencil[f].fail_op);
  w_enum (c, "pass", PSC_VK_STENCIL_OP, r->stencil[f].pass_op);
  w_enum (c, "depth_fail", PSC_VK_STENCIL_OP, r->stencil[f].depth_fail_op);
  w_enum (c, "compare", PSC_VK_COMPARE_OP, r->stencil[f].compare_op);
  w_uint (c, "compare_mask", r->stencil[f].compare_mask);
  w_uint (c, "write_mask", r->stencil[f].write_mask);
  w_uint (c, "reference", r->stencil[f].reference);
  w_end_object (c, mark);
}

static void
w_refs (Ctx *c, const char *name, const guint *refs, guint n)
{
  w_member (c, name);
  json_builder_begin_array (c->b);
  for (guint i = 0; i < n; i++)
    w_index_or (c, refs[i], VK_ATTACHMENT_UNUSED, "VK_ATTACHMENT_UNUSED");
  json_builder_end_array (c->b);
}

static void
write_graphics (Ctx *c, PscRecipe *r)
{
  gsize mark, am;
  guint n_blend = 0;

  mark = w_begin_object (c, "vertex_input");
  w_member (c, "bindings");
  json_builder_begin_array (c->b);
  for (guint i = 0; i < r->n_vertex_bindings; i++)
    {
      am = enter (c, "bindings");
      enter_index (c, i);
      json_builder_begin_object (c->b);
      w_uint (c, "binding", r->vertex_bindings[i].binding);
      w_uint (c, "stride", r->vertex_bindings[i].stride);
      w_enum (c, "input_rate", PSC_VK_VERTEX_INPUT_RATE, r->vertex_bindings[i].input_rate);
      json_builder_end_object (c->b);
      leave (c, am);
    }
  json_builder_end_array (c->b);
  w_member (c, "attributes");
  json_builder_begin_array (c->b);
  for (guint i = 0; i < r->n_vertex_attributes; i++)
    {
      am = enter (c, "attributes");
      enter_index (c, i);
      json_builder_begin_object (c->b);
      w_uint (c, "location", r->vertex_attributes[i].location);
      w_uint (c, "binding", r->vertex_attributes[i].binding);
      w_enum (c, "format", PSC_VK_FORMAT, r->vertex_attributes[i].format);
      w_uint (c, "offset", r->vertex_attributes[i].offset);
      json_builder_end_object (c->b);
      leave (c, am);
    }
  json_builder_end_array (c->b);
  w_end_object (c, mark);

  mark = w_begin_object (c, "input_assembly");
  w_enum (c, "topology", PSC_VK_TOPOLOGY, r->topology);
  w_bool (c, "primitive_restart", r->primitive_restart);
  w_end_object (c, mark);

  mark = w_begin_object (c, "tessellation");
  w_uint (c, "patch_control_points", r->patch_control_points);
  w_end_object (c, mark);

  mark = w_begin_object (c, "viewport");
  w_uint (c, "viewports", r->viewport_count);
  w_uint (c, "scissors", r->scissor_count);
  w_end_object (c, mark);

  mark = w_begin_object (c, "rasterization");
  w_enum (c, "polygon_mode", PSC_VK_POLYGON_MODE, r->polygon_mode);
  w_flags (c, "cull_mode", PSC_VK_CULL_MODE, r->cull_mode);
  w_enum (c, "front_face", PSC_VK_FRONT_FACE, r->front_face);
  w_float (c, "line_width", r->line_width);
  w_bool (c, "depth_clamp", r->depth_clamp);
  w_bool (c, "rasterizer_discard", r->rasterizer_discard);
  am = w_begin_object (c, "depth_bias");
  w_bool (c, "enable", r->depth_bias_enable);
  w_float (c, "constant", r->depth_bias_constant);
  w_float (c, "clamp", r->depth_bias_clamp);
  w_float (c, "slope", r->depth_bias_slope);
  w_end_object (c, am);
  w_end_object (c, mark);

  mark = w_begin_object (c, "multisample");
  w_enum (c, "samples", PSC_VK_SAMPLE_COUNT, r->samples);
  w_bool (c, "sample_shading", r->sample_shading);
  w_float (c, "min_sample_shading", r->min_sample_shading);
  w_bool (c, "alpha_to_coverage", r->alpha_to_coverage);
  w_bool (c, "alpha_to_one", r->alpha_to_one);
  w_member (c, "sample_mask");
  json_builder_begin_array (c->b);
  json_builder_add_int_value (c->b, (gint64) (r->sample_mask & G_MAXUINT32));
  json_builder_add_int_value (c->b, (gint64) (r->sample_mask >> 32));
  json_builder_end_array (c->b);
  w_end_object (c, mark);

  mark = w_begin_object (c, "depth_stencil");
  w_bool (c, "depth_test", r->depth_test);
  w_bool (c, "depth_write", r->depth_write);
  w_enum (c, "depth_compare", PSC_VK_COMPARE_OP, r->depth_compare);
  am = w_begin_object (c, "depth_bounds");
  w_bool (c, "enable", r->depth_bounds_test);
  w_float (c, "min", r->min_depth_bounds);
  w_float (c, "max", r->max_depth_bounds);
  w_end_object (c, am);
  w_bool (c, "stencil_test", r->stencil_test);
  write_stencil_face (c, "front", r, 0);
  write_stencil_face (c, "back", r, 1);
  w_end_object (c, mark);

  mark = w_begin_object (c, "color_blend");
  w_bool (c, "logic_op_enable", r->logic_op_enable);
  w_enum (c, "logic_op", PSC_VK_LOGIC_OP, r->logic_op);
  w_member (c, "constants");
  json_builder_begin_array (c->b);
  for (guint i = 0; i < 4; i++)
    {
      am = enter (c, "constants");
      enter_index (c, i);
      w_double_value (c, r->blend_constants[i]);
      leave (c, am);
    }
  json_builder_end_array (c->b);
  /* Attachments up to the last one set; null for one not set before it. */
  for (guint i = 0; i < PSC_MAX_COLOR_ATTACHMENTS; i++)
    if (r->blend[i].set)
      n_blend = i + 1;
  w_member (c, "attachments");
  json_builder_begin_array (c->b);
  for (guint i = 0; i < n_blend; i++)
    {
      const PscRecipeBlend *bl = &r->blend[i];
      if (!bl->set)
        {
          json_builder_add_null_value (c->b);
          continue;
        }
      am = enter (c, "attachments");
      enter_index (c, i);
      json_builder_begin_object (c->b);
      w_bool (c, "enable", bl->enable);
      w_enum (c, "src_color", PSC_VK_BLEND_FACTOR, bl->src_color);
      w_enum (c, "dst_color", PSC_VK_BLEND_FACTOR, bl->dst_color);
      w_enum (c, "color_op", PSC_VK_BLEND_OP, bl->color_op);
      w_enum (c, "src_alpha", PSC_VK_BLEND_FACTOR, bl->src_alpha);
      w_enum (c, "dst_alpha", PSC_VK_BLEND_FACTOR, bl->dst_alpha);
      w_enum (c, "alpha_op", PSC_VK_BLEND_OP, bl->alpha_op);
      w_flags (c, "write_mask", PSC_VK_COLOR_COMPONENT, bl->write_mask);
      json_builder_end_object (c->b);
      leave (c, am);
    }
  json_builder_end_array (c->b);
  w_end_object (c, mark);

  mark = enter (c, "dynamic_states");
  w_member (c, "dynamic_states");
  json_builder_begin_array (c->b);
  for (guint i = 0; i < r->n_dynamic; i++)
    {
      am = enter_index (c, i);
      w_enum_value (c, PSC_VK_DYNAMIC_STATE, r->dynamic[i]);
      leave (c, am);
    }
  json_builder_end_array (c->b);
  leave (c, mark);

  if (r->n_attachments == 0 && r->n_subpasses == 0 && r->n_dependencies == 0 && r->subpass == 0)
    {
      mark = w_begin_object (c, "rendering");
      w_member (c, "color_formats");
      json_builder_begin_array (c->b);
      for (guint i = 0; i < r->n_color_formats; i++)
        {
          am = enter (c, "color_formats");
          enter_index (c, i);
          w_enum_value (c, PSC_VK_FORMAT, r->color_formats[i]);
          leave (c, am);
        }
      json_builder_end_array (c->b);
      w_enum (c, "depth_format", PSC_VK_FORMAT, r->depth_format);
      w_enum (c, "stencil_format", PSC_VK_FORMAT, r->stencil_format);
      w_uint (c, "view_mask", r->view_mask);
      w_end_object (c, mark);
      return;
    }

  mark = w_begin_object (c, "render_pass");
  w_member (c, "attachments");
  json_builder_begin_array (c->b);
  for (guint i = 0; i < r->n_attachments; i++)
    {
      am = enter (c, "attachments");
      enter_index (c, i);
      json_builder_begin_object (c->b);
      w_enum (c, "format", PSC_VK_FORMAT, r->attachments[i].format);
      w_enum (c, "samples", PSC_VK_SAMPLE_COUNT, r->attachments[i].samples);
      json_builder_end_object (c->b);
      leave (c, am);
    }
  json_builder_end_array (c->b);
  w_member (c, "subpasses");
  json_builder_begin_array (c->b);
  for (guint i = 0; i < r->n_subpasses; i++)
    {
      const PscRecipeSubpass *sp = &r->subpasses[i];
      json_builder_begin_object (c->b);
      w_refs (c, "colors", sp->colors, sp->n_colors);
      w_refs (c, "resolves", sp->resolves, sp->n_resolves);
      w_refs (c, "inputs", sp->inputs, sp->n_inputs);
      w_member (c, "depth_stencil");
      if (sp->depth_stencil < 0)
        json_builder_add_null_value (c->b);
      else
        json_builder_add_int_value (c->b, sp->depth_stencil);
      json_builder_end_object (c->b);
    }
  json_builder_end_array (c->b);
  w_member (c, "dependencies");
  json_builder_begin_array (c->b);
  for (guint i = 0; i < r->n_dependencies; i++)
    {
      const PscRecipeDependency *d = &r->dependencies[i];
      am = enter (c, "dependencies");
      enter_index (c, i);
      json_builder_begin_object (c->b);
      w_member (c, "src_subpass");
      w_index_or (c, d->src_subpass, VK_SUBPASS_EXTERNAL, "VK_SUBPASS_EXTERNAL");
      w_member (c, "dst_subpass");
      w_index_or (c, d->dst_subpass, VK_SUBPASS_EXTERNAL, "VK_SUBPASS_EXTERNAL");
      w_flags (c, "src_stage_mask", PSC_VK_PIPELINE_STAGE, d->src_stage_mask);
      w_flags (c, "dst_stage_mask", PSC_VK_PIPELINE_STAGE, d->dst_stage_mask);
      w_flags (c, "src_access_mask", PSC_VK_ACCESS, d->src_access_mask);
      w_flags (c, "dst_access_mask", PSC_VK_ACCESS, d->dst_access_mask);
      w_flags (c, "flags", PSC_VK_DEPENDENCY, d->dependency_flags);
      json_builder_end_object (c->b);
      leave (c, am);
    }
  json_builder_end_array (c->b);
  w_uint (c, "subpass", r->subpass);
  w_end_object (c, mark);
}

/* json-glib 1.6's generator writes a double with "%.17g" and appends ".0"
 * when the text has no '.', so 1e-300 becomes "1e-300.0", which is not
 * JSON. Outside strings a '.' is only ever part of a number: drop a ".0"
 * that follows an exponent's digits. In place; returns @text. */
static char *
fix_exponents (char *text)
{
  char *in = text, *out = text;
  gboolean in_string = FALSE;

  while (*in != '\0')
    {
      if (in_string)
        {
          if (*in == '\\' && in[1] != '\0')
            *out++ = *in++;
          else if (*in == '"')
            in_string = FALSE;
          *out++ = *in++;
          continue;
        }
      if (*in == '"')
        in_string = TRUE;
      else if ((*in == 'e' || *in == 'E') && out > text && is_digit (out[-1]))
        {
          *out++ = *in++;
          if (*in == '+' || *in == '-')
            *out++ = *in++;
          while (is_digit (*in))
            *out++ = *in++;
          if (in[0] == '.' && in[1] == '0' && !is_digit (in[2]))
            in += 2;
          continue;
        }
      *out++ = *in++;
    }
  *out = '\0';
  return text;
}

/**
 * psc_recipe_to_json:
 * @self: a recipe
 * @pretty: whether to indent (two spaces a level, a member a line) rather
 *   than write one line
 * @error: return location for a #GError
 *
 * Writes a recipe's JSON form (see [Recipe JSON](recipe-json.html)): version
 * %PSC_RECIPE_JSON_VERSION, every member written, defaults included, in a
 * fixed order, so that the JSON of two recipes can be compared as text.
 * [ctor@Psc.Recipe.new_from_json] reads it back into an equal recipe, whose
 * JSON is the same text.
 *
 * It fails (%PSC_ERROR_UNSUPPORTED, naming the JSON path) only for a value
 * the Vulkan headers the library was built with have no name for (a
 * setter that takes a mask accepts bits such as unknown access flags).
 *
 * Returns: (transfer full) (nullable): the JSON text (UTF-8, no final
 *   newline), or %NULL with @error set
 *
 * Since: 0.3
 */
char *
psc_recipe_to_json (PscRecipe  *self,
                    gboolean    pretty,
                    GError    **error)
{
  g_autoptr (GString) path = g_string_new (NULL);
  g_autoptr (JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr (JsonGenerator) generator = NULL;
  g_autoptr (JsonNode) root = NULL;
  Ctx c = { path, error, FALSE, 0, NULL, builder };

  g_return_val_if_fail (PSC_IS_RECIPE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  json_builder_begin_object (builder);
  w_uint (&c, "version", PSC_RECIPE_JSON_VERSION);
  w_member (&c, "kind");
  json_builder_add_string_value (builder, self->kind == PSC_RECIPE_KIND_COMPUTE ? "compute" : "graphics");
  w_flags (&c, "flags", PSC_VK_PIPELINE_CREATE, self->create_flags);
  w_member (&c, "stages");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->n_stages; i++)
    {
      const gsize mark = enter (&c, "stages");
      enter_index (&c, i);
      write_stage (&c, &self->stages[i]);
      leave (&c, mark);
    }
  json_builder_end_array (builder);
  write_layout (&c, self);
  if (self->kind == PSC_RECIPE_KIND_GRAPHICS)
    write_graphics (&c, self);
  json_builder_end_object (builder);
  if (c.failed)
    return NULL;

  root = json_builder_get_root (builder);
  generator = json_generator_new ();
  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  return fix_exponents (json_generator_to_data (generator, NULL));
}
