/* One row of a batch: the core functions of each operation, writing into a
 * growing buffer instead of a str. */
#include <stdlib.h>
#include <string.h>

#include "pct_authority.h"
#include "pct_batch.h"
#include "pct_idna.h"
#include "pct_kernels.h"
#include "pct_portable.h"

size_t pct_utf8_count(const uint8_t *src, size_t n)
{
    /* n less the continuation bytes (10xxxxxx), eight at a time: bit 7 of
     * a byte set and, shifted up one, bit 6 clear. */
    const uint64_t highs = 0x8080808080808080ull;
    size_t count = n, i = 0;
    for (; n - i >= 8; i += 8) {
        uint64_t v;
        memcpy(&v, src + i, 8);
        /* one bit per byte: a multiply sums them into the top byte */
        count -= (size_t)((((v & ~(v << 1) & highs) >> 7) * 0x0101010101010101ull) >> 56);
    }
    for (; i < n; i++)
        count -= (src[i] & 0xC0u) == 0x80u;
    return count;
}

/* UNQUOTE of one row; plus and malformed as in pct_batch_spec (QUERY_PARAM
 * passes its own, without a copy of the spec). k: the kernel, looked up
 * once per run of rows (NULL: through the dispatch of pct.h), whose
 * decode_room and utf8_check are called straight. */
static int unquote_row(int plus, int malformed, const pct_kernel *k, const uint8_t *src, size_t n,
                       pct_buf *out, size_t limit)
{
    pct_status rc;
    pct_utf8_info info;
    uint8_t *dst;
    size_t len;
    /* One pass with room for the kernel's whole-vector stores; the UTF-8
     * check only when a byte >= 0x80 was written. Without that room under
     * the limit, decode and check as the single call does. */
    if (n <= SIZE_MAX - PCT_DECODE_ROOM
        && pct_buf_reserve(out, n + PCT_DECODE_ROOM, limit) == PCT_OK) {
        int high;
        dst = out->data + out->len;
        if (k && k->decode_utf8_room) { /* checked as it is written */
            len = k->decode_utf8_room(src, n, plus, dst, &high);
            info.valid = high != 2;
        } else {
            len = k && k->decode_room ? k->decode_room(src, n, plus, dst, &high)
                                      : pct_decode_room(src, n, plus, dst, &high);
            if (!high)
                info.valid = 1;
            else if (k && k->utf8_check && len >= 8) /* the kernels' check takes 8 bytes on */
                k->utf8_check(dst, len, &info);
            else
                pct_utf8_check(dst, len, &info);
        }
    } else {
        if ((rc = pct_buf_reserve(out, n, limit)) != PCT_OK)
            return (int)rc;
        dst = out->data + out->len;
        len = pct_decode_utf8(src, n, plus, dst, &info);
    }
    if (info.valid) {
        out->len += len;
        return PCT_OK;
    }
    if (malformed == PCT_BATCH_CALLER)
        return PCT_ROW_CALLER;
    /* The decoded bytes move to scratch, then come back repaired (up to 3x). */
    if ((rc = pct_buf_scratch(out, len)) != PCT_OK)
        return (int)rc;
    memcpy(out->scratch, dst, len);
    if (len > SIZE_MAX / 3)
        return PCT_ERR_TOO_LARGE;
    if ((rc = pct_buf_reserve(out, 3 * len, limit)) != PCT_OK)
        return (int)rc;
    out->len += pct_utf8_repair(out->scratch, len, malformed == PCT_BATCH_REPLACE,
                                out->data + out->len);
    if (out->len > limit)
        return PCT_ERR_TOO_LARGE;
    return PCT_OK;
}

/* Room in out for the normalized row of n bytes (host_len: its host
 * replaced), and the writer's scratch room after it. */
static pct_status reserve_uri(size_t n, size_t host_len, pct_buf *out, size_t limit)
{
    /* the writer's room is scratch: the limit holds for the bound alone */
    size_t bound, room = PCT_URI_WRITE_ROOM;
    pct_status rc = pct_uri_size_bound(n, host_len, SIZE_MAX - room, &bound);
    if (rc == PCT_OK)
        rc = pct_buf_reserve(out, bound + room, limit > SIZE_MAX - room ? SIZE_MAX : limit + room);
    return rc;
}

static int take(pct_buf *out, size_t len, size_t limit)
{
    if (len > limit - out->len)
        return PCT_ERR_TOO_LARGE;
    out->len += len;
    return PCT_OK;
}

/* take() of len bytes written at out->data + out->len, whose ill-formed
 * UTF-8 (Arrow input is not checked for it) is escaped %XX, as normalize
 * writes it: a text result stays valid UTF-8. */
static int take_escaped(pct_buf *out, size_t len, size_t limit)
{
    pct_utf8_info info;
    pct_utf8_check(out->data + out->len, len, &info);
    if (info.valid)
        return take(out, len, limit);
    pct_status rc = pct_buf_scratch(out, len);
    if (rc != PCT_OK)
        return (int)rc;
    memcpy(out->scratch, out->data + out->len, len);
    if (len > SIZE_MAX / 3)
        return PCT_ERR_TOO_LARGE;
    if ((rc = pct_buf_reserve(out, 3 * len, limit)) != PCT_OK)
        return (int)rc;
    return take(out, pct_utf8_repair(out->scratch, len, PCT_UTF8_ESCAPE, out->data + out->len),
                limit);
}

/* pct_uri_write of a split row, host replaced when not NULL. */
static int write_uri(const pct_batch_spec *spec, const uint8_t *src, size_t n,
                     const pct_uri_row *row, const uint8_t *host, size_t host_len, pct_buf *out,
                     size_t limit)
{
    size_t len = 0;
    pct_status rc = reserve_uri(n, host_len, out, limit);
    if (rc == PCT_OK)
        rc = pct_uri_write_row(src, row, host, host_len, spec->flags, out->data + out->len, &len);
    return rc != PCT_OK ? (int)rc : take(out, len, limit);
}

/* The split and write of a row by pct_uri.c, when the kernel's pass did not take it. */
static int normalize_split(const pct_batch_spec *spec, const uint8_t *src, size_t n, pct_buf *out,
                           size_t limit, pct_batch_info *info)
{
    /* split into info: a row whose host needs IDNA is written from it later */
    pct_uri_row *row = &info->row;
    pct_uri_split_row(src, n, row);
    /* escapes only where the split saw a '%' after the userinfo */
    if (row->uri.has_authority
        && pct_uri_row_needs_idna(src, row, (spec->flags & PCT_URI_DECODE_UNRESERVED)
                                                && row->uri.host_escaped)) {
        info->host = row->uri.host; /* IDNA: the caller's */
        info->fast = 0;
        info->no_form = 0;
        return PCT_ROW_HOST;
    }
    return write_uri(spec, src, n, row, NULL, 0, out, limit);
}

/* CANONICALIZE: the normalized row out->data[start..len) replaced by its key. */
/* The normalized row's userinfo is empty ("@h") or ends in an empty
 * password ("u:@h"), which pct_canon_key drops for a special scheme: the
 * row takes the whole key. In a normalized row an '@' of the userinfo is
 * escaped, so the first '@' of the authority ends it. canon_key's
 * `userinfo`: 0 when the row's authority is known to hold none. */
static int empty_password(const uint8_t *row, size_t len)
{
    const uint8_t *end = row + len, *p = len ? memchr(row, ':', len) : NULL;
    if (!p || end - p < 3 || p[1] != '/' || p[2] != '/')
        return 0;
    for (p += 3; p < end && *p != '/' && *p != '?' && *p != '#'; p++)
        if (*p == '@')
            return p[-1] == ':' || p[-1] == '/';
    return 0;
}

static int canon_key(const pct_batch_spec *spec, pct_buf *out, size_t start, int userinfo)
{
    size_t len = out->len - start, key_len;
    uint8_t *row = out->data + start;
    pct_status rc;
    /* an empty password needs an '@', which most rows have none of */
    if (pct_canon_query_only(&spec->canon)
        && !(userinfo && len && memchr(row, '@', len) && empty_password(row, len))) {
        /* most rows: the part before the '?' stays where it is, and so
         * does a query already its key; a '?' after the '#' is the
         * fragment's, which the key keeps as it is (with the fragment
         * dropped, the row holds no '#') */
        int hash = !(spec->flags & PCT_URI_DROP_FRAGMENT);
        const uint8_t *q = len ? memchr(row, '?', len) : NULL;
        if (!q || (hash && memchr(row, '#', (size_t)(q - row))))
            return PCT_OK; /* no query: the normalized row is its key */
        size_t from = (size_t)(q - row);
        if ((rc = pct_buf_scratch(out, len - from)) != PCT_OK
            || (rc = pct_canon_tail_in_place(row + from, len - from, from == 0, hash, &spec->canon,
                                             out->scratch, &key_len)) != PCT_OK)
            return (int)rc;
        out->len = start + from + key_len;
        return PCT_OK;
    }
    if ((rc = pct_buf_scratch(out, len)) != PCT_OK)
        return (int)rc;
    memcpy(out->scratch, row, len);
    if ((rc = pct_canon_key(out->scratch, len, &spec->canon, row, &key_len)) != PCT_OK)
        return (int)rc;
    out->len = start + key_len;
    return PCT_OK;
}

static int normalize_host(const pct_batch_spec *spec, const uint8_t *src, size_t n,
                          const pct_batch_info *info, const uint8_t *host, size_t host_len,
                          pct_buf *out, size_t limit);

int pct_batch_normalize_host(const pct_batch_spec *spec, const uint8_t *src, size_t n,
                             const pct_batch_info *info, const uint8_t *host, size_t host_len,
                             pct_buf *out, size_t limit)
{
    size_t start = out->len;
    int rc = normalize_host(spec, src, n, info, host, host_len, out, limit);
    if (rc != PCT_OK || spec->op != PCT_BATCH_CANONICALIZE)
        return rc;
    if (pct_domain_number_host(out->data + start, out->len - start) && pct_domain_browser(src, n)) {
        out->len = start;
        return PCT_ROW_CALLER; /* an IDNA form ending in a number: the parser's IPv4, as canon_row */
    }
    return canon_key(spec, out, start, 1);
}

static int normalize_host(const pct_batch_spec *spec, const uint8_t *src, size_t n,
                          const pct_batch_info *info, const uint8_t *host, size_t host_len,
                          pct_buf *out, size_t limit)
{
    if (!info->fast)
        return write_uri(spec, src, n, &info->row, host, host_len, out, limit);
    size_t len = 0;
    pct_uri_fast fast; /* its inputs, as in normalize_row */
    fast.host = host;
    fast.host_len = host_len;
    fast.lookup = NULL;
    pct_status rc = reserve_uri(n, host_len, out, limit);
    if (rc != PCT_OK)
        return (int)rc;
    if (pct_uri_normalize_fast(src, n, spec->flags, out->data + out->len, &len, &fast)
        == PCT_URI_FAST_DONE)
        return take(out, len, limit);
    /* an IDNA form the pass does not take: split and written here */
    pct_batch_info split;
    pct_uri_split_row(src, n, &split.row);
    return write_uri(spec, src, n, &split.row, host, host_len, out, limit);
}

/* The IDNA form of host[0..n) for a row of a run: from the run's cache,
 * else mapped here (pct_idna_host_form, into buf[0..PCT_HOST_CACHED) or a
 * malloc'd *heap the caller frees) and kept in the cache. 1 with it in
 * *form, 0 when the host has none (the row is then the caller's, which
 * words the error), or PCT_ERR_NO_MEMORY. */
static int host_form(pct_host_cache *hosts, const uint8_t *host, size_t n, uint8_t *buf,
                     const uint8_t **form, size_t *form_len, uint8_t **heap)
{
    *heap = NULL;
    if (pct_host_cache_get(hosts, host, n, form, form_len))
        return *form != NULL;
    pct_status rc = pct_idna_host_form(host, n, buf, PCT_HOST_CACHED, form, form_len, heap);
    if (rc == PCT_ERR_NO_MEMORY)
        return PCT_ERR_NO_MEMORY;
    if (rc != PCT_OK)
        *form = NULL;
    pct_host_cache_put(hosts, host, n, *form, *form_len);
    return *form != NULL;
}

/* What the kernel's pass asks for a host's form (pct_host_form_fn). */
typedef struct {
    pct_host_cache *hosts;
    uint8_t *buf; /* PCT_HOST_CACHED bytes */
} form_source;

/* pct_host_form_fn: host_form without a heap (a form that long is no
 * form the pass takes); a host with none goes back to the row's caller
 * (the pass answers PCT_URI_FAST_HOST). */
static const uint8_t *mapped_form(const void *source, const uint8_t *host, size_t n, size_t *form_len)
{
    const form_source *fs = source;
    const uint8_t *form;
    uint8_t *heap;
    int got = host_form(fs->hosts, host, n, fs->buf, &form, form_len, &heap);
    free(heap);
    return got == 1 && !heap ? form : NULL;
}

static int normalize_row(const pct_batch_spec *spec, const uint8_t *src, size_t n, pct_buf *out,
                         size_t limit, pct_batch_info *info, pct_host_cache *hosts)
{
    /* most rows in one pass of the kernel, the IDNA forms of their hosts
     * mapped in it (from the cache when there) */
    size_t len = 0;
    uint8_t buf[PCT_HOST_CACHED];
    form_source source = {hosts, buf};
    /* its inputs alone: the rest is the pass's to write (zeroing the whole
     * struct with 16-byte stores before each call cost 25-40 ns a row) */
    pct_uri_fast fast;
    fast.host = NULL;
    fast.lookup = hosts ? mapped_form : NULL;
    fast.forms = &source;
    pct_status rc = reserve_uri(n, PCT_URI_FAST_FORM_MAX, out, limit);
    if (rc != PCT_OK) { /* near the limit: no form from the cache, the row's own room */
        fast.lookup = NULL;
        if ((rc = reserve_uri(n, 0, out, limit)) != PCT_OK)
            return (int)rc;
    }
    int got;
    switch (pct_uri_normalize_fast(src, n, spec->flags, out->data + out->len, &len, &fast)) {
    case PCT_URI_FAST_DONE:
        return take(out, len, limit);
    case PCT_URI_FAST_HOST:
        info->fast = 1;
        info->host = fast.idna_host;
        info->no_form = 0;
        return PCT_ROW_HOST; /* (its host has no form: the caller's) */
    default:
        got = normalize_split(spec, src, n, out, limit, info);
    }
    /* a host that needs IDNA: mapped here, the row written once with its
     * form (from the split already made) */
    const uint8_t *form;
    size_t form_len;
    uint8_t *heap;
    if (got != PCT_ROW_HOST || !hosts)
        return got;
    int have = host_form(hosts, src + info->host.start, info->host.len, buf, &form, &form_len, &heap);
    if (have == 1)
        got = normalize_host(spec, src, n, info, form, form_len, out, limit);
    else if (have != 0)
        got = have;
    else
        info->no_form = 1; /* mapped above: none (got is PCT_ROW_HOST) */
    free(heap);
    return got;
}

/* CANONICALIZE of a row normalize answered rc (its row at out->data +
 * start when PCT_OK) whose host pct_canon_host_alike does not vouch for:
 * the URL Standard's reading of it checked whole, as before normalizing
 * (the same answers: a row the parser reads is the caller's). */
static int canonicalize_checked(const pct_batch_spec *spec, const uint8_t *src, size_t n,
                                pct_buf *out, size_t limit, size_t start, int rc)
{
    pct_status room = rc == PCT_OK ? PCT_OK : pct_buf_reserve(out, n, limit);
    if (room == PCT_OK)
        room = pct_buf_scratch(out, n);
    if (room != PCT_OK)
        return (int)room;
    int form;
    if (pct_domain_parser_row_form(src, n, out->scratch, &form)
        || (form && pct_canon_host_escapes(src, n))) {
        /* a host the URL Standard's parser reads (its href), or one whose
         * escapes it decodes for IDNA: the caller's */
        out->len = start;
        return PCT_ROW_CALLER;
    }
    if (rc == PCT_OK && form && pct_domain_number_host(out->data + start, out->len - start)
        && pct_domain_browser(src, n)) {
        out->len = start;
        return PCT_ROW_CALLER; /* an IDNA form ending in a number, the parser's IPv4 */
    }
    return rc == PCT_OK ? canon_key(spec, out, start, 1) : rc;
}

/* CANONICALIZE: the row normalized, then its key in place. */
static int canonicalize_row(const pct_batch_spec *spec, const uint8_t *src, size_t n, pct_buf *out,
                            size_t limit, pct_batch_info *info, pct_host_cache *hosts)
{
    if (spec->strip && pct_uri_needs_strip(src, n))
        return PCT_ROW_CALLER; /* rare: the caller strips, then does the row */
    if (!spec->strip && n && src[n - 1] <= 0x20 && pct_domain_browser(src, n))
        return PCT_ROW_CALLER; /* rare: white space kept at a special URL's end may be its host's */
    if (memchr(src, '\\', n) && pct_special_backslash(src, n) < n)
        return PCT_ROW_CALLER; /* rare: a '\\' a browser reads as '/', the caller's */
    size_t start = out->len;
    int rc = normalize_row(spec, src, n, out, limit, info, hosts);
    /* most rows: a plain host, known so off the normalized row (and
     * whether its authority holds a userinfo, which the key may shorten) */
    int userinfo;
    if (rc == PCT_OK && pct_canon_host_alike(src, n, out->data + start, out->len - start, &userinfo))
        return canon_key(spec, out, start, userinfo);
    return canonicalize_checked(spec, src, n, out, limit, start, rc);
}

/* QUERY_PARAM: the first value of spec->name, decoded as unquote_plus
 * decodes it with errors="replace". */
static int query_param_row(const pct_batch_spec *spec, const pct_kernel *k, const uint8_t *src,
                           size_t n, pct_buf *out, size_t limit)
{
    pct_range q, v;
    if (!pct_query_locate(src, n, &q) || !pct_query_find(src + q.start, q.len, spec->name,
                                                         spec->name_len, &v))
        return PCT_ROW_NULL;
    return unquote_row(1, PCT_BATCH_REPLACE, k, src + q.start + v.start, v.len, out, limit);
}

static int clean_query_row(const pct_batch_spec *spec, const uint8_t *src, size_t n, pct_buf *out,
                           size_t limit)
{
    size_t len = 0;
    pct_status rc = pct_buf_reserve(out, n, limit);
    if (rc == PCT_OK)
        rc = pct_query_clean(src, n, &spec->filter, out->data + out->len, &len);
    if (rc != PCT_OK)
        return (int)rc;
    return take_escaped(out, len, limit);
}

static int domain_append(const pct_batch_spec *spec, unsigned flags, const uint8_t *src, size_t n,
                         const pct_authority *found, pct_buf *out, size_t limit, int *idna);

/* DOMAIN: room for n bytes more in out (a part is no longer than its
 * row): pct_buf_reserve, its usual answer inline. */
static inline pct_status domain_room(pct_buf *out, size_t n, size_t limit)
{
    if (out->len <= limit && n <= limit - out->len && n <= out->cap - out->len)
        return PCT_OK;
    return pct_buf_reserve(out, n, limit);
}

/* DOMAIN: a special scheme's URL whose host the URL Standard's parser
 * reads (PCT_DOMAIN_URL), parsed into out's scratch (kept from row to
 * row); a URL the parser rejects is the caller's (its error). */
static int domain_url_append(const pct_batch_spec *spec, unsigned flags, const uint8_t *src,
                             size_t n, pct_buf *out, size_t limit)
{
    if (pct_domain_host_refused(src, n))
        return PCT_ROW_FAILED; /* (a byte no host may hold: no parse needed to know) */
    pct_url u;
    pct_url_init(&u);
    u.href = out->scratch;
    u.cap = out->scratch_cap;
    const uint8_t *host;
    size_t hn;
    int idna = 0;
    pct_status rc = pct_domain_url_host(&u, src, n, &host, &hn);
    /* a URL the parser refuses fails here: the binding names the parser's
     * reason when an exception is wanted, and under "null"/"keep" the row
     * costs no more than a good one */
    int got = rc == PCT_OK ? domain_append(spec, flags | PCT_DOMAIN_IS_HOST, host, hn, NULL, out, limit, &idna)
              : rc == PCT_DOMAIN_NONE ? PCT_ROW_NULL
              : rc == PCT_ERR_NO_MEMORY || rc == PCT_ERR_TOO_LARGE ? (int)rc
              : PCT_URL_REJECTED(rc) ? PCT_ROW_FAILED
              : PCT_ROW_CALLER;
    out->scratch = u.href;
    out->scratch_cap = u.cap;
    free(u.scratch);
    return got;
}

/* DOMAIN: the part of src[0..n) appended to out (it is no longer than the
 * row): PCT_OK, PCT_ROW_NULL, PCT_ROW_CALLER or PCT_ERR_*; *idna is set
 * (with PCT_ROW_CALLER) when the host needs IDNA first. `found`: src's
 * authority (pct_domain_part_at), NULL with PCT_DOMAIN_IS_HOST. */
static int domain_append(const pct_batch_spec *spec, unsigned flags, const uint8_t *src, size_t n,
                         const pct_authority *found, pct_buf *out, size_t limit, int *idna)
{
    size_t len;
    pct_status rc = domain_room(out, n, limit);
    if (rc != PCT_OK)
        return (int)rc;
    if (flags & PCT_DOMAIN_IS_HOST) { /* an IDNA form, the parser's host: mostly plain */
        size_t at;
        int got = pct_domain_part_plain(spec->psl, flags, src, n, out->data + out->len, &len, &at);
        if (got == PCT_OK) {
            out->len += len;
            return PCT_OK;
        }
        if (got == PCT_DOMAIN_NONE)
            return PCT_ROW_NULL;
    }
    switch (pct_domain_part_at(spec->psl, flags, src, n, found, out->data + out->len, &len)) {
    case PCT_OK:
        out->len += len;
        return PCT_OK;
    case PCT_DOMAIN_NONE:
        return PCT_ROW_NULL;
    case PCT_DOMAIN_IDNA:
        *idna = 1;
        return PCT_ROW_CALLER;
    case PCT_DOMAIN_BAD_HOST:
        return PCT_ROW_FAILED; /* the row's error: the binding's policy, no func call */
    case PCT_DOMAIN_URL:
        return domain_url_append(spec, flags, src, n, out, limit);
    default:
        return PCT_ROW_CALLER;
    }
}

int pct_batch_domain_host(const pct_batch_spec *spec, const uint8_t *host, size_t n, pct_buf *out,
                          size_t limit)
{
    int idna = 0; /* the form is a host itself, not a URL to read */
    return domain_append(spec, spec->flags | PCT_DOMAIN_IS_HOST, host, n, NULL, out, limit, &idna);
}

/* DOMAIN: the usual row, read in one pass (pct_domain_part_plain), inline
 * in the row loop: PCT_OK, PCT_ROW_NULL, PCT_DOMAIN_IDNA (the host at
 * src[*at], its length in *len) or PCT_ROW_CALLER for domain_row. */
static inline int domain_plain_row(const pct_batch_spec *spec, const uint8_t *src, size_t n,
                                   pct_buf *out, size_t limit, size_t *len, size_t *at)
{
    if (domain_room(out, n, limit) != PCT_OK)
        return PCT_ROW_CALLER; /* (domain_row reports it) */
    int got = pct_domain_part_plain(spec->psl, spec->flags, src, n, out->data + out->len, len, at);
    if (got == PCT_OK) {
        out->len += *len;
        return PCT_OK;
    }
    return got == PCT_DOMAIN_NONE ? PCT_ROW_NULL : got == PCT_DOMAIN_IDNA ? got : PCT_ROW_CALLER;
}

static int domain_idna_row(const pct_batch_spec *spec, const uint8_t *src, size_t n, size_t start,
                           size_t host_len, pct_buf *out, size_t limit, pct_batch_info *info,
                           pct_host_cache *hosts);

/* DOMAIN: a row the one pass did not read; a host that needs IDNA is
 * domain_idna_row's. */
static int domain_row(const pct_batch_spec *spec, const uint8_t *src, size_t n, pct_buf *out,
                      size_t limit, pct_batch_info *info, pct_host_cache *hosts)
{
    int idna = 0;
    pct_authority a; /* found once: the host of a row that needs IDNA is looked up in the cache */
    pct_authority_find(src, n, PCT_AUTH_WEB, &a);
    /* a special scheme's host the parser reads alike and refuses (an ASCII
     * byte no host may hold): what domain_append finds by its host check
     * and domain_url_append's, in one look */
    if (a.special && domain_room(out, n, limit) == PCT_OK && pct_domain_host_refused_at(src, n, &a)) {
        info->host.start = a.host; /* (the reject need not find it again) */
        info->host.len = a.host_end - a.host;
        info->refused = 1;
        return PCT_ROW_FAILED;
    }
    int rc = domain_append(spec, spec->flags, src, n, &a, out, limit, &idna);
    if (!idna)
        return rc;
    return domain_idna_row(spec, src, n, a.host, a.host_end - a.host, out, limit, info, hosts);
}

/* DOMAIN: the row src[0..n) whose host src[start, start + host_len) needs
 * IDNA: written from the host's form in the cache, else left to the
 * caller (PCT_ROW_HOST, info->host). */
static int domain_idna_row(const pct_batch_spec *spec, const uint8_t *src, size_t n, size_t start,
                           size_t host_len, pct_buf *out, size_t limit, pct_batch_info *info,
                           pct_host_cache *hosts)
{
    int rc;
    size_t form_len = 0;
    const uint8_t *form;
    uint8_t buf[PCT_HOST_CACHED], *heap = NULL;
    int have = hosts ? host_form(hosts, src + start, host_len, buf, &form, &form_len, &heap) : 0;
    if (have == 1) {
        rc = pct_batch_domain_host(spec, form, form_len, out, limit);
        free(heap);
        /* no part: a form ending in a number, which the parser may refuse */
        return rc == PCT_ROW_NULL && pct_domain_browser(src, n)
                   ? domain_url_append(spec, spec->flags, src, n, out, limit) : rc;
    }
    free(heap);
    if (have != 0)
        return have;
    info->host.start = start;
    info->host.len = host_len;
    info->no_form = hosts != NULL; /* mapped above: none */
    return PCT_ROW_HOST;
}

/* URL: the getter of src[0..n) parsed against base (NULL: none). The URL
 * is parsed into out's scratch (its href buffer, kept from row to row),
 * then its getter appended. */
static int url_row(const pct_batch_spec *spec, const pct_url *base, const uint8_t *src, size_t n,
                   pct_buf *out, size_t limit)
{
    pct_url u;
    pct_url_init(&u);
    u.href = out->scratch;
    u.cap = out->scratch_cap;
    pct_status rc = pct_url_parse(&u, src, n, base, limit);
    out->scratch = u.href;
    out->scratch_cap = u.cap;
    free(u.scratch);
    if (rc != PCT_OK)
        return rc == PCT_ERR_NO_MEMORY || rc == PCT_ERR_TOO_LARGE ? (int)rc : PCT_ROW_CALLER;
    const uint8_t *p;
    size_t len;
    pct_url work;
    if (spec->url_part == PCT_URL_ORIGIN || spec->url_part == PCT_URL_RECORD) {
        /* origin alone, or every getter (href, origin, protocol .. hash) */
        int record = spec->url_part == PCT_URL_RECORD;
        pct_url_init(&work);
        rc = pct_url_origin(&u, &work, &p, &len);
        size_t room = len; /* the record's size: href, origin, the getters (slices
                            * of href: no overflow) and the separators */
        for (int k = PCT_URL_PROTOCOL; record && k <= PCT_URL_HASH; k++) {
            const uint8_t *q;
            size_t n_q;
            pct_url_component(&u, (pct_url_part)k, &q, &n_q);
            room += n_q;
        }
        room += record ? u.len + 10 : 0;
        if (record && u.len > SIZE_MAX / 16) /* (room above would wrap: 32-bit) */
            rc = PCT_ERR_TOO_LARGE;
        if (rc == PCT_OK && (rc = pct_buf_reserve(out, room, limit)) == PCT_OK) {
            uint8_t *o = out->data + out->len;
            if (record) {
                memcpy(o, u.href, u.len);
                o += u.len;
                *o++ = 0;
            }
            memcpy(o, p, len);
            o += len;
            for (int k = PCT_URL_PROTOCOL; record && k <= PCT_URL_HASH; k++) {
                const uint8_t *q;
                size_t n_q;
                pct_url_component(&u, (pct_url_part)k, &q, &n_q);
                *o++ = 0;
                memcpy(o, q, n_q);
                o += n_q;
            }
            out->len = (size_t)(o - out->data);
        }
        pct_url_free(&work);
        return (int)rc;
    }
    pct_url_component(&u, spec->url_part, &p, &len);
    if ((rc = pct_buf_reserve(out, len, limit)) == PCT_OK) {
        memcpy(out->data + out->len, p, len);
        out->len += len;
    }
    return (int)rc;
}

int pct_batch_resolve_row(const pct_batch_spec *spec, const uint8_t *base, size_t bn,
                          const uint8_t *src, size_t n, pct_buf *out, size_t limit,
                          pct_batch_info *info)
{
    if (spec->op == PCT_BATCH_URL) {
        pct_url b;
        pct_url_init(&b);
        pct_status brc = pct_url_parse(&b, base, bn, NULL, SIZE_MAX);
        int rc = brc == PCT_OK ? url_row(spec, &b, src, n, out, limit)
                 : brc == PCT_ERR_NO_MEMORY ? (int)brc : PCT_ROW_CALLER;
        pct_url_free(&b);
        return rc;
    }
    size_t bound, len = 0, pos;
    pct_status rc = pct_resolve_bound(bn, n, SIZE_MAX, &bound);
    if (rc != PCT_OK)
        return (int)rc;
    if (!spec->flags) { /* the target straight into out */
        if ((rc = pct_buf_reserve(out, bound, limit)) != PCT_OK)
            return (int)rc;
        if (pct_resolve(base, bn, src, n, spec->resolve_flags, out->data + out->len, &len, &pos)
            != PCT_OK)
            return PCT_ROW_CALLER;
        return take_escaped(out, len, limit);
    }
    /* normalized: the target in scratch, then written as normalize_many
     * writes a row (a host that needs IDNA is the caller's) */
    if ((rc = pct_buf_scratch(out, bound)) != PCT_OK)
        return (int)rc;
    if (pct_resolve(base, bn, src, n, spec->resolve_flags, out->scratch, &len, &pos) != PCT_OK)
        return PCT_ROW_CALLER;
    if (spec->strip && pct_uri_needs_strip(out->scratch, len))
        return PCT_ROW_CALLER; /* normalize strips it first: rare, the caller's */
    int got = normalize_row(spec, out->scratch, len, out, limit, info, NULL);
    return got == PCT_ROW_HOST ? PCT_ROW_CALLER : got;
}

/* DOMAIN: one row, the one pass first (inline in the row loops). */
static PCT_ALWAYS_INLINE int domain_batch_row(const pct_batch_spec *spec, const uint8_t *src,
                                              size_t n, pct_buf *out, size_t limit,
                                              pct_batch_info *info, pct_host_cache *hosts)
{
    size_t size, pos;
    int got = domain_plain_row(spec, src, n, out, limit, &size, &pos);
    if (got == PCT_DOMAIN_IDNA) /* the host at src[pos] */
        return domain_idna_row(spec, src, n, pos, size, out, limit, info, hosts);
    return got != PCT_ROW_CALLER ? got : domain_row(spec, src, n, out, limit, info, hosts);
}

/* The per-op dispatch of one row, inlined into pct_batch_rows' loop (a new
 * op is a new case here, and both entry points have it). k: as for
 * unquote_row. */
static inline int batch_row(const pct_batch_spec *spec, const pct_kernel *k, const uint8_t *src,
                            size_t n, pct_buf *out, size_t limit, pct_batch_info *info,
                            pct_host_cache *hosts)
{
    size_t size, pos;
    pct_status rc;
    switch (spec->op) {
    case PCT_BATCH_QUOTE:
        /* One pass: room for the worst case (every byte escaped, and the
         * kernel's stores past the end), which the geometric growth of out
         * makes rare; the sizing pass only where that room would pass the
         * limit. */
        if (n <= (SIZE_MAX - PCT_ENCODE_ROOM) / 3
            && pct_buf_reserve(out, 3 * n + PCT_ENCODE_ROOM, limit) == PCT_OK) {
            out->len += k ? k->encode_room(src, n, &spec->keep, spec->plus, out->data + out->len)
                          : pct_encode_room(src, n, &spec->keep, spec->plus, out->data + out->len);
            return PCT_OK;
        }
        if ((rc = pct_encoded_size(src, n, &spec->keep, SIZE_MAX, &size)) != PCT_OK
            || (rc = pct_buf_reserve(out, size, limit)) != PCT_OK)
            return (int)rc;
        out->len += pct_encode(src, n, &spec->keep, spec->plus, out->data + out->len);
        return PCT_OK;
    case PCT_BATCH_UNQUOTE:
        return unquote_row(spec->plus, spec->malformed, k, src, n, out, limit);
    case PCT_BATCH_REQUOTE:
        /* One pass into worst-case room (3 bytes per byte), as for QUOTE. */
        if (n <= SIZE_MAX / 3 && pct_buf_reserve(out, 3 * n, limit) == PCT_OK) {
            out->len += pct_requote(src, n, PCT_URI_UPPER_HEX, out->data + out->len);
            return PCT_OK;
        }
        if ((rc = pct_requoted_size(src, n, SIZE_MAX, &size)) != PCT_OK
            || (rc = pct_buf_reserve(out, size, limit)) != PCT_OK)
            return (int)rc;
        out->len += pct_requote(src, n, PCT_URI_UPPER_HEX, out->data + out->len);
        return PCT_OK;
    case PCT_BATCH_NORMALIZE:
        if (spec->strip && pct_uri_needs_strip(src, n))
            return PCT_ROW_CALLER; /* rare: the caller strips, then does the row */
        return normalize_row(spec, src, n, out, limit, info, hosts);
    case PCT_BATCH_CANONICALIZE:
        return canonicalize_row(spec, src, n, out, limit, info, hosts);
    case PCT_BATCH_CHECK:
        /* the byte offset is the code-point index (see pct_uri_offence) */
        pos = pct_uri_offence(src, n);
        info->position = pos == n ? -1 : (int64_t)pos;
        return PCT_OK;
    case PCT_BATCH_QUERY_PARAM:
        return query_param_row(spec, k, src, n, out, limit);
    case PCT_BATCH_CLEAN_QUERY:
        return clean_query_row(spec, src, n, out, limit);
    case PCT_BATCH_DOMAIN:
        return domain_batch_row(spec, src, n, out, limit, info, hosts);
    case PCT_BATCH_RESOLVE:
        return pct_batch_resolve_row(spec, spec->base, spec->base_len, src, n, out, limit, info);
    case PCT_BATCH_URL:
        return url_row(spec, spec->url_base, src, n, out, limit);
    }
    return PCT_ROW_CALLER;
}

int pct_batch_row(const pct_batch_spec *spec, const uint8_t *src, size_t n, pct_buf *out,
                  size_t limit, pct_batch_info *info)
{
    return batch_row(spec, pct_kernel_active(), src, n, out, limit, info, NULL);
}

int pct_rows_get(const pct_rows *in, int64_t j, const uint8_t **p, size_t *n)
{
    static const uint8_t empty[1] = {0};
    j += in->offset;
    if (in->validity && !((in->validity[j >> 3] >> (j & 7)) & 1))
        return 0;
    int64_t start = pct_rows_offset(in->width, in->offsets, j);
    int64_t end = pct_rows_offset(in->width, in->offsets, j + 1);
    if (start < 0 || end < start)
        return -1;
    *n = (size_t)(end - start);
    *p = in->data ? in->data + start : (end == start ? empty : NULL);
    return *p ? 1 : -1;
}

/* CHECK's result for row s: its offence at pos, or none when pos == n. */
static inline void check_result(int64_t s, size_t pos, size_t n, int64_t *ends, uint8_t *valid)
{
    ends[s] = pos == n ? -1 : (int64_t)pos;
    valid[s >> 3] |= (uint8_t)((pos != n) << (s & 7));
}

/* 64 * w + the first set bit of word, or `otherwise` when it is 0: without
 * a branch, as whether a word holds an offence is data that no predictor
 * guesses (bit 63 stands in for an empty word). */
static inline size_t first_in_word(size_t w, uint64_t word, size_t otherwise)
{
    size_t here = 64 * w + (size_t)pct_ctz64(word | 1ull << 63), some = (size_t)0 - (word != 0);
    return (here & some) | (otherwise & ~some);
}

/* Rows' text checked a run at a time: up to this many bytes of rows in
 * one call of the kernel's offence bits (a 2 KiB bitmap on the stack). */
#define CHECK_RUN 16384

/* CHECK over rows first .. first + count - 1, as pct_batch_rows does them,
 * the offsets read in place (width is a constant of each inlined copy).
 * Where the kernel has offence bits, the text of consecutive rows (at most
 * CHECK_RUN bytes, their offsets increasing) goes through it in one pass
 * and each row takes its first bit; a row the run cannot take (longer,
 * malformed, an odd null) is checked alone. The byte offset of an offence
 * is its code-point index: only ASCII comes before it. */
static inline int64_t check_rows(const pct_rows *in, int64_t first, int64_t count, int64_t slot,
                                 int64_t *ends, uint8_t *valid, int *status, int width)
{
    static const uint8_t empty[1] = {0};
    const pct_uri_offence_fn offence = pct_uri_offence_kernel();
    const pct_uri_offence_bits_fn offence_bits = in->data ? pct_uri_offence_bits_kernel() : NULL;
    const uint8_t *data = in->data, *validity = in->validity;
    const void *offsets = in->offsets;
    const int64_t j0 = in->offset + first;
    uint64_t bits[CHECK_RUN / 64 + 1];
    size_t next[CHECK_RUN / 64 + 2];
    int64_t i = 0;
    while (i < count) {
        /* the run: rows i .. k - 1, whose text up to the end of the last
         * that is not null (a null row's bytes need not be there) is scanned */
        int64_t base = pct_rows_offset(width, offsets, j0 + i), end = base, scan_end = base, k = i;
        if (offence_bits && base >= 0) {
            for (; k < count; k++) {
                int64_t j = j0 + k, stop = pct_rows_offset(width, offsets, j + 1);
                if (stop < end || stop - base > CHECK_RUN)
                    break;
                end = stop;
                if (!validity || ((validity[j >> 3] >> (j & 7)) & 1))
                    scan_end = stop;
            }
        }
        if (k > i) {
            /* the bits, then for each word the first bit at or after it */
            size_t len = (size_t)(scan_end - base), words = (len + 63) / 64;
            offence_bits(data + base, len, bits);
            size_t after = SIZE_MAX;
            next[words] = after;
            for (size_t w = words; w-- > 0;)
                next[w] = after = first_in_word(w, bits[w], after);
            const uint8_t *text = data + base;
            size_t a = 0;
            for (; i < k; i++) {
                int64_t j = j0 + i, s = slot + i;
                size_t e = (size_t)(pct_rows_offset(width, offsets, j + 1) - base), n = e - a, pos = 0;
                if (validity && !((validity[j >> 3] >> (j & 7)) & 1)) {
                    ends[s] = -1;
                    a = e;
                    continue;
                }
                if (n) { /* a < e <= len: word a / 64 and the next are written */
                    size_t w = a / 64;
                    uint64_t m = bits[w] & (~0ull << (a % 64));
                    pos = first_in_word(w, m, next[w + 1]);
                    pos = (pos < e ? pos : e) - a;
                    /* a '%' in the last two bytes read its digits from the next row */
                    if (text[e - 1] == '%' && n - 1 < pos)
                        pos = n - 1;
                    if (n >= 2 && text[e - 2] == '%' && n - 2 < pos)
                        pos = n - 2;
                }
                a = e;
                check_result(s, pos, n, ends, valid);
            }
            continue;
        }
        /* row i alone */
        int64_t j = j0 + i, s = slot + i, stop = pct_rows_offset(width, offsets, j + 1);
        if (validity && !((validity[j >> 3] >> (j & 7)) & 1)) {
            ends[s] = -1;
            i++;
            continue;
        }
        if (base < 0 || stop < base || (!data && stop != base)) {
            *status = PCT_ROW_MALFORMED;
            return i;
        }
        size_t n = (size_t)(stop - base);
        check_result(s, offence(data ? data + base : empty, n), n, ends, valid);
        i++;
    }
    *status = PCT_OK;
    return count;
}

/* Row s's outcome rc written: its end, and its valid bit unless it is
 * null (PCT_ROW_NULL: no value); 0 (*status = rc) when rc stops the run. */
static PCT_ALWAYS_INLINE int row_done(int rc, int64_t s, const pct_buf *out, int64_t *ends,
                                      uint8_t *valid, int *status)
{
    if (rc != PCT_OK && rc != PCT_ROW_NULL) {
        *status = rc;
        return 0;
    }
    ends[s] = (int64_t)out->len;
    if (rc == PCT_OK)
        valid[s >> 3] |= (uint8_t)(1u << (s & 7));
    return 1;
}

/* DOMAIN over rows first .. first + count - 1, as pct_batch_rows does them
 * (pct_rows_get's reading of a row, the offsets' width a constant of each
 * inlined copy), without the per-op dispatch: the op's rows are short and
 * many. */
static PCT_ALWAYS_INLINE int64_t domain_rows(const pct_batch_spec *spec, const pct_rows *in,
                                             int64_t first, int64_t count, int64_t slot,
                                             pct_buf *out, size_t limit, int64_t *ends,
                                             uint8_t *valid, int *status, pct_batch_info *info,
                                             pct_host_cache *hosts, int width)
{
    static const uint8_t empty[1] = {0};
    const uint8_t *data = in->data, *validity = in->validity;
    const void *offsets = in->offsets;
    const int64_t j0 = in->offset + first;
    for (int64_t i = 0; i < count; i++) {
        int64_t j = j0 + i, s = slot + i;
        if (validity && !((validity[j >> 3] >> (j & 7)) & 1)) {
            ends[s] = (int64_t)out->len;
            continue;
        }
        int64_t start = pct_rows_offset(width, offsets, j);
        int64_t end = pct_rows_offset(width, offsets, j + 1);
        if (start < 0 || end < start || (!data && end != start)) {
            *status = PCT_ROW_MALFORMED;
            return i;
        }
        size_t n = (size_t)(end - start);
        const uint8_t *p = data ? data + start : empty;
        pct_prefetch_ahead(p + n, 2048); /* (as pct_batch_rows) */
        if (!row_done(domain_batch_row(spec, p, n, out, limit, info, hosts), s, out, ends, valid,
                      status))
            return i;
    }
    *status = PCT_OK;
    return count;
}

int64_t pct_batch_rows(const pct_batch_spec *spec, const pct_rows *in, int64_t first, int64_t count,
                       int64_t slot, pct_buf *out, size_t limit, int64_t *ends, uint8_t *valid,
                       int *status, pct_batch_info *info, pct_host_cache *hosts)
{
    if (spec->op == PCT_BATCH_CHECK)
        return in->width == 4 ? check_rows(in, first, count, slot, ends, valid, status, 4)
                              : check_rows(in, first, count, slot, ends, valid, status, 8);
    if (spec->op == PCT_BATCH_DOMAIN)
        return in->width == 4
                   ? domain_rows(spec, in, first, count, slot, out, limit, ends, valid, status, info, hosts, 4)
                   : domain_rows(spec, in, first, count, slot, out, limit, ends, valid, status, info, hosts, 8);
    const pct_kernel *k = pct_kernel_active(); /* once per run: its entries called straight */
    for (int64_t i = 0; i < count; i++) {
        const uint8_t *p;
        size_t n;
        int64_t s = slot + i;
        int got = pct_rows_get(in, first + i, &p, &n);
        if (got == 0) {
            ends[s] = (int64_t)out->len;
            continue;
        }
        /* The rows of a column lie one after the other: the bytes 2 KiB
         * ahead are asked for now (rows this short outrun the hardware's
         * own prefetcher). */
        if (got > 0)
            pct_prefetch_ahead(p + n, 2048);
        int rc = got < 0 ? PCT_ROW_MALFORMED : batch_row(spec, k, p, n, out, limit, info, hosts);
        if (!row_done(rc, s, out, ends, valid, status))
            return i;
    }
    *status = PCT_OK;
    return count;
}
