/* pct_psl_table: the compiled suffix list's table (pct_psl.c builds it)
 * and its hash, shared with the one lookup that is inline in the domain
 * row (pct_psl_labels_plain); the core's only readers of it. */
#ifndef PCT_PSL_TABLE_H
#define PCT_PSL_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pct_portable.h"
#include "pct_psl.h"

/* Bits of a table entry; section s (0 ICANN, 1 PRIVATE) shifts them by s. */
#define PSL_RULE 1u      /* the domain is a rule */
#define PSL_WILD 4u      /* "*." followed by the domain is a rule */
#define PSL_EXCEPT 16u   /* "!" followed by the domain is a rule */
#define PSL_NODE 64u     /* a suffix of some rule (every entry) */

/* 12 bytes a slot: a miss (the common lookup, "example" under "com") reads
 * one slot of a table that stays in the caches. */
typedef struct {
    uint32_t hash;  /* the high half of the hash */
    uint32_t off;   /* the key: keys[off .. off + len) */
    uint16_t len;
    uint16_t flags; /* 0: an empty slot */
} pct_psl_slot;

/* A filter before the table: bit (h >> PSL_FILTER_SHIFT) of a 2^PSL_FILTER_BITS-bit
 * set is on for every key, so most misses never touch the table. */
#define PSL_FILTER_BITS 18
#define PSL_FILTER_SHIFT (64 - PSL_FILTER_BITS)

struct pct_psl {
    pct_psl_slot *slots;
    size_t mask; /* slots - 1, a power of two minus one */
    uint8_t *keys;
    uint64_t filter[(1u << PSL_FILTER_BITS) / 64];
};

/* The hash of a key is built label by label from its last one, so that
 * the hash of each longer suffix of a host extends the one before it;
 * each label is taken a word (8 bytes) at a time, its length in the last
 * word. Each step ends in a multiply and a fold of its high half onto its
 * low one: the top bits (the filter's, the slot's tag) are the product's
 * best mixed, the low ones (the slot) fold them in; no finaliser more is
 * needed per label (the lookup's costliest step else). */
#define PSL_SEED 0x243f6a8885a308d3ULL
#define PSL_MUL 0x9E3779B97F4A7C15ULL

/* The k < 8 bytes that end at text[e] (text[0..e) readable) as one word,
 * the first byte lowest. */
static inline uint64_t pct_psl_tail_word(const uint8_t *text, size_t e, size_t k)
{
    uint64_t w = 0;
#if defined(PCT_LITTLE_ENDIAN)
    if (e >= 8 && k) { /* one load of the 8 bytes before e, in bounds */
        memcpy(&w, text + e - 8, 8);
        return w >> (64 - 8 * k);
    }
#endif
    for (size_t i = 0; i < k; i++)
        w |= (uint64_t)text[e - k + i] << (8 * i);
    return w;
}

/* h extended by the label text[s..e) (text[0..e) readable). */
static inline uint64_t pct_psl_label_step(uint64_t h, const uint8_t *text, size_t s, size_t e)
{
    size_t len = e - s;
    for (; e - s >= 8; s += 8) {
        uint64_t w;
        memcpy(&w, text + s, 8);
        h = ((h ^ w) * PSL_MUL);
        h ^= h >> 29;
    }
    h ^= pct_psl_tail_word(text, e, e - s) ^ ((uint64_t)(len & 0xFF) << 56);
    h *= PSL_MUL;
    return h ^ (h >> 29);
}

static inline size_t pct_psl_slot_of(uint64_t m, size_t mask)
{
    return (size_t)m & mask;
}

/* The keys are followed by PSL_KEY_PAD zero bytes: a key of up to 8 bytes
 * is compared as one word. */
#define PSL_KEY_PAD 8

#if defined(PCT_LITTLE_ENDIAN)
/* The word of the k bytes (1 <= k <= 8) that end at p, the first lowest
 * (the 8 bytes before p readable). */
static inline uint64_t pct_psl_word_before(const uint8_t *p, size_t k)
{
    uint64_t w;
    memcpy(&w, p - 8, 8);
    return w >> (64 - 8 * k);
}
#endif

/* pct_psl_suffix_labels_dots with all the dots, of a host of up to 64
 * bytes whose 8 bytes before it are readable too (its words are loaded
 * whole): the one-pass host check's, inline there. */
static PCT_ALWAYS_INLINE size_t pct_psl_labels_plain(const pct_psl *psl, const uint8_t *host,
                                                     size_t n, const size_t *dots, size_t nd,
                                                     int private_too)
{
#if defined(PCT_LITTLE_ENDIAN)
    const uint32_t rule = PSL_RULE | (private_too ? PSL_RULE << 1 : 0);
    const uint32_t wild = rule * PSL_WILD, except = rule * PSL_EXCEPT;
    const pct_psl_slot *slots = psl->slots;
    const uint8_t *keys = psl->keys;
    const size_t mask = psl->mask;
    size_t best = 1, labels = 0, end = n;
    uint64_t h = PSL_SEED;
    uint32_t wild_above = 0; /* the suffix one label shorter has a "*." rule */
    for (;;) {
        size_t start = nd ? dots[nd - 1] + 1 : 0, len = end - start;
        if (len < 8) { /* pct_psl_label_step of a label of one word, its load in bounds */
            h ^= pct_psl_word_before(host + end, len) ^ ((uint64_t)len << 56);
            h *= PSL_MUL;
            h ^= h >> 29;
        } else {
            h = pct_psl_label_step(h, host, start, end);
        }
        labels++;
        uint32_t f = 0;
        uint64_t bit = h >> PSL_FILTER_SHIFT;
        if ((psl->filter[bit / 64] >> (bit % 64)) & 1u) {
            uint32_t hi = (uint32_t)(h >> 32);
            size_t klen = n - start;
            for (size_t i = pct_psl_slot_of(h, mask);; i = (i + 1) & mask) {
                const pct_psl_slot *s = &slots[i];
                if (!s->flags)
                    break;
                if (s->hash != hi || s->len != klen)
                    continue;
                int same;
                if (klen <= 8) { /* the key's word (the keys are padded) */
                    uint64_t x;
                    memcpy(&x, keys + s->off, 8);
                    same = (x & (~0ull >> (64 - 8 * klen))) == pct_psl_word_before(host + n, klen);
                } else {
                    same = memcmp(keys + s->off, host + start, klen) == 0;
                }
                if (same) {
                    f = s->flags;
                    break;
                }
            }
        }
        if (f & except)
            return labels - 1; /* an exception prevails over every other rule */
        if ((f & rule) || wild_above)
            best = labels;
        if (!f || !nd)
            return best;
        wild_above = f & wild;
        end = start - 1;
        nd--;
    }
#else
    return pct_psl_suffix_labels_dots(psl, host, n, dots, nd, 1, private_too);
#endif
}

#endif /* PCT_PSL_TABLE_H */
