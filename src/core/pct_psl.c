/* pct_psl: the Public Suffix List as an open-addressing hash table of its
 * rules, keyed by the rule's domain in ASCII form. Every suffix of a rule
 * is in the table too, marked as the parent of a rule of the rule's
 * section (PSL_PARENT), so a lookup walks the host's suffixes from its last
 * label and stops at the first one that is no parent in the sections it
 * reads (nor a wildcard's domain): no longer rule can match then.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pct_buf.h"
#include "pct_idna.h"
#include "pct_portable.h"
#include "pct_psl.h"
#include "pct_psl_table.h"

/* ---------------------------------------------------------------- rules */

/* The longest domain in ASCII form (RFC 1034 3.1, as a name is written:
 * 253 bytes without the root's dot) and its longest label: a rule past
 * them names no domain that DNS holds. */
#define MAX_DOMAIN 253
#define MAX_LABEL 63

/* Appends the ASCII form of the rule's domain d[0..n) to the keys b:
 * mapped exactly as a host is (pct_idna_to_ascii: UTS #46, then punycode),
 * so that a rule matches the hosts it names however either is written.
 * PCT_OK, or PCT_PSL_BAD_RULE (no domain, an empty label, a '*' past the
 * leftmost label, too long), PCT_ERR_*. */
static int add_domain(pct_buf *b, const uint8_t *d, size_t n)
{
    uint8_t form[MAX_DOMAIN];
    size_t len;
    pct_status rc = pct_idna_to_ascii(d, n, form, sizeof form, &len);
    if (rc == PCT_IDNA_FAIL || rc == PCT_IDNA_SMALL)
        return PCT_PSL_BAD_RULE;
    if (rc != PCT_OK)
        return (int)rc;
    for (size_t i = 0, start = 0; i <= len; i++) {
        if (i < len && form[i] == '*')
            return PCT_PSL_BAD_RULE;
        if (i == len || form[i] == '.') {
            if (i == start || i - start > MAX_LABEL)
                return PCT_PSL_BAD_RULE;
            start = i + 1;
        }
    }
    if (len > UINT32_MAX - b->len)
        return PCT_ERR_TOO_LARGE; /* offsets are 32-bit */
    rc = pct_buf_append(b, form, len, SIZE_MAX);
    return (int)rc;
}

typedef struct {
    uint32_t off, len, flags;
} rule;

static int rules_add(rule **rs, size_t *n, size_t *cap, rule r)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 1024;
        if (c > SIZE_MAX / sizeof(rule))
            return PCT_ERR_NO_MEMORY;
        rule *p = realloc(*rs, c * sizeof(rule));
        if (!p)
            return PCT_ERR_NO_MEMORY;
        *rs = p;
        *cap = c;
    }
    (*rs)[(*n)++] = r;
    return PCT_OK;
}

static int has(const uint8_t *s, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(s + i, needle, m) == 0)
            return 1;
    return 0;
}

/* Reads the rules of the list into rs (keys in b). */
static int read_rules(const uint8_t *text, size_t n, pct_buf *b, rule **rs, size_t *nrules,
                      pct_psl_counts *counts, size_t *line, const pct_interrupt *stop)
{
    size_t cap = 0, pos = 0;
    int section = 0;
    *line = 0;
    if (n >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF)
        pos = 3; /* the UTF-8 signature of a file, not part of its first line */
    while (pos < n) {
        /* a line ends at LF, CR LF or a bare CR (as the command line reads
         * lines): a rule after a bare CR is a line of its own */
        size_t eol = pos;
        while (eol < n && text[eol] != '\n' && text[eol] != '\r')
            eol++;
        if (pct_interrupted(stop, ++*line))
            return PCT_ERR_INTERRUPTED;
        const uint8_t *s = text + pos;
        size_t len = 0;
        while (len < eol - pos && s[len] != ' ' && s[len] != '\t')
            len++;
        pos = eol + (eol + 1 < n && text[eol] == '\r' && text[eol + 1] == '\n' ? 2 : 1);
        if (len >= 2 && s[0] == '/' && s[1] == '/') {
            size_t whole = (size_t)(text + eol - s);
            if (has(s, whole, "===BEGIN PRIVATE DOMAINS==="))
                section = 1;
            else if (has(s, whole, "===END PRIVATE DOMAINS==="))
                section = 0;
            continue;
        }
        if (len == 0) {
            /* A rule after leading whitespace would be read as an empty
             * line and dropped unseen: refuse it. */
            for (size_t k = 0; k < (size_t)(text + eol - s); k++)
                if (s[k] != ' ' && s[k] != '\t')
                    return PCT_PSL_BAD_RULE;
            continue; /* an empty line */
        }
        if (len == 1 && s[0] == '*')
            continue; /* the default rule, always in force */
        uint32_t kind = PSL_RULE;
        if (s[0] == '!') {
            kind = PSL_EXCEPT;
            s++;
            len--;
        } else if (len >= 2 && s[0] == '*' && s[1] == '.') {
            kind = PSL_WILD;
            s += 2;
            len -= 2;
        }
        size_t off = b->len;
        int rc = add_domain(b, s, len);
        if (rc != PCT_OK)
            return rc;
        uint32_t klen = (uint32_t)(b->len - off);
        if (kind == PSL_EXCEPT && !memchr(b->data + off, '.', klen))
            return PCT_PSL_BAD_RULE; /* an exception needs a parent to be the suffix */
        rule r = {(uint32_t)off, klen, kind << section};
        if ((rc = rules_add(rs, nrules, &cap, r)) != PCT_OK)
            return rc;
        counts->rules[section]++;
        counts->wildcards[section] += kind == PSL_WILD;
        counts->exceptions[section] += kind == PSL_EXCEPT;
    }
    return PCT_OK;
}

/* ---------------------------------------------------------------- table */

/* The slot's key is text[e - len .. e) (text[0..e) readable). */
static inline int same_key(const pct_psl *t, const pct_psl_slot *s, const uint8_t *text, size_t e,
                           size_t len)
{
    if (s->len != len)
        return 0;
    const uint8_t *a = t->keys + s->off;
#if defined(PCT_LITTLE_ENDIAN)
    if (len <= 8 && len) {
        uint64_t x;
        memcpy(&x, a, 8);
        return (x & (~0ull >> (64 - 8 * len))) == pct_psl_tail_word(text, e, len);
    }
#endif
    return len == 0 || memcmp(a, text + e - len, len) == 0;
}

/* Puts the key, whose hash is m (or ORs its flags into its slot);
 * the number of new keys (0 or 1). */
static int table_put(pct_psl *t, uint64_t m, uint32_t off, uint32_t len, uint32_t flags)
{
    uint32_t hi = (uint32_t)(m >> 32);
    for (size_t i = pct_psl_slot_of(m, t->mask);; i = (i + 1) & t->mask) {
        pct_psl_slot *s = &t->slots[i];
        if (!s->flags) {
            s->hash = hi;
            s->off = off;
            s->len = (uint16_t)len;
            s->flags = (uint16_t)flags;
            t->filter[(m >> PSL_FILTER_SHIFT) / 64] |= 1ULL << ((m >> PSL_FILTER_SHIFT) % 64);
            return 1;
        }
        if (s->hash == hi && same_key(t, s, t->keys, (size_t)off + len, len)) {
            s->flags = (uint16_t)(s->flags | flags);
            return 0;
        }
    }
}

/* The flags of the key text[e - len .. e) (text[0..e) readable), whose
 * hash is m; 0 when absent. */
static inline uint32_t table_get(const pct_psl *t, uint64_t m, const uint8_t *text, size_t e,
                                 size_t len)
{
    if (!(t->filter[(m >> PSL_FILTER_SHIFT) / 64] & (1ULL << ((m >> PSL_FILTER_SHIFT) % 64))))
        return 0;
    uint32_t hi = (uint32_t)(m >> 32);
    for (size_t i = pct_psl_slot_of(m, t->mask);; i = (i + 1) & t->mask) {
        const pct_psl_slot *s = &t->slots[i];
        if (!s->flags)
            return 0;
        if (s->hash == hi && same_key(t, s, text, e, len))
            return s->flags;
    }
}

/* A table of 2^k >= 2 * entries slots for the rules rs (keys in `keys`,
 * which it takes): NULL without memory. */
static pct_psl *table_new(const rule *rs, size_t nrules, size_t entries, uint8_t *keys,
                          const pct_interrupt *stop, int *stopped)
{
    size_t slots = 64;
    while (slots < 2 * entries && slots <= SIZE_MAX / 4 / sizeof(pct_psl_slot))
        slots *= 2;
    pct_psl *t = calloc(1, sizeof *t);
    if (!t || slots < 2 * entries || !(t->slots = calloc(slots, sizeof(pct_psl_slot)))) {
        free(t);
        return NULL;
    }
    t->keys = keys;
    t->mask = slots - 1;
    for (size_t r = 0; r < nrules; r++) {
        /* each suffix's hash extends the one of the suffix after it, as
         * the lookup computes them: one pass over the rule */
        uint32_t off = rs[r].off, len = rs[r].len;
        if (pct_interrupted(stop, r + 1)) {
            *stopped = 1;
            free(t->slots);
            free(t);
            return NULL;
        }
        const uint8_t *key = keys + off;
        const uint32_t parent = rs[r].flags & PSL_SECTION1 ? PSL_PARENT << 1 : PSL_PARENT;
        uint64_t h = PSL_SEED;
        size_t end = len;
        for (size_t j = len; j > 0; j--) {
            if (key[j - 1] != '.')
                continue;
            h = pct_psl_label_step(h, key, j, end);
            table_put(t, h, off + (uint32_t)j, len - (uint32_t)j, parent);
            end = j - 1;
        }
        h = pct_psl_label_step(h, key, 0, end);
        table_put(t, h, off, len, rs[r].flags);
    }
    return t;
}

int pct_psl_compile(const uint8_t *text, size_t n, pct_psl **out, pct_psl_counts *counts,
                    size_t *line)
{
    return pct_psl_compile_stoppable(text, n, out, counts, line, NULL);
}

int pct_psl_compile_stoppable(const uint8_t *text, size_t n, pct_psl **out,
                              pct_psl_counts *counts, size_t *line, const pct_interrupt *stop)
{
    pct_psl_counts unused;
    size_t line_unused;
    if (!counts)
        counts = &unused;
    if (!line)
        line = &line_unused;
    memset(counts, 0, sizeof *counts);
    *out = NULL;
    if (n > INT32_MAX)
        return PCT_ERR_TOO_LARGE;
    pct_buf b;
    pct_buf_init(&b);
    rule *rs = NULL;
    size_t nrules = 0;
    int rc = read_rules(text, n, &b, &rs, &nrules, counts, line, stop), stopped = 0;
    pct_psl *t = NULL;
    static const uint8_t pad[PSL_KEY_PAD] = {0};
    if (rc == PCT_OK) { /* a word's load at any key's start stays in the keys */
        pct_status padded = pct_buf_append(&b, pad, sizeof pad, SIZE_MAX);
        rc = (int)padded;
    }
    if (rc == PCT_OK) {
        /* entries: each rule and each of its suffixes (one per dot), most
         * of them the same few ("jp"): a first table counts the distinct
         * ones, and the one kept is sized for those */
        size_t entries = 0;
        for (size_t r = 0; r < nrules; r++) {
            entries++;
            for (uint32_t j = 0; j < rs[r].len; j++)
                entries += b.data[rs[r].off + j] == '.';
        }
        pct_psl *first = table_new(rs, nrules, entries, b.data, stop, &stopped);
        size_t distinct = 0;
        if (first) {
            for (size_t i = 0; i <= first->mask; i++)
                distinct += first->slots[i].flags != 0;
            free(first->slots);
            free(first);
            t = table_new(rs, nrules, distinct, b.data, stop, &stopped);
        }
        if (!t)
            rc = stopped ? PCT_ERR_INTERRUPTED : PCT_ERR_NO_MEMORY;
        else
            b.data = NULL; /* the table's now */
    }
    free(rs);
    pct_buf_free(&b);
    if (rc != PCT_OK) {
        pct_psl_free(t);
        return rc;
    }
    *line = 0;
    *out = t;
    return PCT_OK;
}

void pct_psl_free(pct_psl *psl)
{
    if (!psl)
        return;
    free(psl->slots);
    free(psl->keys);
    free(psl);
}

/* ---------------------------------------------------------------- lookup */

/* The dot before position pos of host: the next of the last `nd` dots
 * recorded (dots[0..*k), ascending) while there are any, else found by a
 * scan back; SIZE_MAX when there is none. `all`: dots holds every dot. */
static inline size_t dot_before(const uint8_t *host, size_t pos, const size_t *dots, size_t *k, int all)
{
    if (*k)
        return dots[--*k];
    if (all)
        return SIZE_MAX;
    while (pos > 0 && host[pos - 1] != '.')
        pos--;
    return pos ? pos - 1 : SIZE_MAX;
}

size_t pct_psl_suffix_labels_dots(const pct_psl *psl, const uint8_t *host, size_t n,
                                  const size_t *dots, size_t nd, int all, int private_too)
{
    uint32_t rule = PSL_RULE | (private_too ? PSL_RULE << 1 : 0);
    uint32_t wild = rule * PSL_WILD, except = rule * PSL_EXCEPT;
    uint32_t onward = rule * PSL_PARENT | wild; /* (as pct_psl_suffix_plain) */
    size_t best = 1, labels = 0, end = n, k = nd;
    uint64_t h = PSL_SEED;
    int wild_above = 0; /* the suffix one label shorter has a "*." rule */
    while (end > 0) {
        size_t dot = dot_before(host, end, dots, &k, all);
        size_t start = dot == SIZE_MAX ? 0 : dot + 1;
        h = pct_psl_label_step(h, host, start, end);
        labels++;
        uint32_t f = table_get(psl, h, host, n, n - start);
        if (f & except)
            return labels - 1; /* an exception prevails over every other rule */
        if ((f & rule) || wild_above)
            best = labels;
        if (!(f & onward) || start == 0)
            break;
        wild_above = (f & wild) != 0;
        end = start - 1;
    }
    return best;
}

size_t pct_psl_suffix_labels(const pct_psl *psl, const uint8_t *host, size_t n, int private_too)
{
    return pct_psl_suffix_labels_dots(psl, host, n, NULL, 0, 0, private_too);
}

