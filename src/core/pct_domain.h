/* pct_domain: the host of a URL or bare host, and its parts by the Public
 * Suffix List (pct_psl.h): registered domain, public suffix, subdomain.
 * Plain C99, no Python.
 *
 * A special scheme's URL is read as the URL Standard's parser reads it
 * (pct_domain_browser): a URL and its href have the same parts.
 * Where the host is otherwise: pct_authority_find with PCT_AUTH_WEB (pct_authority.h):
 * a "scheme://" or "//" prefix starts an authority, any other text is an
 * authority itself; '\' ends it as '/' does but after the "scheme://" of a
 * scheme that is not special. The host is after its last "@", up to the
 * first ":" (a host in "[...]" is an IP literal). Its escapes are decoded
 * first, as the URL Standard's host parser decodes them.
 *
 * The host in ASCII (lowercased) is looked up as it is when every byte is
 * a letter, digit or one of "-._~!$&'()*+,;=\"`{}": a non-ASCII byte
 * leaves the row to the caller's IDNA, another byte (a forbidden domain
 * code point, the URL Standard's) to the caller's error. One trailing dot
 * is dropped. A host that is empty, has an empty label, or whose last label
 * is a number (decimal, or "0x" hex: an IPv4 address by the URL Standard),
 * and an IP literal, have no parts.
 */
#ifndef PCT_DOMAIN_H
#define PCT_DOMAIN_H

#include "pct.h"
#include "pct_authority.h"
#include "pct_psl.h"
#include "pct_url.h"

/* Which part pct_domain_part writes (flags & PCT_DOMAIN_PART). */
#define PCT_DOMAIN_REGISTERED 0 /* the suffix and one label more; none when the host is a suffix */
#define PCT_DOMAIN_SUFFIX 1     /* the public suffix */
#define PCT_DOMAIN_SUBDOMAIN 2  /* the labels before the registered domain ("" when none);
                                 * none when there is no registered domain */
#define PCT_DOMAIN_HOST 3       /* the host as looked up */
#define PCT_DOMAIN_PART 3u
#define PCT_DOMAIN_PRIVATE 4u   /* the list's PRIVATE section counts too */
#define PCT_DOMAIN_UNICODE 8u   /* a result holding an xn-- label is the caller's */
#define PCT_DOMAIN_IS_HOST 16u  /* src is a host in ASCII (an IDNA form): no authority to
                                 * find, no escape to decode ('%' is refused) */

/* pct_domain_part's outcomes beyond PCT_OK: PCT_DOMAIN_NONE, PCT_DOMAIN_CALLER,
 * PCT_DOMAIN_BAD_HOST (an error: the row fails whatever IDNA does, as an
 * ASCII byte no host may hold stays in the host's ASCII form),
 * PCT_DOMAIN_IDNA (pct.h; for PCT_DOMAIN_IDNA the part of the host's ASCII form
 * is pct_domain_part of that form). */

/* 1 when the domain functions read src[0..n) as the URL Standard's parser
 * does: it is a special scheme's URL (http, https, ws, wss, ftp, file, in
 * any case, after leading C0 controls and spaces, tabs and newlines
 * skipped). pct_domain_part answers such a row itself only when its host
 * is one the parser reads alike (after "scheme://", letters, digits, '-'
 * and '.', no xn-- label, not ending in a number, a valid port, not file:);
 * else PCT_DOMAIN_URL: the caller reads the host with pct_domain_url_host,
 * then looks it up with PCT_DOMAIN_IS_HOST. */
int pct_domain_browser(const uint8_t *src, size_t n);
/* pct_domain_browser of src, whose authority the caller found
 * (pct_authority_find with PCT_AUTH_WEB). */
int pct_domain_browser_at(const uint8_t *src, size_t n, const pct_authority *found);

/* Who reads the host of src[0..n) when its IDNA form is wanted:
 * PCT_DOMAIN_READ_FINDER when the domain functions read it themselves (no
 * special scheme: pct_domain_browser is 0); PCT_DOMAIN_READ_ALIKE for a
 * special "scheme://" URL whose host the URL Standard's parser reads as
 * pct_authority_find finds it (no escape in it, no tab or newline before
 * its end): the parser's domain to ASCII is then pct_idna_host_form's of
 * that host, so a host with no form is a URL the parser refuses, known
 * without parsing; PCT_DOMAIN_READ_PARSER for any other special scheme's
 * URL (only the parser knows). */
enum { PCT_DOMAIN_READ_FINDER, PCT_DOMAIN_READ_ALIKE, PCT_DOMAIN_READ_PARSER };
int pct_domain_host_reader(const uint8_t *src, size_t n);
/* pct_domain_host_reader of src, whose authority the caller found. */
int pct_domain_host_reader_at(const uint8_t *src, size_t n, const pct_authority *found);

/* 1 when src[0..n) is a URL the URL Standard's parser refuses for its
 * host, known without parsing: its host is read alike
 * (PCT_DOMAIN_READ_ALIKE) and holds an ASCII forbidden domain code point,
 * which no domain to ASCII maps away. 0: not known so. */
int pct_domain_host_refused(const uint8_t *src, size_t n);
/* pct_domain_host_refused of src, whose authority the caller found
 * (pct_authority_find with PCT_AUTH_WEB). */
int pct_domain_host_refused_at(const uint8_t *src, size_t n, const pct_authority *found);

/* 1 when src[0..n) is a special scheme's URL whose host pct_domain_part
 * leaves to the parser (PCT_DOMAIN_URL): canonicalize reads such a row as
 * its href. dst: room for n bytes (scratch). */
int pct_domain_parser_row(const uint8_t *src, size_t n, uint8_t *dst);

/* pct_domain_parser_row, with *form set (when it gives 0) to 1 when the
 * row still needs canonicalize's check of its host's form
 * (pct_domain_number_host, pct_domain_browser): a special scheme's host
 * that is not plain ASCII. 0: those checks would give 0. */
int pct_domain_parser_row_form(const uint8_t *src, size_t n, uint8_t *dst, int *form);

/* 1 when the host of the normalized URL url[0..n) (lowercase ASCII) ends
 * in a number: a non-ASCII host whose IDNA form the parser reads as an
 * IPv4 address (canonicalize's check of a row pct_domain_parser_row lets
 * through). */
int pct_domain_number_host(const uint8_t *url, size_t n);

/* The host of the URL src[0..n) as the URL Standard's parser reads it
 * (no base), parsed into u (the caller's, reused; the host is a slice of
 * u->href): PCT_OK for a domain, PCT_DOMAIN_NONE for an IP address or
 * an empty host, else pct_url_parse's failure (a rejection:
 * PCT_URL_REJECTED, u->error_pos). */
pct_status pct_domain_url_host(pct_url *u, const uint8_t *src, size_t n, const uint8_t **host,
                               size_t *hn);

/* Writes the part of src[0..n) that `flags` chooses to dst, which has room
 * for n bytes, and its length to *len. */
int pct_domain_part(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n, uint8_t *dst,
                    size_t *len);

/* pct_domain_part with src's authority found by the caller
 * (pct_authority_find with PCT_AUTH_WEB; unread, and may be NULL, with
 * PCT_DOMAIN_IS_HOST): a row that needs IDNA finds its host once. */
int pct_domain_part_at(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n,
                       const pct_authority *found, uint8_t *dst, size_t *len);

/* pct_domain_part of the usual row alone: "http://" or "https://" and a
 * host of letters, digits, '-' and '.' (at most 64 bytes) ending at '/',
 * '?', '#', '\' or the row's end (or at ':' and a port of digits),
 * read in one pass; with PCT_DOMAIN_IS_HOST, a host of those bytes alone.
 * PCT_OK or PCT_DOMAIN_NONE as pct_domain_part gives them;
 * PCT_DOMAIN_IDNA for a URL whose host also holds bytes >= 0x80 (and no
 * other byte): the host is src[j, j + *len), j the length of "http://" or
 * "https://", and its part is that of its IDNA form, as for
 * pct_domain_part; PCT_DOMAIN_CALLER for any other row:
 * pct_domain_part_at reads it (x86-64 only: elsewhere every row is the
 * caller's). */
int pct_domain_part_plain(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n,
                          uint8_t *dst, size_t *len);

#endif /* PCT_DOMAIN_H */
