/* The Unicode data of pct_idna.c, generated into pct_idna_tables.c by
 * gen_idna_tables.py (see there for its inputs and how to run it). */
#ifndef PCT_IDNA_TABLES_H
#define PCT_IDNA_TABLES_H

#include <stddef.h>
#include <stdint.h>

/* A code point's property word: pct_idna_props[pct_idna_stage2[
 * (pct_idna_stage1[cp >> SHIFT] << SHIFT) + (cp & MASK)]]. */
#define PCT_IDNA_BLOCK_SHIFT 8
#define PCT_IDNA_STATUS(p) ((p) & 3u) /* UTS #46, non-transitional, STD3 rules off */
#define PCT_IDNA_VALID 0u
#define PCT_IDNA_MAPPED 1u
#define PCT_IDNA_IGNORED 2u
#define PCT_IDNA_DISALLOWED 3u
#define PCT_IDNA_BIDI(p) (((p) >> 2) & 15u) /* PCT_BIDI_* */
#define PCT_IDNA_JOINING(p) (((p) >> 6) & 7u) /* PCT_JOIN_* */
#define PCT_IDNA_MARK (1u << 9)       /* general category M */
#define PCT_IDNA_NFC_YES (1u << 10)    /* NFC_Quick_Check=Yes */
#define PCT_IDNA_DECOMPOSES (1u << 11) /* has a canonical decomposition (not Hangul) */
#define PCT_IDNA_CCC(p) ((p) >> 16)    /* canonical combining class */

/* PCT_IDNA_BIDI's values (the generated tables check them) */
#define PCT_BIDI_OTHER 0u
#define PCT_BIDI_L 1u
#define PCT_BIDI_R 2u
#define PCT_BIDI_AL 3u
#define PCT_BIDI_AN 4u
#define PCT_BIDI_EN 5u
#define PCT_BIDI_ES 6u
#define PCT_BIDI_CS 7u
#define PCT_BIDI_ET 8u
#define PCT_BIDI_ON 9u
#define PCT_BIDI_BN 10u
#define PCT_BIDI_NSM 11u
/* PCT_IDNA_JOINING's values */
#define PCT_JOIN_NONE 0u
#define PCT_JOIN_T 1u
#define PCT_JOIN_L 2u
#define PCT_JOIN_R 3u
#define PCT_JOIN_D 4u

/* The longest UTS #46 mapping and full canonical decomposition. */
#define PCT_IDNA_MAX_MAPPING 18
#define PCT_IDNA_MAX_DECOMPOSITION 4

extern const char pct_idna_unicode_version[];
extern const uint32_t pct_idna_props[];
extern const uint8_t pct_idna_stage1[];
extern const uint8_t pct_idna_stage2[];
/* Sorted code points; the i-th's mapping (decomposition) is
 * pool[off[i] .. off[i + 1]). */
extern const size_t pct_idna_n_mapped;
extern const uint32_t pct_idna_mapped_cp[];
extern const uint16_t pct_idna_mapped_off[];
extern const uint32_t pct_idna_mapped_pool[];
extern const size_t pct_idna_n_decomposed;
extern const uint32_t pct_idna_decomposed_cp[];
extern const uint16_t pct_idna_decomposed_off[];
extern const uint32_t pct_idna_decomposed_pool[];
/* Primary composites by sorted key first << 21 | second. */
extern const size_t pct_idna_n_composed;
extern const uint64_t pct_idna_composed_key[];
extern const uint32_t pct_idna_composed_cp[];

#endif /* PCT_IDNA_TABLES_H */
