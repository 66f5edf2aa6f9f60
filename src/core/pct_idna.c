/* The URL Standard's domain to ASCII and domain to Unicode (see pct_idna.h).
 *
 * Text is processed as code points in growable arrays (a small one inline,
 * a pct_buf past it): UTF-8 in, UTS #46 mapping, NFC, labels split at '.',
 * "xn--" labels decoded, every label validated (UTS #46 4.1), the Bidi rule
 * of RFC 5893 over a bidi domain name, then punycode or UTF-8 out. */
#include <stdlib.h>
#include <string.h>

#include "pct_buf.h"
#include "pct_idna.h"
#include "pct_idna_tables.h"
#include "pct_portable.h"

/* Punycode decoding is quadratic in a label's length (each code point is
 * inserted), so labels longer than this many code points that need
 * punycode have no form: DNS takes 63 bytes, no real host comes near.
 * Encoding costs O(n log n) (punycode_put). */
#define MAX_PUNYCODE_LABEL 1024

static inline uint32_t props(uint32_t cp)
{
    size_t block = (size_t)pct_idna_stage1[cp >> PCT_IDNA_BLOCK_SHIFT] << PCT_IDNA_BLOCK_SHIFT;
    return pct_idna_props[pct_idna_stage2[block | (cp & ((1u << PCT_IDNA_BLOCK_SHIFT) - 1))]];
}

/* ---- code point arrays ----------------------------------------------- */

#define INLINE_CPS 96

/* A code point array: inline up to INLINE_CPS, past that in the core's
 * growing buffer (pct_buf, its bytes holding the code points). */
typedef struct {
    uint32_t *p;
    size_t len, cap;
    pct_buf heap;
    uint32_t small[INLINE_CPS];
} cps;

static void cps_init(cps *v)
{
    v->p = v->small;
    v->len = 0;
    v->cap = INLINE_CPS;
    pct_buf_init(&v->heap);
}

static void cps_free(cps *v)
{
    pct_buf_free(&v->heap);
}

/* Room for `extra` more; -1 without memory or past SIZE_MAX. */
static int cps_reserve(cps *v, size_t extra)
{
    if (extra <= v->cap - v->len)
        return 0;
    size_t max = SIZE_MAX / sizeof(uint32_t) / 2;
    if (extra > max - v->len)
        return -1;
    size_t cap = v->cap <= max / 2 ? v->cap * 2 : max;
    if (cap < v->len + extra)
        cap = v->len + extra;
    int inline_now = v->p == v->small;
    v->heap.len = inline_now ? 0 : v->len * sizeof *v->p; /* what the buffer keeps as it grows */
    if (pct_buf_reserve(&v->heap, cap * sizeof *v->p - v->heap.len, SIZE_MAX) != PCT_OK)
        return -1;
    /* malloc's memory: aligned for any type */
    v->p = (uint32_t *)(void *)v->heap.data;
    if (inline_now)
        memcpy(v->p, v->small, v->len * sizeof *v->p);
    v->cap = v->heap.cap / sizeof *v->p;
    return 0;
}

static int cps_push(cps *v, uint32_t cp)
{
    if (v->len == v->cap && cps_reserve(v, 1) < 0)
        return -1;
    v->p[v->len++] = cp;
    return 0;
}

static int cps_append(cps *v, const uint32_t *src, size_t n)
{
    if (cps_reserve(v, n) < 0)
        return -1;
    if (n)
        memcpy(v->p + v->len, src, n * sizeof *src);
    v->len += n;
    return 0;
}

/* Outcomes of the steps below: OK, FAIL (no form) or NOMEM. */
enum { OK = 0, FAIL = 1, NOMEM = -1 };

/* ---- UTF-8 ----------------------------------------------------------- */

/* The code points of valid UTF-8 (no surrogates, no overlong forms) into
 * out: FAIL on any invalid sequence. The core's one decoder (pct_utf8.c). */
static int utf8_decode(const uint8_t *s, size_t n, cps *out)
{
    pct_utf8_info info;
    pct_utf8_check(s, n, &info);
    if (!info.valid)
        return FAIL;
    if (cps_reserve(out, info.nchars) < 0)
        return NOMEM;
    out->len += pct_utf8_to_ucs4(s, n, out->p + out->len, info.nchars);
    return OK;
}

static size_t utf8_size(uint32_t cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

static uint8_t *utf8_put(uint8_t *d, uint32_t cp)
{
    if (cp < 0x80) {
        *d++ = (uint8_t)cp;
    } else if (cp < 0x800) {
        *d++ = (uint8_t)(0xC0 | cp >> 6);
        *d++ = (uint8_t)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *d++ = (uint8_t)(0xE0 | cp >> 12);
        *d++ = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        *d++ = (uint8_t)(0x80 | (cp & 0x3F));
    } else {
        *d++ = (uint8_t)(0xF0 | cp >> 18);
        *d++ = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
        *d++ = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        *d++ = (uint8_t)(0x80 | (cp & 0x3F));
    }
    return d;
}

/* ---- UTS #46 mapping (section 4, step 1) ------------------------------ */

static const uint32_t *bsearch_cp(const uint32_t *keys, size_t n, uint32_t cp)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && keys[lo] == cp ? keys + lo : NULL;
}

/* Maps in[0..n) onto out. A disallowed code point fails, or, with *errors
 * given, is kept and counted there (ToUnicode). */
static int map(const uint32_t *in, size_t n, cps *out, int *errors)
{
    if (cps_reserve(out, n) < 0)
        return NOMEM;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = in[i];
        if (cp < 0x80) {
            if (cps_push(out, cp - 'A' < 26 ? cp + 32 : cp) < 0)
                return NOMEM;
            continue;
        }
        uint32_t p = props(cp);
        switch (PCT_IDNA_STATUS(p)) {
        case PCT_IDNA_VALID:
            if (cps_push(out, cp) < 0)
                return NOMEM;
            break;
        case PCT_IDNA_IGNORED:
            break;
        case PCT_IDNA_MAPPED: {
            const uint32_t *at = bsearch_cp(pct_idna_mapped_cp, pct_idna_n_mapped, cp);
            if (!at)
                return FAIL; /* the tables always have it */
            size_t k = (size_t)(at - pct_idna_mapped_cp);
            size_t from = pct_idna_mapped_off[k], to = pct_idna_mapped_off[k + 1];
            if (cps_append(out, pct_idna_mapped_pool + from, to - from) < 0)
                return NOMEM;
            break;
        }
        default:
            if (!errors)
                return FAIL;
            ++*errors;
            if (cps_push(out, cp) < 0)
                return NOMEM;
        }
    }
    return OK;
}

/* ---- NFC ------------------------------------------------------------- */

#define S_BASE 0xAC00u
#define L_BASE 0x1100u
#define V_BASE 0x1161u
#define T_BASE 0x11A7u
#define L_COUNT 19u
#define V_COUNT 21u
#define T_COUNT 28u
#define N_COUNT (V_COUNT * T_COUNT)
#define S_COUNT (L_COUNT * N_COUNT)

static unsigned ccc(uint32_t cp)
{
    return cp < 0x300 ? 0 : PCT_IDNA_CCC(props(cp));
}

/* The primary composite of a and b, or 0. */
static uint32_t compose(uint32_t a, uint32_t b)
{
    if (a - L_BASE < L_COUNT && b - V_BASE < V_COUNT)
        return S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT;
    if (a - S_BASE < S_COUNT && (a - S_BASE) % T_COUNT == 0 && b - T_BASE - 1 < T_COUNT - 1)
        return a + (b - T_BASE);
    uint64_t key = (uint64_t)a << 21 | b;
    size_t lo = 0, hi = pct_idna_n_composed;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pct_idna_composed_key[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < pct_idna_n_composed && pct_idna_composed_key[lo] == key ? pct_idna_composed_cp[lo] : 0;
}

/* Stable sort of v[0..n) by combining class (canonical ordering): insertion
 * for the usual short runs, counting through tmp for long ones. */
static int order_run(uint32_t *v, size_t n, cps *tmp)
{
    if (n < 32) {
        for (size_t i = 1; i < n; i++) {
            uint32_t c = v[i];
            unsigned k = ccc(c);
            size_t j = i;
            for (; j > 0 && ccc(v[j - 1]) > k; j--)
                v[j] = v[j - 1];
            v[j] = c;
        }
        return OK;
    }
    size_t count[257] = {0};
    for (size_t i = 0; i < n; i++)
        count[ccc(v[i]) + 1]++;
    for (size_t k = 1; k < 257; k++)
        count[k] += count[k - 1];
    tmp->len = 0;
    if (cps_reserve(tmp, n) < 0)
        return NOMEM;
    for (size_t i = 0; i < n; i++)
        tmp->p[count[ccc(v[i])]++] = v[i];
    memcpy(v, tmp->p, n * sizeof *v);
    return OK;
}

/* NFC of in[0..n) into out (emptied first); tmp is scratch. */
static int nfc(const uint32_t *in, size_t n, cps *out, cps *tmp)
{
    out->len = 0;
    /* the quick check (UAX #15 9): NFC_Quick_Check=Yes everywhere, marks in
     * canonical order; below U+0300 every code point passes */
    size_t i = 0;
    for (unsigned last = 0; i < n; i++) {
        if (in[i] < 0x300) {
            last = 0;
            continue;
        }
        uint32_t p = props(in[i]);
        unsigned k = PCT_IDNA_CCC(p);
        if (!(p & PCT_IDNA_NFC_YES) || (k && last > k))
            break;
        last = k;
    }
    if (i == n)
        return cps_append(out, in, n) < 0 ? NOMEM : OK;
    /* full canonical decomposition */
    if (n > SIZE_MAX / PCT_IDNA_MAX_DECOMPOSITION || cps_reserve(out, n * PCT_IDNA_MAX_DECOMPOSITION) < 0)
        return NOMEM;
    uint32_t *d = out->p;
    for (i = 0; i < n; i++) {
        uint32_t cp = in[i];
        if (cp - S_BASE < S_COUNT) {
            uint32_t s = cp - S_BASE;
            *d++ = L_BASE + s / N_COUNT;
            *d++ = V_BASE + s % N_COUNT / T_COUNT;
            if (s % T_COUNT)
                *d++ = T_BASE + s % T_COUNT;
        } else if (cp >= 0xC0 && (props(cp) & PCT_IDNA_DECOMPOSES)) {
            const uint32_t *at = bsearch_cp(pct_idna_decomposed_cp, pct_idna_n_decomposed, cp);
            size_t k = at ? (size_t)(at - pct_idna_decomposed_cp) : 0;
            size_t from = at ? pct_idna_decomposed_off[k] : 0, to = at ? pct_idna_decomposed_off[k + 1] : 0;
            if (!at)
                *d++ = cp;
            for (size_t j = from; j < to; j++)
                *d++ = pct_idna_decomposed_pool[j];
        } else {
            *d++ = cp;
        }
    }
    size_t len = (size_t)(d - out->p);
    uint32_t *v = out->p;
    /* canonical ordering of each run of non-starters */
    for (i = 0; i < len;) {
        if (ccc(v[i]) == 0) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && ccc(v[j]) != 0)
            j++;
        if (j - i > 1 && order_run(v + i, j - i, tmp) != OK)
            return NOMEM;
        i = j;
    }
    /* canonical composition */
    size_t w = 0, starter = 0;
    int have_starter = 0;
    unsigned last = 0;
    for (i = 0; i < len; i++) {
        uint32_t c = v[i];
        unsigned k = ccc(c);
        if (have_starter) {
            int adjacent = w == starter + 1;
            uint32_t comp = (adjacent || (last != 0 && last < k)) ? compose(v[starter], c) : 0;
            if (comp) {
                v[starter] = comp;
                continue;
            }
        }
        if (k == 0) {
            starter = w;
            have_starter = 1;
        }
        last = k;
        v[w++] = c;
    }
    out->len = w;
    return OK;
}

/* ---- punycode (RFC 3492) --------------------------------------------- */

enum { BASE = 36, TMIN = 1, TMAX = 26, SKEW = 38, DAMP = 700, INITIAL_BIAS = 72, INITIAL_N = 0x80 };
/* Past this a delta names no code point for any label of MAX_PUNYCODE_LABEL. */
#define DELTA_LIMIT ((uint64_t)1 << 53)

/* Divisions by a divisor that varies, replaced where they are usual by a
 * table (a hardware division costs tens of cycles, and each digit of a
 * delta waited on the one before). x / b for x < 2^k is x * M >> s with
 * M = floor(2^s / b) + 1, exact when x * (M * b - 2^s) < 2^s (the error
 * M * b - 2^s is at most b), and x * M must fit 64 bits. */

/* adapt's last step, (BASE - TMIN + 1) * d / (d + SKEW), for every d its
 * loop leaves (d <= ((BASE - TMIN) * TMAX) / 2 = 455). */
#define TAIL(d) (uint8_t)((BASE - TMIN + 1) * (d) / ((d) + SKEW))
static const uint8_t adapt_tail[((BASE - TMIN) * TMAX) / 2 + 1] = {
    TAIL(0), TAIL(1), TAIL(2), TAIL(3), TAIL(4), TAIL(5), TAIL(6), TAIL(7), TAIL(8), TAIL(9),
    TAIL(10), TAIL(11), TAIL(12), TAIL(13), TAIL(14), TAIL(15), TAIL(16), TAIL(17), TAIL(18),
    TAIL(19), TAIL(20), TAIL(21), TAIL(22), TAIL(23), TAIL(24), TAIL(25), TAIL(26), TAIL(27),
    TAIL(28), TAIL(29), TAIL(30), TAIL(31), TAIL(32), TAIL(33), TAIL(34), TAIL(35), TAIL(36),
    TAIL(37), TAIL(38), TAIL(39), TAIL(40), TAIL(41), TAIL(42), TAIL(43), TAIL(44), TAIL(45),
    TAIL(46), TAIL(47), TAIL(48), TAIL(49), TAIL(50), TAIL(51), TAIL(52), TAIL(53), TAIL(54),
    TAIL(55), TAIL(56), TAIL(57), TAIL(58), TAIL(59), TAIL(60), TAIL(61), TAIL(62), TAIL(63),
    TAIL(64), TAIL(65), TAIL(66), TAIL(67), TAIL(68), TAIL(69), TAIL(70), TAIL(71), TAIL(72),
    TAIL(73), TAIL(74), TAIL(75), TAIL(76), TAIL(77), TAIL(78), TAIL(79), TAIL(80), TAIL(81),
    TAIL(82), TAIL(83), TAIL(84), TAIL(85), TAIL(86), TAIL(87), TAIL(88), TAIL(89), TAIL(90),
    TAIL(91), TAIL(92), TAIL(93), TAIL(94), TAIL(95), TAIL(96), TAIL(97), TAIL(98), TAIL(99),
    TAIL(100), TAIL(101), TAIL(102), TAIL(103), TAIL(104), TAIL(105), TAIL(106), TAIL(107),
    TAIL(108), TAIL(109), TAIL(110), TAIL(111), TAIL(112), TAIL(113), TAIL(114), TAIL(115),
    TAIL(116), TAIL(117), TAIL(118), TAIL(119), TAIL(120), TAIL(121), TAIL(122), TAIL(123),
    TAIL(124), TAIL(125), TAIL(126), TAIL(127), TAIL(128), TAIL(129), TAIL(130), TAIL(131),
    TAIL(132), TAIL(133), TAIL(134), TAIL(135), TAIL(136), TAIL(137), TAIL(138), TAIL(139),
    TAIL(140), TAIL(141), TAIL(142), TAIL(143), TAIL(144), TAIL(145), TAIL(146), TAIL(147),
    TAIL(148), TAIL(149), TAIL(150), TAIL(151), TAIL(152), TAIL(153), TAIL(154), TAIL(155),
    TAIL(156), TAIL(157), TAIL(158), TAIL(159), TAIL(160), TAIL(161), TAIL(162), TAIL(163),
    TAIL(164), TAIL(165), TAIL(166), TAIL(167), TAIL(168), TAIL(169), TAIL(170), TAIL(171),
    TAIL(172), TAIL(173), TAIL(174), TAIL(175), TAIL(176), TAIL(177), TAIL(178), TAIL(179),
    TAIL(180), TAIL(181), TAIL(182), TAIL(183), TAIL(184), TAIL(185), TAIL(186), TAIL(187),
    TAIL(188), TAIL(189), TAIL(190), TAIL(191), TAIL(192), TAIL(193), TAIL(194), TAIL(195),
    TAIL(196), TAIL(197), TAIL(198), TAIL(199), TAIL(200), TAIL(201), TAIL(202), TAIL(203),
    TAIL(204), TAIL(205), TAIL(206), TAIL(207), TAIL(208), TAIL(209), TAIL(210), TAIL(211),
    TAIL(212), TAIL(213), TAIL(214), TAIL(215), TAIL(216), TAIL(217), TAIL(218), TAIL(219),
    TAIL(220), TAIL(221), TAIL(222), TAIL(223), TAIL(224), TAIL(225), TAIL(226), TAIL(227),
    TAIL(228), TAIL(229), TAIL(230), TAIL(231), TAIL(232), TAIL(233), TAIL(234), TAIL(235),
    TAIL(236), TAIL(237), TAIL(238), TAIL(239), TAIL(240), TAIL(241), TAIL(242), TAIL(243),
    TAIL(244), TAIL(245), TAIL(246), TAIL(247), TAIL(248), TAIL(249), TAIL(250), TAIL(251),
    TAIL(252), TAIL(253), TAIL(254), TAIL(255), TAIL(256), TAIL(257), TAIL(258), TAIL(259),
    TAIL(260), TAIL(261), TAIL(262), TAIL(263), TAIL(264), TAIL(265), TAIL(266), TAIL(267),
    TAIL(268), TAIL(269), TAIL(270), TAIL(271), TAIL(272), TAIL(273), TAIL(274), TAIL(275),
    TAIL(276), TAIL(277), TAIL(278), TAIL(279), TAIL(280), TAIL(281), TAIL(282), TAIL(283),
    TAIL(284), TAIL(285), TAIL(286), TAIL(287), TAIL(288), TAIL(289), TAIL(290), TAIL(291),
    TAIL(292), TAIL(293), TAIL(294), TAIL(295), TAIL(296), TAIL(297), TAIL(298), TAIL(299),
    TAIL(300), TAIL(301), TAIL(302), TAIL(303), TAIL(304), TAIL(305), TAIL(306), TAIL(307),
    TAIL(308), TAIL(309), TAIL(310), TAIL(311), TAIL(312), TAIL(313), TAIL(314), TAIL(315),
    TAIL(316), TAIL(317), TAIL(318), TAIL(319), TAIL(320), TAIL(321), TAIL(322), TAIL(323),
    TAIL(324), TAIL(325), TAIL(326), TAIL(327), TAIL(328), TAIL(329), TAIL(330), TAIL(331),
    TAIL(332), TAIL(333), TAIL(334), TAIL(335), TAIL(336), TAIL(337), TAIL(338), TAIL(339),
    TAIL(340), TAIL(341), TAIL(342), TAIL(343), TAIL(344), TAIL(345), TAIL(346), TAIL(347),
    TAIL(348), TAIL(349), TAIL(350), TAIL(351), TAIL(352), TAIL(353), TAIL(354), TAIL(355),
    TAIL(356), TAIL(357), TAIL(358), TAIL(359), TAIL(360), TAIL(361), TAIL(362), TAIL(363),
    TAIL(364), TAIL(365), TAIL(366), TAIL(367), TAIL(368), TAIL(369), TAIL(370), TAIL(371),
    TAIL(372), TAIL(373), TAIL(374), TAIL(375), TAIL(376), TAIL(377), TAIL(378), TAIL(379),
    TAIL(380), TAIL(381), TAIL(382), TAIL(383), TAIL(384), TAIL(385), TAIL(386), TAIL(387),
    TAIL(388), TAIL(389), TAIL(390), TAIL(391), TAIL(392), TAIL(393), TAIL(394), TAIL(395),
    TAIL(396), TAIL(397), TAIL(398), TAIL(399), TAIL(400), TAIL(401), TAIL(402), TAIL(403),
    TAIL(404), TAIL(405), TAIL(406), TAIL(407), TAIL(408), TAIL(409), TAIL(410), TAIL(411),
    TAIL(412), TAIL(413), TAIL(414), TAIL(415), TAIL(416), TAIL(417), TAIL(418), TAIL(419),
    TAIL(420), TAIL(421), TAIL(422), TAIL(423), TAIL(424), TAIL(425), TAIL(426), TAIL(427),
    TAIL(428), TAIL(429), TAIL(430), TAIL(431), TAIL(432), TAIL(433), TAIL(434), TAIL(435),
    TAIL(436), TAIL(437), TAIL(438), TAIL(439), TAIL(440), TAIL(441), TAIL(442), TAIL(443),
    TAIL(444), TAIL(445), TAIL(446), TAIL(447), TAIL(448), TAIL(449), TAIL(450), TAIL(451),
    TAIL(452), TAIL(453), TAIL(454), TAIL(455)
};
#undef TAIL

/* d / p for d < 2^23, p <= 64 (adapt's points: a label's code points so
 * far): s = 40, x * e < 2^23 * 64 < 2^40, x * M < 2^23 * (2^40 + 1) < 2^64. */
#define RECIP_P(p) (((uint64_t)1 << 40) / ((p) ? (p) : 1) + 1) /* (points >= 1) */
static const uint64_t recip_points[65] = {
    RECIP_P(0), RECIP_P(1), RECIP_P(2), RECIP_P(3), RECIP_P(4), RECIP_P(5), RECIP_P(6), RECIP_P(7),
    RECIP_P(8), RECIP_P(9), RECIP_P(10), RECIP_P(11), RECIP_P(12), RECIP_P(13), RECIP_P(14),
    RECIP_P(15), RECIP_P(16), RECIP_P(17), RECIP_P(18), RECIP_P(19), RECIP_P(20), RECIP_P(21),
    RECIP_P(22), RECIP_P(23), RECIP_P(24), RECIP_P(25), RECIP_P(26), RECIP_P(27), RECIP_P(28),
    RECIP_P(29), RECIP_P(30), RECIP_P(31), RECIP_P(32), RECIP_P(33), RECIP_P(34), RECIP_P(35),
    RECIP_P(36), RECIP_P(37), RECIP_P(38), RECIP_P(39), RECIP_P(40), RECIP_P(41), RECIP_P(42),
    RECIP_P(43), RECIP_P(44), RECIP_P(45), RECIP_P(46), RECIP_P(47), RECIP_P(48), RECIP_P(49),
    RECIP_P(50), RECIP_P(51), RECIP_P(52), RECIP_P(53), RECIP_P(54), RECIP_P(55), RECIP_P(56),
    RECIP_P(57), RECIP_P(58), RECIP_P(59), RECIP_P(60), RECIP_P(61), RECIP_P(62), RECIP_P(63),
    RECIP_P(64)
};
#undef RECIP_P

/* r / (BASE - t) for r < 2^26, t a threshold (1 <= t <= TMAX, a divisor of
 * 10 to 35): s = 38, x * e < 2^26 * 35 < 2^38, x * M < 2^26 * 2^35 = 2^61. */
#define RECIP_T(t) (((uint64_t)1 << 38) / (BASE - (t)) + 1)
static const uint64_t recip_digit[TMAX + 1] = {
    RECIP_T(0), RECIP_T(1), RECIP_T(2), RECIP_T(3), RECIP_T(4), RECIP_T(5), RECIP_T(6), RECIP_T(7),
    RECIP_T(8), RECIP_T(9), RECIP_T(10), RECIP_T(11), RECIP_T(12), RECIP_T(13), RECIP_T(14),
    RECIP_T(15), RECIP_T(16), RECIP_T(17), RECIP_T(18), RECIP_T(19), RECIP_T(20), RECIP_T(21),
    RECIP_T(22), RECIP_T(23), RECIP_T(24), RECIP_T(25), RECIP_T(26)
};
#undef RECIP_T

static uint64_t adapt(uint64_t delta, uint64_t points, int first)
{
    if (delta <= UINT32_MAX && points <= UINT32_MAX) {
        /* the encoder's deltas and most decoded ones: 32-bit arithmetic,
         * and no division for a short label's (the tables above) */
        uint32_t d = (uint32_t)delta, p = (uint32_t)points, k = 0;
        d = first ? d / DAMP : d / 2;
        d += d < (1u << 23) && p <= 64 ? (uint32_t)(d * recip_points[p] >> 40) : d / p;
        while (d > ((BASE - TMIN) * TMAX) / 2) {
            d /= BASE - TMIN;
            k += BASE;
        }
        return k + adapt_tail[d];
    }
    delta = first ? delta / DAMP : delta / 2;
    delta += delta / points;
    uint64_t k = 0;
    while (delta > ((BASE - TMIN) * TMAX) / 2) {
        delta /= BASE - TMIN;
        k += BASE;
    }
    return k + (BASE - TMIN + 1) * delta / (delta + SKEW);
}

static uint64_t threshold(uint64_t k, uint64_t bias)
{
    return k <= bias ? TMIN : k >= bias + TMAX ? TMAX : k - bias;
}

/* The digits of RFC 3492 5: 0-25 a-z, 26-35 0-9 (a load, no branch). */
static const char digits36[BASE + 1] = "abcdefghijklmnopqrstuvwxyz0123456789";

/* Emits delta as a generalized variable-length integer (RFC 3492 6.3) at
 * d, before end: the byte after it, or NULL when it does not fit. An
 * encoder's delta is below 2^32: at most 0x10FFFF times the code points
 * handled (MAX_PUNYCODE_LABEL + 1), plus the label's length; 32-bit
 * divisions then, and at most 11 digits (each divides by 36 - t >= 10). */
static uint8_t *put_delta(uint8_t *d, uint8_t *end, uint32_t q, uint32_t bias)
{
    /* threshold(k, bias) for k = BASE, 2 BASE, ...: k - bias clamped to
     * [TMIN, TMAX], in signed arithmetic without a branch. A delta has at
     * most 11 digits (k <= 11 BASE), so a bias past 11 BASE gives TMIN
     * throughout as 11 BASE does: clamped there (an encoder's is below 300) */
    int32_t kb = BASE - (int32_t)(bias < 11 * BASE ? bias : 11 * BASE);
    for (;; kb += BASE) {
        int32_t tc = kb < TMIN ? TMIN : kb;
        uint32_t t = (uint32_t)(tc > TMAX ? TMAX : tc);
        if (q < t)
            break;
        if (d == end)
            return NULL;
        uint32_t r = q - t, b = BASE - t; /* one division for both */
        uint32_t quot = r < (1u << 26) ? (uint32_t)(r * recip_digit[t] >> 38) : r / b;
        *d++ = (uint8_t)digits36[t + (r - quot * b)];
        q = quot;
    }
    if (d == end)
        return NULL;
    *d++ = (uint8_t)digits36[q];
    return d;
}

/* The most bytes punycode_put writes for a label of n code points: each
 * code point basic (1 byte) or a delta (at most 11), and the '-'. */
#define PUNYCODE_ROOM(n) (11 * (n) + 1)

/* Labels up to this many code points have their positions in one word. */
#define PUNYCODE_SHORT 64

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Positions of a label counted by a Fenwick tree: bit[1..n]. */
static void count_add(uint16_t *bit, size_t n, size_t i)
{
    for (i++; i <= n; i += i & (~i + 1))
        bit[i]++;
}

/* How many counted positions are below i. */
static uint32_t count_below(const uint16_t *bit, size_t i)
{
    uint32_t c = 0;
    for (; i > 0; i -= i & (~i + 1))
        c += bit[i];
    return c;
}

/* The positions in [from, to) of a label of at most 64 code points that
 * `mask` counts. */
static uint32_t mask_count(uint64_t mask, size_t from, size_t to)
{
    uint64_t below_to = to >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << to) - 1;
    if (from >= to)
        return 0;
    uint64_t below_from = ((uint64_t)1 << from) - 1; /* from < to <= 64 */
    return pct_popcount64_plain(mask & below_to & ~below_from);
}

/* Labels with up to this many non-basic code points are encoded by
 * RFC 3492's loop itself (punycode_few). */
#define PUNYCODE_FEW 16

/* The deltas of a label with few non-basic code points, whose basic ones
 * (`basic` of them) are written already: the k non-basic ones in cp[],
 * gap[j] the basic ones right before cp[j], `tail` those after the last;
 * m the least of cp[]. RFC 3492 6.3 as written, one pass for each
 * distinct code point, which also finds the next one; a basic code point
 * is below every m, so a pass adds each gap at once and looks only at the
 * non-basic ones. For the usual label (one to three non-ASCII code
 * points) that is a pass or three over a few code points: less work than
 * sorting and counting, and at most PUNYCODE_FEW passes of k. */
static uint8_t *punycode_few(const uint32_t *cp, const uint16_t *gap, size_t k, size_t tail,
                             size_t basic, uint32_t m, uint8_t *d, uint8_t *end)
{
    uint32_t next = INITIAL_N, delta = 0, h = (uint32_t)basic, n = (uint32_t)(basic + k);
    uint32_t bias = INITIAL_BIAS;
    while (h < n) {
        uint32_t up = UINT32_MAX; /* the least code point above m */
        delta += (m - next) * (h + 1);
        for (size_t j = 0; j < k; j++) {
            uint32_t c = cp[j];
            delta += gap[j];
            if (c < m) {
                delta++;
            } else if (c == m) {
                if (!(d = put_delta(d, end, delta, bias)))
                    return NULL;
                if (h + 1 == n)
                    return d; /* the last: no bias after it */
                bias = (uint32_t)adapt(delta, h + 1, h == basic);
                delta = 0;
                h++;
            } else if (c < up) {
                up = c;
            }
        }
        delta += (uint32_t)tail + 1;
        next = m + 1;
        m = up;
    }
    return d;
}

/* The punycode of label[0..n) (n <= MAX_PUNYCODE_LABEL; without "xn--")
 * at d, before end: the byte after it, or NULL when it does not fit.
 * A label of few non-basic code points: punycode_few. Else the encoder's
 * delta before each code point m at position p counts the code points
 * below m before p since the last one emitted: the non-basic code points
 * are sorted once (by value, then position) and the positions already
 * handled are counted, in one word for a short label (a popcount), by a
 * Fenwick tree for a long one: O(n log n), where RFC 3492's loop as
 * written is O(n x distinct code points); the output is the same. */
static uint8_t *punycode_put(const uint32_t *label, size_t n, uint8_t *d, uint8_t *end)
{
    uint32_t few[PUNYCODE_FEW], least = UINT32_MAX;
    uint16_t gap[PUNYCODE_FEW];
    size_t basic = 0, k = 0, run = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = label[i];
        if (c < 0x80) {
            if (d == end)
                return NULL;
            *d++ = (uint8_t)c;
            basic++;
            run++;
        } else {
            if (k < PUNYCODE_FEW) {
                few[k] = c;
                gap[k] = (uint16_t)run; /* run <= n <= MAX_PUNYCODE_LABEL */
            }
            k++;
            run = 0;
            least = c < least ? c : least;
        }
    }
    if (basic) {
        if (d == end)
            return NULL;
        *d++ = '-';
    }
    if (k <= PUNYCODE_FEW)
        return punycode_few(few, gap, k, run, basic, least, d, end);
    uint32_t keys[MAX_PUNYCODE_LABEL]; /* code point << 10 | position: positions < 2^10 */
    uint16_t bit[MAX_PUNYCODE_LABEL + 1];
    int short_label = n <= PUNYCODE_SHORT;
    uint64_t mask = 0;
    k = 0;
    if (!short_label)
        memset(bit, 0, (n + 1) * sizeof *bit);
    for (size_t i = 0; i < n; i++) {
        if (label[i] >= 0x80)
            keys[k++] = label[i] << 10 | (uint32_t)i;
        else if (short_label)
            mask |= (uint64_t)1 << i;
        else
            count_add(bit, n, i);
    }
    if (short_label) { /* insertion sort of a few keys */
        for (size_t i = 1; i < k; i++) {
            uint32_t key = keys[i];
            size_t j = i;
            for (; j > 0 && keys[j - 1] > key; j--)
                keys[j] = keys[j - 1];
            keys[j] = key;
        }
    } else {
        qsort(keys, k, sizeof *keys, cmp_u32);
    }
    uint32_t next = INITIAL_N, delta = 0, bias = INITIAL_BIAS;
    size_t h = basic;
    for (size_t at = 0; at < k;) {
        uint32_t m = keys[at] >> 10;
        delta += (m - next) * (uint32_t)(h + 1);
        size_t from = 0, end_m = at;
        for (; end_m < k && keys[end_m] >> 10 == m; end_m++) {
            size_t pos = keys[end_m] & 1023u;
            delta += short_label ? mask_count(mask, from, pos)
                                 : count_below(bit, pos) - count_below(bit, from);
            if (!(d = put_delta(d, end, delta, bias)))
                return NULL;
            bias = (uint32_t)adapt(delta, h + 1, h == basic);
            delta = 0;
            h++;
            from = pos + 1;
        }
        delta += short_label ? mask_count(mask, from, n) : count_below(bit, n) - count_below(bit, from);
        for (; at < end_m; at++) {
            if (short_label)
                mask |= (uint64_t)1 << (keys[at] & 1023u);
            else
                count_add(bit, n, keys[at] & 1023u);
        }
        delta++;
        next = m + 1;
    }
    return d;
}

/* The code points of the punycode in[0..n) (ASCII) into out (emptied first). */
static int punycode_decode(const uint32_t *in, size_t n, cps *out)
{
    out->len = 0;
    size_t b = n, start = 0;
    for (size_t j = n; j > 0; j--)
        if (in[j - 1] == '-') {
            b = j - 1;
            break;
        }
    if (b < n) {
        if (cps_append(out, in, b) < 0)
            return NOMEM;
        start = b + 1;
    }
    uint64_t next = INITIAL_N, i = 0, bias = INITIAL_BIAS;
    for (size_t at = start; at < n;) {
        uint64_t old = i, w = 1;
        for (uint64_t k = BASE;; k += BASE) {
            if (at >= n)
                return FAIL;
            uint32_t c = in[at++];
            uint64_t digit;
            if (c - 'a' < 26)
                digit = c - 'a';
            else if (c - 'A' < 26)
                digit = c - 'A';
            else if (c - '0' < 10)
                digit = c - '0' + 26;
            else
                return FAIL;
            if (digit && digit > (DELTA_LIMIT - i) / w)
                return FAIL;
            i += digit * w;
            uint64_t t = threshold(k, bias);
            if (digit < t)
                break;
            w = w > DELTA_LIMIT / (BASE - t) ? DELTA_LIMIT + 1 : w * (BASE - t);
        }
        uint64_t len = out->len + 1;
        bias = adapt(i - old, len, old == 0);
        next += i / len;
        i %= len;
        if (next > 0x10FFFF || (next >= 0xD800 && next <= 0xDFFF))
            return FAIL;
        if (cps_push(out, 0) < 0)
            return NOMEM;
        memmove(out->p + i + 1, out->p + i, (out->len - 1 - (size_t)i) * sizeof *out->p);
        out->p[i] = (uint32_t)next;
        i++;
    }
    return OK;
}

/* ---- validity (UTS #46 4.1, CheckHyphens off) and the Bidi rule ------- */

static int is_xn(const uint32_t *l, size_t n)
{
    return n >= 4 && l[0] == 'x' && l[1] == 'n' && l[2] == '-' && l[3] == '-';
}

static int all_ascii(const uint32_t *l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (l[i] >= 0x80)
            return 0;
    return 1;
}

/* RFC 5892 Appendix A: a joiner after a virama, or a ZWNJ between joining
 * letters (L or D before it, R or D after it, T between). */
static int joiner_ok(const uint32_t *l, size_t n, size_t i)
{
    if (i > 0 && ccc(l[i - 1]) == 9)
        return 1;
    if (l[i] == 0x200D)
        return 0;
    size_t j = i;
    unsigned t;
    do {
        if (j == 0)
            return 0;
        t = PCT_IDNA_JOINING(props(l[--j]));
    } while (t == PCT_JOIN_T);
    if (t != PCT_JOIN_L && t != PCT_JOIN_D)
        return 0;
    j = i;
    do {
        if (++j >= n)
            return 0;
        t = PCT_IDNA_JOINING(props(l[j]));
    } while (t == PCT_JOIN_T);
    return t == PCT_JOIN_R || t == PCT_JOIN_D;
}

/* A label: FAIL unless valid. check_nfc for a decoded label (mapping and
 * NFC made the others so). */
static int label_valid(const uint32_t *l, size_t n, int check_nfc, cps *tmp, cps *tmp2)
{
    if (n == 0)
        return OK;
    if (is_xn(l, n) || (props(l[0]) & PCT_IDNA_MARK))
        return FAIL;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = l[i];
        if (cp == '.' || cp - 'A' < 26)
            return FAIL;
        if (cp >= 0x80 && PCT_IDNA_STATUS(props(cp)) != PCT_IDNA_VALID)
            return FAIL;
        if ((cp == 0x200C || cp == 0x200D) && !joiner_ok(l, n, i))
            return FAIL;
    }
    if (check_nfc) {
        int rc = nfc(l, n, tmp, tmp2);
        if (rc != OK)
            return rc;
        if (tmp->len != n || memcmp(tmp->p, l, n * sizeof *l) != 0)
            return FAIL;
    }
    return OK;
}

static unsigned bidi(uint32_t cp)
{
    return PCT_IDNA_BIDI(props(cp));
}

#define CLASS(b) (1u << PCT_BIDI_##b)

/* RFC 5893 section 2 for one non-empty label of a bidi domain name, from
 * its first code point's class (the label's direction, rule 1), the set
 * of the classes it holds (allowed in it, rules 2 and 5; not both kinds
 * of digits, rule 4) and its last class but NSM (rules 3 and 6). */
static int bidi_classes_ok(unsigned first, uint32_t seen, unsigned end_class)
{
    uint32_t end = 1u << end_class;
    if (first == PCT_BIDI_R || first == PCT_BIDI_AL)
        return !(seen & (CLASS(L) | CLASS(OTHER))) && (seen & (CLASS(AN) | CLASS(EN))) != (CLASS(AN) | CLASS(EN))
               && (end & (CLASS(R) | CLASS(AL) | CLASS(EN) | CLASS(AN)));
    return first == PCT_BIDI_L
           && !(seen & ~(CLASS(L) | CLASS(EN) | CLASS(ES) | CLASS(CS) | CLASS(ET) | CLASS(ON) | CLASS(BN) | CLASS(NSM)))
           && (end & (CLASS(L) | CLASS(EN)));
}

/* bidi_classes_ok of the label l[0..n) (n > 0). */
static int bidi_label_ok(const uint32_t *l, size_t n)
{
    unsigned first = bidi(l[0]), end_class = first;
    uint32_t seen = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned b = bidi(l[i]);
        seen |= 1u << b;
        end_class = b == PCT_BIDI_NSM ? end_class : b;
    }
    return bidi_classes_ok(first, seen, end_class);
}

#undef CLASS

/* d[0..n) holds a code point of a right-to-left label (R, AL or AN): the
 * name is a bidi domain name (RFC 5893 1.4). */
static int bidi_name(const uint32_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (d[i] >= 0x80) {
            unsigned b = bidi(d[i]);
            if (b == PCT_BIDI_R || b == PCT_BIDI_AL || b == PCT_BIDI_AN)
                return 1;
        }
    }
    return 0;
}

/* The labels of d[0..n) (joined by '.') follow the Bidi rule. */
static int bidi_ok(const uint32_t *d, size_t n)
{
    if (!bidi_name(d, n))
        return 1;
    for (size_t s = 0; s <= n;) {
        size_t e = s;
        while (e < n && d[e] != '.')
            e++;
        if (e > s && !bidi_label_ok(d + s, e - s))
            return 0;
        s = e + 1;
    }
    return 1;
}

/* ---- the whole ------------------------------------------------------- */

/* C0 controls, space, # % / : < > ? @ [ \ ] ^ | and DEL: a host parser
 * rejects them after domain to ASCII. */
#define BIT(c) ((uint64_t)1 << ((c) & 63))
static const uint64_t forbidden_bits[2] = {
    /* 0x00-0x3F: C0 controls, space, # % / : < > ? */
    0x1FFFFFFFFull | BIT('#') | BIT('%') | BIT('/') | BIT(':') | BIT('<') | BIT('>') | BIT('?'),
    /* 0x40-0x7F: @ [ \ ] ^ | DEL */
    BIT('@') | BIT('[') | BIT('\\') | BIT(']') | BIT('^') | BIT('|') | BIT(0x7F)};
#undef BIT

static int forbidden(uint32_t c)
{
    return c < 0x80 && (int)(forbidden_bits[c >> 6] >> (c & 63) & 1u);
}

typedef struct {
    cps text, mapped, labels, label, tmp, tmp2;
} work;

static void work_init(work *w)
{
    cps_init(&w->text);
    cps_init(&w->mapped);
    cps_init(&w->labels);
    cps_init(&w->label);
    cps_init(&w->tmp);
    cps_init(&w->tmp2);
}

static void work_free(work *w)
{
    cps_free(&w->text);
    cps_free(&w->mapped);
    cps_free(&w->labels);
    cps_free(&w->label);
    cps_free(&w->tmp);
    cps_free(&w->tmp2);
}

/* The usual host in one pass, one table lookup a code point: every code
 * point ASCII or VALID, the text in NFC already (the quick check's Yes,
 * marks in order), no joiner, no label that starts with a mark or is
 * "xn--". Mapping and NFC then change nothing but the ASCII capitals, and
 * every label is valid: process()'s labels are the text lowercased.
 * plain_ascii and plain_cp check one code point each, for plain_labels
 * (on code points) and fast_to_ascii (on bytes). */
enum { NOT_PLAIN = 2, PLAIN = 3 };

/* An ASCII code point cp written lowercased at o[i], where o[*start..i)
 * is its label so far (a '.' starts the next): 0 when it makes the label
 * begin "xn--". */
static inline int plain_ascii(uint32_t cp, uint32_t *o, size_t i, size_t *start)
{
    if (cp == '.')
        *start = i + 1;
    else if (i - *start == 3 && cp == '-' && o[*start] == 'x' && o[*start + 1] == 'n' && o[*start + 2] == '-')
        return 0;
    o[i] = cp - 'A' < 26 ? cp + 32 : cp;
    return 1;
}

/* A non-ASCII code point cp (its props p), first of its label or not,
 * after the code point prev; *last: the combining class before it (0
 * after ASCII), *right: set by a code point of a right-to-left name (for
 * the Bidi rule). 0 when not plain. A valid code point that fails NFC's
 * quick check is a Maybe (valid ones are their own NFKC): a starter one
 * (the vowel signs of Sinhala, Tamil, ..., Hangul jamo) right after a
 * starter it does not compose with leaves the text in NFC. */
static inline int plain_cp(uint32_t cp, uint32_t p, int first, uint32_t prev, unsigned *last,
                           unsigned *right)
{
    if (PCT_IDNA_STATUS(p) != PCT_IDNA_VALID || cp == 0x200C || cp == 0x200D || (first && (p & PCT_IDNA_MARK)))
        return 0;
    if (!(p & PCT_IDNA_NFC_YES) && (first || PCT_IDNA_CCC(p) || *last || compose(prev, cp)))
        return 0;
    if (cp >= 0x300) {
        unsigned k = PCT_IDNA_CCC(p);
        if (k && *last > k)
            return 0;
        *last = k;
    } else {
        *last = 0;
    }
    unsigned b = PCT_IDNA_BIDI(p);
    *right |= b == PCT_BIDI_R || b == PCT_BIDI_AL || b == PCT_BIDI_AN;
    return 1;
}

/* The usual host's labels, in[0..n) lowercased, to out: PLAIN (*rtl: a
 * code point of a right-to-left name was seen), NOT_PLAIN for any other
 * text (process() takes it the long way), or NOMEM. */
static int plain_labels(const uint32_t *in, size_t n, cps *out, int *rtl)
{
    if (cps_reserve(out, n) < 0)
        return NOMEM;
    uint32_t *o = out->p + out->len;
    unsigned last = 0, right = 0;
    size_t start = 0; /* where the current label starts in o */
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = in[i];
        if (cp < 0x80) {
            if (!plain_ascii(cp, o, i, &start))
                return NOT_PLAIN;
            last = 0;
        } else if (plain_cp(cp, props(cp), i == start, i ? in[i - 1] : 0, &last, &right)) {
            o[i] = cp;
        } else {
            return NOT_PLAIN;
        }
    }
    out->len += n;
    *rtl = right != 0;
    return PLAIN;
}

/* A byte of a label of the usual host: its lowercase in bits 0-7, its
 * bidi class (PCT_BIDI_*) in bits 8-11 and as a set (1 << class) from bit
 * 12; 0 for a forbidden domain code point (forbidden()), a '.' and a byte
 * >= 0x80. One load a byte, and a run of ASCII bytes ends at a 0. */
#define RUN_CLASS(v) ((v) >> 8 & 15u)
static const uint32_t plain_run[256] = {
    0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
    0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
    0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
    0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
    0x000000, 0x200921, 0x200922, 0x000000, 0x100824, 0x000000, 0x200926, 0x200927,
    0x200928, 0x200929, 0x20092A, 0x04062B, 0x08072C, 0x04062D, 0x000000, 0x000000,
    0x020530, 0x020531, 0x020532, 0x020533, 0x020534, 0x020535, 0x020536, 0x020537,
    0x020538, 0x020539, 0x000000, 0x20093B, 0x000000, 0x20093D, 0x000000, 0x000000,
    0x000000, 0x002161, 0x002162, 0x002163, 0x002164, 0x002165, 0x002166, 0x002167,
    0x002168, 0x002169, 0x00216A, 0x00216B, 0x00216C, 0x00216D, 0x00216E, 0x00216F,
    0x002170, 0x002171, 0x002172, 0x002173, 0x002174, 0x002175, 0x002176, 0x002177,
    0x002178, 0x002179, 0x00217A, 0x000000, 0x000000, 0x000000, 0x000000, 0x20095F,
    0x200960, 0x002161, 0x002162, 0x002163, 0x002164, 0x002165, 0x002166, 0x002167,
    0x002168, 0x002169, 0x00216A, 0x00216B, 0x00216C, 0x00216D, 0x00216E, 0x00216F,
    0x002170, 0x002171, 0x002172, 0x002173, 0x002174, 0x002175, 0x002176, 0x002177,
    0x002178, 0x002179, 0x00217A, 0x20097B, 0x000000, 0x20097D, 0x20097E, 0x000000,
};

/* An "xn--" label at s[0..n) (up to the host's next '.') in a host whose
 * text before it is plain (right: it holds a right-to-left code point;
 * bidi_good: its labels follow the Bidi rule). FAIL when the long way
 * fails for certain on this label, whatever the rest of the host holds:
 * its punycode does not decode to a label with a non-ASCII code point,
 * the decoded label is not valid (label_valid: disallowed or mapped code
 * points, a leading mark, a joiner out of place, not NFC), or it breaks
 * the Bidi rule or makes the name a bidi one whose labels so far break it.
 * (A plain '.' or the host's end bounds the label, mapping its ASCII
 * bytes only lowercases them and NFC leaves them alone: the long way
 * decodes and checks this very label.) Else NOT_PLAIN: the long way
 * takes the host. buf: room for n code points. */
static int xn_label(const uint8_t *s, size_t n, uint32_t *buf, unsigned right, int bidi_good)
{
    size_t len = 0;
    for (; len < n && s[len] != '.'; len++) {
        if (!plain_run[s[len]])
            return NOT_PLAIN; /* (non-ASCII, forbidden: the long way decides) */
        buf[len] = (uint8_t)plain_run[s[len]];
    }
    cps label, tmp, tmp2;
    cps_init(&label);
    cps_init(&tmp);
    cps_init(&tmp2);
    int rc = punycode_decode(buf + 4, len - 4, &label);
    if (rc == OK && (!label.len || all_ascii(label.p, label.len)))
        rc = FAIL;
    if (rc == OK)
        rc = label_valid(label.p, label.len, 1, &tmp, &tmp2);
    if (rc == OK && (right || bidi_name(label.p, label.len)) && (!bidi_good || !bidi_label_ok(label.p, label.len)))
        rc = FAIL;
    cps_free(&label);
    cps_free(&tmp);
    cps_free(&tmp2);
    return rc == FAIL ? FAIL : NOT_PLAIN;
}

/* The props of a code point that needs none of plain_cp's checks but the
 * joiners' (valid, NFC's quick check Yes, combining class 0, no mark):
 * the letters of most scripts, one mask a code point. */
#define SIMPLE_MASK (3u | PCT_IDNA_MARK | PCT_IDNA_NFC_YES | 0xFF0000u)
#define SIMPLE_PROPS (PCT_IDNA_VALID | PCT_IDNA_NFC_YES)

/* The code points of a label fast_to_ascii has read, s[0..n) (valid
 * UTF-8, its ASCII bytes plain), its capitals lowercased, into out (room
 * for n): how many. */
static size_t plain_code_points(const uint8_t *s, size_t n, uint32_t *out)
{
    size_t m = pct_utf8_to_ucs4(s, n, out, n);
    for (size_t j = 0; j < m; j++)
        out[j] = out[j] - 'A' < 26 ? out[j] + 32 : out[j];
    return m;
}

/* The ASCII form of the usual host from its bytes, in one pass and with
 * no allocation: valid UTF-8 of at most FAST_BYTES bytes, plain code
 * points (plain_labels), no forbidden domain code point, a form that fits
 * dst[0..cap). PLAIN with the form there (its length
 * in *out_len); FAIL when the long way would fail for certain (a name
 * that breaks the Bidi rule, an "xn--" label that does not decode:
 * xn_label); else NOT_PLAIN and to_ascii takes the host the long way,
 * which decides: the form is the same either way (tests/c/test_idna.c
 * holds them equal). Each label is written as its bytes arrive: its ASCII
 * bytes lowercased (a label's basic code points start its punycode), moved
 * on by four for "xn--" at its first non-ASCII code point, whose code
 * points (with the ASCII ones before each) are kept for its deltas
 * (punycode_few); a label of more of them is decoded again for
 * punycode_put. Most code points cost a table lookup and one mask
 * (SIMPLE_MASK); the rest are plain_cp's. */
#define FAST_BYTES 256
static int fast_to_ascii(const uint8_t *s, size_t n, uint8_t *dst, size_t cap, size_t *out_len)
{
    uint32_t cp[FAST_BYTES]; /* a long label's code points, an "xn--" label's */
    uint8_t local[2 * FAST_BYTES + 16];
    if (n > FAST_BYTES || !dst)
        return NOT_PLAIN;
    /* into dst when it has room to spare, else here and copied */
    uint8_t *base = cap >= 2 * n + 16 ? dst : local;
    uint8_t *d = base, *end = base == dst ? dst + cap : local + sizeof local;
    size_t i = 0;
    unsigned last = 0, right = 0;
    int bidi_good = 1;
    for (;;) {
        /* a label: its ASCII bytes (at most the rest of the host), "xn--"
         * and '-' fit; its deltas are put_delta's to fit */
        if ((size_t)(end - d) < n - i + 5)
            return NOT_PLAIN;
        if (n - i >= 4 && (s[i] | 0x20) == 'x' && (s[i + 1] | 0x20) == 'n' && s[i + 2] == '-' && s[i + 3] == '-')
            return xn_label(s + i, n - i, cp, right, bidi_good);
        uint8_t *label = d;
        uint32_t few[PUNYCODE_FEW], least = UINT32_MAX, seen = 0, prev = 0;
        uint16_t gap[PUNYCODE_FEW];
        size_t start = i, basic = 0, k = 0, run = 0;
        unsigned first = 0, end_class = 0; /* the label's for the Bidi rule */
        while (i < n) {
            uint32_t c = s[i];
            if (c < 0x80) {
                /* a run of ASCII bytes, up to a '.', a forbidden one, a
                 * non-ASCII one or the end */
                size_t at = i;
                uint32_t classes = 0, v = 0;
                for (uint32_t w; i < n && (w = plain_run[s[i]]) != 0; i++) {
                    *d++ = (uint8_t)w;
                    classes |= w;
                    v = w;
                }
                if (i > at) {
                    if (at == start)
                        first = RUN_CLASS(plain_run[s[at]]);
                    end_class = RUN_CLASS(v);
                    prev = (uint8_t)v;
                    seen |= classes >> 12;
                    basic += i - at;
                    run += i - at;
                    last = 0;
                }
                if (i == n || s[i] == '.')
                    break;
                if (s[i] < 0x80)
                    return NOT_PLAIN; /* a forbidden domain code point */
                continue;
            }
            /* UTF-8 decoded and checked here: no overlong form, no surrogate */
            size_t more;
            if (c - 0xC2 <= 0xDF - 0xC2 && n - i > 1 && (s[i + 1] & 0xC0) == 0x80) {
                /* two bytes, the usual (never overlong: a lead from 0xC2) */
                more = 1;
                c = (c & 0x1F) << 6 | (s[i + 1] & 0x3Fu);
            } else if (c - 0xE0 <= 0xEF - 0xE0 && n - i > 2 && ((s[i + 1] & 0xC0) | (s[i + 2] & 0xC0) << 8) == 0x8080) {
                /* three bytes (CJK, most scripts of South and Southeast
                 * Asia, Hangul): the next usual, unrolled */
                more = 2;
                c = (c & 0x0F) << 12 | (s[i + 1] & 0x3Fu) << 6 | (s[i + 2] & 0x3Fu);
                if (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))
                    return NOT_PLAIN;
            } else {
                uint32_t min;
                if (c >= 0xE0 && c <= 0xEF) {
                    more = 2;
                    c &= 0x0F;
                    min = 0x800;
                } else if (c >= 0xF0 && c <= 0xF4) {
                    more = 3;
                    c &= 0x07;
                    min = 0x10000;
                } else {
                    return NOT_PLAIN; /* (a broken two-byte sequence too) */
                }
                if (n - i <= more)
                    return NOT_PLAIN;
                for (size_t j = 1; j <= more; j++) {
                    if ((s[i + j] & 0xC0) != 0x80)
                        return NOT_PLAIN;
                    c = c << 6 | (s[i + j] & 0x3Fu);
                }
                if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
                    return NOT_PLAIN;
            }
            uint32_t p = props(c);
            if ((p & SIMPLE_MASK) == SIMPLE_PROPS && c - 0x200C > 1)
                last = 0; /* (what plain_cp finds of it; its direction is in seen) */
            else if (!plain_cp(c, p, i == start, prev, &last, &right))
                return NOT_PLAIN;
            unsigned b = PCT_IDNA_BIDI(p);
            seen |= 1u << b;
            first = i == start ? b : first;
            end_class = b == PCT_BIDI_NSM ? end_class : b;
            if (!k) { /* the label's first: "xn--" before its basic code points */
                for (size_t j = basic; j > 0; j--)
                    label[j + 3] = label[j - 1];
                memcpy(label, "xn--", 4);
                d += 4;
            }
            if (k < PUNYCODE_FEW) {
                few[k] = c;
                gap[k] = (uint16_t)run; /* run < FAST_BYTES */
            }
            k++;
            run = 0;
            least = c < least ? c : least;
            prev = c;
            i += more + 1;
        }
        if (i > start)
            bidi_good &= bidi_classes_ok(first, seen, end_class);
        /* a code point of a right-to-left label makes a bidi name */
        right |= (seen & (1u << PCT_BIDI_R | 1u << PCT_BIDI_AL | 1u << PCT_BIDI_AN)) != 0;
        if (k) {
            if (basic)
                *d++ = '-';
            d = k <= PUNYCODE_FEW ? punycode_few(few, gap, k, run, basic, least, d, end)
                                  : punycode_put(cp, plain_code_points(s + start, i - start, cp), label + 4, end);
            if (!d)
                return NOT_PLAIN;
        }
        if (i == n)
            break;
        if (d == end)
            return NOT_PLAIN;
        *d++ = '.';
        i++;
        last = 0;
    }
    /* the Bidi rule (bidi_ok, label by label) fails the long way too: its
     * labels are these */
    if (right && !bidi_good)
        return FAIL;
    *out_len = (size_t)(d - base);
    if (base == local) {
        if (*out_len > cap)
            return NOT_PLAIN;
        memcpy(dst, local, *out_len);
    }
    return PLAIN;
}

/* UTS #46 processing of the UTF-8 src[0..n): w->labels gets the Unicode
 * labels joined by '.'. With *errors NULL any error fails at once (ToASCII
 * as the URL Standard runs it); else errors are counted there and the
 * processing goes on (ToUnicode). */
static int process(const uint8_t *src, size_t n, work *w, int *errors)
{
    int rc = utf8_decode(src, n, &w->text), rtl = 0;
    if (rc == OK)
        rc = plain_labels(w->text.p, w->text.len, &w->labels, &rtl);
    if (rc == PLAIN) {
        if (rtl && !bidi_ok(w->labels.p, w->labels.len)) {
            if (!errors)
                return FAIL;
            ++*errors;
        }
        return OK;
    }
    if (rc == NOT_PLAIN) {
        w->labels.len = 0;
        rc = OK;
    }
    if (rc == OK)
        rc = map(w->text.p, w->text.len, &w->tmp, errors);
    if (rc == OK)
        rc = nfc(w->tmp.p, w->tmp.len, &w->mapped, &w->tmp2);
    if (rc != OK)
        return rc;
    const uint32_t *m = w->mapped.p;
    size_t len = w->mapped.len;
    for (size_t s = 0; s <= len;) {
        size_t e = s;
        while (e < len && m[e] != '.')
            e++;
        const uint32_t *l = m + s;
        size_t ln = e - s;
        int decoded = 0;
        if (is_xn(l, ln)) {
            rc = !all_ascii(l, ln) || ln - 4 > MAX_PUNYCODE_LABEL ? FAIL
                                                                  : punycode_decode(l + 4, ln - 4, &w->label);
            if (rc == OK && (w->label.len == 0 || all_ascii(w->label.p, w->label.len)))
                rc = FAIL;
            if (rc == NOMEM)
                return rc;
            if (rc == OK) {
                l = w->label.p;
                ln = w->label.len;
                decoded = 1;
            }
        }
        if (rc == OK)
            rc = label_valid(l, ln, decoded, &w->tmp, &w->tmp2);
        if (rc == NOMEM)
            return rc;
        if (rc == FAIL) {
            if (!errors)
                return FAIL;
            ++*errors;
            rc = OK;
        }
        if ((s && cps_push(&w->labels, '.') < 0) || cps_append(&w->labels, l, ln) < 0)
            return NOMEM;
        s = e + 1;
    }
    if (!bidi_ok(w->labels.p, w->labels.len)) {
        if (!errors)
            return FAIL;
        ++*errors;
    }
    return OK;
}

/* v's code points as UTF-8 into dst[0..cap). */
static pct_status emit(const cps *v, uint8_t *dst, size_t cap, size_t *out_len)
{
    size_t size = 0;
    for (size_t i = 0; i < v->len; i++)
        size += utf8_size(v->p[i]); /* no overflow: at most 4 per 4-byte element */
    *out_len = size;
    if (size > cap)
        return PCT_IDNA_SMALL;
    for (size_t i = 0; i < v->len; i++)
        dst = utf8_put(dst, v->p[i]);
    return PCT_OK;
}

static int ascii_text(const uint8_t *s, size_t n)
{
    return pct_ascii_span(s, n) == n;
}

/* Where a form of len bytes goes: dst[0..cap), or, when longer and heap is
 * given, a malloc'd *heap (the caller frees it); NULL with *rc set when
 * neither (PCT_IDNA_SMALL, PCT_ERR_NO_MEMORY). The form is computed once
 * and written once, whatever its length. */
static uint8_t *room(size_t len, uint8_t *dst, size_t cap, uint8_t **heap, pct_status *rc)
{
    if (len <= cap)
        return dst;
    if (!heap) {
        *rc = PCT_IDNA_SMALL;
        return NULL;
    }
    if (!(*heap = malloc(len))) {
        *rc = PCT_ERR_NO_MEMORY;
        return NULL;
    }
    return *heap;
}

/* fast_to_ascii's answer as to_ascii gives it: 1 with it in *rc (PCT_OK,
 * the form at dst and *form set when given; PCT_IDNA_FAIL), 0 when the
 * long way decides. */
static int fast_answer(const uint8_t *s, size_t n, uint8_t *dst, size_t cap, const uint8_t **form,
                       size_t *out_len, pct_status *rc)
{
    int got = fast_to_ascii(s, n, dst, cap, out_len);
    if (got == PLAIN) {
        if (form)
            *form = dst;
        *rc = PCT_OK;
        return 1;
    }
    if (got == FAIL) {
        *out_len = 0;
        *rc = PCT_IDNA_FAIL;
        return 1;
    }
    return 0;
}

/* The ASCII form of the domain src[0..n) (its length in *out_len) into
 * room(); *form (when given) says where it was written. fast: the usual
 * host by fast_to_ascii first. */
static pct_status to_ascii(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, uint8_t **heap,
                           const uint8_t **form, size_t *out_len, int fast)
{
    *out_len = 0;
    pct_status out = PCT_OK;
    uint8_t *d;
    if (ascii_text(src, n)) {
        for (size_t i = 0; i < n; i++)
            if (forbidden(src[i]))
                return PCT_IDNA_FAIL;
        *out_len = n;
        if (n == 0)
            return PCT_IDNA_FAIL;
        if (!(d = room(n, dst, cap, heap, &out)))
            return out;
        for (size_t i = 0; i < n; i++)
            d[i] = (uint8_t)((unsigned)(src[i] - 'A') < 26u ? src[i] + 32 : src[i]);
        if (form)
            *form = d;
        return PCT_OK;
    }
    if (fast && fast_answer(src, n, dst, cap, form, out_len, &out))
        return out;
    work w;
    work_init(&w);
    int rc = process(src, n, &w, NULL);
    /* each label as it is (ASCII) or "xn--" and its punycode, as bytes */
    const uint32_t *l = w.labels.p;
    size_t len = w.labels.len;
    pct_buf ob;
    pct_buf_init(&ob);
    for (size_t s = 0; rc == OK && s <= len;) {
        size_t e = s;
        while (e < len && l[e] != '.')
            e++;
        int ascii = all_ascii(l + s, e - s);
        if (!ascii && e - s > MAX_PUNYCODE_LABEL) {
            rc = FAIL;
        } else if (pct_buf_reserve(&ob, 5 + (ascii ? e - s : PUNYCODE_ROOM(e - s)), SIZE_MAX) != PCT_OK) {
            rc = NOMEM; /* (no overflow: e - s <= MAX_PUNYCODE_LABEL when multiplied) */
        } else {
            d = ob.data + ob.len;
            if (s)
                *d++ = '.';
            if (ascii) {
                for (size_t i = s; i < e; i++)
                    *d++ = (uint8_t)l[i];
            } else {
                memcpy(d, "xn--", 4);
                d = punycode_put(l + s, e - s, d + 4, ob.data + ob.cap); /* (it has the room) */
            }
            if (!d)
                rc = FAIL;
            else
                ob.len = (size_t)(d - ob.data);
        }
        s = e + 1;
    }
    out = PCT_IDNA_FAIL;
    if (rc == NOMEM) {
        out = PCT_ERR_NO_MEMORY;
    } else if (rc == OK && ob.len) {
        out = PCT_OK;
        for (size_t i = 0; i < ob.len; i++)
            if (forbidden(ob.data[i]))
                out = PCT_IDNA_FAIL;
        if (out == PCT_OK) {
            *out_len = ob.len;
            if ((d = room(ob.len, dst, cap, heap, &out)) != NULL) {
                memcpy(d, ob.data, ob.len);
                if (form)
                    *form = d;
            }
        }
    }
    pct_buf_free(&ob);
    work_free(&w);
    return out;
}

pct_status pct_idna_to_ascii(const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                                  size_t *out_len)
{
    return to_ascii(src, n, dst, cap, NULL, NULL, out_len, 1);
}

pct_status pct_idna_to_ascii_full(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *out_len)
{
    return to_ascii(src, n, dst, cap, NULL, NULL, out_len, 0);
}

pct_status pct_idna_to_unicode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                                    size_t *out_len)
{
    *out_len = 0;
    work w;
    work_init(&w);
    int errors = 0;
    int rc = process(src, n, &w, &errors);
    pct_status out;
    if (rc == NOMEM) {
        out = PCT_ERR_NO_MEMORY;
    } else if (rc == FAIL) {
        out = PCT_IDNA_FAIL; /* not UTF-8: no text to give */
    } else {
        for (size_t i = 0; i < w.labels.len; i++)
            if (forbidden(w.labels.p[i]))
                errors++;
        out = emit(&w.labels, dst, cap, out_len);
        if (out == PCT_OK && (errors || w.labels.len == 0))
            out = PCT_IDNA_FAIL;
    }
    work_free(&w);
    return out;
}

/* ":/?#[]@!$&'()*+,;=" and '%': escapes of these stay escaped. */
static int kept_escaped(unsigned c)
{
    return c == ':' || c == '/' || c == '?' || c == '#' || c == '[' || c == ']' || c == '@' ||
           c == '!' || c == '$' || c == '&' || c == '\'' || c == '(' || c == ')' || c == '*' ||
           c == '+' || c == ',' || c == ';' || c == '=' || c == '%';
}

/* The host's escapes decoded (pct_idna_host_to_ascii), then to_ascii. */
static pct_status host_to_ascii(const uint8_t *host, size_t n, uint8_t *dst, size_t cap,
                                uint8_t **heap, const uint8_t **form, size_t *out_len)
{
    /* a host with a byte >= 0x80 (as an IDN is) is tried by the one pass
     * first, escapes and all: it answers (PLAIN or FAIL) only off bytes
     * before any '%' (a byte it does not take), which decoding leaves as
     * they are, and the decoded host has that byte too, so to_ascii would
     * take it by the one pass alike (tests/c/test_idna.c holds the two
     * equal) */
    int fast = 1;
    pct_status rc;
    if (n && pct_ascii_span(host, n) < n) {
        if (fast_answer(host, n, dst, cap, form, out_len, &rc))
            return rc;
        fast = 0; /* (no '%': the one pass has said NOT_PLAIN already) */
    }
    if (n == 0 || !memchr(host, '%', n)) /* the usual host: no escape to decode */
        return to_ascii(host, n, dst, cap, heap, form, out_len, fast);
    uint8_t small[256] = {0}, *buf = small; /* zeroed: gcc cannot see that len bytes are set */
    if (n > sizeof small && !(buf = malloc(n)))
        return PCT_ERR_NO_MEMORY;
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (host[i] == '%' && n - i >= 3 && pct_hex_value[host[i + 1]] >= 0 &&
            pct_hex_value[host[i + 2]] >= 0) {
            unsigned c = (unsigned)(pct_hex_value[host[i + 1]] << 4 | pct_hex_value[host[i + 2]]);
            if (!kept_escaped(c)) {
                buf[len++] = (uint8_t)c;
                i += 2;
                continue;
            }
        }
        buf[len++] = host[i];
    }
    rc = to_ascii(buf, len, dst, cap, heap, form, out_len, 1);
    if (buf != small)
        free(buf);
    return rc;
}

pct_status pct_idna_host_to_ascii(const uint8_t *host, size_t n, uint8_t *dst, size_t cap,
                                       size_t *out_len)
{
    return host_to_ascii(host, n, dst, cap, NULL, NULL, out_len);
}

pct_status pct_idna_host_form(const uint8_t *host, size_t n, uint8_t *buf, size_t cap,
                                   const uint8_t **form, size_t *form_len, uint8_t **heap)
{
    *heap = NULL;
    *form = buf;
    return host_to_ascii(host, n, buf, cap, heap, form, form_len);
}
