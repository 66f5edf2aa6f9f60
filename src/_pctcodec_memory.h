/* Big buffers of the batch engine: results of tens or hundreds of MB are
 * written into fresh memory, and each 4 KiB page of it costs a page fault
 * (zeroing, accounting, locks: about 0.35 ns per byte here, a quarter of
 * quote_many's time; and the faults of several threads queue on one lock
 * of the process). Two remedies, both on Linux only (elsewhere nothing
 * changes):
 * - Asked to, Linux maps such a buffer in 2 MiB pages (transparent huge
 *   pages in their default "madvise" mode): half the cost, 512 times fewer
 *   faults.
 * - A freed big buffer (a result array the caller dropped) is kept, its
 *   pages handed back lazily (MADV_FREE: the kernel takes them only when it
 *   needs memory), for the next call's result, which takes it cut or grown
 *   to its size: a pipeline that calls a batch function chunk after chunk
 *   writes each chunk into pages already mapped. At most POOL_SLOTS (2)
 *   buffers, the biggest freed, of at most POOL_MAX bytes each. */
#ifndef PCTCODEC_MEMORY_H
#define PCTCODEC_MEMORY_H

#include <stddef.h>

#include "pct_batch.h"

/* Buffers from this size on are advised and pooled: malloc (glibc's at
 * least) gives them a mapping of their own, fresh each time; smaller ones
 * come from the heap, mostly mapped already by earlier calls. */
#define BIG_BUFFER ((size_t)32 << 20)

/* Advises the pages of p[0..n), a buffer from malloc, to be mapped in huge
 * pages, when n is at least BIG_BUFFER and the system has that advice. */
void big_advise(void *p, size_t n);

/* malloc(n), advised when big; a pooled buffer when one fits. */
void *big_malloc(size_t n);

/* free(p), or p kept in the pool when it is big (any pointer from malloc,
 * realloc or big_malloc; NULL is nothing). Safe from any thread, with or
 * without the GIL: Arrow's release callbacks call it. */
void big_free(void *p);

/* pct_buf_reserve, with the buffer advised when big and, when out has no
 * buffer yet, taken from the pool when one fits. */
pct_status out_reserve_big(pct_buf *out, size_t extra, size_t limit);

/* memcpy(dst, src, n) for a destination not read again soon (a chunk of
 * a result, appended from a thread's scratch buffer): on x86-64 in
 * non-temporal stores, which write whole cache lines without reading them
 * first and leave the cache to the scratch. Ordered before a lock release
 * like any store (it ends in a store fence). */
void stream_copy(void *dst, const void *src, size_t n);

#endif /* PCTCODEC_MEMORY_H */
