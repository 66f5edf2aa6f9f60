/* pct_hash: the one 64-bit finaliser of the core's hash tables (the host
 * cache; the suffix list's per-label hash folds its own product, see
 * pct_psl_table.h): murmur3's fmix64, which spreads every input bit over
 * the whole word, so that any slice of the result (a slot index, a filter
 * bit, a set) is usable. Plain C99. */
#ifndef PCT_HASH_H
#define PCT_HASH_H

#include <stdint.h>

static inline uint64_t pct_hash_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

#endif /* PCT_HASH_H */
