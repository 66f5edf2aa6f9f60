/* The IDNA forms of hosts met so far (see pct_host_cache.h). */
#include <stdlib.h>
#include <string.h>

#include "pct_host_cache.h"

#define SLOTS 1024

typedef struct {
    uint8_t *bytes; /* the host, then its form (NULL: an empty slot) */
    size_t host_len, form_len;
    int failed; /* IDNA failed for the host: no form */
} slot;

struct pct_host_cache {
    slot slots[SLOTS];
};

pct_host_cache *pct_host_cache_new(void)
{
    return calloc(1, sizeof(pct_host_cache));
}

void pct_host_cache_free(pct_host_cache *cache)
{
    if (!cache)
        return;
    for (size_t i = 0; i < SLOTS; i++)
        free(cache->slots[i].bytes);
    free(cache);
}

/* The slot of host[0..n): its first and last eight bytes (fewer of a
 * shorter host) and its length, mixed by multiplication: a few steps, where
 * a byte-at-a-time hash of a 20-byte host is a chain of 20 multiplies. */
static size_t slot_of(const uint8_t *host, size_t n)
{
    uint64_t head = 0, tail = 0;
    memcpy(&head, host, n < 8 ? n : 8);
    if (n > 8)
        memcpy(&tail, host + n - 8, 8);
    uint64_t h = (head * 0x9E3779B97F4A7C15u) ^ (tail * 0xC2B2AE3D27D4EB4Fu) ^ n;
    return (size_t)((h ^ h >> 29) * 0x165667B19E3779F9u >> 54); /* 10 bits: SLOTS */
}

int pct_host_cache_get(const pct_host_cache *cache, const uint8_t *host, size_t n,
                       const uint8_t **form, size_t *form_len)
{
    if (n == 0 || n > PCT_HOST_CACHED)
        return 0;
    const slot *s = &cache->slots[slot_of(host, n)];
    if (!s->bytes || s->host_len != n || memcmp(s->bytes, host, n) != 0)
        return 0;
    *form = s->failed ? NULL : s->bytes + n;
    *form_len = s->form_len;
    return 1;
}

void pct_host_cache_put(pct_host_cache *cache, const uint8_t *host, size_t n, const uint8_t *form,
                        size_t form_len)
{
    if (n == 0 || n > PCT_HOST_CACHED || (form && form_len > SIZE_MAX - n - 1))
        return;
    size_t len = form ? form_len : 0;
    uint8_t *bytes = malloc(n + len + 1);
    if (!bytes)
        return;
    memcpy(bytes, host, n);
    if (len)
        memcpy(bytes + n, form, len);
    slot *s = &cache->slots[slot_of(host, n)];
    free(s->bytes);
    s->bytes = bytes;
    s->host_len = n;
    s->form_len = len;
    s->failed = form == NULL;
}
