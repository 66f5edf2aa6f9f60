/* The IDNA forms of hosts met so far (see pct_host_cache.h). */
#include <stdlib.h>
#include <string.h>

#include "pct_hash.h"
#include "pct_host_cache.h"

/* 4096 sets of 4 ways: hosts whose slot numbers collide (a few in every
 * hundred hosts of a direct-mapped table) do not evict each other, which
 * costs a mapping each time; a full set evicts its ways in turn. calloc
 * gives the table as untouched zero pages: a call with few hosts pays for
 * the pages it uses. */
#define SETS 4096
#define WAYS 4
#define SLOTS (SETS * WAYS)

typedef struct {
    uint64_t tag;   /* the host's hash: most slots of a set are told apart by it alone */
    uint8_t *bytes; /* the host, then its form (NULL: an empty slot) */
    uint16_t host_len, form_len;
    uint16_t room;  /* bytes' size, kept for the next host of the slot (0: unknown) */
    uint8_t failed; /* IDNA failed for the host: no form */
} slot;

/* A window of WINDOW lookups that finds fewer than WINDOW / 16 of its
 * hosts sends the cache to rest: the lookups after it find nothing, for
 * REST_FIRST of them, twice as many after each window that fails again
 * (up to REST_MAX), and put keeps nothing: a miss and its put cost a
 * hash, a probe and a copy (a third of a mapping of the usual host), a
 * hit saves a mapping. The hosts kept before stay: a column that repeats
 * them finds them when the next window looks. */
#define WINDOW 256
#define REST_FIRST 1024
#define REST_MAX 8192

struct pct_host_cache {
    slot slots[SLOTS];
    uint8_t next[SETS];       /* the way a full set evicts next */
    uint64_t used[SETS / 64]; /* the sets holding a host: what free visits */
    uint32_t lookups, hits;   /* of the current window */
    uint32_t resting;         /* lookups left to sit out */
    uint32_t rest;            /* the next rest's length (0: REST_FIRST) */
};

pct_host_cache *pct_host_cache_new(void)
{
    return calloc(1, sizeof(pct_host_cache));
}

void pct_host_cache_free(pct_host_cache *cache)
{
    if (!cache)
        return;
    for (size_t k = 0; k < SETS; k++)
        if (cache->used[k / 64] >> (k % 64) & 1)
            for (size_t w = 0; w < WAYS; w++)
                free(cache->slots[k * WAYS + w].bytes);
    free(cache);
}

/* The set of host[0..n): its bytes eight at a time (the last word
 * overlapping), each mixed in by a multiply, then the core's finaliser (pct_hash.h); a
 * hash of the first and last words alone put 18 of 2,000 real-looking hosts
 * ("b\xC3\xBCcher12.de", ...) into one set. */
static uint64_t hash_of(const uint8_t *host, size_t n)
{
    uint64_t h = n * 0x9E3779B97F4A7C15u, w;
    size_t i = 0;
    for (; n - i > 8; i += 8) {
        memcpy(&w, host + i, 8);
        h = (h ^ w) * 0xC2B2AE3D27D4EB4Fu;
        h ^= h >> 31;
    }
    w = 0;
    if (n >= 8)
        memcpy(&w, host + n - 8, 8);
    else
        memcpy(&w, host, n);
    return pct_hash_mix((h ^ w) * 0xC2B2AE3D27D4EB4Fu);
}

/* The set of a hash: its top 12 bits (SETS). */
#define SET_OF(h) ((size_t)((h) >> 52))

int pct_host_cache_get(pct_host_cache *cache, const uint8_t *host, size_t n,
                       const uint8_t **form, size_t *form_len)
{
    if (n == 0 || n > PCT_HOST_CACHED)
        return 0;
    if (cache->resting) {
        cache->resting--;
        return 0;
    }
    if (++cache->lookups == WINDOW) {
        uint32_t rest = cache->rest ? cache->rest : REST_FIRST;
        if (cache->hits < WINDOW / 16) {
            cache->resting = rest;
            cache->rest = rest < REST_MAX ? 2 * rest : REST_MAX;
        } else {
            cache->rest = 0;
        }
        cache->lookups = cache->hits = 0;
    }
    uint64_t h = hash_of(host, n);
    const slot *set = &cache->slots[SET_OF(h) * WAYS];
    for (size_t w = 0; w < WAYS; w++) {
        const slot *s = &set[w];
        if (s->tag == h && s->bytes && s->host_len == n && memcmp(s->bytes, host, n) == 0) {
            *form = s->failed ? NULL : s->bytes + n;
            *form_len = s->form_len;
            cache->hits++;
            return 1;
        }
    }
    return 0;
}

void pct_host_cache_put(pct_host_cache *cache, const uint8_t *host, size_t n, const uint8_t *form,
                        size_t form_len)
{
    if (n == 0 || n > PCT_HOST_CACHED || (form && form_len > UINT16_MAX) || cache->resting)
        return;
    size_t len = form ? form_len : 0, need = n + len + 1;
    uint64_t h = hash_of(host, n);
    size_t k = SET_OF(h), w = 0;
    while (w < WAYS && cache->slots[k * WAYS + w].bytes)
        w++;
    if (w == WAYS) {
        w = cache->next[k];
        cache->next[k] = (uint8_t)((w + 1) % WAYS);
    }
    slot *s = &cache->slots[k * WAYS + w];
    /* an evicted host's bytes take the new one when they have the room: a
     * column of distinct hosts evicts on every row, and a free and a
     * malloc each time cost as much as the lookup */
    uint8_t *bytes = s->bytes;
    if (!bytes || s->room < need) {
        size_t room = (need + 63) & ~(size_t)63;
        if (!(bytes = malloc(room)))
            return;
        free(s->bytes);
        s->room = (uint16_t)(room <= UINT16_MAX ? room : 0);
    }
    memcpy(bytes, host, n);
    if (len)
        memcpy(bytes + n, form, len);
    cache->used[k / 64] |= (uint64_t)1 << (k % 64);
    s->tag = h;
    s->bytes = bytes;
    s->host_len = (uint16_t)n;
    s->form_len = (uint16_t)len;
    s->failed = form == NULL;
}
