/* pct_uri: RFC 3986 on UTF-8 text -- check, requote, split, normalize.
 *
 * Input is the UTF-8 form of a string; output is ASCII. Bytes >= 0x80 are
 * the UTF-8 of non-ASCII characters and are always escaped (%XX), except in a
 * host the caller replaces (IDNA is done by the caller, see pct_uri_write).
 */
#ifndef PCT_URI_H
#define PCT_URI_H

#include "pct.h"

/* ---- check ------------------------------------------------------------- */
typedef enum {
    PCT_URI_VALID = 0,
    PCT_URI_BAD_ESCAPE = 1, /* '%' not followed by two hex digits */
    PCT_URI_BAD_CHAR = 2    /* a byte outside unreserved, reserved and '%' */
} pct_uri_problem;

/* The first problem in src and its byte offset in *pos (n when valid). */
pct_uri_problem pct_uri_check(const uint8_t *src, size_t n, size_t *pos);

/* pct_uri_check's position alone, in one pass of the active kernel: the
 * byte offset of the first offence, n when there is none. It is also the
 * code-point index of the offence: every byte before it is ASCII (kept
 * bytes, '%' and hex digits), and a byte >= 0x80 is itself an offence. */
size_t pct_uri_offence(const uint8_t *src, size_t n);

/* The active kernel's pct_uri_offence, to look up once for many rows. */
typedef size_t (*pct_uri_offence_fn)(const uint8_t *src, size_t n);
pct_uri_offence_fn pct_uri_offence_kernel(void);

/* For many rows at once, those of a run of text: bit t % 64 of
 * bits[t / 64] set when position t of src[0, n) fails the test at every
 * position (a byte neither kept nor '%', or a '%' without two hex digits
 * after it in src[0, n)); (n + 63) / 64 words written. A row's offence is
 * its first bit, where a '%' in its last two bytes is one too (its digits
 * were read from the next row). NULL when the active kernel has none. */
typedef void (*pct_uri_offence_bits_fn)(const uint8_t *src, size_t n, uint64_t *bits);
pct_uri_offence_bits_fn pct_uri_offence_bits_kernel(void);

/* The bytes a URI holds as they are (unreserved and reserved), the set
 * check and requote scan with pct_span_safe. */
const pct_set *pct_uri_kept_set(void);

/* ---- writing components -------------------------------------------------
 * Flags of pct_requote and pct_uri_write. Every component is always repaired:
 * unreserved and reserved bytes are kept, a valid %XX is kept, a '%' not
 * followed by two hex digits becomes %25, and every other byte becomes %XX.
 * The flags add the normalizations of RFC 3986 6.2.2 and 6.2.3. */
enum {
    PCT_URI_UPPER_HEX = 1,         /* %xx -> %XX */
    PCT_URI_DECODE_UNRESERVED = 2, /* %41 -> A, %7E -> ~ ; reserved stay escaped */
    PCT_URI_LOWER_CASE = 4,        /* scheme and host in lowercase */
    PCT_URI_DOT_SEGMENTS = 8,      /* remove_dot_segments (5.2.4) with scheme or authority */
    PCT_URI_PORT = 16,             /* drop empty and default ports, leading zeros */
    PCT_URI_EMPTY_PATH = 32,       /* empty path with an authority -> "/" */
    PCT_URI_SORT_QUERY = 64,       /* parameters stably sorted by name */
    PCT_URI_DROP_FRAGMENT = 128,
    PCT_URI_NORMALIZE = 63         /* all of 6.2.2 and 6.2.3 */
};

/* requote: the whole string as one component (no splitting). */
size_t pct_requote_span(const uint8_t *src, size_t n, unsigned flags); /* first byte to change */
pct_status pct_requoted_size(const uint8_t *src, size_t n, size_t limit, size_t *out_size);
size_t pct_requote(const uint8_t *src, size_t n, unsigned flags, uint8_t *dst);

/* ---- splitting (RFC 3986 appendix B) -------------------------------------
 * scheme ":" "//" [userinfo "@"] host [":" port] path "?" query "#" fragment.
 * A prefix before ':' is a scheme only if it is ALPHA *(ALPHA / DIGIT / "+" /
 * "-" / "."); otherwise the string is a relative reference. userinfo ends at
 * the last '@' of the authority; a host starting with '[' is an IP literal
 * up to its ']', any other host at its first ':' (a reg-name holds none). */
typedef struct {
    size_t start, len;
} pct_range;

typedef struct {
    pct_range scheme, userinfo, host, port, path, query, fragment;
    unsigned char has_scheme, has_authority, has_userinfo, has_port, has_query, has_fragment;
    unsigned char host_escaped; /* a '%' in the host or port: the host may hold escapes */
} pct_uri;

void pct_uri_split(const uint8_t *src, size_t n, pct_uri *uri);

/* ---- one row of normalize_many ---------------------------------------------
 * The split and the write of pct_uri_split and pct_uri_write, with the same
 * results, over class masks of the row that one vector pass finds (rows of
 * up to PCT_URI_SCAN_MAX bytes, on kernels that have the pass): delimiters
 * are read off the masks, and a component with no byte to change is copied
 * as a block. */
/* A component s[0, n) repaired as every component is (see the flags
 * below), into d; returns the bytes written (at most 3n, nothing past
 * them). `kept`: the bytes kept as they are; a valid escape of a byte of
 * `decoded` (NULL: none) becomes that byte, the digits of the other valid
 * escapes are uppercased with upper_hex; letters, decoded ones included
 * and kept escapes' digits not, are lowercased with lower_case; any other
 * byte becomes %XX. Reads nothing outside s[0, n). A vector kernel's
 * entry; pct_uri.c's scalar writer is the reference. */
typedef size_t (*pct_uri_write_fn)(const uint8_t *s, size_t n, const pct_set *kept,
                                   const pct_set *decoded, int lower_case, int upper_hex,
                                   uint8_t *d);

/* The bytes of a row that split and normalize look at, one bit per byte:
 * bit i of m[class][b] is set when byte 64b + i is in the class; bits past
 * the row's end are 0. WORK: a byte not kept as it is (pct_uri_kept_set),
 * '%' and bytes >= 0x80 among them. `bytes`: a copy of the row and 32 zero
 * bytes after it, which the writer reads whole words of. `write`: the
 * kernel's component writer, NULL where it has none. */
#define PCT_URI_SCAN_MAX 256
enum {
    PCT_SCAN_COLON, PCT_SCAN_SLASH, PCT_SCAN_QUERY, PCT_SCAN_HASH,
    PCT_SCAN_AT, PCT_SCAN_PERCENT, PCT_SCAN_DOT, PCT_SCAN_WORK, PCT_SCAN_CLASSES
};
typedef struct pct_uri_scan {
    uint64_t m[PCT_SCAN_CLASSES][PCT_URI_SCAN_MAX / 64];
    uint8_t bytes[PCT_URI_SCAN_MAX + 32];
    pct_uri_write_fn write;
} pct_uri_scan;

/* pct_uri_write_row writes up to this many bytes past the end of its output
 * (dst needs the bound of pct_uri_size_bound and this room): whole words. */
#define PCT_URI_WRITE_ROOM 16

typedef struct {
    pct_uri uri;
    int words; /* scan holds the row's masks: 1 in one word, 2 in more, 0 none */
    pct_uri_scan scan;
} pct_uri_row;

void pct_uri_split_row(const uint8_t *src, size_t n, pct_uri_row *row);
/* pct_host_needs_idna of the row's host (it has an authority). */
int pct_uri_row_needs_idna(const uint8_t *src, const pct_uri_row *row, int escapes);
/* pct_uri_split and pct_uri_write of a row in one pass of the kernel,
 * where it has one and the row is of the kind it takes (most URLs of up
 * to 256 bytes with a scheme and an authority): PCT_URI_FAST_DONE with the
 * result in dst (which has room as for pct_uri_write_row) and its length
 * in *out_len; PCT_URI_FAST_HOST when the host needs IDNA and `fast` gives
 * no form for it: its range in fast->idna_host, for a call with the form
 * in fast->host; else PCT_URI_FAST_NOT (dst's bytes undefined) and the row
 * is the caller's to split and write. */
enum { PCT_URI_FAST_NOT, PCT_URI_FAST_DONE, PCT_URI_FAST_HOST };
/* The longest IDNA form the pass takes (dst's room: the bound for a host
 * of this length). */
#define PCT_URI_FAST_FORM_MAX 64
/* A host's IDNA form from the caller's store, or NULL. */
typedef const uint8_t *(*pct_host_form_fn)(const void *forms, const uint8_t *host, size_t n,
                                           size_t *form_len);
typedef struct {
    /* in: the IDNA form for the row's host (NULL: none, host_len unread),
     * else `lookup` in `forms` (NULL: no store, forms unread) */
    const uint8_t *host;
    size_t host_len;
    pct_host_form_fn lookup;
    const void *forms;
    /* out: the host to map (PCT_URI_FAST_HOST); from the kernel's pass,
     * the path's place in the output when it may hold a dot segment
     * (remove_dot_segments is pct_uri.c's) */
    pct_range idna_host;
    int dots;
    size_t path, path_len;
} pct_uri_fast;
int pct_uri_normalize_fast(const uint8_t *src, size_t n, unsigned flags, uint8_t *dst,
                           size_t *out_len, pct_uri_fast *fast);
/* pct_uri_write of the row, into a dst with PCT_URI_WRITE_ROOM bytes more;
 * a `host` given is an IDNA form (pct_idna_host_form: lowercase), copied
 * as it is when all its bytes are kept. */
pct_status pct_uri_write_row(const uint8_t *src, const pct_uri_row *row, const uint8_t *host,
                             size_t host_len, unsigned flags, uint8_t *dst, size_t *out_len);

/* ---- hosts ---------------------------------------------------------------
 * A reg-name the caller maps to ASCII (IDNA, UTS #46): one holding a non-ASCII
 * byte, or, with `escapes`, an escape of one (%E4%BE%8B.jp names the same
 * host as its UTF-8 text). Never an IP literal. ASCII hosts are the fast
 * path: this scans them once and the caller never leaves C for them. */
int pct_host_needs_idna(const uint8_t *host, size_t n, int escapes);

/* ---- recomposing ---------------------------------------------------------
 * pct_uri_write writes the split URI back with the given flags. `host`, if
 * not NULL, replaces the host (e.g. its IDNA form); left NULL, the host is
 * written as it is, repaired like the other parts (a host with no IDNA form
 * thus becomes a reg-name of percent-encoded UTF-8). In an IP literal only
 * the address is lowercased: a zone id (RFC 6874) keeps its case. dst needs the capacity
 * given by pct_uri_size_bound; *out_len receives the length written.
 * PCT_URI_SORT_QUERY allocates scratch memory (PCT_ERR_NO_MEMORY). */
static inline pct_status pct_uri_size_bound(size_t n, size_t host_len, size_t limit, size_t *bound)
{
    /* 3 bytes out per byte in, for the string and a replacement host, plus
     * the "/" of an empty path or the "/." that guards a path "//". */
    if (limit < 3 || n > (limit - 3) / 3 || host_len > (limit - 3) / 3 - n)
        return PCT_ERR_TOO_LARGE;
    *bound = 3 * (n + host_len) + 3;
    return PCT_OK;
}

pct_status pct_uri_write(const uint8_t *src, const pct_uri *uri, const uint8_t *host,
                         size_t host_len, unsigned flags, uint8_t *dst, size_t *out_len);

/* ---- input cleanup -------------------------------------------------------
 * What the URL Standard's basic URL parser does to its input before
 * anything else: leading and trailing C0 controls and spaces (bytes 0x00
 * to 0x20) stripped, then every ASCII tab and newline (0x09, 0x0A, 0x0D)
 * removed wherever it is. A scraped " http://h/\n" is "http://h/" again.
 * 1 when s[0..n) has something to strip: a quick test (a word at a time)
 * that most URLs pass without a copy. */
int pct_uri_needs_strip(const uint8_t *s, size_t n);

/* s[0..n) cleaned up into dst (n bytes; never longer); returns its length.
 * dst may be s (in place). */
size_t pct_uri_strip(const uint8_t *s, size_t n, uint8_t *dst);

/* In-place remove_dot_segments (RFC 3986 5.2.4); returns the new length. */
size_t pct_remove_dot_segments(uint8_t *path, size_t n);

#endif /* PCT_URI_H */
