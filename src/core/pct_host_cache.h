/* pct_host_cache: the IDNA forms of hosts met so far, for normalize_many.
 * Plain C99, no Python.
 *
 * IDNA is pct_idna's (the caller computes a form once); real columns repeat
 * their hosts, so the caller keeps each form here and the batch loop (and
 * its vector pass) writes later rows with that host from it. 16384 hosts in
 * sets of 4: a new host evicts one of its set's. A column of distinct
 * hosts gains nothing from it: when few of the last lookups found their
 * host, the cache sits out the next rows (get finds nothing, put keeps
 * nothing), then tries again. One cache per thread: it has no lock. */
#ifndef PCT_HOST_CACHE_H
#define PCT_HOST_CACHE_H

#include "pct.h"

typedef struct pct_host_cache pct_host_cache;

pct_host_cache *pct_host_cache_new(void); /* NULL: no memory */
void pct_host_cache_free(pct_host_cache *cache);

/* The cached form of host[0..n): 1 with it in *form (NULL: IDNA failed for
 * the host), 0 when the host is not cached (or the cache sits out). */
int pct_host_cache_get(pct_host_cache *cache, const uint8_t *host, size_t n,
                       const uint8_t **form, size_t *form_len);

/* Keeps a copy of form[0..form_len) (NULL: IDNA failed) as host[0..n)'s.
 * Hosts longer than PCT_HOST_CACHED are not kept; without memory the
 * cache stays as it was. */
#define PCT_HOST_CACHED 256
void pct_host_cache_put(pct_host_cache *cache, const uint8_t *host, size_t n, const uint8_t *form,
                        size_t form_len);

#endif /* PCT_HOST_CACHE_H */
