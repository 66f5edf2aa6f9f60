/* Big buffers in huge pages (see _pctcodec_memory.h). */
#include <stdint.h>
#include <stdlib.h>

#include "_pctcodec_memory.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

void big_advise(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (!p || n < BIG_BUFFER)
        return;
    /* The pages that p[0..n) touches: all of the mapping malloc made for
     * it. Advising only part of a mapping would split it in two, and
     * realloc's mremap, which grows a mapping without a copy, fails on a
     * range over two (it then copies). */
    uintptr_t page = 4096, start = (uintptr_t)p & ~(page - 1);
    uintptr_t end = ((uintptr_t)p + n + page - 1) & ~(page - 1);
    (void)madvise((void *)start, end - start, MADV_HUGEPAGE); /* advice: failing is no error */
#else
    (void)p;
    (void)n;
#endif
}

void *big_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    big_advise(p, n);
    return p;
}

pct_status out_reserve_big(pct_out *out, size_t extra, size_t limit)
{
    pct_status rc = pct_out_reserve(out, extra, limit);
    if (rc == PCT_OK)
        big_advise(out->data, out->cap);
    return rc;
}
