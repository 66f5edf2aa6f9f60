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
 *   writes each chunk into pages already mapped. At most POOL_SLOTS (16)
 *   buffers, the biggest freed, of at most POOL_MAX bytes each and
 *   POOL_BUDGET in all. */
#ifndef PCTCODEC_MEMORY_H
#define PCTCODEC_MEMORY_H

#include "_pctcodec.h" /* Python.h first, as it asks: the prefaulter's thread and lock */

#include <stddef.h>
#include <stdint.h>

#include "pct_batch.h"

/* Buffers from this size on are pooled: malloc (glibc's at least) maps
 * them on their own, fresh each time (its threshold rises only when it
 * frees such a mapping, and the pool keeps them from it); smaller ones come
 * from the heap, mostly mapped already by earlier calls. */
#define BIG_BUFFER ((size_t)1 << 20)

/* Buffers from this size on have their pages mapped ahead of the writes
 * (big_populate). */
#define POPULATE_MIN BIG_BUFFER

/* Maps the pages of p[0..n), part of a buffer from malloc, in one call where
 * the system can (Linux 5.14 on); elsewhere nothing. */
void big_populate(void *p, size_t n);

/* malloc(n), its pages mapped when big; a pooled buffer when one fits. */
void *big_malloc(size_t n);

/* big_malloc without the mapping: *pooled is 1 when the buffer is a pooled
 * one (its pages mapped), else 0 (fresh pages: for a prefaulter). */
void *big_take(size_t n, int *pooled);

/* free(p), or p kept in the pool when it is big (any pointer from malloc,
 * realloc or big_malloc; NULL is nothing). Safe from any thread, with or
 * without the GIL: Arrow's release callbacks call it. */
void big_free(void *p);

/* In a child after fork(): the pool's lock free again (a thread of the
 * parent may have held it for its few loads and stores). */
void big_after_fork(void);

/* pct_buf_reserve, the buffer taken from the pool when out has none yet
 * and one fits (*pooled, unless NULL: 1 when it was). */
pct_status out_reserve_big(pct_buf *out, size_t extra, size_t limit, int *pooled);

/* Maps the pages of big results on a thread of its own, a few MiB ahead
 * of each one's writer, so that the kernel's work of a first call (fresh
 * pages) runs beside the rows' instead of in the writer's page faults
 * (Linux; elsewhere nothing is started). One thread serves the buffers of
 * a call (split_many's 14: each child's data and offsets), going round
 * them. The writer reports how far it has written each; the thread leaves
 * a buffer at its end or when the writer reports it moved (grown by
 * realloc), and stops when stopped or when it has none left. Populating
 * never changes what memory holds: should the thread reach an old range
 * the moment a realloc moves a buffer, it maps zero pages or nothing. */
#define PREFAULT_REGIONS 16

typedef struct {
    uint8_t *base;
    size_t cap;     /* whole pages only */
    size_t written; /* atomic: the writer's progress */
    int gone;       /* atomic: the buffer moved */
} prefault_region;

typedef struct {
    prefault_region region[PREFAULT_REGIONS];
    int n;
    size_t total; /* the regions' bytes */
    int stop;     /* atomic */
    PyThread_type_lock done; /* held while the thread runs; NULL: none runs */
} prefaulter;

/* An empty prefaulter (no thread). */
void prefault_init(prefaulter *pf);

/* base[0..cap), fresh memory a writer is about to fill from its start,
 * made pf's region: its index, or -1 when not taken (too small to pay
 * for, PREFAULT_REGIONS taken, the thread started, or no prefaulting on
 * this system; the writes fault). */
int prefault_add(prefaulter *pf, void *base, size_t cap);

/* Starts pf's thread when its regions are big enough together to pay for
 * it; failing to start is no error (the writes fault). */
void prefault_start(prefaulter *pf);

/* The writer has written base[0..written) of region i (-1: nothing); a
 * base that is not the region's (the buffer moved) drops the region.
 * Called by one writer at a time for a region. */
void prefault_progress(prefaulter *pf, int i, const void *base, size_t written);

/* Stops pf's thread and waits for it (nothing when none runs); its
 * regions may be freed after. */
void prefault_stop(prefaulter *pf);

/* A size remembered from one call for the next (a result column's length,
 * to ask the pool for the buffer it had), read and written from any
 * thread: a hint, so a stale value costs only page faults. */
typedef struct {
    size_t n;
} size_hint;

static inline size_t hint_get(const size_hint *h)
{
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_load_n(&h->n, __ATOMIC_RELAXED);
#else
    return *(const volatile size_t *)&h->n;
#endif
}

static inline void hint_set(size_hint *h, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    __atomic_store_n(&h->n, n, __ATOMIC_RELAXED);
#else
    *(volatile size_t *)&h->n = n;
#endif
}

/* memcpy(dst, src, n) for a destination not read again soon (a chunk of
 * a result, appended from a thread's scratch buffer): on x86-64 in
 * non-temporal stores, which write whole cache lines without reading them
 * first and leave the cache to the scratch. Ordered before a lock release
 * like any store (it ends in a store fence). */
void stream_copy(void *dst, const void *src, size_t n);

#endif /* PCTCODEC_MEMORY_H */
