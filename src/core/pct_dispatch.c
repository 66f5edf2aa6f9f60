/* The one place that chooses a kernel, and the public entry points that use it. */
#include <stdlib.h>
#include <string.h>

#include "pct_kernels.h"

/* Best first: the default is the first one this CPU runs. */
static const pct_kernel *const kernels[] = {
#ifdef PCT_AARCH64
    &pct_kernel_neon,
#endif
#ifdef PCT_AVX512
    &pct_kernel_avx512,
#endif
#ifdef PCT_X86_64
    &pct_kernel_avx2,
    &pct_kernel_sse2,
#endif
    &pct_kernel_scalar,
};
#define N_KERNELS (sizeof kernels / sizeof kernels[0])

/* Written before any thread can call the core (module init, test setup); the
 * atomics only keep a lazy first choice from racing with itself. */
static const pct_kernel *active;

static const pct_kernel *best(void)
{
    for (size_t i = 0; i < N_KERNELS; i++)
        if (kernels[i]->usable())
            return kernels[i];
    return &pct_kernel_scalar;
}

static void set_active(const pct_kernel *k)
{
    pct_atomic_store_ptr(&active, k);
}

const pct_kernel *pct_kernel_active(void)
{
    const pct_kernel *k = pct_atomic_load_ptr(&active);
    if (!k) {
        pct_kernel_init();
        k = active;
    }
    return k;
}

const char *pct_kernel_name(void)
{
    return pct_kernel_active()->name;
}

const char *pct_kernel_available(size_t i)
{
    for (size_t k = 0; k < N_KERNELS; k++)
        if (kernels[k]->usable() && i-- == 0)
            return kernels[k]->name;
    return NULL;
}

int pct_kernel_select(const char *name)
{
    if (!name || !*name || strcmp(name, "auto") == 0) {
        set_active(best());
        return 0;
    }
    for (size_t i = 0; i < N_KERNELS; i++) {
        if (strcmp(kernels[i]->name, name) == 0) {
            if (!kernels[i]->usable())
                return -2;
            set_active(kernels[i]);
            return 0;
        }
    }
    return -1;
}

int pct_kernel_init(void)
{
    int rc = pct_kernel_select(getenv("PCTCODEC_KERNEL"));
    if (rc != 0)
        set_active(best());
    return rc;
}

/* ---- the public functions of pct.h ------------------------------------- */

size_t pct_span_safe(const uint8_t *src, size_t n, const pct_set *set)
{
    return pct_kernel_active()->span_safe(src, n, set);
}

size_t pct_find_escape(const uint8_t *src, size_t n, int plus)
{
    /* '%' alone is a memchr, which the C library unrolls further than the
     * kernels' loop; and below 16 bytes each kernel would call the scalar
     * body anyway */
    if (n < 16 || !plus)
        return pct_scalar_find_escape(src, n, plus);
    return pct_kernel_active()->find_escape(src, n, plus);
}

pct_status pct_encoded_size(const uint8_t *src, size_t n, const pct_set *keep,
                            size_t limit, size_t *out_size)
{
    /* The total is n + 2*escapes, checked without overflow. */
    if (n > limit)
        return PCT_ERR_TOO_LARGE;
    size_t escapes = pct_kernel_active()->count_unsafe(src, n, keep);
    if (escapes > (limit - n) / 2)
        return PCT_ERR_TOO_LARGE;
    *out_size = n + 2 * escapes;
    return PCT_OK;
}

size_t pct_encode(const uint8_t *src, size_t n, const pct_set *keep, int plus, uint8_t *dst)
{
    return pct_kernel_active()->encode(src, n, keep, plus, dst);
}

size_t pct_encode_room(const uint8_t *src, size_t n, const pct_set *keep, int plus, uint8_t *dst)
{
    return pct_kernel_active()->encode_room(src, n, keep, plus, dst);
}

size_t pct_decode(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    return pct_kernel_active()->decode(src, n, plus, dst);
}

size_t pct_decode_room(const uint8_t *src, size_t n, int plus, uint8_t *dst, int *high)
{
    const pct_kernel *k = pct_kernel_active();
    if (k->decode_room)
        return k->decode_room(src, n, plus, dst, high);
    size_t len = k->decode(src, n, plus, dst);
    *high = pct_ascii_span(dst, len) != len;
    return len;
}
