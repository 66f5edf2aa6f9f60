/* pct_batch: one row of a batch (quote_many, normalize_many, ...) on UTF-8
 * text, appended to a growing output buffer. Plain C99, no Python.
 *
 * The binding runs this over the rows of a list or an Arrow column (in
 * several threads for Arrow); rows it cannot finish (IDNA for a non-ASCII
 * host, malformed UTF-8 under an error handler other than replace/ignore)
 * are reported back for the caller to do.
 */
#ifndef PCT_BATCH_H
#define PCT_BATCH_H

#include <string.h>

#include "pct.h"
#include "pct_buf.h"
#include "pct_canon.h"
#include "pct_domain.h"
#include "pct_host_cache.h"
#include "pct_query.h"
#include "pct_resolve.h"
#include "pct_uri.h"
#include "pct_url.h"

typedef enum {
    PCT_BATCH_QUOTE = 0,     /* quote, quote_plus (plus) under UTF-8 */
    PCT_BATCH_UNQUOTE = 1,   /* unquote, unquote_plus (plus) under UTF-8 */
    PCT_BATCH_REQUOTE = 2,
    PCT_BATCH_NORMALIZE = 3, /* pct_uri_write with `flags` */
    PCT_BATCH_CHECK = 4,     /* the position of the first offence */
    PCT_BATCH_QUERY_PARAM = 5, /* a parameter's value, unquote_plus'd (pct_query.h) */
    PCT_BATCH_CLEAN_QUERY = 6, /* pct_query_clean with `filter` */
    PCT_BATCH_DOMAIN = 7,      /* pct_domain_part of `psl` with `flags` (PCT_DOMAIN_*) */
    PCT_BATCH_RESOLVE = 8,     /* pct_resolve against `base`, then NORMALIZE's write with `flags` (0: none) */
    PCT_BATCH_CANONICALIZE = 9, /* NORMALIZE with `flags`, then pct_canon_key with `canon` */
    PCT_BATCH_URL = 10         /* the URL Standard's getter `url_part` of the row parsed against
                                * `url_base` (pct_url.h); a rejected row is the caller's */
} pct_batch_op;

/* What unquote does with decoded bytes that are not well-formed UTF-8. */
enum {
    PCT_BATCH_CALLER = 0,  /* the caller decodes them (PCT_ROW_CALLER) */
    PCT_BATCH_REPLACE = 1, /* U+FFFD per maximal subpart: errors="replace" */
    PCT_BATCH_IGNORE = 2   /* dropped: errors="ignore" */
};

typedef struct {
    pct_batch_op op;
    pct_set keep;  /* QUOTE: bytes kept (a kept space becomes '+' with plus) */
    int plus;      /* QUOTE, UNQUOTE */
    int malformed; /* UNQUOTE: PCT_BATCH_CALLER, _REPLACE or _IGNORE */
    unsigned flags; /* NORMALIZE, CANONICALIZE: PCT_URI_*; DOMAIN: PCT_DOMAIN_* */
    int strip;      /* NORMALIZE, CANONICALIZE: a row pct_uri_needs_strip is the caller's */
    const pct_psl *psl; /* DOMAIN: the compiled list */
    const uint8_t *name; /* QUERY_PARAM: the parameter's name (UTF-8) */
    size_t name_len;
    pct_query_filter filter; /* CLEAN_QUERY */
    pct_canon canon;         /* CANONICALIZE */
    const uint8_t *base; /* RESOLVE: the base of every row (pct_batch_row; UTF-8) */
    size_t base_len;
    unsigned resolve_flags; /* RESOLVE: PCT_RESOLVE_* */
    const pct_url *url_base; /* URL: the base of every row, parsed, or NULL */
    pct_url_part url_part;   /* URL: which getter (PCT_URL_HREF, ..., PCT_URL_ORIGIN) */
} pct_batch_spec;

/* The rows are written into a pct_buf (pct_buf.h); its scratch holds the
 * intermediate copy of the rows that need one. */

/* The row's outcomes beyond PCT_OK and PCT_ERR_*: PCT_ROW_* (pct.h). */

typedef struct {
    int64_t position; /* CHECK: the index of the first offending code point, or -1 */
    pct_range host;   /* PCT_ROW_HOST: the host's bytes in the row */
    int fast;         /* PCT_ROW_HOST: from the kernel's pass (pct_uri_normalize_fast), row unset */
    int no_form;      /* PCT_ROW_HOST: 1 when the host was mapped here and has no IDNA form
                       * (the caller need not map it again) */
    pct_uri_row row;  /* PCT_ROW_HOST: the row as split, for pct_batch_normalize_host */
    int refused;      /* PCT_ROW_FAILED of DOMAIN: set to 1, with host, when the URL's host
                       * holds an ASCII byte no host may hold and the URL Standard's parser
                       * reads that host as written (its error is worded from the host
                       * alone); only ever set here: the caller clears it */
} pct_batch_info;

/* Appends the result for the UTF-8 text src[0..n) to out (whose total may
 * not pass `limit` bytes); CHECK appends nothing and sets info->position.
 * Returns PCT_OK, PCT_ERR_NO_MEMORY, PCT_ERR_TOO_LARGE, PCT_ROW_CALLER,
 * PCT_ROW_HOST, PCT_ROW_NULL or PCT_ROW_FAILED (out then unchanged):
 * FAILED is a row the single-value function would raise for, with the
 * reason the op's (DOMAIN: the host holds a byte no host may hold), so
 * that the caller applies its error policy without calling it. */
int pct_batch_row(const pct_batch_spec *spec, const uint8_t *src, size_t n, pct_buf *out,
                  size_t limit, pct_batch_info *info);

/* RESOLVE of the reference src[0..n) against base[0..bn), appended as
 * pct_batch_row does: PCT_ROW_CALLER when the base has no scheme or, with
 * `flags`, when the target's host needs IDNA (the caller's, as for the
 * errors it raises). URL: the row parsed against base[0..bn) parsed first
 * (PCT_ROW_CALLER when either is rejected). */
int pct_batch_resolve_row(const pct_batch_spec *spec, const uint8_t *base, size_t bn,
                          const uint8_t *src, size_t n, pct_buf *out, size_t limit,
                          pct_batch_info *info);

/* NORMALIZE (or CANONICALIZE) for a row answered PCT_ROW_HOST, its host replaced by `host`
 * (the IDNA form the caller computed, ASCII): by the kernel's pass again
 * (info->fast), else from the split that answer left in info->row
 * (src[0..n) is that row), not split again. */
int pct_batch_normalize_host(const pct_batch_spec *spec, const uint8_t *src, size_t n,
                             const pct_batch_info *info, const uint8_t *host, size_t host_len,
                             pct_buf *out, size_t limit);

/* DOMAIN for a row answered PCT_ROW_HOST: the part of `host`, the ASCII
 * form the caller computed for the row's host. PCT_OK, PCT_ROW_NULL (no
 * such part), PCT_ROW_FAILED or PCT_ROW_CALLER (the form is no domain name), PCT_ERR_*. */
int pct_batch_domain_host(const pct_batch_spec *spec, const uint8_t *host, size_t n, pct_buf *out,
                          size_t limit);

/* The rows of a column of UTF-8 strings as Arrow lays out string and
 * large_string arrays: row j's bytes are data[offsets[offset + j] ..
 * offsets[offset + j + 1]), and it is null when `validity` is not NULL and
 * its bit offset + j is 0. */
typedef struct {
    int width;               /* 4 or 8: the size of an offset (int32, int64) */
    const void *offsets;     /* read unaligned */
    const uint8_t *data;     /* may be NULL when every row is empty */
    const uint8_t *validity; /* NULL: no nulls */
    int64_t offset;
} pct_rows;

/* Offset j of an int32 (width 4) or int64 (width 8) offsets buffer. Read
 * with memcpy: a producer's buffers need not be aligned (pickle protocol 5
 * hands out slices of its frames). */
static inline int64_t pct_rows_offset(int width, const void *offsets, int64_t j)
{
    if (width == 4) {
        int32_t v;
        memcpy(&v, (const uint8_t *)offsets + 4 * j, 4);
        return v;
    }
    int64_t v;
    memcpy(&v, (const uint8_t *)offsets + 8 * j, 8);
    return v;
}

/* PCT_ROW_MALFORMED (pct.h): an offset of the row is out of range (negative,
 * decreasing, or into no data). */

/* Rows first .. first + count - 1 of `in`, one after the other, appended to
 * out as pct_batch_row does them; row first + i's result goes to slot
 * `slot + i` of the results: ends[slot + i] is where its bytes end in out
 * (CHECK: its position, or -1 when it is valid), and bit slot + i of `valid`
 * (which the caller zeroed) is set when the result is not null (CHECK: when
 * there is a position). A null row gets an empty null result.
 * Returns the number of rows done: when it is less than count, the row
 * after them could not be done and *status says why (PCT_ROW_CALLER,
 * PCT_ROW_FAILED, PCT_ROW_HOST with *info, PCT_ROW_MALFORMED, PCT_ERR_*; out unchanged by
 * it), else *status is PCT_OK. The ops are pct_batch_row's, row by row;
 * with `hosts` (may be NULL), NORMALIZE and DOMAIN map a host that needs
 * IDNA themselves (its form kept there for the rows after) and leave the
 * caller only the hosts that have no form (PCT_ROW_HOST). */
int64_t pct_batch_rows(const pct_batch_spec *spec, const pct_rows *in, int64_t first, int64_t count,
                       int64_t slot, pct_buf *out, size_t limit, int64_t *ends, uint8_t *valid,
                       int *status, pct_batch_info *info, pct_host_cache *hosts);

/* Row j of `in`: 0 when null, 1 with its bytes in *p, *n, -1 when its
 * offsets are out of range. */
int pct_rows_get(const pct_rows *in, int64_t j, const uint8_t **p, size_t *n);

/* The number of code points in the UTF-8 prefix src[0..n). */
size_t pct_utf8_count(const uint8_t *src, size_t n);

#endif /* PCT_BATCH_H */
