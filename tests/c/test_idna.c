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
    printf("test_idna: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
