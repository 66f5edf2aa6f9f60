/* pct_buf: the one growing byte buffer of the core and the binding.
 * Plain C99, no Python.
 *
 * data[0..len) is the content, cap the bytes allocated (malloc'd; data is
 * NULL before the first reservation). scratch is a second allocation of the
 * same owner for writers that need an intermediate copy of what they write
 * (the batch rows: a resolved target, a canonical key's tail); it has no
 * content of its own between calls. */
#ifndef PCT_BUF_H
#define PCT_BUF_H

#include "pct.h"

typedef struct {
    uint8_t *data;
    size_t len, cap;
    uint8_t *scratch;
    size_t scratch_cap;
} pct_buf;

void pct_buf_init(pct_buf *buf);
/* Frees both allocations (data too: take it first to keep it); the buffer
 * is then empty, as after pct_buf_init. */
void pct_buf_free(pct_buf *buf);
/* Room for `extra` more bytes after len (data is then never NULL):
 * PCT_ERR_NO_MEMORY, or PCT_ERR_TOO_LARGE when len + extra would pass
 * `limit`. Grows geometrically (at least doubling, at least 64 bytes). */
pct_status pct_buf_reserve(pct_buf *buf, size_t extra, size_t limit);
/* n bytes of p appended (pct_buf_reserve's outcomes). */
pct_status pct_buf_append(pct_buf *buf, const void *p, size_t n, size_t limit);
/* scratch holds at least n bytes (and is allocated, even for 0). */
pct_status pct_buf_scratch(pct_buf *buf, size_t n);

#endif /* PCT_BUF_H */
