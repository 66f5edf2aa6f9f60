/* pct: percent-encoding on raw buffers. Plain C99, no Python.
 *
 * Every function works on caller-owned memory and reports problems through
 * return values, never by aborting: the Python binding, the C unit tests and
 * the fuzzers all drive this same core.
 */
#ifndef PCT_H
#define PCT_H

#include <stddef.h>
#include <stdint.h>

/* The one status type of the core and the binding: every function that
 * reports an outcome returns one of these, and every value means one thing
 * wherever it flows (a row's rc passes from the core through the engine to
 * the binding's error policy). Each area has its own range; a new code goes
 * into its area's range here, never into a module of its own. */
typedef enum {
    PCT_OK = 0,

    /* Failures any call may report (1-99). */
    PCT_ERR_TOO_LARGE = 1,   /* the output would be longer than the caller's limit */
    PCT_ERR_SURROGATE = 2,   /* a code unit in U+D800..U+DFFF has no UTF-8 form */
    PCT_ERR_NO_MEMORY = 3,   /* a scratch allocation failed */
    PCT_ERR_INTERRUPTED = 4, /* the caller's signal check asked to stop (between chunks) */

    /* A batch row's outcomes (100-149): pct_batch.h; the binding's too. */
    PCT_ROW_CALLER = 100,       /* the caller computes the row */
    PCT_ROW_HOST = 101,         /* NORMALIZE, DOMAIN, ...: the host needs IDNA (pct_batch.h) */
    PCT_ROW_MALFORMED = 102,    /* an offset of the row is out of range (pct_batch_rows) */
    PCT_ROW_NULL = 103,         /* the result is null: no such parameter, no such part */
    PCT_ROW_PYTHON_ERROR = 104, /* binding: the row's exception is kept with the row */
    PCT_ROW_REJECTED = 105,     /* binding: on_error null/keep, the exception kept with the row */
    PCT_ROW_FAILED = 106,       /* the row fails for a reason the core names (failed rows in C) */

    /* Registered domains (150-169): pct_domain.h, pct_psl.h. */
    PCT_DOMAIN_NONE = 150,   /* the part does not exist: nothing written */
    PCT_DOMAIN_CALLER = 151, /* the caller must do the row (an error, Unicode output) */
    PCT_DOMAIN_IDNA = 152,   /* the host needs its ASCII form first (the caller's IDNA) */
    PCT_DOMAIN_BAD_HOST = 153, /* a byte no host may hold: the host is no domain name */
    PCT_DOMAIN_URL = 154,    /* a special scheme's URL the URL Standard's parser reads
                              * (pct_domain_url_host) */
    PCT_PSL_BAD_RULE = 160,  /* a suffix list rule that is no domain: *line says which */

    /* Hosts (170-199): pct_idna.h. */
    PCT_IDNA_FAIL = 170,  /* no such form: the host parser rejects the domain */
    PCT_IDNA_SMALL = 171, /* dst too small: the result needs *out_len bytes */

    /* RFC 3986 resolution (200-249): pct_resolve.h. */
    PCT_RESOLVE_NOT_ABSOLUTE = 200, /* the base has no scheme */

    /* The URL Standard's parser (300-399): pct_url.h. Every code from
     * PCT_URL_FAILURE on is a rejection (pct_url_reason names it; the
     * position is in the parsed pct_url). */
    PCT_URL_FAILURE = 300,             /* rejected, for no reason named below */
    PCT_ERR_URL_NO_SCHEME = 301,       /* no scheme, and no base to resolve against */
    PCT_ERR_URL_HOST_MISSING = 302,    /* a special URL's host (or the one after credentials) is empty */
    PCT_ERR_URL_PORT = 303,            /* the port has a character that is not a digit */
    PCT_ERR_URL_PORT_RANGE = 304,      /* the port is past 65535 */
    PCT_ERR_URL_IPV6 = 305,            /* an IPv6 address in [...] that is not one */
    PCT_ERR_URL_IPV4 = 306,            /* a host ending in a number that is no IPv4 address */
    PCT_ERR_URL_FORBIDDEN_HOST = 307,  /* a host with a forbidden host code point */
    PCT_ERR_URL_DOMAIN = 308,          /* domain to ASCII fails (or a forbidden domain code point) */
    PCT_ERR_URL_OPAQUE_BASE = 309      /* no scheme, and the base's opaque path takes only a fragment */
} pct_status;

/* A caller's check between chunks of a long loop (Ctrl-C in the binding):
 * the loop calls check(ctx) every PCT_INTERRUPT_STEP rows (lines, rules)
 * and, when it says nonzero, frees what it made and returns
 * PCT_ERR_INTERRUPTED. A NULL pct_interrupt never stops a loop. */
typedef struct {
    int (*check)(void *ctx);
    void *ctx;
} pct_interrupt;
#define PCT_INTERRUPT_STEP 4096u

static inline int pct_interrupted(const pct_interrupt *stop, size_t i)
{
    return stop && (i % PCT_INTERRUPT_STEP) == 0 && stop->check(stop->ctx);
}

/* A set of byte values, one bit per value (256 bits).
 * Safe sets hold ASCII only: a byte >= 0x80 is always escaped, so that
 * the escaped UTF-8 of a character can always be decoded again.
 * Build sets with the functions below only: they also keep `nibbles`, the
 * set as the vector kernels look it up (bit h of nibbles[l]: byte 16h+l is
 * in the set), so that no call or batch row has to derive it again. */
typedef struct {
    uint32_t bits[8];
    uint8_t nibbles[16];
} pct_set;

static inline int pct_set_has(const pct_set *set, unsigned char c)
{
    return (int)((set->bits[c >> 5] >> (c & 31u)) & 1u);
}

void pct_set_clear(pct_set *set);
/* Adds c; ignored for c >= 0x80 (see above). */
void pct_set_add(pct_set *set, unsigned char c);
void pct_set_add_bytes(pct_set *set, const uint8_t *chars, size_t n);
/* RFC 3986 unreserved: A-Z a-z 0-9 - . _ ~ */
void pct_set_add_unreserved(pct_set *set);

/* Value of a hex digit (either case), or -1. */
extern const int8_t pct_hex_value[256];
/* "0123456789ABCDEF": uppercase is the canonical form (RFC 3986 2.1). */
extern const char pct_hex_upper[16];

/* ---- encoding ----------------------------------------------------------
 * A byte in `keep` is copied, any other byte becomes %XX (uppercase hex).
 * With `plus`, a kept space is written as '+' (application/x-www-form-urlencoded);
 * a space not in `keep` is still %20.
 *
 * Sizing comes first and never overflows: it fails with PCT_ERR_TOO_LARGE as
 * soon as the output would exceed `limit` bytes (the caller's own maximum
 * object size). The writers then fill exactly that many bytes.
 */
pct_status pct_encoded_size(const uint8_t *src, size_t n, const pct_set *keep,
                            size_t limit, size_t *out_size);
size_t pct_encode(const uint8_t *src, size_t n, const pct_set *keep, int plus,
                  uint8_t *dst);
/* pct_encode into a dst with room for 3n + PCT_ENCODE_ROOM bytes (the most
 * any input of n bytes may need, and more), where the kernel may store whole
 * vectors past the end of the output instead of going through scratch
 * space: the writer of rows into a growing buffer. */
#define PCT_ENCODE_ROOM 256
size_t pct_encode_room(const uint8_t *src, size_t n, const pct_set *keep, int plus,
                       uint8_t *dst);

/* The same for text held as code units of 1, 2 or 4 bytes (Latin-1, UCS-2,
 * UCS-4): each character outside ASCII is escaped as its UTF-8 bytes. A
 * surrogate code unit gives PCT_ERR_SURROGATE and its index in *out_size. */
pct_status pct_encoded_size_ucs1(const uint8_t *src, size_t n, const pct_set *keep,
                                 size_t limit, size_t *out_size);
pct_status pct_encoded_size_ucs2(const uint16_t *src, size_t n, const pct_set *keep,
                                 size_t limit, size_t *out_size);
pct_status pct_encoded_size_ucs4(const uint32_t *src, size_t n, const pct_set *keep,
                                 size_t limit, size_t *out_size);
size_t pct_encode_ucs1(const uint8_t *src, size_t n, const pct_set *keep, int plus,
                       uint8_t *dst);
size_t pct_encode_ucs2(const uint16_t *src, size_t n, const pct_set *keep, int plus,
                       uint8_t *dst);
size_t pct_encode_ucs4(const uint32_t *src, size_t n, const pct_set *keep, int plus,
                       uint8_t *dst);

/* ---- decoding ----------------------------------------------------------
 * '%' followed by two hex digits (either case) becomes that byte; a '%' not
 * followed by two hex digits is malformed and copied unchanged. With `plus`,
 * '+' becomes a space (escapes are decoded independently: "%2B" stays '+').
 * The output is never longer than the input: dst needs n bytes and may be
 * src itself. Returns the number of bytes written. */
size_t pct_decode(const uint8_t *src, size_t n, int plus, uint8_t *dst);

/* pct_decode into a dst apart from src with room for n + PCT_DECODE_ROOM
 * bytes, where the kernel may store whole vectors past the end of the
 * output; *high is set non-zero when a byte >= 0x80 was written (ASCII
 * output needs no UTF-8 check): the writer of rows into a growing buffer. */
#define PCT_DECODE_ROOM 64
size_t pct_decode_room(const uint8_t *src, size_t n, int plus, uint8_t *dst, int *high);

/* ---- decoding to text --------------------------------------------------
 * pct_utf8_check reports on n bytes as UTF-8, so that a caller can build the
 * text in one allocation. Valid means well-formed UTF-8: no overlong form,
 * surrogate or value past U+10FFFF, so that every decoder and error handler
 * gives the same text for it. */
typedef struct {
    int valid;
    uint32_t maxchar; /* 0 for ASCII, else 0xFF, 0xFFFF or 0x10FFFF: the end of the
                         narrowest of Latin-1, the BMP, Unicode that holds every code point */
    size_t nchars;    /* the number of code points */
} pct_utf8_info;

void pct_utf8_check(const uint8_t *src, size_t n, pct_utf8_info *info);

/* n bytes as well-formed UTF-8, as a decoder with the error handler
 * "replace" (replace == 1) or "ignore" (0) sees them: each maximal subpart of
 * an ill-formed sequence (Unicode 3.9, what CPython's decoder reports as one
 * error) becomes U+FFFD, or is dropped; or, with PCT_UTF8_ESCAPE, each of
 * its bytes becomes %XX (upper-case hex), as URI writers escape them. dst
 * (apart from src) needs 3n bytes; returns the number written. */
#define PCT_UTF8_ESCAPE 2
size_t pct_utf8_repair(const uint8_t *src, size_t n, int replace, uint8_t *dst);

/* pct_decode (dst may be src), then pct_utf8_check of its output. */
size_t pct_decode_utf8(const uint8_t *src, size_t n, int plus, uint8_t *dst,
                       pct_utf8_info *info);

/* pct_decode_utf8 for a caller that builds text: when the decoded bytes are
 * valid UTF-8 of code points up to U+00FF only (info->maxchar <= 0xFF), dst
 * holds those code points one byte each (Latin-1) and the return value is
 * info->nchars; otherwise dst and the return value are pct_decode_utf8's.
 * One pass over short input: text is narrowed as it is decoded, and turned
 * back into UTF-8 in place at the first wider code point. */
size_t pct_decode_text(const uint8_t *src, size_t n, int plus, uint8_t *dst,
                       pct_utf8_info *info);

/* The code points of UTF-8 that pct_utf8_check reported valid, written as
 * code units of 1, 2 or 4 bytes (by the width its maxchar needs), at most
 * `cap` of them. Returns the number written (nchars for valid input); other
 * input writes something unspecified, within bounds. */
size_t pct_utf8_to_ucs1(const uint8_t *src, size_t n, uint8_t *dst, size_t cap);
size_t pct_utf8_to_ucs2(const uint8_t *src, size_t n, uint16_t *dst, size_t cap);
size_t pct_utf8_to_ucs4(const uint8_t *src, size_t n, uint32_t *dst, size_t cap);

/* Offset of the first byte >= 0x80 in src, or n if none. */
size_t pct_ascii_span(const uint8_t *src, size_t n);

/* Offset of the first '%' (or, with plus, '+') in src, or n if none. */
size_t pct_find_escape(const uint8_t *src, size_t n, int plus);

/* Offset of the first byte of src NOT in `set`, or n if none. */
size_t pct_span_safe(const uint8_t *src, size_t n, const pct_set *set);

/* ---- kernels -----------------------------------------------------------
 * Every function above runs on one kernel per instruction set ("avx2",
 * "sse2", "neon", "scalar"), all with identical results. The kernel is chosen
 * once, by pct_kernel_init or on first use: the one named by the environment
 * variable PCTCODEC_KERNEL, or, when it is unset, empty or "auto", the best
 * one this CPU runs. Switch kernels only while no other thread is in the core.
 */
/* Reads PCTCODEC_KERNEL. Returns 0, or (the best kernel then being active)
 * -1 when it names no kernel, -2 when it names one this CPU cannot run. */
int pct_kernel_init(void);
/* The same for a name given here (NULL, "" or "auto": the best). */
int pct_kernel_select(const char *name);
const char *pct_kernel_name(void);
/* Name of the i-th kernel this CPU runs, best first; NULL past the last. */
const char *pct_kernel_available(size_t i);

#endif /* PCT_H */
