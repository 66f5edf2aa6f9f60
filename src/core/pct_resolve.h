/* pct_resolve: reference resolution (RFC 3986 section 5.2) on UTF-8 text.
 *
 * The algorithm of 5.2.2 with the strict parser: the reference and the base
 * are split as pct_uri_split splits them (appendix B), the target's parts
 * are taken from either, its path merged (5.2.3) and freed of dot segments
 * by pct_remove_dot_segments (5.2.4, the function normalize uses), and the
 * parts recomposed (5.3). Bytes are copied as they are: no escape is read,
 * added or repaired (PCT_URI_* normalization is a second step, done by the
 * caller on the result).
 */
#ifndef PCT_RESOLVE_H
#define PCT_RESOLVE_H

#include "pct.h"

/* Flags of pct_resolve. */
enum {
    /* 5.2.2's non-strict parser: a reference whose scheme equals the
     * base's (ASCII case-insensitively) is read without it ("http:g"
     * against "http://a/b/c" is "http://a/b/g"). */
    PCT_RESOLVE_NON_STRICT = 1
};

/* pct_resolve's outcome beyond PCT_OK: PCT_RESOLVE_NOT_ABSOLUTE (pct.h). */

/* The room dst needs for a base of bn bytes and a reference of rn: the
 * target's parts come from the two, and the merge adds at most one '/'. */
static inline pct_status pct_resolve_bound(size_t bn, size_t rn, size_t limit, size_t *bound)
{
    if (limit < 1 || bn > limit - 1 || rn > limit - 1 - bn)
        return PCT_ERR_TOO_LARGE;
    *bound = bn + rn + 1;
    return PCT_OK;
}

/* The target URI of reference ref[0, rn) against base[0, bn) into dst (at
 * least pct_resolve_bound bytes), its length in *out_len: PCT_OK, or
 * PCT_RESOLVE_NOT_ABSOLUTE when the base has no scheme, with *pos the
 * offset of its first byte that cannot continue one (the first byte when
 * it is not a letter, the end when there is no ':'). A base's fragment is
 * not used (5.1). Reads nothing outside the two inputs. */
int pct_resolve(const uint8_t *base, size_t bn, const uint8_t *ref, size_t rn, unsigned flags,
                uint8_t *dst, size_t *out_len, size_t *pos);

#endif /* PCT_RESOLVE_H */
