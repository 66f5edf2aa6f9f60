/* C unit tests of src/core/pct_resolve.c: every example of RFC 3986 5.4.1
 * and 5.4.2, the non-strict parser, bases that are not absolute (and where
 * their scheme stops), and the bound: no result passes it, over every
 * short reference of an alphabet of delimiters and dots. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct_resolve.h"

#include "check.h"

static const char *const BASE = "http://a/b/c/d;p?q";

static const char *const EXAMPLES[][2] = {
    /* 5.4.1 */
    {"g:h", "g:h"}, {"g", "http://a/b/c/g"}, {"./g", "http://a/b/c/g"}, {"g/", "http://a/b/c/g/"},
    {"/g", "http://a/g"}, {"//g", "http://g"}, {"?y", "http://a/b/c/d;p?y"},
    {"g?y", "http://a/b/c/g?y"}, {"#s", "http://a/b/c/d;p?q#s"}, {"g#s", "http://a/b/c/g#s"},
    {"g?y#s", "http://a/b/c/g?y#s"}, {";x", "http://a/b/c/;x"}, {"g;x", "http://a/b/c/g;x"},
    {"g;x?y#s", "http://a/b/c/g;x?y#s"}, {"", "http://a/b/c/d;p?q"}, {".", "http://a/b/c/"},
    {"./", "http://a/b/c/"}, {"..", "http://a/b/"}, {"../", "http://a/b/"},
    {"../g", "http://a/b/g"}, {"../..", "http://a/"}, {"../../", "http://a/"},
    {"../../g", "http://a/g"},
    /* 5.4.2 */
    {"../../../g", "http://a/g"}, {"../../../../g", "http://a/g"}, {"/./g", "http://a/g"},
    {"/../g", "http://a/g"}, {"g.", "http://a/b/c/g."}, {".g", "http://a/b/c/.g"},
    {"g..", "http://a/b/c/g.."}, {"..g", "http://a/b/c/..g"}, {"./../g", "http://a/b/g"},
    {"./g/.", "http://a/b/c/g/"}, {"g/./h", "http://a/b/c/g/h"}, {"g/../h", "http://a/b/c/h"},
    {"g;x=1/./y", "http://a/b/c/g;x=1/y"}, {"g;x=1/../y", "http://a/b/c/y"},
    {"g?y/./x", "http://a/b/c/g?y/./x"}, {"g?y/../x", "http://a/b/c/g?y/../x"},
    {"g#s/./x", "http://a/b/c/g#s/./x"}, {"g#s/../x", "http://a/b/c/g#s/../x"},
    {"http:g", "http:g"},
};

static int resolves_to(const char *base, const char *ref, unsigned flags, const char *want)
{
    size_t bn = strlen(base), rn = strlen(ref), bound, len = 0, pos = 0;
    if (pct_resolve_bound(bn, rn, SIZE_MAX, &bound) != PCT_OK)
        return 0;
    uint8_t *dst = malloc(bound);
    if (!dst)
        return 0;
    int rc = pct_resolve((const uint8_t *)base, bn, (const uint8_t *)ref, rn, flags, dst, &len, &pos);
    int ok = rc == PCT_OK && len <= bound && len == strlen(want) && memcmp(dst, want, len) == 0;
    if (!ok)
        fprintf(stderr, "resolve(%s, %s): got %.*s\n", base, ref, (int)len, (const char *)dst);
    free(dst);
    return ok;
}

static size_t not_absolute_at(const char *base)
{
    uint8_t dst[64];
    size_t len, pos = 999;
    int rc = pct_resolve((const uint8_t *)base, strlen(base), (const uint8_t *)"g", 1, 0, dst, &len, &pos);
    return rc == PCT_RESOLVE_NOT_ABSOLUTE ? pos : 999;
}

/* Every reference of up to 6 bytes of the alphabet against a few bases:
 * the result fits the bound (read with a guard past it). */
static void test_bound(void)
{
    static const char alphabet[] = "./?#:g";
    static const char *const bases[] = {"s:", "s://", "s://a", "s:/x/y", "s:x", "s://a/b/../c?q#f"};
    uint8_t ref[6], dst[64];
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
        size_t bn = strlen(bases[b]);
        for (size_t n = 0; n <= 6; n++) {
            size_t total = 1;
            for (size_t k = 0; k < n; k++)
                total *= 6;
            for (size_t code = 0; code < total; code++) {
                size_t c = code, len = 0, pos, bound;
                for (size_t k = 0; k < n; k++, c /= 6)
                    ref[k] = (uint8_t)alphabet[c % 6];
                memset(dst, 0xEE, sizeof dst);
                CHECK(pct_resolve_bound(bn, n, SIZE_MAX, &bound) == PCT_OK);
                for (unsigned flags = 0; flags < 2; flags++) {
                    CHECK(pct_resolve((const uint8_t *)bases[b], bn, ref, n, flags, dst, &len, &pos)
                          == PCT_OK);
                    CHECK(len <= bound && dst[bound] == 0xEE);
                }
            }
        }
    }
}

int main(void)
{
    for (size_t i = 0; i < sizeof EXAMPLES / sizeof EXAMPLES[0]; i++)
        CHECK(resolves_to(BASE, EXAMPLES[i][0], 0, EXAMPLES[i][1]));
    /* 5.4.2's backward-compatible parser */
    CHECK(resolves_to(BASE, "http:g", PCT_RESOLVE_NON_STRICT, "http://a/b/c/g"));
    CHECK(resolves_to(BASE, "HTTP:g", PCT_RESOLVE_NON_STRICT, "http://a/b/c/g"));
    CHECK(resolves_to(BASE, "https:g", PCT_RESOLVE_NON_STRICT, "https:g"));
    /* a base's fragment is not used; an empty path under an authority */
    CHECK(resolves_to("http://a#f", "", 0, "http://a"));
    CHECK(resolves_to("http://a", "g", 0, "http://a/g"));
    CHECK(resolves_to("s:x", "g", 0, "s:g"));
    CHECK(not_absolute_at("") == 0);
    CHECK(not_absolute_at("/a") == 0);
    CHECK(not_absolute_at(":a") == 0);
    CHECK(not_absolute_at("ht tp://a") == 2);
    CHECK(not_absolute_at("example.com") == 11);
    CHECK(not_absolute_at("a/b:c") == 1);
    size_t bound;
    CHECK(pct_resolve_bound(SIZE_MAX, 1, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    CHECK(pct_resolve_bound(SIZE_MAX / 2, SIZE_MAX / 2 + 1, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    test_bound();
    printf("test_resolve: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
