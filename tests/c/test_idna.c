/* Hosts (pct_idna.h): domain to ASCII and to Unicode on cases written from
 * UTS #46, RFC 3492, RFC 5892 Appendix A and RFC 5893 (the WPT vectors are
 * checked through the Python binding, tests/test_hosts.py). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pct_idna.h"
#include "pct_idna_tables.h"

typedef pct_status (*idna_fn)(const uint8_t *, size_t, uint8_t *, size_t, size_t *);

/* fn(in) is `want` (NULL: PCT_IDNA_FAIL). */
static int gives(idna_fn fn, const char *in, const char *want)
{
    uint8_t out[512];
    size_t len = 0;
    pct_status rc = fn((const uint8_t *)in, strlen(in), out, sizeof out, &len);
    if (!want)
        return rc == PCT_IDNA_FAIL;
    return rc == PCT_OK && len == strlen(want) && memcmp(out, want, len) == 0;
}

#define ASCII(in, want) CHECK(gives(pct_idna_to_ascii, in, want))
#define UNICODE(in, want) CHECK(gives(pct_idna_to_unicode, in, want))
#define HOST(in, want) CHECK(gives(pct_idna_host_to_ascii, in, want))

static void test_ascii_domains(void)
{
    ASCII("Example.COM", "example.com");
    ASCII("xn--a.pt", "xn--a.pt"); /* ASCII: lowercased, not validated */
    ASCII("a b.com", NULL);        /* forbidden domain code points */
    ASCII("a%41.com", NULL);
    ASCII("a|b", NULL);
    ASCII("", NULL);
    ASCII("a_b{c}.com", "a_b{c}.com"); /* UseSTD3ASCIIRules off */
    ASCII("-a-.com", "-a-.com");       /* CheckHyphens off */
}

static void test_mapping(void)
{
    ASCII("B\xC3\xBC" "cher.de", "xn--bcher-kva.de");
    ASCII("fa\xC3\x9F.de", "xn--fa-hia.de");          /* non-transitional: ß stays */
    ASCII("\xE2\x85\xA7.com", "viii.com");              /* Ⅷ maps to "viii" */
    ASCII("\xEF\xBC\xA1\xEF\xBC\xA2\xEF\xBC\x8E" "com", "ab.com"); /* fullwidth, and ．*/
    ASCII("a\xE3\x80\x82" "b", "a.b");                  /* ideographic full stop */
    ASCII("a\xC2\xAD" "b.\xC3\xA9", "ab.xn--9ca");       /* soft hyphen ignored */
    ASCII("\xC2\xAD", NULL);                            /* nothing left */
    ASCII("a\xC2\xA0" "b.\xC3\xA9", NULL);              /* no-break space maps to a space */
    ASCII("\xEF\xBF\xBF.com", NULL);                    /* noncharacter: disallowed */
    ASCII("\xC3\xA9\xC2\x80", NULL);                    /* C1 control: disallowed */
    ASCII("i\xE2\x9D\xA4\xEF\xB8\x8F.ws", "xn--i-7iq.ws"); /* variation selector ignored */
}

static void test_nfc(void)
{
    /* e, combining acute → é; the marks of "e\u0323\u0301" (dot below 220,
     * acute 230) in canonical order whichever way they come */
    ASCII("e\xCC\x81.fr", "xn--9ca.fr");
    ASCII("e\xCC\x81\xCC\xA3.fr", "xn--lsa503l.fr");
    ASCII("e\xCC\xA3\xCC\x81.fr", "xn--lsa503l.fr");
    ASCII("\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB.kr", "xn--6q8b.kr"); /* Hangul jamo compose: 한 */
    ASCII("\xCC\x81" "a.fr", NULL);                      /* a label may not start with a mark */
}

static void test_punycode(void)
{
    ASCII("xn--bcher-kva.\xC3\xA9", "xn--bcher-kva.xn--9ca"); /* decoded, valid, encoded again */
    ASCII("XN--BCHER-KVA.\xC3\xA9", "xn--bcher-kva.xn--9ca");
    ASCII("xn---9ca.\xC3\xA9", "xn--9ca.xn--9ca");       /* a needless delimiter */
    ASCII("xn--a.\xC3\xA9", NULL);                       /* decodes to ASCII */
    ASCII("xn--.\xC3\xA9", NULL);                        /* decodes to nothing */
    ASCII("xn--99999999999999999.\xC3\xA9", NULL);       /* past U+10FFFF */
    ASCII("xn--tda.\xC3\xA9", "xn--tda.xn--9ca");
    ASCII("xn--bcher-kva!.\xC3\xA9", NULL);              /* not a punycode digit */
    ASCII("xn--xn--9ca-.\xC3\xA9", NULL);
    /* the one pass refuses an xn-- label that does not decode itself, in
     * any place and case, whatever follows it; one that decodes, or holds
     * a byte it does not take, goes the long way */
    ASCII("\xC3\xA9.xn--a", NULL);
    ASCII("XN--A.\xC3\xA9", NULL);
    ASCII("Xn--.\xC3\xA9", NULL);
    ASCII("xn--a.\xEF\xBC\xA1", NULL);                /* then a mapped code point */
    ASCII("xn--a.\xC3", NULL);                          /* then a broken sequence */
    ASCII("xn--\xC3\xA9.\xC3\xA9", NULL);                /* non-ASCII in an xn-- label */
    ASCII("xn--9ca\xEF\xBC\xA1.\xC3\xA9", "xn--9caa.xn--9ca"); /* mapped into the label: éé */
    ASCII("\xC3\xA9.XN--9CA", "xn--9ca.xn--9ca");
    HOST("xn--a.%C3%A9", NULL);
    HOST("xn--9ca.%C3%A9", "xn--9ca.xn--9ca");
    /* RFC 3492 7.1 (B): Chinese (simplified), encoded and decoded */
    ASCII("\xE4\xBB\x96\xE4\xBB\xAC\xE4\xB8\xBA\xE4\xBB\x80\xE4\xB9\x88\xE4\xB8\x8D\xE8\xAF\xB4"
          "\xE4\xB8\xAD\xE6\x96\x87", "xn--ihqwcrb4cv8a8dqg056pqjye");
    UNICODE("xn--ihqwcrb4cv8a8dqg056pqjye", "\xE4\xBB\x96\xE4\xBB\xAC\xE4\xB8\xBA\xE4\xBB\x80\xE4\xB9\x88"
                                            "\xE4\xB8\x8D\xE8\xAF\xB4\xE4\xB8\xAD\xE6\x96\x87");
}

static void test_joiners(void)
{
    ASCII("a\xE2\x80\x8C" "b", NULL);                   /* ZWNJ between Latin letters */
    ASCII("\xE0\xA4\x95\xE0\xA5\x8D\xE2\x80\x8D\xE0\xA4\xB7", "xn--11b2ezcw70k"); /* क्‍ष: ZWJ after a virama */
    ASCII("\xE0\xA4\x95\xE2\x80\x8D\xE0\xA4\xB7", NULL); /* ZWJ without one */
    /* ZWNJ between joining Arabic letters (beh D, ZWNJ, beh D) */
    ASCII("\xD8\xA8\xE2\x80\x8C\xD8\xA8", "xn--ngba799q");
    ASCII("\xD8\xA8\xE2\x80\x8C", NULL);
    ASCII("\xE2\x80\x8D", NULL);
}

static void test_bidi(void)
{
    ASCII("\xD8\xA7\xD9\x84\xD8\xB9\xD8\xB1\xD8\xA8\xD9\x8A\xD8\xA9.com", "xn--mgbcd4a2b0d2b.com");
    ASCII("1.\xD7\x90", NULL);            /* in a bidi domain a label starts with L, R or AL */
    ASCII("a.\xD7\x90" "1", "a.xn--1-zhc");
    ASCII("\xD7\x90" "a", NULL);          /* L in an RTL label */
    ASCII("\xD7\x90\xD9\xA1" "1", NULL);  /* AN and EN in one RTL label */
    ASCII("a\xD7\x90", NULL);             /* R in an LTR label */
    ASCII("\xD7\x90\xCC\x81", "xn--lsa15l"); /* R then NSM: a valid ending */
    ASCII("\xC3\xA9-", "xn----9fa");        /* not a bidi domain: no rule */
}

static void test_utf8_and_escapes(void)
{
    ASCII("\xC3", NULL);
    ASCII("\xED\xA0\x80.com", NULL);   /* a surrogate */
    ASCII("\xC0\xAF.com", NULL);       /* overlong */
    ASCII("\xF4\x90\x80\x80.com", NULL);
    HOST("%C3%A9.fr", "xn--9ca.fr");
    HOST("%c3%a9.FR", "xn--9ca.fr");
    HOST("%41%C3%A9", "xn--a-bga");     /* unreserved escapes decoded too */
    HOST("a%2F%C3%A9", NULL);          /* a reserved escape stays, and its '%' fails */
    HOST("%C3.fr", NULL);              /* not UTF-8 */
    HOST("a%7B%C3%A9", "xn--a{-cja");
}

static void test_unicode(void)
{
    UNICODE("xn--bcher-kva.example", "b\xC3\xBC" "cher.example");
    UNICODE("B\xC3\xBC" "cher.Example", "b\xC3\xBC" "cher.example");
    UNICODE("xn--a.example", NULL);         /* invalid punycode: an error */
    UNICODE("xn--9ca.xn--a", NULL);
    UNICODE("a b", NULL);
    /* the text is written even so */
    uint8_t out[64];
    size_t len;
    CHECK(pct_idna_to_unicode((const uint8_t *)"xn--9ca.xn--a!", 14, out, sizeof out, &len) == PCT_IDNA_FAIL
          && len == 9 && memcmp(out, "\xC3\xA9.xn--a!", 9) == 0);
    /* a label that decodes but is not valid is replaced all the same */
    CHECK(pct_idna_to_unicode((const uint8_t *)"xn--a", 5, out, sizeof out, &len) == PCT_IDNA_FAIL
          && len == 2 && memcmp(out, "\xC2\x80", 2) == 0);
}

static void test_sizes(void)
{
    uint8_t out[16], *heap;
    size_t len;
    const uint8_t *form;
    CHECK(pct_idna_to_ascii((const uint8_t *)"B\xC3\xBC" "cher.de", 10, out, 15, &len) == PCT_IDNA_SMALL && len == 16);
    CHECK(pct_idna_to_ascii((const uint8_t *)"B\xC3\xBC" "cher.de", 10, out, 16, &len) == PCT_OK && len == 16);
    CHECK(pct_idna_to_ascii((const uint8_t *)"ABC", 3, out, 2, &len) == PCT_IDNA_SMALL && len == 3);
    CHECK(pct_idna_host_form((const uint8_t *)"B\xC3\xBC" "cher.de", 10, out, 4, &form, &len, &heap) == PCT_OK
          && heap && form == heap && len == 16 && memcmp(form, "xn--bcher-kva.de", 16) == 0);
    free(heap);
    CHECK(pct_idna_host_form((const uint8_t *)"\xC3\xA9", 2, out, sizeof out, &form, &len, &heap) == PCT_OK
          && !heap && form == out && len == 7);
    /* a label too long for punycode */
    size_t n = 2 * 1100;
    char *big = malloc(n + 1);
    CHECK(big != NULL);
    if (big) {
        for (size_t i = 0; i < n; i += 2)
            memcpy(big + i, "\xC3\xA9", 2);
        big[n] = 0;
        ASCII(big, NULL);
        free(big);
    }
}

static void test_tables(void)
{
    CHECK(strcmp(pct_idna_unicode_version, "17.0.0") == 0);
    CHECK(pct_idna_n_mapped > 5000 && pct_idna_n_decomposed > 2000 && pct_idna_n_composed > 900);
    for (size_t i = 1; i < pct_idna_n_mapped; i++)
        CHECK(pct_idna_mapped_cp[i - 1] < pct_idna_mapped_cp[i]);
    for (size_t i = 1; i < pct_idna_n_composed; i++)
        CHECK(pct_idna_composed_key[i - 1] < pct_idna_composed_key[i]);
}

/* ---- the one-pass path of the usual host against the long way ------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint32_t rng(uint32_t n)
{
    return (uint32_t)(test_xorshift64(&rng_state) % n);
}

/* Code points that take every turn of the two paths: ASCII (capitals,
 * "xn--", forbidden ones), valid letters of several scripts and both
 * directions, digits of both kinds, marks (in and out of order, at a
 * label's start), joiners after a virama or not, mapped, ignored and
 * disallowed code points, a composing pair, 4-byte ones. */
static const uint32_t pool[] = {
    /* the usual host's (PLAIN_POOL of them) */
    'a', 'b', 'x', 'n', '-', '.', '.', '0', '7', 'X', 'N', 0xE9, 0xFC, 0xDF, 0x3B1, 0x3AC, 0x430,
    0x44F, 0x4E2D, 0x56FD, 0x3048, 0xAC00, 0xD55C, 0x10428,
    /* NFC's quick check says Maybe (MAYBE_POOL of them): Sinhala, Oriya,
     * Tamil, Kannada vowel signs and the letters they compose with, Hangul
     * jamo, kana voicing marks */
    0xDCF, 0xDD9, 0xDDA, 0xDCA, 0x11A8, 0xAC01, 0xB3E, 0xB47, 0xBBE, 0xBC6, 0xCC2, 0xCC6, 0x3099,
    0x304B, 0x309A, 0x1161,
    /* the others */
    'Q', '_', '%', ' ', '/', '|', 0xC9, 0x5D0, 0x5E2, 0x627, 0x645, 0x660, 0x6F1, 0x915, 0x94D,
    0x200C, 0x200D, 0x301, 0x323, 0x308, 0xE44, 0xE17, 0xD82, 0xDBD, 0xFF21, 0x2167, 0xAD, 0x3002,
    0xFFFF, 0x80, 0x1F600, 0x10400, 0x1100, 0x1161, 0x2F800, 0xFF0E, 0x130, 0x3C2, 0x6DD, 0x200E,
    0x202E};
#define PLAIN_POOL 24
#define MAYBE_POOL 16

/* 1 when h[0..n) has a form (the same by both paths). */
static int one_host(const uint8_t *h, size_t n)
{
    uint8_t a[600], b[600];
    size_t la = 0, lb = 0;
    size_t caps[3] = {sizeof a, 20, 7};
    for (size_t c = 0; c < 3; c++) {
        pct_status ra = pct_idna_to_ascii(h, n, a, caps[c], &la);
        pct_status rb = pct_idna_to_ascii_full(h, n, b, caps[c], &lb);
        CHECK(ra == rb);
        CHECK(ra == PCT_IDNA_FAIL || la == lb);
        CHECK(ra != PCT_OK || memcmp(a, b, la) == 0);
        if (c == 0 && ra == PCT_OK)
            return 1;
    }
    return 0;
}

/* Hosts with escapes: pct_idna_host_to_ascii (which tries the one pass
 * on a host with a byte >= 0x80 before decoding its escapes) against the
 * escapes decoded here as pct_idna.h says (all but those of ":/?#[]@",
 * the sub-delims and '%') and the long way. Escapes of ASCII letters, of
 * the UTF-8 bytes of an IDN's code points, of kept bytes, broken ones;
 * "xn--" labels. */
static void test_escaped_hosts(void)
{
    static const char *const escapes[] = {"%41", "%2e", "%2E", "%C3%A9", "%c3%bc", "%E4%B8%AD", "%2F", "%25",
                                          "%3A", "%", "%G1", "%D7%90", "%41%", "%C3",
                                          /* and "xn--" labels, which an ASCII host keeps unchecked */
                                          "xn--a.", ".xn--a", ".xn--bcher-kva.", "XN--"};
    uint8_t h[400], want_in[400], a[600], b[600];
    long rounds = test_rounds(60000), both_ok = 0, both_fail = 0, escaped = 0;
    for (long r = 0; r < rounds; r++) {
        size_t n = 0, len = 1 + rng(12);
        for (size_t i = 0; i < len; i++) {
            if (rng(4) == 0) {
                const char *e = escapes[rng(sizeof escapes / sizeof *escapes)];
                memcpy(h + n, e, strlen(e));
                n += strlen(e);
            } else {
                n += test_put_utf8(h + n, pool[rng(r % 2 ? PLAIN_POOL : PLAIN_POOL + MAYBE_POOL + 12)]);
            }
        }
        /* the escapes decoded as the host parser's caller decodes them */
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            int hi = i + 2 < n ? pct_hex_value[h[i + 1]] : -1, lo = i + 2 < n ? pct_hex_value[h[i + 2]] : -1;
            int c = hi >= 0 && lo >= 0 ? hi * 16 + lo : -1;
            if (h[i] == '%' && c >= 0 && !strchr(":/?#[]@!$&'()*+,;=%", c)) {
                want_in[m++] = (uint8_t)c;
                i += 2;
            } else {
                want_in[m++] = h[i];
            }
        }
        size_t la = 0, lb = 0;
        pct_status ra = pct_idna_host_to_ascii(h, n, a, sizeof a, &la);
        pct_status rb = pct_idna_to_ascii_full(want_in, m, b, sizeof b, &lb);
        CHECK(ra == rb);
        CHECK(ra != PCT_OK || (la == lb && memcmp(a, b, la) == 0));
        escaped += m < n;
        both_ok += ra == PCT_OK && rb == PCT_OK && m < n;
        both_fail += ra == PCT_IDNA_FAIL && rb == PCT_IDNA_FAIL && m < n;
    }
    /* decoded hosts with a form and without one, both met */
    CHECK(escaped > rounds / 4 && both_ok > rounds / 50 && both_fail > rounds / 50);
}

static void test_fast_path(void)
{
    /* a Maybe of NFC's quick check that composes with the letter before
     * it (Sinhala o, Hangul jamo L V and LV T) and ones that do not */
    static const char *const composing[] = {
        "\xE0\xB6\xBD\xE0\xB7\x99\xE0\xB7\x8F.lk", "\xE1\x84\x80\xE1\x85\xA1.kr",
        "\xEA\xB0\x80\xE1\x86\xA8.kr", "\xE0\xB6\xBD\xE0\xB6\x82\xE0\xB6\x9A\xE0\xB7\x8F.lk",
        "\xE3\x81\x8B\xE3\x82\x99.jp"};
    for (size_t i = 0; i < sizeof composing / sizeof *composing; i++)
        CHECK(one_host((const uint8_t *)composing[i], strlen(composing[i])));
    ASCII("\xE0\xB6\xBD\xE0\xB7\x99\xE0\xB7\x8F.lk", "xn--30c6d.lk"); /* NFC: U+0DDC */
    uint8_t h[600];
    long rounds = test_rounds(200000), ok = 0;
    for (long r = 0; r < rounds; r++) {
        size_t n = 0, len = 1 + rng(r % 8 == 0 ? 90 : 14);
        /* mostly plain hosts (a letter pool of the usual), some from all of it */
        uint32_t kinds = r % 4 == 0   ? sizeof pool / sizeof *pool
                         : r % 4 == 1 ? PLAIN_POOL
                         : r % 4 == 2 ? PLAIN_POOL + MAYBE_POOL
                                      : PLAIN_POOL + MAYBE_POOL + 12;
        for (size_t i = 0; i < len; i++)
            n += test_put_utf8(h + n, pool[rng(kinds)]);
        if (r % 97 == 0 && n) /* a byte that is no UTF-8 */
            h[rng((uint32_t)n)] = (uint8_t)(0x80 + rng(0x80));
        ok += one_host(h, n);
    }
    CHECK(ok > rounds / 4); /* many hosts have a form: the two paths met on them */
}

/* Three-byte UTF-8 sequences, which the one pass decodes unrolled, at the
 * bounds of their ranges (U+0800, U+D7FF, U+E000, U+FFFD, U+FFFF),
 * overlong, surrogates, a continuation byte missing, wrong or one too
 * many, and cut at the host's end: alone, among letters, before "xn--",
 * in a label of their own or not; the one pass against the long way, and
 * every sequence that is no UTF-8 has no form. */
static void test_three_byte_sequences(void)
{
    static const struct {
        const char *bytes;
        int utf8;
    } seqs[] = {{"\xE0\xA0\x80", 1}, {"\xED\x9F\xBF", 1}, {"\xEE\x80\x80", 1}, {"\xEF\xBF\xBD", 1},
                {"\xE4\xB8\xAD", 1}, {"\xEA\xB0\x80", 1}, {"\xE0\xB8\x81", 1}, {"\xEF\xBF\xBF", 1},
                {"\xE0\x80\x80", 0}, {"\xE0\x9F\xBF", 0}, {"\xED\xA0\x80", 0}, {"\xED\xBF\xBF", 0},
                {"\xE4\xB8", 0},      {"\xE4", 0},           {"\xE4\x41\xAD", 0}, {"\xE4\xB8\x41", 0},
                {"\xE4\xC3\xA9", 0}, {"\xE4\xB8\xAD\xAD", 0}, {"\xE4\x80\xC3", 0}};
    static const char *const before[] = {"", "a", "xn--", "\xC3\xA9", "b.", "A\xE4\xB8\xAD"};
    static const char *const after[] = {"", "b", ".jp", "\xE4\xB8\xAD.cn", ".", "\xC3\xBC-0"};
    uint8_t h[64];
    long ok = 0;
    for (size_t q = 0; q < sizeof seqs / sizeof *seqs; q++) {
        for (size_t b = 0; b < sizeof before / sizeof *before; b++) {
            for (size_t a = 0; a < sizeof after / sizeof *after; a++) {
                size_t n = 0;
                memcpy(h, before[b], strlen(before[b]));
                n += strlen(before[b]);
                memcpy(h + n, seqs[q].bytes, strlen(seqs[q].bytes));
                n += strlen(seqs[q].bytes);
                memcpy(h + n, after[a], strlen(after[a]));
                n += strlen(after[a]);
                int has_form = one_host(h, n);
                CHECK(seqs[q].utf8 || !has_form);
                ok += has_form;
            }
        }
    }
    CHECK(ok > 20); /* hosts with a form met, by both paths alike */
    ASCII("\xE4\xB8\xAD.cn", "xn--fiq.cn");
    ASCII("a\xE4\xB8\xAD", "xn--a-lq6a");
}

/* RFC 3492 6.3 as written (one pass per code point value), for labels of
 * lowercase letters the mapping leaves alone. */
/* The largest delta rfc_punycode has emitted. */
static uint32_t rfc_max_delta;

static size_t rfc_punycode(const uint32_t *in, size_t n, char *out)
{
    size_t o = 0, b = 0;
    for (size_t i = 0; i < n; i++) {
        if (in[i] < 0x80) {
            out[o++] = (char)in[i];
            b++;
        }
    }
    if (b)
        out[o++] = '-';
    uint32_t next = 0x80, delta = 0, bias = 72;
    for (size_t h = b; h < n;) {
        uint32_t m = 0xFFFFFFFF;
        for (size_t i = 0; i < n; i++)
            if (in[i] >= next && in[i] < m)
                m = in[i];
        delta += (m - next) * (uint32_t)(h + 1);
        next = m;
        for (size_t i = 0; i < n; i++) {
            if (in[i] < next)
                delta++;
            if (in[i] == next) {
                uint32_t q = delta;
                rfc_max_delta = delta > rfc_max_delta ? delta : rfc_max_delta;
                for (uint32_t k = 36;; k += 36) {
                    uint32_t t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
                    if (q < t)
                        break;
                    uint32_t d = t + (q - t) % (36 - t);
                    out[o++] = (char)(d < 26 ? 'a' + d : '0' + d - 26);
                    q = (q - t) / (36 - t);
                }
                out[o++] = (char)(q < 26 ? 'a' + q : '0' + q - 26);
                uint32_t dl = h == b ? delta / 700 : delta / 2, k = 0;
                dl += dl / (uint32_t)(h + 1);
                for (; dl > 455; k += 36)
                    dl /= 35;
                bias = k + 36 * dl / (dl + 38);
                delta = 0;
                h++;
            }
        }
        delta++;
        next++;
    }
    return o;
}

static void test_punycode_lengths(void)
{
    /* labels of 1 to 200 code points: the one-word count, the tree past it */
    static const uint32_t letters[] = {'a', 'z', '3', 0xE9, 0xFC, 0x4E2D, 0x56FD, 0xAC00, 0x430, 0x10428};
    uint32_t label[200];
    uint8_t h[1000], out[3000];
    char want[3000];
    long rounds = test_rounds(3000);
    for (long r = 0; r < rounds; r++) {
        size_t len = 1 + rng(r % 4 ? 70 : 200), n = 0;
        for (size_t i = 0; i < len; i++)
            n += test_put_utf8(h + n, label[i] = letters[rng(10)]);
        label[0] = 0x4E2D; /* never all ASCII */
        n = test_put_utf8(h, 0x4E2D);
        for (size_t i = 1; i < len; i++)
            n += test_put_utf8(h + n, label[i]);
        memcpy(want, "xn--", 4);
        size_t wn = 4 + rfc_punycode(label, len, want + 4), got = 0;
        CHECK(pct_idna_to_ascii(h, n, out, sizeof out, &got) == PCT_OK && got == wn && memcmp(out, want, wn) == 0);
        one_host(h, n);
    }
}

/* Labels of 1, 2, a few and many distinct non-ASCII code points, each
 * repeated, among ASCII ones: punycode_few's passes (up to PUNYCODE_FEW
 * non-ASCII code points) and the sorting encoder past them, on both
 * paths, against the RFC's loop. */
static void test_punycode_distinct(void)
{
    static const uint32_t letters[] = {0xE9, 0xFC, 0xDF, 0x3B1, 0x3AC, 0x430, 0x44F, 0x4E2D, 0x56FD, 0x3048,
                                       0xAC00, 0xD55C, 0x10428, 0x4E00, 0x4E8C, 0x4E09, 0x56DB, 0x4E94,
                                       0x516D, 0x4E03, 0x516B, 0x4E5D, 0x5341, 0x767E, 0x5343, 0x4E07};
    static const size_t distinct[] = {1, 2, 3, 15, 16, 17, 26};
    uint32_t label[64];
    uint8_t h[400], out[1000];
    char want[1000];
    long rounds = test_rounds(4000);
    for (long r = 0; r < rounds; r++) {
        size_t kinds = distinct[r % 7], len = 1 + rng(r % 3 ? 20 : 64), n = 0, wide = 0;
        for (size_t i = 0; i < len; i++) {
            label[i] = rng(3) ? letters[rng((uint32_t)kinds)] : (uint32_t)"ab-9"[rng(4)];
            wide += label[i] >= 0x80;
        }
        if (!wide)
            label[len - 1] = letters[0];
        if (label[0] == '-')
            label[0] = 'a';
        for (size_t i = 0; i < len; i++)
            n += test_put_utf8(h + n, label[i]);
        memcpy(want, "xn--", 4);
        size_t wn = 4 + rfc_punycode(label, len, want + 4), got = 0;
        memcpy(h + n, ".de", 3);
        memcpy(want + wn, ".de", 3);
        CHECK(pct_idna_to_ascii(h, n + 3, out, sizeof out, &got) == PCT_OK && got == wn + 3
              && memcmp(out, want, wn + 3) == 0);
        CHECK(one_host(h, n + 3));
    }
}

/* Labels with deltas past what the encoder divides by a table (a digit's
 * r < 2^26, adapt's d < 2^23 with at most 64 code points: pct_idna.c)
 * and below it, against the RFC's divisions: many ASCII letters or
 * supplementary ideographs before U+3134A make its delta pass 2^26. */
static void test_punycode_large_deltas(void)
{
    static const uint32_t letters[] = {'a', '7', 0x20000, 0x3134A, 0x4E2D};
    uint32_t label[420];
    uint8_t h[1700], out[5000];
    char want[5000];
    long rounds = test_rounds(600), large = 0, small = 0;
    for (long r = 0; r < rounds; r++) {
        /* a third of ASCII letters alone before U+3134A, most past 2^26 */
        size_t len = r % 3 ? 1 + rng(r % 2 ? 60 : 420) : 300 + rng(120), n = 0;
        for (size_t i = 0; i < len; i++)
            label[i] = letters[rng(r % 3 ? 5 : 2)];
        label[len - 1] = 0x3134A; /* never all ASCII */
        for (size_t i = 0; i < len; i++)
            n += test_put_utf8(h + n, label[i]);
        rfc_max_delta = 0;
        memcpy(want, "xn--", 4);
        size_t wn = 4 + rfc_punycode(label, len, want + 4), got = 0;
        if (rfc_max_delta - 1 >= (1u << 26)) /* (a digit's r is the delta less 1 at least) */
            large++;
        else
            small++;
        CHECK(pct_idna_to_ascii(h, n, out, sizeof out, &got) == PCT_OK && got == wn && memcmp(out, want, wn) == 0);
        one_host(h, n);
    }
    CHECK(large > rounds / 20 && small > rounds / 20); /* both sides of the tables' bound */
}

/* Hosts with an "xn--" label after a plain one: the one pass decodes the
 * label and refuses it when the long way would fail on it (its code
 * points disallowed, mapped, ignored, capitals, a leading mark, not NFC,
 * joiners, the Bidi rule with the labels before it), else hands the host
 * to the long way; the two agree. The labels are the punycode of code
 * points from the pool (valid, disallowed, mapped, combining, RTL, ...),
 * some with a digit changed (punycode that decodes to other code points
 * or not at all). */
static void test_xn_labels(void)
{
    static const char *const before[] = {"\xC3\xA4", "\xD7\x90", ("\xD7\x90" "1"), "a\xD7\x90",
                                         "\xD9\xA1\xDB\xB1", "\xE4\xB8\xAD",
                                         "1\xC3\xA4"};
    static const char *const after[] = {"", ".com", ".\xD7\x90", ".\xC3\xA9", ".\xC3\x89", ".a\xD7\x90"};
    uint32_t label[12];
    char code[200];
    uint8_t h[300];
    long rounds = test_rounds(60000), forms = 0, failed = 0;
    for (long r = 0; r < rounds; r++) {
        size_t len = 1 + rng(r % 5 ? 4 : 12), n = 0;
        for (size_t i = 0; i < len; i++)
            label[i] = pool[rng(sizeof pool / sizeof *pool)];
        if (r % 3 == 0) /* never all ASCII */
            label[rng((uint32_t)len)] = pool[PLAIN_POOL - 1 - rng(13)];
        size_t cn = rfc_punycode(label, len, code);
        if (r % 7 == 0 && cn) /* a digit changed */
            code[rng((uint32_t)cn)] = "abkz059-"[rng(8)];
        const char *b = before[rng(sizeof before / sizeof *before)];
        const char *a = after[rng(sizeof after / sizeof *after)];
        n = strlen(b);
        memcpy(h, b, n);
        memcpy(h + n, r % 2 ? ".xn--" : ".XN--", 5);
        n += 5;
        for (size_t i = 0; i < cn; i++) /* capitals in some: the host's mapping lowers them */
            h[n++] = (uint8_t)(r % 11 == 0 && code[i] >= 'a' && code[i] <= 'z' ? code[i] - 32 : code[i]);
        memcpy(h + n, a, strlen(a));
        n += strlen(a);
        int got = one_host(h, n);
        forms += got;
        failed += !got;
    }
    CHECK(forms > rounds / 50 && failed > rounds / 2); /* both outcomes, many times */
    /* the bench's failed row: "xn--a" is U+0080, disallowed */
    ASCII("\xC3\xA4" "1.xn--a.example", NULL);
    ASCII("\xC3\xA4.xn--bcher-kva.example", "xn--4ca.xn--bcher-kva.example");
    ASCII("\xC3\xA4.xn--7ba.example", NULL);             /* U+00C4: mapped */
    ASCII("\xC3\xA4.xn--e-xbb.example", NULL);           /* e U+0301: not NFC */
    ASCII("\xC3\xA4.xn--a-wbb.example", NULL);           /* a leading mark */
    ASCII("\xC3\xA4.xn--a-ugn.example", NULL);           /* a ZWJ after no virama */
    ASCII("\xC3\xA4.xn--11b6iy14e.in", "xn--4ca.xn--11b6iy14e.in"); /* after a virama */
    ASCII("\xC3\xA4.xn--9ca.example", "xn--4ca.xn--9ca.example");   /* U+00E9 */
    ASCII("\xC3\xA4.xn--1-bga.example", "xn--4ca.xn--1-bga.example"); /* "1" U+00E9 */
    ASCII("\xD7\x90.xn--1-bga.example", NULL);  /* the same in a bidi name: a label that starts with EN */
    ASCII("\xC3\xA4" "1.xn--9ca32w.example", NULL); /* an RTL label of R and L */
    ASCII("\xC3\xA4" "1.xn--4db.example", "xn--1-zfa.xn--4db.example"); /* ... and of R alone */
    ASCII("1\xC3\xA4.xn--4db.example", NULL); /* ... after a label that breaks the rule in a bidi name */
    ASCII("1\xC3\xA4.xn--9ca.example", "xn--1-0fa.xn--9ca.example");
}

/* Every ASCII byte in the labels of a bidi domain name, at a label's
 * start, inside and at its end, RTL and LTR: the one pass reads their
 * classes from its own table, the long way from the Unicode data. */
static void test_bidi_ascii(void)
{
    /* '*' stands for the byte */
    static const char *const shapes[] = {"\xD7\x90*\xD7\x90", "*\xD7\x90", "\xD7\x90*", "a*a.\xD7\x90",
                                         "*a.\xD7\x90", "a*.\xD7\x90", "\xD9\xA1*.\xD7\x90", "*.\xC3\xA9"};
    uint8_t h[32];
    int forms = 0;
    for (int c = 0x21; c < 0x7F; c++) {
        for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
            size_t n = strlen(shapes[k]);
            for (size_t i = 0; i < n; i++)
                h[i] = shapes[k][i] == '*' ? (uint8_t)c : (uint8_t)shapes[k][i];
            forms += one_host(h, n);
        }
    }
    CHECK(forms > 300); /* (most have a form: the test reaches the pass's end) */
}

int main(void)
{
    test_ascii_domains();
    test_mapping();
    test_nfc();
    test_punycode();
    test_joiners();
    test_bidi();
    test_utf8_and_escapes();
    test_unicode();
    test_sizes();
    test_tables();
    test_fast_path();
    test_three_byte_sequences();
    test_escaped_hosts();
    test_punycode_lengths();
    test_punycode_distinct();
    test_punycode_large_deltas();
    test_bidi_ascii();
    test_xn_labels();
    printf("test_idna: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
