/* Big buffers of the batch engine: results of tens or hundreds of MB are
 * written into fresh memory, and each 4 KiB page of it costs a page fault
 * (zeroing, accounting, locks: about 0.35 ns per byte here, a quarter of
 * quote_many's time). Asked to, Linux maps such a buffer in 2 MiB pages
 * (transparent huge pages in their default "madvise" mode), which halves
 * that cost and takes 512 times fewer faults. Elsewhere nothing changes. */
#ifndef PCTCODEC_MEMORY_H
#define PCTCODEC_MEMORY_H

#include <stddef.h>

#include "pct_batch.h"

/* Buffers from this size on are advised: malloc (glibc's at least) gives
 * them a mapping of their own, fresh each time; smaller ones come from the
 * heap, mostly mapped already by earlier calls. */
#define BIG_BUFFER ((size_t)32 << 20)

/* Advises the pages of p[0..n), a buffer from malloc, to be mapped in huge
 * pages, when n is at least BIG_BUFFER and the system has that advice. */
void big_advise(void *p, size_t n);

/* malloc(n), advised when big. */
void *big_malloc(size_t n);

/* pct_out_reserve, with the buffer advised when big. */
pct_status out_reserve_big(pct_out *out, size_t extra, size_t limit);

#endif /* PCTCODEC_MEMORY_H */
