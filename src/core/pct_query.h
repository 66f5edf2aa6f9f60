/* pct_query: the parameters of a URI's query, read as urllib.parse.parse_qsl
 * reads a query (keep_blank_values=True), on UTF-8 text. Plain C99, no Python.
 *
 * The query is what pct_uri_split finds: after the first '?', up to the
 * first '#' (a '#' before any '?' means no query). It is a list of segments
 * separated by '&' (only '&': ';' is no separator, as in parse_qsl since
 * Python 3.9.2). An empty segment is no parameter. A parameter's name is
 * its segment up to the first '=', its value the rest after that '=' (""
 * when there is no '='). Names are compared and matched in their form-decoded
 * text: '+' is a space, then %XX escapes are bytes, then the bytes are UTF-8
 * where each maximal ill-formed subpart is U+FFFD (unquote_plus with
 * errors="replace"); so "utm%5Fsource" is the name "utm_source".
 *
 * Nothing here allocates but the sort of pct_query_clean.
 */
#ifndef PCT_QUERY_H
#define PCT_QUERY_H

#include "pct.h"
#include "pct_uri.h"

/* The query of s[0..n) in *query; 0 when there is none (no '?' before
 * the first '#'), then *query is unchanged. */
int pct_query_locate(const uint8_t *s, size_t n, pct_range *query);

/* The parameter of q[0..qn) at or after *at (0 to start), *at moved past
 * it: the raw (not decoded) ranges of its name and value in q (a segment
 * without '=' has an empty value range after its name). Empty segments are
 * skipped: they are no parameters. With html_amp, "&amp;" is one separator.
 * 0 after the last. */
int pct_query_next(const uint8_t *q, size_t qn, size_t *at, int html_amp, pct_range *name,
                   pct_range *value);

/* 1 when the raw name[0..nn), decoded (with `plus`, '+' as a space too), is
 * the UTF-8 text want[0..wn). */
int pct_query_name_is(const uint8_t *name, size_t nn, int plus, const uint8_t *want, size_t wn);

/* The first parameter of the query q[0..qn) whose form-decoded name is
 * the UTF-8 text name[0..name_len) (well-formed): its raw (not decoded)
 * value in *value, as a range of q. 0 when there is none. */
int pct_query_find(const uint8_t *q, size_t qn, const uint8_t *name, size_t name_len,
                   pct_range *value);

/* ---- shell-style patterns ------------------------------------------------
 * fnmatch.fnmatchcase's patterns (Python 3.12's reading of them), matched
 * against a form-decoded name, code point by code point: '*' any run, '?'
 * one code point, "[...]" one of a set ("[!...]" one not in it; a ']'
 * right after "[" or "[!" is in the set; "a-z" is a range, a '-' first or
 * last is itself, a range whose ends are in the wrong order is nothing,
 * ends included; a '[' with no ']' after it is itself). No escapes: every
 * other code point is itself.
 *
 * A set of patterns is one buffer of well-formed UTF-8 patterns, each
 * followed by PCT_GLOB_END (a byte UTF-8 never holds). */
#define PCT_GLOB_END 0xFF

/* 1 when the pattern pat[0..pn) (well-formed UTF-8) matches the name
 * whose raw (not yet decoded) bytes are name[0..nn). */
int pct_glob_match(const uint8_t *pat, size_t pn, const uint8_t *name, size_t nn);

/* 1 when one pattern of the set globs[0..len) matches the raw name. */
int pct_globs_match(const uint8_t *globs, size_t len, const uint8_t *name, size_t nn);

/* What the names a set of patterns may match start with: names that start
 * otherwise are rejected without trying the patterns. Built from each
 * pattern's first two code points where they are ASCII literals. */
#define PCT_GLOB_LISTED 64
typedef struct {
    uint32_t first[8]; /* the first decoded bytes (one bit per byte value) */
    uint32_t pairs[8]; /* hashes of the first two (the second: 256 for none) */
    uint32_t open[8];  /* first bytes of patterns with no literal second */
    int any;           /* a pattern starts with a metacharacter or non-ASCII */
    /* Where each pattern is, with its first two bytes when they are ASCII
     * literals (-1 when not, -2: no second code point), so that a name is
     * tried only against the patterns it can match: `listed` when the set
     * fits (PCT_GLOB_LISTED patterns, each within 64 KiB of the start). */
    int listed;
    unsigned count;
    uint16_t start[PCT_GLOB_LISTED], len[PCT_GLOB_LISTED];
    int16_t c0[PCT_GLOB_LISTED], c1[PCT_GLOB_LISTED];
    /* With `listed`: the patterns a name whose first decoded byte is b may
     * match (bit k: pattern k), b < 128, and those of a non-ASCII first
     * byte; a pattern that is ASCII literals then only '*'s (or none) has
     * `literal` bytes of them (else PCT_GLOB_NOT_LITERAL), which a plain
     * ASCII name (no '%', '+' or byte >= 0x80) is compared with directly. */
    uint64_t bucket[128], bucket_high;
    uint16_t literal[PCT_GLOB_LISTED];
    uint8_t star[PCT_GLOB_LISTED]; /* the literal is followed by '*' */
} pct_glob_firsts;
#define PCT_GLOB_NOT_LITERAL 0xFFFFu

void pct_glob_firsts_init(pct_glob_firsts *firsts, const uint8_t *globs, size_t len);

/* ---- cleaning ------------------------------------------------------------
 * Which parameters pct_query_clean keeps: those whose name matches a
 * pattern of `keep` (all, when has_keep is 0) and none of `drop`. */
typedef struct {
    const uint8_t *drop, *keep; /* pattern sets as above (NULL when empty) */
    size_t drop_len, keep_len;
    int has_keep;
    int sort; /* the kept parameters stably sorted by form-decoded name */
    int ignore_case; /* names matched to `drop` with ASCII capitals as small
                      * letters (its patterns are given in small letters) */
    int keep_ignore_case; /* the same for `keep` */
    int html_amp;    /* "&amp;" is one separator (written back as "&") */
    int drop_empty;  /* empty segments ("a&&b") are dropped too */
    pct_glob_firsts drop_firsts, keep_firsts; /* set by pct_query_filter_init */
} pct_query_filter;

/* Sets the firsts of the filter from its pattern sets: call it once the
 * sets are in place, before pct_query_keeps or pct_query_clean. */
void pct_query_filter_init(pct_query_filter *f);

/* 1 when the filter keeps the parameter with the raw name name[0..nn). */
int pct_query_keeps(const pct_query_filter *f, const uint8_t *name, size_t nn);

/* s[0..n) with the query's parameters the filter does not keep removed,
 * into dst (n bytes; never longer). Every kept byte is copied as it is:
 * the kept segments (empty segments too: they are no parameters) joined by
 * '&' in their order (with sort, by name), the rest of the URI unchanged.
 * When parameters were removed and the query left is empty, its '?' goes too
 * (but for a reference that starts with its '?': "" would be the base's query).
 * PCT_OK, or PCT_ERR_NO_MEMORY (sort's scratch). */
/* The query q[0..qn) (no '?') with the parameters the filter does not keep
 * removed, into dst (qn bytes; not overlapping q): what pct_query_clean
 * writes after the '?'. *removed: how many parameters went (empty segments
 * dropped with drop_empty are none). With `unchanged` (NULL: unused),
 * *unchanged is 1 when the result is q itself (nothing dropped, the order
 * kept), which is then not written when sorting (most queries: no copy). */
pct_status pct_query_write(const uint8_t *q, size_t qn, const pct_query_filter *f, uint8_t *dst,
                           size_t *out_len, size_t *removed, int *unchanged);

pct_status pct_query_clean(const uint8_t *s, size_t n, const pct_query_filter *f, uint8_t *dst,
                           size_t *out_len);

#endif /* PCT_QUERY_H */
