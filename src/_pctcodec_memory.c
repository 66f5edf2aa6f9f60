/* Big buffers: pages mapped ahead of the writes, and a pool of freed ones (see _pctcodec_memory.h). */
#include "_pctcodec_memory.h" /* Python.h first, as it asks */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h> /* SSE2: every x86-64 CPU has it */
#define HAVE_STREAM 1
#endif

#if defined(__linux__)
#include <malloc.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#endif

#if defined(__linux__) && defined(MADV_FREE) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_POOL 1
#define POOL_SLOTS 16
#define POOL_MAX ((size_t)1 << 30)
#define POOL_BUDGET ((size_t)2 << 30) /* what all slots hold together, at most */
/* Freed big buffers and their sizes (NULL: an empty slot), under a spin
 * lock: it is held for a few loads and stores only (never across malloc,
 * free or a system call), and a release callback may come on any thread,
 * with or without the GIL. */
static struct {
    void *p;
    size_t n;
} pool[POOL_SLOTS];
static char pool_busy;

static void pool_lock(void)
{
    while (__atomic_test_and_set(&pool_busy, __ATOMIC_ACQUIRE))
        ;
}

static void pool_unlock(void)
{
    __atomic_clear(&pool_busy, __ATOMIC_RELEASE);
}
#endif

void big_after_fork(void)
{
#ifdef HAVE_POOL
    /* a thread that held the lock is not in the child: nobody holds it */
    __atomic_clear(&pool_busy, __ATOMIC_RELEASE);
#endif
}

#if defined(__linux__) && !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 on; older headers lack the name, older kernels refuse it */
#endif

void big_populate(void *p, size_t n)
{
#if defined(__linux__)
    if (!p || !n)
        return;
    /* every page p[0..n) touches; a page past the buffer's end is in the
     * same mapping (malloc maps whole pages) */
    uintptr_t page = 4096, start = (uintptr_t)p & ~(page - 1);
    uintptr_t end = ((uintptr_t)p + n + page - 1) & ~(page - 1);
    (void)madvise((void *)start, end - start, MADV_POPULATE_WRITE); /* failing is no error: the writes fault */
#else
    (void)p;
    (void)n;
#endif
}

#if defined(__linux__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_PREFAULT 1
/* Calls whose prefaulted buffers hold this much in all get the thread; it
 * maps STEP bytes of a buffer a call, keeping up to AHEAD bytes ahead of
 * its writer (more than a chunk's output; what is mapped past a result's
 * end is that much memory lost until the result is freed or cut). A
 * buffer below POPULATE_MIN is not worth a region. */
#define PREFAULT_MIN ((size_t)8 << 20)
#define PREFAULT_STEP ((size_t)1 << 20)
#define PREFAULT_AHEAD ((size_t)4 << 20)

/* One step of region r, whose pages below *at are mapped: 1 when it has
 * mapped some, 0 when it is far enough ahead of the writer, -1 when the
 * region is done (its end reached, or moved). */
static int prefault_step(prefault_region *r, size_t *at)
{
    if (*at >= r->cap || __atomic_load_n(&r->gone, __ATOMIC_ACQUIRE))
        return -1;
    size_t written = __atomic_load_n(&r->written, __ATOMIC_RELAXED);
    if (written > *at) /* the writer is ahead: its pages are mapped */
        *at += (written - *at) & ~(size_t)4095;
    if (*at >= r->cap)
        return -1;
    if (*at > written && *at - written >= PREFAULT_AHEAD)
        return 0;
    size_t step = r->cap - *at < PREFAULT_STEP ? r->cap - *at : PREFAULT_STEP;
    big_populate(r->base + *at, step);
    *at += step;
    return 1;
}

static void prefault_main(void *arg)
{
    prefaulter *pf = arg;
    int n = pf->n < PREFAULT_REGIONS ? pf->n : PREFAULT_REGIONS; /* fixed once the thread runs */
    size_t at[PREFAULT_REGIONS] = {0};
    for (int i = 0; i < n; i++)
        at[i] = (size_t)(-(uintptr_t)pf->region[i].base & 4095); /* the first whole page */
    int open = 1;
    while (open && !__atomic_load_n(&pf->stop, __ATOMIC_ACQUIRE)) {
        int busy = 0;
        open = 0;
        for (int i = 0; i < n; i++) { /* a step of each in turn: the writers go side by side */
            int st = prefault_step(&pf->region[i], &at[i]);
            busy |= st > 0;
            open |= st >= 0;
        }
        if (open && !busy) {
            struct timespec wait = {0, 100000}; /* far enough ahead of every writer: 0.1 ms */
            nanosleep(&wait, NULL);
        }
    }
    PyThread_release_lock(pf->done);
}
#endif

void prefault_init(prefaulter *pf)
{
    memset(pf, 0, sizeof *pf);
}

int prefault_add(prefaulter *pf, void *base, size_t cap)
{
#ifdef HAVE_PREFAULT
    if (!base || cap < POPULATE_MIN || pf->n >= PREFAULT_REGIONS || pf->done)
        return -1;
    prefault_region *r = &pf->region[pf->n];
    r->base = base;
    /* whole pages only: the last one may hold what malloc keeps after it */
    r->cap = cap & ~(size_t)4095;
    r->written = 0;
    r->gone = 0;
    pf->total = cap > SIZE_MAX - pf->total ? SIZE_MAX : pf->total + cap;
    return pf->n++;
#else
    (void)pf;
    (void)base;
    (void)cap;
    return -1;
#endif
}

void prefault_start(prefaulter *pf)
{
#ifdef HAVE_PREFAULT
    if (pf->done || pf->total < PREFAULT_MIN || !(pf->done = PyThread_allocate_lock()))
        return;
    pf->stop = 0;
    if (PyThread_acquire_lock(pf->done, WAIT_LOCK)
        && PyThread_start_new_thread(prefault_main, pf) != PYTHREAD_INVALID_THREAD_ID)
        return;
    PyThread_free_lock(pf->done);
    pf->done = NULL;
#else
    (void)pf;
#endif
}

void prefault_progress(prefaulter *pf, int i, const void *base, size_t written)
{
#ifdef HAVE_PREFAULT
    if (!pf->done || i < 0 || i >= pf->n)
        return;
    prefault_region *r = &pf->region[i];
    if (base != r->base)
        __atomic_store_n(&r->gone, 1, __ATOMIC_RELEASE);
    else
        __atomic_store_n(&r->written, written, __ATOMIC_RELAXED);
#else
    (void)pf;
    (void)i;
    (void)base;
    (void)written;
#endif
}

void prefault_stop(prefaulter *pf)
{
#ifdef HAVE_PREFAULT
    if (!pf->done)
        return;
    __atomic_store_n(&pf->stop, 1, __ATOMIC_RELEASE);
    PyThread_acquire_lock(pf->done, WAIT_LOCK);
    PyThread_free_lock(pf->done);
    pf->done = NULL;
#else
    (void)pf;
#endif
}

#ifdef HAVE_POOL
/* Keeps p (n bytes) in an empty slot, making room by dropping the smallest
 * buffers kept while they are smaller than p (so that buffers of earlier,
 * smaller calls do not keep a bigger one out: a column of 4 M rows after
 * one of 1 M), within POOL_BUDGET bytes in all; frees what it drops, or p
 * when no room is made. */
static void pool_put(void *p, size_t n)
{
    void *drop[POOL_SLOTS];
    int dropped = 0;
    pool_lock();
    size_t total = 0;
    for (int i = 0; i < POOL_SLOTS; i++)
        if (pool[i].p)
            total += pool[i].n;
    for (;;) {
        int empty = -1, small = -1;
        for (int i = 0; i < POOL_SLOTS; i++) {
            if (!pool[i].p) {
                if (empty < 0)
                    empty = i;
            } else if (small < 0 || pool[i].n < pool[small].n) {
                small = i;
            }
        }
        if (empty >= 0 && n <= POOL_BUDGET - total) {
            pool[empty].p = p;
            pool[empty].n = n;
            p = NULL;
            break;
        }
        if (small < 0 || pool[small].n >= n)
            break; /* no room: p is freed */
        drop[dropped++] = pool[small].p;
        total -= pool[small].n;
        pool[small].p = NULL;
    }
    pool_unlock();
    for (int i = 0; i < dropped; i++)
        free(drop[i]);
    free(p);
}

/* A pooled buffer for `need` bytes: the smallest that holds them, else the
 * biggest; NULL when the pool is empty. One too small is grown to `need`,
 * one over 4 times as big cut to twice `need`, by realloc (an mremap for
 * these sizes: the pages kept stay mapped, those cut off go back to the
 * system at once), so that a small result never keeps a big buffer's
 * memory. */
static void *pool_take(size_t need)
{
    int at = -1;
    pool_lock();
    for (int i = 0; i < POOL_SLOTS; i++) {
        if (!pool[i].p)
            continue;
        if (at < 0)
            at = i;
        else if (pool[i].n >= need ? pool[at].n < need || pool[i].n < pool[at].n
                                   : pool[at].n < need && pool[i].n > pool[at].n)
            at = i;
    }
    void *p = NULL;
    size_t n = 0;
    if (at >= 0) {
        p = pool[at].p;
        n = pool[at].n;
        pool[at].p = NULL;
    }
    pool_unlock();
    /* more than 4 times the need: cut to twice (results outgrow the hint
     * that is asked for, and a cut grown again would fault anew) */
    size_t want = n < need ? need : n / 4 > need ? 2 * need : n;
    if (p && want != n) {
        void *q = realloc(p, want);
        if (q)
            p = q;
        else if (n < need) { /* it cannot grow: the caller tries a fresh buffer */
            free(p);
            p = NULL;
        }
    }
    return p;
}
#endif

void *big_take(size_t n, int *pooled)
{
    *pooled = 0;
#ifdef HAVE_POOL
    if (n >= BIG_BUFFER) {
        void *p = pool_take(n);
        if (p) {
            *pooled = 1;
            return p;
        }
    }
#endif
    return malloc(n ? n : 1);
}

void *big_malloc(size_t n)
{
    int pooled;
    void *p = big_take(n, &pooled);
    if (!pooled && n >= POPULATE_MIN)
        big_populate(p, n);
    return p;
}

void big_free(void *p)
{
#ifdef HAVE_POOL
    size_t n = p ? malloc_usable_size(p) : 0;
    if (n >= BIG_BUFFER && n <= POOL_MAX) {
        /* The whole pages inside the buffer (malloc's own header stays
         * out) go back to the kernel when it needs memory; until then a
         * write to them costs no fault. */
        uintptr_t page = 4096, start = ((uintptr_t)p + page - 1) & ~(page - 1);
        uintptr_t end = ((uintptr_t)p + n) & ~(page - 1);
        if (end > start)
            (void)madvise((void *)start, end - start, MADV_FREE);
        pool_put(p, n);
        return;
    }
#endif
    free(p);
}

pct_status out_reserve_big(pct_buf *out, size_t extra, size_t limit, int *pooled)
{
    if (pooled)
        *pooled = 0;
#ifdef HAVE_POOL
    if (!out->data && extra >= BIG_BUFFER && extra <= limit) {
        void *p = pool_take(extra);
        if (p) {
            out->data = p;
            out->cap = malloc_usable_size(p);
            if (pooled)
                *pooled = 1;
        }
    }
#endif
    return pct_buf_reserve(out, extra, limit);
}

void stream_copy(void *dst, const void *src, size_t n)
{
#ifdef HAVE_STREAM
    if (n >= 4096) {
        uint8_t *d = dst;
        const uint8_t *s = src;
        size_t head = (size_t)(-(uintptr_t)d & 15); /* to a 16-byte boundary */
        memcpy(d, s, head);
        d += head, s += head, n -= head;
        for (; n >= 64; d += 64, s += 64, n -= 64) {
            __m128i a = _mm_loadu_si128((const __m128i *)s), b = _mm_loadu_si128((const __m128i *)(s + 16));
            __m128i c = _mm_loadu_si128((const __m128i *)(s + 32)), e = _mm_loadu_si128((const __m128i *)(s + 48));
            _mm_stream_si128((__m128i *)d, a);
            _mm_stream_si128((__m128i *)(d + 16), b);
            _mm_stream_si128((__m128i *)(d + 32), c);
            _mm_stream_si128((__m128i *)(d + 48), e);
        }
        memcpy(d, s, n);
        _mm_sfence();
        return;
    }
#endif
    if (n)
        memcpy(dst, src, n);
}
