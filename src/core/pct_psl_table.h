/* pct_psl_table: the compiled suffix list's table (pct_psl.c builds it)
 * and its hash, shared with the one lookup that is inline in the domain
 * row (pct_psl_suffix_plain); the core's only readers of it. */
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
#define PSL_PARENT 64u   /* a longer rule ends with "." and the domain */
/* The bits of a rule of section 1 (PRIVATE). */
#define PSL_SECTION1 ((PSL_RULE | PSL_WILD | PSL_EXCEPT) << 1)

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

/* The public suffix of the host[0..n) of up to 64 bytes (ASCII,
 * lowercase, labels not empty, no trailing dot) whose dots are the bits of
 * `dots` (bit k: host[k]), by pct_psl_suffix_labels_dots's rules: *suffix
 * is where it starts, *above where the label before it starts (SIZE_MAX:
 * the host is the suffix). The 8 bytes before the host are readable (its
 * short labels are loaded as the word that ends them), and each label's
 * start is the bit below its end: the one-pass host check's, inline there. */
static PCT_ALWAYS_INLINE void pct_psl_suffix_plain(const pct_psl *psl, const uint8_t *host, size_t n,
                                                   uint64_t dots, int private_too, size_t *suffix,
                                                   size_t *above)
{
#if defined(PCT_LITTLE_ENDIAN)
    const uint32_t rule = PSL_RULE | (private_too ? PSL_RULE << 1 : 0);
    const uint32_t wild = rule * PSL_WILD, except = rule * PSL_EXCEPT;
    /* a longer suffix is looked up only where a rule of a section read
     * lies past this one (most hosts: the last label's only) */
    const uint32_t onward = rule * PSL_PARENT | wild;
    const pct_psl_slot *slots = psl->slots;
    const uint8_t *keys = psl->keys;
    const size_t mask = psl->mask;
    /* the labels from the last: each starts after the highest dot left,
     * which is then dropped (best: the suffix's start; SIZE_MAX until a
     * rule sets it, else the last label, by the default rule) */
    uint64_t left = dots;
    size_t end = n, start, best = SIZE_MAX, shorter = n;
    uint64_t h = PSL_SEED;
    uint32_t wild_above = 0; /* the suffix one label shorter has a "*." rule */
    for (;;) {
        start = 0;
        if (left) {
            unsigned dot = pct_top64(left);
            left ^= 1ull << dot;
            start = dot + 1u;
        }
        size_t len = end - start;
        uint64_t w = 0; /* the label's word, when it is one */
        if (len < 8) { /* pct_psl_label_step of a label of one word, its load in bounds */
            w = pct_psl_word_before(host + end, len);
            h ^= w ^ ((uint64_t)len << 56);
            h *= PSL_MUL;
            h ^= h >> 29;
        } else {
            h = pct_psl_label_step(h, host, start, end);
        }
        uint32_t f = 0;
        uint64_t bit = h >> PSL_FILTER_SHIFT;
        if ((psl->filter[bit / 64] >> (bit % 64)) & 1u) {
            uint32_t hi = (uint32_t)(h >> 32);
            size_t klen = n - start;
            /* a key of one word: the label's own (the last label), else the
             * word that ends the host */
            uint64_t kw = end == n && len < 8 ? w : klen <= 8 ? pct_psl_word_before(host + n, klen) : 0;
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
                    same = (x & (~0ull >> (64 - 8 * klen))) == kw;
                } else {
                    same = memcmp(keys + s->off, host + start, klen) == 0;
                }
                if (same) {
                    f = s->flags;
                    break;
                }
            }
        }
        if (f & except) { /* an exception prevails over every other rule */
            best = shorter; /* (an exception has two labels at least) */
            break;
        }
        if ((f & rule) || wild_above)
            best = start;
        if (!(f & onward) || !start)
            break;
        wild_above = f & wild;
        shorter = start;
        end = start - 1;
    }
    if (best == SIZE_MAX) /* the default rule: the last label */
        best = dots ? pct_top64(dots) + 1 : 0;
    *suffix = best;
    if (best == 0) {
        *above = SIZE_MAX;
    } else {
        uint64_t before = dots & pct_bits_below(best - 1);
        *above = before ? pct_top64(before) + 1 : 0;
    }
#else
    size_t dot_at[64], nd = 0;
    for (uint64_t d = dots; d; d &= d - 1)
        dot_at[nd++] = pct_ctz64(d);
    size_t labels = pct_psl_suffix_labels_dots(psl, host, n, dot_at, nd, 1, private_too);
    *suffix = labels <= nd ? dot_at[nd - labels] + 1 : 0;
    *above = labels < nd ? dot_at[nd - labels - 1] + 1 : labels == nd ? 0 : SIZE_MAX;
#endif
}

#endif /* PCT_PSL_TABLE_H */
