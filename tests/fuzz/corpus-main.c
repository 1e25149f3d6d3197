/* corpus-main.c: runs a libFuzzer entry point over corpus files without
 * libFuzzer, so the checked-in corpus is a test in every build.
 *
 * Usage: <program> PATH...  (files, or directories whose regular files are
 * read). Fails if an input crashes or aborts (the target's own checks), or
 * if no input was found.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static int
run_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    {
      perror (path);
      return -1;
    }
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;)
    {
      if (len == cap)
        {
          cap = cap ? 2 * cap : 4096;
          uint8_t *grown = realloc (buf, cap);
          if (grown == NULL)
            abort ();
          buf = grown;
        }
      const size_t n = fread (buf + len, 1, cap - len, f);
      if (n == 0)
        break;
      len += n;
    }
  const int failed = ferror (f);
  fclose (f);
  if (failed)
    {
      perror (path);
      free (buf);
      return -1;
    }
  /* An exact-size copy: a read past the input is an ASan error. */
  uint8_t *exact = malloc (len ? len : 1);
  memcpy (exact, buf, len);
  free (buf);
  LLVMFuzzerTestOneInput (exact, len);
  free (exact);
  return 1;
}

static int
run_path (const char *path)
{
  struct stat st;
  if (stat (path, &st) != 0)
    {
      perror (path);
      return -1;
    }
  if (!S_ISDIR (st.st_mode))
    return run_file (path);
  DIR *d = opendir (path);
  if (d == NULL)
    {
      perror (path);
      return -1;
    }
  int count = 0;
  for (struct dirent *e; (e = readdir (d)) != NULL;)
    {
      if (e->d_name[0] == '.')
        continue;
      char *child = malloc (strlen (path) + strlen (e->d_name) + 2);
      sprintf (child, "%s/%s", path, e->d_name);
      const int n = run_path (child);
      free (child);
      if (n < 0)
        {
          closedir (d);
          return -1;
        }
      count += n;
    }
  closedir (d);
  return count;
}

int
main (int argc, char **argv)
{
  int total = 0;
  for (int i = 1; i < argc; i++)
    {
      const int n = run_path (argv[i]);
      if (n < 0)
        return 1;
      total += n;
    }
  printf ("%d inputs\n", total);
  return total > 0 ? 0 : 1;
}
