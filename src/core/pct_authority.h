/* pct_authority: where the scheme, the authority and the host of a URL are.
 * Plain C99, no Python.
 *
 * The one reading of them that every caller shares: split, normalize,
 * requote's neighbours and resolve (RFC 3986, appendix B), the domain
 * functions and canonicalize (as browsers read web URLs), and the URL
 * Standard's parser (pct_url.c, for its special schemes).
 *
 * Within an authority the userinfo ends at its last '@'; a host starting
 * with '[' is an IP literal up to its ']' (a ':' right after it starts the
 * port), any other host ends at its first ':'.
 */
#ifndef PCT_AUTHORITY_H
#define PCT_AUTHORITY_H

#include "pct.h"

/* The length of the run ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) that
 * starts s[0, n): 0 when s does not start with a letter. */
size_t pct_scheme_span(const uint8_t *s, size_t n);

/* The length of the scheme that starts s[0, n) (RFC 3986 3.1): that run
 * when a ':' follows it, else 0. */
size_t pct_scheme_length(const uint8_t *s, size_t n);

/* 1 when the scheme s[0, len) is one of the URL Standard's special schemes
 * (http, https, ws, wss, ftp, file), in any case. */
int pct_scheme_special(const uint8_t *s, size_t len);

/* Flags of pct_authority_scan and pct_authority_find. */
enum {
    /* '\' ends the authority as '/' does: the URL Standard's reading of a
     * special scheme's URL (pct_url.c sets it for those schemes) */
    PCT_AUTH_BACKSLASH = 1,
    /* pct_authority_find: the domain functions' reading of a URL or a bare
     * host (see there) */
    PCT_AUTH_WEB = 2
};

/* Where the parts of one authority are, as offsets into the caller's text. */
typedef struct {
    size_t start, end;     /* the authority [start, end) */
    size_t host, host_end; /* its host [host, host_end): after the last '@', up to the port */
    unsigned char has_userinfo; /* an '@': the userinfo is [start, host - 1) */
    unsigned char has_port;     /* a ':' after the host: the port is [host_end + 1, end) */
    unsigned char ip_literal;   /* the host starts with '[' */
    unsigned char escaped;      /* a '%' in the host or the port */
    /* pct_authority_find with PCT_AUTH_WEB: 1 when the authority follows a
     * special scheme's "scheme://" (2 for "file://"), else 0 */
    unsigned char special;
} pct_authority;

/* The authority that starts at s[start] (after its "//") and ends at the
 * first '/', '?' or '#' (or '\' with PCT_AUTH_BACKSLASH) of s[start, n), or
 * at n: one pass, a word at a time. Returns a->end. */
size_t pct_authority_scan(const uint8_t *s, size_t start, size_t n, unsigned flags,
                          pct_authority *a);

/* The parts of the authority [start, end) of s whose host starts at `host`
 * (after the last '@', or start) and whose first ':' from there is at
 * `colon` (SIZE_MAX: none): for callers that found those delimiters
 * themselves (the kernels' class masks). `escaped` is copied. */
void pct_authority_parts(const uint8_t *s, size_t start, size_t host, size_t colon, size_t end,
                         int escaped, pct_authority *a);

/* The authority of src[0, n).
 * Without PCT_AUTH_WEB: RFC 3986's, after "scheme:" (if any) and "//";
 * 0 when there is no "//" there (no authority).
 * With PCT_AUTH_WEB (the domain functions): leading and trailing C0
 * controls and spaces are ignored (as the URL Standard's parser does); a
 * "scheme://" prefix, or with no scheme two or more of '/' and '\' ("//",
 * "/\\", "///": a reference resolved against a web page), start the
 * authority; after a special scheme but file the authority starts past
 * every '/' and '\' after the ':' ("http:h", "http:/h", "http:///h" name
 * the host h, as the parser reads them; `special` is 1 only for "scheme://"
 * and no more slashes); any other text is an authority itself (a bare host,
 * "host:port", "user@host"). '\' ends
 * the authority as '/' does unless the text starts with the "scheme://"
 * of a scheme that is not special: as a browser reads the special schemes,
 * an address typed without a scheme and a reference resolved against a
 * web page. PCT_AUTH_BACKSLASH makes '\' end it whatever the scheme.
 * Returns 1 when there is an authority (always, with PCT_AUTH_WEB). */
int pct_authority_find(const uint8_t *src, size_t n, unsigned flags, pct_authority *a);

/* 1 when the port p[0, n) is one the URL Standard's parser takes for a
 * special scheme: digits (or none) up to 65535. */
int pct_port_ok(const uint8_t *p, size_t n);

/* Where the first '\' of s[0, n) is that the URL Standard reads as '/':
 * s starts with a special scheme's "scheme:" and the '\' comes before the
 * first '?' or '#' (in the authority and the path). n when there is none. */
size_t pct_special_backslash(const uint8_t *s, size_t n);

/* Each of those '\' made '/' in place (canonicalize's reading of its input,
 * as a browser's); returns how many. */
size_t pct_special_slashes(uint8_t *s, size_t n);

/* The class of each byte in a host, one table for every reader of hosts:
 * PCT_HB_HOST, a byte a host is looked up with as it is (lowercased):
 * letters, digits, "-._~", the sub-delims and the few others the URL
 * Standard does not forbid in a domain; PCT_HB_UPPER, an ASCII capital;
 * PCT_HB_PLAIN, a letter, digit, '-' or '.' (a host the URL Standard's
 * host parser leaves as it is, but for its case and its xn-- labels);
 * PCT_HB_DASH, '-'; PCT_HB_BAD, an ASCII byte no host may hold ('%' apart:
 * an escape's until decoded). */
enum { PCT_HB_HOST = 1, PCT_HB_UPPER = 2, PCT_HB_PLAIN = 4, PCT_HB_DASH = 8, PCT_HB_BAD = 16 };
extern const uint8_t pct_host_bytes[256];

#endif /* PCT_AUTHORITY_H */
