/* pct_idna: the URL Standard's "domain to ASCII" and "domain to Unicode".
 * Plain C99, no Python.
 *
 * UTS #46 processing with the URL Standard's options: non-transitional,
 * CheckHyphens and UseSTD3ASCIIRules off, CheckBidi and CheckJoiners on,
 * VerifyDnsLength off; then the host parser's forbidden domain code points.
 * A domain of ASCII characters only is lowercased and checked for those
 * code points, its labels are not validated (as the web-platform-tests
 * vectors have it). The Unicode data is in pct_idna_tables.c (version in
 * pct_idna_unicode_version).
 *
 * Text in and out is UTF-8; text that is not valid UTF-8 has no form. No
 * function allocates more than its scratch space, freed before it returns;
 * all are thread-safe (no state). */
#ifndef PCT_IDNA_H
#define PCT_IDNA_H

#include "pct.h"

/* Outcomes: PCT_OK, PCT_IDNA_FAIL (no such form: the host parser rejects
 * the domain), PCT_IDNA_SMALL (dst too small: the result needs *out_len
 * bytes), PCT_ERR_NO_MEMORY (pct.h). */

/* The ASCII form of the domain src[0..n) into dst[0..cap), its length in
 * *out_len. */
pct_status pct_idna_to_ascii(const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                                  size_t *out_len);

/* pct_idna_to_ascii the long way for every host: UTS #46 step by step on
 * code points, without the one-pass path of the usual host; the same
 * result (for the tests that hold the two equal). */
pct_status pct_idna_to_ascii_full(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *out_len);

/* The Unicode form of the domain src[0..n) (UTS #46 ToUnicode: mapped, NFC,
 * "xn--" labels decoded), into dst[0..cap) as UTF-8. PCT_IDNA_FAIL when
 * processing recorded an error (the text is still written, with a label
 * that failed to decode left as it was) or the result contains a forbidden
 * domain code point. */
pct_status pct_idna_to_unicode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                                    size_t *out_len);

/* A reg-name as a URI writes it: the escapes of bytes that are not reserved
 * characters or '%' (RFC 3986) decoded, so that a host and its requote()
 * map alike (escapes of reserved characters and '%' stay, and their '%'
 * makes the host fail), then pct_idna_to_ascii. */
pct_status pct_idna_host_to_ascii(const uint8_t *host, size_t n, uint8_t *dst, size_t cap,
                                       size_t *out_len);

/* pct_idna_host_to_ascii with the form in *form: in buf[0..cap), or, when
 * longer, in a malloc'd *heap the caller frees (NULL when unused). The
 * form is computed once whatever its length; the cost is bounded per
 * byte of the host (punycode is O(n log n) in a label's length). */
pct_status pct_idna_host_form(const uint8_t *host, size_t n, uint8_t *buf, size_t cap,
                                   const uint8_t **form, size_t *form_len, uint8_t **heap);

#endif /* PCT_IDNA_H */
