/* psc-log-store.c: an append-only record log on disk (see psc-log-store.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-log-store.h"

#include "psc-cache-dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

void
psc_log_store_init (PscLogStore *s,
                    const char  *dir,
                    const char  *name,
                    uint32_t     kind)
{
  g_autofree char *lock = g_strconcat (name, ".lock", NULL);

  s->path = g_build_filename (dir, name, NULL);
  s->lock_path = g_build_filename (dir, lock, NULL);
  s->kind = kind;
  s->inject_error = 0;
}

void
psc_log_store_clear (PscLogStore *s)
{
  g_clear_pointer (&s->path, g_free);
  g_clear_pointer (&s->lock_path, g_free);
}

static gboolean
io_error (GError     **error,
          const char  *path,
          int          saved_errno)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), "%s: %s", path,
               g_strerror (saved_errno));
  return FALSE;
}

/* Reads an open regular file whole (at most limit bytes). */
static PscFileReason
read_fd (int fd, goffset limit, GBytes **contents)
{
  struct stat st;
  guint8 *buf;
  gsize got = 0;

  if (fstat (fd, &st) != 0)
    return PSC_FILE_IO;
  if (!S_ISREG (st.st_mode))
    return PSC_FILE_NOT_REGULAR;
  if (st.st_size > limit)
    return PSC_FILE_OVERSIZED;
  buf = psc_file_buffer_new ((size_t) st.st_size);
  if (buf == NULL)
    return PSC_FILE_OUT_OF_MEMORY;
  while (got < (gsize) st.st_size)
    {
      ssize_t n = read (fd, buf + got, (gsize) st.st_size - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += (gsize) n;
    }
  *contents = g_bytes_new_with_free_func (buf, got, free, buf);
  return PSC_FILE_OK;
}

/* Opens without following a link: a link fails with ELOOP. */
static int
open_nofollow (const char *path, int flags)
{
  return g_open (path, flags | O_NOFOLLOW | O_CLOEXEC, 0600);
}

static void drop_lock (int fd);
static int take_lock_mode (PscLogStore *s, int mode, GError **error);

PscFileReason
psc_log_store_read (PscLogStore  *s,
                    goffset       limit,
                    GBytes      **contents)
{
  int fd, lock;
  PscFileReason reason;

  *contents = NULL;
  fd = open_nofollow (s->path, O_RDONLY | O_NONBLOCK);
  if (fd < 0)
    return errno == ENOENT ? PSC_FILE_OK : errno == ELOOP ? PSC_FILE_SYMLINK : PSC_FILE_IO;
  /* A shared lock, so that an append in progress is not read half-written
   * (a torn tail that is none); without it (busy, no lock file possible)
   * the read goes on: a torn tail is only ignored. */
  lock = take_lock_mode (s, LOCK_SH, NULL);
  reason = read_fd (fd, limit, contents);
  if (lock >= 0)
    drop_lock (lock);
  close (fd);
  return reason;
}

/* Takes the log's lock (LOCK_EX to write, LOCK_SH to read), waiting at
 * most PSC_LOG_LOCK_WAIT_MS; the lock file's descriptor, or -1 with
 * @error. */
static int
take_lock_mode (PscLogStore  *s,
                int           mode,
                GError      **error)
{
  int fd = open_nofollow (s->lock_path, O_RDWR | O_CREAT);
  struct stat st;

  if (fd < 0)
    return io_error (error, s->lock_path, errno), -1;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("%s is not a regular file"), s->lock_path);
      return -1;
    }
  for (int waited = 0; flock (fd, mode | LOCK_NB) != 0; waited += 5)
    {
      if (errno != EWOULDBLOCK || waited >= PSC_LOG_LOCK_WAIT_MS)
        {
          close (fd);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                       _("%s is locked by another process"), s->path);
          return -1;
        }
      g_usleep (5000);
    }
  return fd;
}

static int
take_lock (PscLogStore  *s,
           GError      **error)
{
  return take_lock_mode (s, LOCK_EX, error);
}

static void
drop_lock (int fd)
{
  flock (fd, LOCK_UN);
  close (fd);
}

/* Where whole records end in the open log (a header of our kind first);
 * 0 when even the header is missing or damaged. */
static goffset
valid_end (int fd, uint32_t kind)
{
  g_autoptr(GBytes) contents = NULL;
  PscLogReader r;
  PscLogRecord rec;
  PscFileReason why;
  gsize len = 0;
  const guint8 *data;

  if (read_fd (fd, G_MAXINT64, &contents) != PSC_FILE_OK)
    return 0;
  data = g_bytes_get_data (contents, &len);
  if (psc_log_reader_init (&r, data, len, kind, 0) != PSC_FILE_OK)
    return 0;
  for (;;)
    {
      PscLogNext next = psc_log_reader_next (&r, &rec, &why);
      if (next == PSC_LOG_NEXT_END || next == PSC_LOG_NEXT_TORN)
        return (goffset) r.pos;
    }
}

static gboolean
write_all (int fd, const guint8 *data, gsize len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* Under the lock: cut a torn tail, then append (header first if new). */
static gboolean
append_locked (PscLogStore *s, int fd, const guint8 *records, gsize len, gboolean *repaired,
               GError **error)
{
  struct stat st;
  guint8 header[PSC_LOG_HEADER_SIZE];
  goffset end;

  if (fstat (fd, &st) != 0)
    return io_error (error, s->path, errno);
  end = st.st_size > 0 ? valid_end (fd, s->kind) : 0;
  if (repaired != NULL)
    *repaired = end != st.st_size;
  if (end != st.st_size && ftruncate (fd, end) != 0)
    return io_error (error, s->path, errno);
  if (lseek (fd, end, SEEK_SET) < 0)
    return io_error (error, s->path, errno);
  psc_log_write_header (header, s->kind);
  if ((end == 0 && !write_all (fd, header, sizeof header)) || !write_all (fd, records, len))
    {
      int saved = errno != 0 ? errno : ENOSPC;
      (void) ftruncate (fd, end);   /* never leave a half-written record behind */
      return io_error (error, s->path, saved);
    }
  return TRUE;
}

gboolean
psc_log_store_append (PscLogStore   *s,
                      const guint8  *records,
                      gsize          len,
                      gboolean      *repaired,
                      GError       **error)
{
  int lock, fd;
  gboolean ok;
  struct stat st;

  if (s->inject_error != 0)
    return io_error (error, s->path, s->inject_error == G_IO_ERROR_NO_SPACE ? ENOSPC : EIO);
  lock = take_lock (s, error);
  if (lock < 0)
    return FALSE;
  fd = open_nofollow (s->path, O_RDWR | O_CREAT);
  if (fd < 0)
    {
      ok = io_error (error, s->path, errno);
      drop_lock (lock);
      return ok;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("%s is not a regular file: it is never written through"), s->path);
      ok = FALSE;
    }
  else
    ok = append_locked (s, fd, records, len, repaired, error);
  close (fd);
  drop_lock (lock);
  return ok;
}

gboolean
psc_log_store_replace (PscLogStore   *s,
                       const guint8  *records,
                       gsize          len,
                       GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (s->path);
  g_autoptr(GFileInfo) info = NULL;
  g_autofree guint8 *all = g_malloc (PSC_LOG_HEADER_SIZE + len);
  gboolean ok;
  int lock;

  if (s->inject_error != 0)
    return io_error (error, s->path, EIO);
  if (psc_cache_dir_query (file, &info) != PSC_FILE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("%s is not a regular file: it is never written through"), s->path);
      return FALSE;
    }
  lock = take_lock (s, error);
  if (lock < 0)
    return FALSE;
  psc_log_write_header (all, s->kind);
  if (len > 0)
    memcpy (all + PSC_LOG_HEADER_SIZE, records, len);
  ok = g_file_replace_contents (file, (const char *) all, PSC_LOG_HEADER_SIZE + len, NULL, FALSE,
                                G_FILE_CREATE_PRIVATE | G_FILE_CREATE_REPLACE_DESTINATION, NULL,
                                NULL, error);
  drop_lock (lock);
  return ok;
}
