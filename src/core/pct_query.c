/* Query parameters: finding one, matching names to shell-style patterns,
 * and writing a query without the parameters a filter drops. */
#include <stdlib.h>
#include <string.h>

#include "pct_portable.h"
#include "pct_query.h"

int pct_query_locate(const uint8_t *s, size_t n, pct_range *query)
{
    const uint8_t *q = n ? memchr(s, '?', n) : NULL;
    if (!q)
        return 0;
    size_t start = (size_t)(q - s);
    if (start && memchr(s, '#', start))
        return 0; /* the '?' is in the fragment */
    const uint8_t *h = memchr(q + 1, '#', n - start - 1);
    query->start = start + 1;
    query->len = (h ? (size_t)(h - s) : n) - start - 1;
    return 1;
}

/* ---- form-decoded text, one code point at a time --------------------------
 * The decoded byte at raw offset *i (with `form`: '+' is a space and %XX
 * the byte XX; without: the byte itself), *i moved past it. FOLD (a form
 * too) also maps the ASCII capitals to small letters; ESCAPES decodes %XX
 * alone ('+' kept, as unquote reads it). */
#define FOLD 2
#define ESCAPES 3
static unsigned byte_at(const uint8_t *s, size_t n, size_t *i, int form)
{
    unsigned c = s[*i];
    if (form && form != ESCAPES && c == '+') {
        c = ' ';
    } else if (form && c == '%' && n - *i >= 3 && pct_hex_value[s[*i + 1]] >= 0
               && pct_hex_value[s[*i + 2]] >= 0) {
        c = (unsigned)(pct_hex_value[s[*i + 1]] * 16 + pct_hex_value[s[*i + 2]]);
        *i += 2;
    }
    (*i)++;
    return form == FOLD && c - 'A' < 26u ? c + 32 : c;
}

/* The code point at raw offset *i (< n), *i moved past it: a maximal
 * ill-formed subpart of the decoded bytes is one U+FFFD (Unicode 3.9, what
 * CPython's UTF-8 decoder with errors="replace" gives). */
static uint32_t next_cp(const uint8_t *s, size_t n, size_t *i, int form)
{
    unsigned b = byte_at(s, n, i, form), lo = 0x80, hi = 0xBF;
    if (b < 0x80)
        return b;
    int need;
    uint32_t cp;
    if (b >= 0xC2 && b <= 0xDF) {
        need = 1;
        cp = b & 0x1Fu;
    } else if (b >= 0xE0 && b <= 0xEF) {
        need = 2;
        cp = b & 0x0Fu;
        lo = b == 0xE0 ? 0xA0 : 0x80; /* no overlong form */
        hi = b == 0xED ? 0x9F : 0xBF; /* no surrogate */
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 3;
        cp = b & 0x07u;
        lo = b == 0xF0 ? 0x90 : 0x80;
        hi = b == 0xF4 ? 0x8F : 0xBF; /* nothing past U+10FFFF */
    } else {
        return 0xFFFD;
    }
    while (need--) {
        size_t j = *i;
        if (j >= n)
            return 0xFFFD;
        unsigned c = byte_at(s, n, &j, form);
        if (c < lo || c > hi)
            return 0xFFFD; /* this byte starts what comes next */
        *i = j;
        cp = cp << 6 | (c & 0x3Fu);
        lo = 0x80;
        hi = 0xBF;
    }
    return cp;
}

/* -1, 0 or 1 as a[0..an) decoded with a_form is before, equal to or after
 * b (decoded with b_form), in code point order. */
static int compare_names(const uint8_t *a, size_t an, int a_form, const uint8_t *b, size_t bn,
                         int b_form)
{
    size_t i = 0, j = 0;
    while (i < an && j < bn) {
        uint32_t x = next_cp(a, an, &i, a_form), y = next_cp(b, bn, &j, b_form);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return (i < an) - (j < bn);
}

/* The next parameter of q[0..qn) at or after *at: its segment [*seg, *at)
 * and the length of its name; 0 at the end. Empty segments are returned
 * too (a name of length 0 and no '='). With html_amp, a segment starts
 * after any "amp;" at its start: "&amp;" (or "&amp;amp;", escaped twice) is
 * one separator, for a query copied from HTML source without unescaping,
 * and no segment written back starts with "amp;" (cleaning is idempotent). */
static int next_segment(const uint8_t *q, size_t qn, size_t *at, size_t *seg, size_t *seg_len,
                        size_t *name_len, int html_amp)
{
    if (*at > qn)
        return 0;
    while (html_amp && qn - *at >= 4 && memcmp(q + *at, "amp;", 4) == 0)
        *at += 4;
    const uint8_t *amp = memchr(q + *at, '&', qn - *at);
    size_t end = amp ? (size_t)(amp - q) : qn;
    const uint8_t *eq = memchr(q + *at, '=', end - *at);
    *seg = *at;
    *seg_len = end - *at;
    *name_len = eq ? (size_t)(eq - (q + *at)) : *seg_len;
    *at = end + 1;
    return 1;
}

int pct_query_next(const uint8_t *q, size_t qn, size_t *at, int html_amp, pct_range *name,
                   pct_range *value)
{
    size_t seg, seg_len, nl;
    while (next_segment(q, qn, at, &seg, &seg_len, &nl, html_amp)) {
        if (!seg_len)
            continue; /* no parameter */
        size_t skip = nl < seg_len ? nl + 1 : nl;
        name->start = seg;
        name->len = nl;
        value->start = seg + skip;
        value->len = seg_len - skip;
        return 1;
    }
    return 0;
}

int pct_query_name_is(const uint8_t *name, size_t nn, int plus, const uint8_t *want, size_t wn)
{
    return compare_names(name, nn, plus ? 1 : ESCAPES, want, wn, 0) == 0;
}

int pct_query_find(const uint8_t *q, size_t qn, const uint8_t *name, size_t name_len,
                   pct_range *value)
{
    size_t at = 0, seg, seg_len, nl;
    while (next_segment(q, qn, &at, &seg, &seg_len, &nl, 0)) {
        if (seg_len && compare_names(q + seg, nl, 1, name, name_len, 0) == 0) {
            size_t skip = nl < seg_len ? nl + 1 : nl;
            value->start = seg + skip;
            value->len = seg_len - skip;
            return 1;
        }
    }
    return 0;
}

/* ---- patterns ------------------------------------------------------------ */
#define NO_CP 0xFFFFFFFFu

static uint32_t take(const uint8_t *p, size_t end, size_t *pos)
{
    return *pos < end ? next_cp(p, end, pos, 0) : NO_CP;
}

/* 1 when code point c is in the set whose text (after "[" or "[!") is
 * p[start..end), read as fnmatch reads it: a '-' is a range's when it is
 * neither the first nor the last code point and comes at least three code
 * points after the previous range's '-'; a range with its ends in the wrong
 * order is empty and its two ends are no members either. */
static int set_has(const uint8_t *p, size_t start, size_t end, uint32_t c)
{
    size_t pos = start, t = 0, next_range = 1;
    uint32_t prev = NO_CP, cur = take(p, end, &pos), n1 = take(p, end, &pos),
             n2 = take(p, end, &pos);
    int cur_removed = 0;
    while (cur != NO_CP) {
        int next_removed = 0;
        if (cur == '-' && t >= next_range && n1 != NO_CP) {
            if (prev <= n1 && prev <= c && c <= n1)
                return 1;
            next_range = t + 3;
            next_removed = prev > n1;
        } else {
            int low_of_empty = n1 == '-' && t + 1 >= next_range && n2 != NO_CP && cur > n2;
            if (cur == c && !cur_removed && !low_of_empty)
                return 1;
        }
        prev = cur;
        cur = n1;
        n1 = n2;
        n2 = take(p, end, &pos);
        t++;
        cur_removed = next_removed;
    }
    return 0;
}

/* Whether the token of pat at *p (not '*') matches code point c; *p moves
 * past the token. */
static int token_matches(const uint8_t *pat, size_t pn, size_t *p, uint32_t c)
{
    if (pat[*p] == '?') {
        (*p)++;
        return 1;
    }
    if (pat[*p] == '[') {
        size_t i = *p + 1, j = i;
        if (j < pn && pat[j] == '!')
            j++;
        if (j < pn && pat[j] == ']')
            j++;
        while (j < pn && pat[j] != ']')
            j++;
        if (j < pn) { /* a set */
            int negated = pat[i] == '!';
            *p = j + 1;
            return set_has(pat, i + (size_t)negated, j, c) != negated;
        }
        /* no ']': the '[' is itself */
    }
    return next_cp(pat, pn, p, 0) == c;
}

/* Classic wildcard matching: each token but '*' takes one code point, so
 * on a mismatch only the last '*' needs to take one more. */
static int glob_match(const uint8_t *pat, size_t pn, const uint8_t *name, size_t nn, int form)
{
    size_t p = 0, s = 0, star_p = 0, star_s = 0;
    int star = 0;
    while (s < nn) {
        if (p < pn && pat[p] == '*') {
            while (p < pn && pat[p] == '*')
                p++;
            star = 1;
            star_p = p;
            star_s = s;
            continue;
        }
        size_t s_next = s;
        uint32_t c = next_cp(name, nn, &s_next, form);
        size_t p_next = p;
        if (p < pn && token_matches(pat, pn, &p_next, c)) {
            p = p_next;
            s = s_next;
            continue;
        }
        if (!star)
            return 0;
        p = star_p;
        next_cp(name, nn, &star_s, form); /* the '*' takes one more */
        s = star_s;
    }
    while (p < pn && pat[p] == '*')
        p++;
    return p == pn;
}

int pct_glob_match(const uint8_t *pat, size_t pn, const uint8_t *name, size_t nn)
{
    return glob_match(pat, pn, name, nn, 1);
}

/* The pattern's first code point when it is an ASCII literal, else -1. */
static int ascii_first(const uint8_t *pat, size_t pn)
{
    unsigned c = pn ? pat[0] : 0x80;
    return c < 0x80 && c != '*' && c != '?' && c != '[' ? (int)c : -1;
}

/* Whether pattern pat[0..pn) cannot match a name whose first decoded byte
 * is b (-1: the empty name): the empty pattern matches only the empty
 * name, and an ASCII literal first no name starting with another byte (or
 * with a non-ASCII code point, whose first byte is >= 0x80). */
static int cannot_start(const uint8_t *pat, size_t pn, int b)
{
    if (pn == 0)
        return b >= 0;
    int c = ascii_first(pat, pn);
    return c >= 0 && c != b;
}

/* The first decoded byte of the raw name, or -1 when it is empty. */
static int first_byte(const uint8_t *name, size_t nn, int form)
{
    size_t i = 0;
    return nn ? (int)byte_at(name, nn, &i, form) : -1;
}

static int globs_match(const uint8_t *globs, size_t len, const uint8_t *name, size_t nn, int b,
                       int form)
{
    size_t at = 0;
    while (at < len) {
        const uint8_t *end = memchr(globs + at, PCT_GLOB_END, len - at);
        size_t pn = end ? (size_t)(end - (globs + at)) : len - at;
        if (!cannot_start(globs + at, pn, b) && glob_match(globs + at, pn, name, nn, form))
            return 1;
        at += pn + 1;
    }
    return 0;
}

int pct_globs_match(const uint8_t *globs, size_t len, const uint8_t *name, size_t nn)
{
    return globs_match(globs, len, name, nn, first_byte(name, nn, 1), 1);
}

#define NO_SECOND 256u

static unsigned pair_hash(unsigned b0, unsigned b1)
{
    return (b0 * 37u + b1) & 255u;
}

static int has_bit(const uint32_t *bits, unsigned v)
{
    return (int)(bits[v >> 5] >> (v & 31u) & 1u);
}

static void set_bit(uint32_t *bits, unsigned v)
{
    bits[v >> 5] |= 1u << (v & 31u);
}

/* The literal, bucket and star of listed pattern k, pat[0..pn) (c0: its
 * first byte when an ASCII literal, else -1). */
static void set_literal(pct_glob_firsts *firsts, unsigned k, const uint8_t *pat, size_t pn, int c0)
{
    size_t lit = 0, end;
    while (lit < pn && pat[lit] < 0x80 && pat[lit] != '*' && pat[lit] != '?' && pat[lit] != '[')
        lit++;
    for (end = lit; end < pn && pat[end] == '*';)
        end++;
    firsts->literal[k] = end == pn ? (uint16_t)lit : PCT_GLOB_NOT_LITERAL;
    firsts->star[k] = end > lit;
    uint64_t bit = 1ull << k;
    if (pn == 0)
        return; /* the empty name's alone (listed_match) */
    if (c0 >= 0) {
        firsts->bucket[c0] |= bit;
        return;
    }
    for (unsigned b = 0; b < 128; b++) /* a metacharacter or non-ASCII first: any name may */
        firsts->bucket[b] |= bit;
    firsts->bucket_high |= bit;
}

void pct_glob_firsts_init(pct_glob_firsts *firsts, const uint8_t *globs, size_t len)
{
    memset(firsts, 0, sizeof *firsts);
    firsts->listed = 1;
    size_t at = 0;
    while (at < len) {
        const uint8_t *end = memchr(globs + at, PCT_GLOB_END, len - at);
        size_t pn = end ? (size_t)(end - (globs + at)) : len - at;
        int c0 = ascii_first(globs + at, pn), c1 = pn > 1 ? ascii_first(globs + at + 1, pn - 1) : -1;
        unsigned k = firsts->count;
        if (k < PCT_GLOB_LISTED && at + pn <= UINT16_MAX) {
            firsts->start[k] = (uint16_t)at;
            firsts->len[k] = (uint16_t)pn;
            firsts->c0[k] = (int16_t)c0;
            firsts->c1[k] = (int16_t)(c0 >= 0 && pn == 1 ? -2 : c0 >= 0 ? c1 : -1);
            firsts->count = k + 1;
            set_literal(firsts, k, globs + at, pn, c0);
        } else {
            firsts->listed = 0;
        }
        if (c0 < 0 && pn) { /* a metacharacter or a non-ASCII code point first */
            firsts->any = 1;
        } else if (c0 >= 0) {
            set_bit(firsts->first, (unsigned)c0);
            if (pn == 1)
                set_bit(firsts->pairs, pair_hash((unsigned)c0, NO_SECOND));
            else if (c1 >= 0)
                set_bit(firsts->pairs, pair_hash((unsigned)c0, (unsigned)c1));
            else
                set_bit(firsts->open, (unsigned)c0);
        }
        at += pn + 1;
    }
}

/* 0 when no pattern of the set can match the raw name (first decoded byte
 * b) by its first two bytes; the empty name always tries (the empty pattern). */
static PCT_ALWAYS_INLINE int may_match(const pct_glob_firsts *firsts, const uint8_t *name, size_t nn, int b,
                     int form, int plain)
{
    if (b < 0 || firsts->any)
        return 1;
    if (!has_bit(firsts->first, (unsigned)b))
        return 0;
    if (has_bit(firsts->open, (unsigned)b))
        return 1;
    /* b is an ASCII literal's: the second code point starts at the second
     * byte (a plain name's second byte, folded as byte_at folds) */
    unsigned b1 = nn < 2 ? NO_SECOND : name[1];
    if (plain) {
        b1 = form == FOLD && b1 - 'A' < 26u ? b1 + 32 : b1;
    } else {
        size_t i = 0;
        byte_at(name, nn, &i, form);
        b1 = i < nn ? byte_at(name, nn, &i, form) : NO_SECOND;
    }
    return has_bit(firsts->pairs, pair_hash((unsigned)b, b1));
}

/* 1 when the plain ASCII name[0..n) (folded with `fold`) is pat[0..n). */
static int same_literal(const uint8_t *pat, const uint8_t *name, size_t n, int fold)
{
    for (size_t i = 0; i < n; i++) {
        unsigned c = name[i];
        if (fold && c - 'A' < 26u)
            c += 32;
        if (c != pat[i])
            return 0;
    }
    return 1;
}

/* The listed patterns the name (first decoded byte b) can match, tried:
 * those of its bucket (all, for the empty name); a `plain` name (ASCII,
 * no '%' or '+': its decoded bytes are its bytes) is compared with a
 * literal pattern's bytes. */
static int listed_match(const uint8_t *globs, const pct_glob_firsts *firsts, const uint8_t *name,
                        size_t nn, int b, int form, int plain)
{
    int b1 = -3; /* the second decoded byte, read when a pattern asks */
    uint64_t todo = b < 0 ? (firsts->count < 64 ? (1ull << firsts->count) - 1 : ~0ull)
                    : b < 128 ? firsts->bucket[b] : firsts->bucket_high;
    for (; todo; todo &= todo - 1) {
        unsigned k = pct_ctz64(todo);
        const uint8_t *pat = globs + firsts->start[k];
        size_t pn = firsts->len[k];
        int c0 = firsts->c0[k], c1 = firsts->c1[k];
        if (pn == 0) {
            if (b < 0)
                return 1;
            continue;
        }
        if (c0 >= 0 && c0 != b)
            continue;
        size_t lit = firsts->literal[k];
        if (plain && lit != PCT_GLOB_NOT_LITERAL) {
            if ((firsts->star[k] ? nn >= lit : nn == lit) && same_literal(pat, name, lit, form == FOLD))
                return 1;
            continue;
        }
        if (c0 >= 0 && c1 != -1) {
            if (b1 == -3) {
                size_t i = 0;
                byte_at(name, nn, &i, form);
                b1 = i < nn ? (int)byte_at(name, nn, &i, form) : -2;
            }
            if (b1 != c1)
                continue;
        }
        if (glob_match(pat, pn, name, nn, form))
            return 1;
    }
    return 0;
}

static PCT_ALWAYS_INLINE int set_matches(const uint8_t *globs, size_t len, const pct_glob_firsts *firsts,
                       const uint8_t *name, size_t nn, int b, int form, int plain)
{
    if (!may_match(firsts, name, nn, b, form, plain))
        return 0;
    return firsts->listed ? listed_match(globs, firsts, name, nn, b, form, plain)
                          : globs_match(globs, len, name, nn, b, form);
}

void pct_query_filter_init(pct_query_filter *f)
{
    pct_glob_firsts_init(&f->drop_firsts, f->drop, f->drop_len);
    pct_glob_firsts_init(&f->keep_firsts, f->keep, f->keep_len);
}

/* 1 when the raw name's bytes are its decoded bytes and ASCII: no '%',
 * '+' or byte >= 0x80. */
static int plain_name(const uint8_t *name, size_t nn)
{
    unsigned odd = 0;
    for (size_t i = 0; i < nn; i++)
        odd |= (name[i] == '%') | (name[i] == '+') | (name[i] >> 7);
    return !odd;
}

/* first_byte of a name, plain or not. */
static PCT_ALWAYS_INLINE int first_of(const uint8_t *name, size_t nn, int form, int plain)
{
    unsigned c = nn ? name[0] : 0;
    if (!plain || !nn)
        return first_byte(name, nn, form);
    return (int)(form == FOLD && c - 'A' < 26u ? c + 32 : c);
}

/* pct_query_keeps of a name whose plainness is known. */
static PCT_ALWAYS_INLINE int keeps(const pct_query_filter *f, const uint8_t *name, size_t nn, int plain)
{
    int form = f->keep_ignore_case ? FOLD : 1;
    if (f->has_keep && !set_matches(f->keep, f->keep_len, &f->keep_firsts, name, nn,
                                    first_of(name, nn, form, plain), form, plain))
        return 0;
    form = f->ignore_case ? FOLD : 1;
    return !set_matches(f->drop, f->drop_len, &f->drop_firsts, name, nn,
                        first_of(name, nn, form, plain), form, plain);
}

int pct_query_keeps(const pct_query_filter *f, const uint8_t *name, size_t nn)
{
    return keeps(f, name, nn, plain_name(name, nn));
}

/* ---- cleaning ------------------------------------------------------------ */
typedef struct {
    const uint8_t *seg;
    size_t len, name_len, index;
    uint64_t key; /* a plain name's first 8 bytes, big-endian, 0-padded */
    int plain;    /* (plain_name) */
} kept_param;

static int by_name(const kept_param *x, const kept_param *y)
{
    int c;
    /* plain names: their bytes are their code points; the keys order
     * them unless one is a prefix of the other's first 8 bytes */
    if (x->plain && y->plain && x->key != y->key)
        c = x->key < y->key ? -1 : 1;
    else if (x->plain && y->plain && x->name_len <= 8 && y->name_len <= 8)
        c = (x->name_len > y->name_len) - (x->name_len < y->name_len);
    else
        c = compare_names(x->seg, x->name_len, 1, y->seg, y->name_len, 1);
    if (c)
        return c;
    return x->index < y->index ? -1 : x->index > y->index; /* stable */
}

static int by_name_q(const void *a, const void *b)
{
    return by_name(a, b);
}

/* The end of the name that starts at q[i] in the segment q[i..end) (its
 * '=' or end); *odd is set when the name is not plain (plain_name). */
static size_t name_end(const uint8_t *q, size_t i, size_t end, unsigned *odd)
{
#if defined(PCT_LITTLE_ENDIAN)
    /* eight bytes at a time: the lowest byte a zero-byte test marks is
     * exact (a false mark only follows a true one) */
    const uint64_t ones = 0x0101010101010101ull, highs = ones << 7;
    while (end - i >= 8) {
        uint64_t w, e, p, s;
        memcpy(&w, q + i, 8);
        e = w ^ (ones * '=');
        p = w ^ (ones * '%');
        s = w ^ (ones * '+');
        uint64_t eq = (e - ones) & ~e & highs;
        uint64_t bad = (((p - ones) & ~p) | ((s - ones) & ~s) | w) & highs;
        if (eq) {
            *odd |= (bad & ((eq & (0 - eq)) - 1)) != 0;
            return i + pct_ctz64(eq) / 8;
        }
        *odd |= bad != 0;
        i += 8;
    }
#endif
    for (; i < end && q[i] != '='; i++)
        *odd |= (unsigned)((q[i] == '%') | (q[i] == '+') | (q[i] >> 7));
    return i;
}

pct_status pct_query_write(const uint8_t *q, size_t qn, const pct_query_filter *f, uint8_t *dst,
                           size_t *out_len, size_t *removed_count, int *unchanged)
{
    size_t w = 0, at = 0, removed = 0, kept = 0;
    int same = 1; /* nothing dropped or skipped, and (sorting) in order so far */
    const int html_amp = f->html_amp, sort = f->sort;
    kept_param local[32]; /* most queries: no allocation */
    kept_param *params = local;
    size_t cap = sizeof local / sizeof local[0];
    /* one pass: each segment's end ('&'), then its name's end ('=') and
     * whether the name is plain, read byte by byte (names are short) */
    while (at <= qn) {
        while (html_amp && qn - at >= 4 && memcmp(q + at, "amp;", 4) == 0) {
            at += 4;
            same = 0;
        }
        const uint8_t *amp = memchr(q + at, '&', qn - at);
        size_t seg = at, end = amp ? (size_t)(amp - q) : qn;
        unsigned odd = 0;
        size_t seg_len = end - seg, nl = name_end(q, seg, end, &odd) - seg;
        at = end + 1;
        if (seg_len ? !keeps(f, q + seg, nl, !odd) : f->drop_empty) {
            removed += seg_len != 0; /* an empty segment is no parameter */
            same = 0;
            continue;
        }
        if (sort) {
            if (kept == cap) {
                size_t want = 2 * cap;
                kept_param *more = want < SIZE_MAX / sizeof *more
                                       ? realloc(params == local ? NULL : params, want * sizeof *more)
                                       : NULL;
                if (!more) {
                    if (params != local)
                        free(params);
                    return PCT_ERR_NO_MEMORY;
                }
                if (params == local)
                    memcpy(more, local, sizeof local);
                params = more;
                cap = want;
            }
            uint64_t key = 0;
            if (qn - seg >= 8 && nl) { /* one word, its bytes past the name's cleared */
                uint8_t b[8];
                memcpy(b, q + seg, 8);
                for (size_t k = 0; k < 8; k++)
                    key = key << 8 | b[k];
                key &= nl >= 8 ? ~0ull : ~(~0ull >> (8 * nl));
            } else {
                for (size_t k = 0; k < nl && k < 8; k++)
                    key |= (uint64_t)q[seg + k] << (56 - 8 * k);
            }
            kept_param kp = {q + seg, seg_len, nl, kept, key, !odd};
            params[kept] = kp;
            if (same && kept && by_name(&params[kept - 1], &params[kept]) > 0)
                same = 0;
        } else {
            if (kept)
                dst[w++] = '&';
            memcpy(dst + w, q + seg, seg_len);
            w += seg_len;
        }
        kept++;
    }
    if (unchanged)
        *unchanged = same;
    if (f->sort && same && unchanged) {
        w = qn; /* the query is its own result: not written */
    } else if (f->sort) {
        if (kept > 16) {
            qsort(params, kept, sizeof *params, by_name_q);
        } else { /* insertion sort: stable, and one comparison a pair when sorted */
            for (size_t k = 1; k < kept; k++) {
                kept_param p = params[k];
                size_t j = k;
                for (; j && by_name(&params[j - 1], &p) > 0; j--)
                    params[j] = params[j - 1];
                params[j] = p;
            }
        }
        for (size_t k = 0; k < kept; k++) {
            if (k)
                dst[w++] = '&';
            memcpy(dst + w, params[k].seg, params[k].len);
            w += params[k].len;
        }
    }
    if (params != local)
        free(params);
    *out_len = w;
    *removed_count = removed;
    return PCT_OK;
}

pct_status pct_query_clean(const uint8_t *s, size_t n, const pct_query_filter *f, uint8_t *dst,
                           size_t *out_len)
{
    pct_range qr;
    if (!pct_query_locate(s, n, &qr)) {
        if (n)
            memcpy(dst, s, n);
        *out_len = n;
        return PCT_OK;
    }
    size_t qn = qr.len, w = qr.start, len, removed; /* the '?' included */
    memcpy(dst, s, w);
    pct_status rc = pct_query_write(s + qr.start, qn, f, dst + w, &len, &removed, NULL);
    if (rc != PCT_OK)
        return rc;
    w += len;
    /* Nothing left: no '?', but for a reference that is only a query, where
     * no query would mean the base's query (RFC 3986 5.2.2). */
    if (removed && w == qr.start && qr.start > 1)
        w--;
    size_t rest = qr.start + qn;
    memcpy(dst + w, s + rest, n - rest);
    *out_len = w + n - rest;
    return PCT_OK;
}
