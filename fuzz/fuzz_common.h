/* Shared by the libFuzzer targets of src/core: a failing property aborts
 * with a message, the input is read as a few parameter bytes and a body,
 * and the kernels this CPU runs are listed once for the differential checks. */
#ifndef PCT_FUZZ_COMMON_H
#define PCT_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct.h"

#define FUZZ_ASSERT(cond)                                                               \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                    \
        }                                                                               \
    } while (0)

/* The fuzz input, consumed from the front for parameters. */
typedef struct {
    const uint8_t *data;
    size_t size;
} fuzz_input;

static inline uint8_t take_byte(fuzz_input *in)
{
    if (!in->size)
        return 0;
    in->size--;
    return *in->data++;
}

/* A safe set from 16 bytes (one bit per ASCII byte; fewer bytes, fewer bits). */
static inline void take_set(fuzz_input *in, pct_set *set)
{
    uint8_t chars[128];
    size_t k = 0;
    pct_set_clear(set);
    for (unsigned i = 0; i < 16; i++) {
        uint8_t b = take_byte(in);
        for (unsigned bit = 0; bit < 8; bit++)
            if (b >> bit & 1u)
                chars[k++] = (uint8_t)(i * 8 + bit);
    }
    pct_set_add_bytes(set, chars, k);
}

/* A heap copy of exactly n bytes (n == 0 gives a 1-byte block), so that
 * AddressSanitizer sees any read or write past the end. */
static inline uint8_t *dup_exact(const void *src, size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p)
        abort();
    if (n)
        memcpy(p, src, n);
    return p;
}

static inline void *alloc_exact(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        abort();
    return p;
}

/* The fuzz input read as n = size / kind code units of `kind` bytes each
 * (little-endian; 4-byte ones taken modulo 0x110000), into an exact heap
 * block; `no_surrogates` moves U+D800-U+DFFF down by 0x800. With cps, the
 * code points are also stored there (n of them). Returns the units. */
static inline void *take_units(const fuzz_input *in, int kind, int no_surrogates, uint32_t *cps,
                               size_t *n_out)
{
    size_t n = in->size / (size_t)kind;
    void *units = alloc_exact(n * (size_t)kind);
    for (size_t i = 0; i < n; i++) {
        uint32_t c = 0;
        for (int b = 0; b < kind; b++)
            c |= (uint32_t)in->data[i * (size_t)kind + (size_t)b] << (8 * b);
        if (kind == 4)
            c %= 0x110000u;
        if (no_surrogates && c >= 0xD800 && c <= 0xDFFF)
            c -= 0x800;
        if (cps)
            cps[i] = c;
        if (kind == 1)
            ((uint8_t *)units)[i] = (uint8_t)c;
        else if (kind == 2)
            ((uint16_t *)units)[i] = (uint16_t)c;
        else
            ((uint32_t *)units)[i] = c;
    }
    *n_out = n;
    return units;
}

/* The names of the kernels this CPU runs; the last is "scalar". */
static const char *fuzz_kernels[8];
static size_t fuzz_nkernels;

static inline void fuzz_list_kernels(void)
{
    if (fuzz_nkernels)
        return;
    /* the choice from the environment, or the best kernel; unknown names refused */
    const char *env = getenv("PCTCODEC_KERNEL");
    int rc = pct_kernel_init();
    FUZZ_ASSERT(rc == 0 || (env && *env));
    if (rc != 0 || !env || !*env || strcmp(env, "auto") == 0)
        FUZZ_ASSERT(strcmp(pct_kernel_name(), pct_kernel_available(0)) == 0);
    FUZZ_ASSERT(pct_kernel_select("no such kernel") == -1);
    for (size_t i = 0; i < 8 && pct_kernel_available(i); i++)
        fuzz_kernels[fuzz_nkernels++] = pct_kernel_available(i);
    FUZZ_ASSERT(fuzz_nkernels >= 1 && strcmp(fuzz_kernels[fuzz_nkernels - 1], "scalar") == 0);
    fprintf(stderr, "kernels compared:");
    for (size_t i = 0; i < fuzz_nkernels; i++)
        fprintf(stderr, " %s", fuzz_kernels[i]);
    fprintf(stderr, "\n");
}

static inline void fuzz_use_kernel(size_t i)
{
    FUZZ_ASSERT(pct_kernel_select(fuzz_kernels[i]) == 0);
    FUZZ_ASSERT(strcmp(pct_kernel_name(), fuzz_kernels[i]) == 0);
}

static inline int ref_hex(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reference percent-decoding, written apart from the core's kernels. */
static inline size_t ref_decode(const uint8_t *s, size_t n, int plus, uint8_t *d)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (plus && s[i] == '+') {
            d[o++] = ' ';
        } else if (s[i] == '%' && n - i >= 3 && ref_hex(s[i + 1]) >= 0 && ref_hex(s[i + 2]) >= 0) {
            d[o++] = (uint8_t)(ref_hex(s[i + 1]) * 16 + ref_hex(s[i + 2]));
            i += 2;
        } else {
            d[o++] = s[i];
        }
    }
    return o;
}

#endif /* PCT_FUZZ_COMMON_H */
