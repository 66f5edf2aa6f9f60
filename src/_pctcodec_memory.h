/* Big buffers of the batch engine: results of tens or hundreds of MB are
 * written into fresh memory, and each 4 KiB page of it costs a page fault
 * (zeroing, accounting, locks: about 0.7 ns per byte here, up to two thirds
 * of a first quote_many; the faults of several threads queue on one lock of
 * the process). Two remedies, both on Linux only (elsewhere nothing
 * changes):
 * - The pages a buffer is about to receive are mapped in one call
 *   (MADV_POPULATE_WRITE) a chunk at a time: a third less than a fault per
 *   page. Huge pages are not asked for: where the kernel compacts memory to
 *   make them on demand (THP defrag "madvise", the default) a first call
 *   took 2-3 times longer with them.
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

/* Buffers from this size on are pooled: malloc (glibc's at
 * least) gives them a mapping of their own, fresh each time; smaller ones
 * come from the heap, mostly mapped already by earlier calls. */
#define BIG_BUFFER ((size_t)32 << 20)

/* Buffers from this size on have their pages mapped ahead of the writes
 * (big_populate). */
#define POPULATE_MIN ((size_t)1 << 20)

/* Maps the pages of p[0..n), part of a buffer from malloc, in one call where
 * the system can (Linux 5.14 on); elsewhere nothing. */
void big_populate(void *p, size_t n);

/* malloc(n), its pages mapped when big; a pooled buffer when one fits. */
void *big_malloc(size_t n);

/* free(p), or p kept in the pool when it is big (any pointer from malloc,
 * realloc or big_malloc; NULL is nothing). Safe from any thread, with or
 * without the GIL: Arrow's release callbacks call it. */
void big_free(void *p);

/* pct_buf_reserve, the buffer taken from the pool when out has none yet
 * and one fits. */
pct_status out_reserve_big(pct_buf *out, size_t extra, size_t limit);

/* memcpy(dst, src, n) for a destination not read again soon (a chunk of
 * a result, appended from a thread's scratch buffer): on x86-64 in
 * non-temporal stores, which write whole cache lines without reading them
 * first and leave the cache to the scratch. Ordered before a lock release
 * like any store (it ends in a store fence). */
void stream_copy(void *dst, const void *src, size_t n);

#endif /* PCTCODEC_MEMORY_H */
