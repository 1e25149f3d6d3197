/* fuzz-recipe-json.c: libFuzzer target for the recipe JSON form
 * (psc_recipe_new_from_json, libpsocache/psc-recipe-json.c; DESIGN
 * decision 14). Also built without libFuzzer and driven over the
 * checked-in corpus (corpus/recipe-json, written by
 * tests/recipe-json/make-corpus.py) by corpus-main.c (unit suite).
 *
 * Input: the bytes are the document, with their length (no NUL needed;
 * ASan sees any read past the end of the exact-size copy).
 *
 * Besides not crashing, the reader keeps its contract (docs/recipe-json.md);
 * anything else aborts:
 *  - a refusal is a PSC_ERROR of the codes the form uses, whose message is
 *    "PATH: reason" (PATH the JSON path, or "recipe JSON");
 *  - a recipe read is valid, its JSON is written without error, reads back
 *    into an equal recipe, and that one writes the same text.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <psocache/psocache.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond))                                                                 \
      abort ();                                                                  \
  } while (0)

static void
check_refusal (const GError *error)
{
  const char *colon;

  CHECK (error != NULL);
  CHECK (error->domain == PSC_ERROR);
  CHECK (error->code == PSC_ERROR_INVALID_ARGUMENT || error->code == PSC_ERROR_UNSUPPORTED ||
         error->code == PSC_ERROR_CAPACITY);
  colon = strstr (error->message, ": ");
  CHECK (colon != NULL && colon > error->message && colon[2] != '\0');
  CHECK (g_utf8_validate (error->message, -1, NULL));
}

static void
check_round_trip (PscRecipe *r)
{
  GError *error = NULL;
  char *json, *again;
  PscRecipe *back;

  CHECK (psc_recipe_validate (r, NULL));
  json = psc_recipe_to_json (r, FALSE, &error);
  CHECK (json != NULL && error == NULL);
  back = psc_recipe_new_from_json (json, -1, &error);
  CHECK (back != NULL && error == NULL);
  CHECK (psc_recipe_equal (r, back));
  CHECK (psc_recipe_hash (r) == psc_recipe_hash (back));
  again = psc_recipe_to_json (back, FALSE, NULL);
  CHECK (again != NULL && strcmp (json, again) == 0);
  g_free (again);
  g_free (json);
  g_object_unref (back);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GError *error = NULL;
  PscRecipe *r;

  if (size > PSC_RECIPE_JSON_MAX_BYTES)
    return 0;
  r = psc_recipe_new_from_json ((const char *) data, (gssize) size, &error);
  if (r == NULL)
    {
      check_refusal (error);
      g_error_free (error);
      return 0;
    }
  CHECK (error == NULL);
  check_round_trip (r);
  g_object_unref (r);
  return 0;
}
