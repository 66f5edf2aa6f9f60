/* pct_canon: a key for deduplicating URLs, written from a normalized URI.
 * Plain C99, no Python.
 *
 * The key of a URI is its normalize()d form (RFC 3986 6.2.2, 6.2.3; the
 * caller's, with the IDNA of the host) rewritten by pct_canon_key: the query
 * parameters a filter rejects dropped and the rest sorted by name, then the
 * options below. Every step only removes or shortens, and the key of a key
 * is itself (each step leaves nothing for itself or for normalize to do).
 */
#ifndef PCT_CANON_H
#define PCT_CANON_H

#include "pct.h"
#include "pct_query.h"

enum {
    PCT_CANON_STRIP_WWW = 1,       /* a host "www.x" is "x" (repeatedly: "www.www.x" -> "x") */
    PCT_CANON_ONE_SCHEME = 2,      /* "https" is written "http"; then a port 80 is the default */
    PCT_CANON_TRAILING_SLASH = 4,  /* a path's trailing '/'s removed, but for "/" */
    PCT_CANON_EMPTY_QUERY = 8,     /* an empty query's '?' removed ("http://h/?" -> "http://h/") */
    PCT_CANON_ALL = 15
};

typedef struct {
    pct_query_filter filter; /* the parameters kept (its sort: sorted by name) */
    unsigned opts;           /* PCT_CANON_* */
} pct_canon;

/* The key of s[0..n), a URI as normalize writes it (split again here),
 * into dst (n bytes, not overlapping s; the key is never longer). A query
 * whose parameters all went loses its '?' (but for a reference that is only
 * a query, as pct_query_clean). PCT_OK or PCT_ERR_NO_MEMORY (the sort). */
pct_status pct_canon_key(const uint8_t *s, size_t n, const pct_canon *c, uint8_t *dst,
                         size_t *out_len);

/* 1 when the options leave the scheme, authority and path alone: the key
 * is then the URI up to its first '?' and pct_canon_tail from there. */
int pct_canon_query_only(const pct_canon *c);

/* The rest of a key from the '?' of a normalized URI on: t[0..n) is "" or
 * starts with '?' or '#' (a query, a fragment); `alone` when nothing comes
 * before it. Into dst (n bytes, not overlapping t). */
pct_status pct_canon_tail(const uint8_t *t, size_t n, int alone, const pct_canon *c, uint8_t *dst,
                          size_t *out_len);

/* pct_canon_tail of t[0..n), which starts with '?', written over it (the
 * key is never longer) with scratch (n bytes, apart) for the query; with
 * hash 0, the caller knows t holds no '#' (a fragment normalize dropped).
 * Most queries' keys are themselves: then nothing is written. */
pct_status pct_canon_tail_in_place(uint8_t *t, size_t n, int alone, int hash, const pct_canon *c,
                                   uint8_t *scratch, size_t *out_len);

/* ---- the host as the URL Standard reads it --------------------------------
 * The URL Standard decodes every escape of a host before its domain to
 * ASCII; normalize's host mapping (RFC 3986) keeps the escapes of reserved
 * characters, whose '%' then fails IDNA. The sub-delims ("!$&'()*+,;=")
 * are the reserved characters a domain may hold (the others are forbidden
 * host code points: the parser refuses them). pct_canon_host_escapes:
 * 1 when s[0..n) is a special scheme's "scheme://" URL (not "file:") whose
 * host holds an escape of a sub-delim and is non-ASCII, written or escaped
 * (it goes through IDNA). pct_canon_host_unescape: those escapes decoded in
 * place; the new length (n when there are none). */
int pct_canon_host_escapes(const uint8_t *s, size_t n);

/* 1 when url[0..len), the normalized row of src[0..n) (n >= len is not
 * assumed), is a special scheme's "scheme://" URL (not file:) whose plain
 * host the parser reads as normalize wrote it: lowercase letters, digits,
 * '-' and '.', no empty label, no IPv4 form, a port of digits up to 65535
 * (none escaped in src), and xn-- labels only as the IDNA form of src's
 * host. Then canonicalize's checks of the host (pct_domain_parser_row_form,
 * pct_canon_host_escapes, pct_domain_number_host) all give 0, known off
 * the row it walks anyway. Or, src's host in ASCII with no escape and no
 * tab or newline in src (which the parser removes, and normalize keeps
 * without strip_whitespace), an IPv4 address written as the parser writes
 * it (pct_url_ipv4_written) or a host of bytes a domain may hold whose
 * domain to ASCII (pct_idna_to_ascii) is itself (empty labels, '_', the
 * sub-delims, ASCII xn-- labels; its last label not starting with a
 * digit): the parser's host is then the row's, and its reading of the
 * row the row. 0: not
 * known so. *userinfo: 0 when url's
 * authority is known to hold no userinfo (no '@'), else 1. */
int pct_canon_host_alike(const uint8_t *src, size_t n, const uint8_t *url, size_t len, int *userinfo);
size_t pct_canon_host_unescape(uint8_t *s, size_t n);

#endif /* PCT_CANON_H */
