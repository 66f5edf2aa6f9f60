/* Decoders of pct.h: pct_decode on every kernel (apart and in place, at a
 * fuzzed alignment) against a reference decoder, pct_decode_room (into exact
 * room), pct_decode_utf8,
 * pct_decode_text and pct_utf8_check (apart and in place) against a reference UTF-8 validator,
 * and pct_utf8_to_ucs1/2/4 with a fuzzed capacity, within exact buffers;
 * each on every kernel.
 *
 * Input: mode byte (bit 0: plus), offset byte, capacity byte, body. */
#include "fuzz_common.h"

/* Reference strict UTF-8 (no overlong form, surrogate or value past
 * U+10FFFF): 1 and the code points in cps (n entries), or 0. */
static int ref_utf8(const uint8_t *s, size_t n, uint32_t *cps, size_t *count)
{
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        uint32_t c = s[i];
        size_t need;
        uint32_t min;
        if (c < 0x80) {
            need = 0;
            min = 0;
        } else if ((c & 0xE0) == 0xC0) {
            need = 1;
            min = 0x80;
            c &= 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            need = 2;
            min = 0x800;
            c &= 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            need = 3;
            min = 0x10000;
            c &= 0x07;
        } else {
            return 0;
        }
        if (n - i - 1 < need)
            return 0;
        for (size_t j = 1; j <= need; j++) {
            if ((s[i + j] & 0xC0) != 0x80)
                return 0;
            c = c << 6 | (s[i + j] & 0x3F);
        }
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return 0;
        cps[k++] = c;
        i += need + 1;
    }
    *count = k;
    return 1;
}

static uint32_t maxchar_of(const uint32_t *cps, size_t k)
{
    uint32_t top = 0;
    for (size_t i = 0; i < k; i++)
        if (cps[i] > top)
            top = cps[i];
    return top < 0x80 ? 0 : top <= 0xFF ? 0xFF : top <= 0xFFFF ? 0xFFFF : 0x10FFFF;
}

/* pct_utf8_check against the reference on any bytes; returns validity. */
static int check_utf8(const uint8_t *s, size_t n, uint32_t *cps, size_t *count)
{
    pct_utf8_info info;
    pct_utf8_check(s, n, &info);
    int valid = ref_utf8(s, n, cps, count);
    FUZZ_ASSERT(info.valid == valid);
    if (valid) {
        FUZZ_ASSERT(info.nchars == *count);
        FUZZ_ASSERT(info.maxchar == maxchar_of(cps, *count));
    }
    return valid;
}

#define CHECK_TO_UCS(FN, UNIT, MAXOK)                                                  \
    do {                                                                               \
        UNIT *out = alloc_exact(cap * sizeof(UNIT));                                   \
        size_t got = FN(s, n, out, cap);                                               \
        FUZZ_ASSERT(got <= cap);                                                       \
        if (valid) {                                                                   \
            FUZZ_ASSERT(got == (cap < count ? cap : count));                           \
            if (top <= (MAXOK))                                                        \
                for (size_t i = 0; i < got; i++)                                       \
                    FUZZ_ASSERT(out[i] == cps[i]);                                     \
        }                                                                              \
        free(out);                                                                     \
    } while (0)

/* The widening writers on any bytes, with a capacity that may be short. */
static void check_to_ucs(const uint8_t *s, size_t n, size_t cap_byte)
{
    uint32_t *cps = alloc_exact(n * sizeof *cps);
    size_t count = 0;
    int valid = check_utf8(s, n, cps, &count);
    uint32_t top = valid ? maxchar_of(cps, count) : 0;
    size_t cap = cap_byte == 255 ? n : valid && cap_byte >= 128 ? count : cap_byte % (n + 1);
    CHECK_TO_UCS(pct_utf8_to_ucs1, uint8_t, 0xFF);
    CHECK_TO_UCS(pct_utf8_to_ucs2, uint16_t, 0xFFFF);
    CHECK_TO_UCS(pct_utf8_to_ucs4, uint32_t, 0x10FFFF);
    free(cps);
}

static void check_decoders(const uint8_t *src, size_t n, int plus)
{
    uint8_t *want = alloc_exact(n);
    size_t want_len = ref_decode(src, n, plus, want);
    FUZZ_ASSERT(want_len <= n);
    uint32_t *cps = alloc_exact(want_len * sizeof *cps);
    size_t count = 0;
    int valid = check_utf8(want, want_len, cps, &count);

    for (size_t k = 0; k < fuzz_nkernels; k++) {
        fuzz_use_kernel(k);
        uint8_t *out = alloc_exact(n);
        FUZZ_ASSERT(pct_decode(src, n, plus, out) == want_len);
        FUZZ_ASSERT(memcmp(out, want, want_len) == 0);
        memcpy(out, src, n); /* in place */
        FUZZ_ASSERT(pct_decode(out, n, plus, out) == want_len);
        FUZZ_ASSERT(memcmp(out, want, want_len) == 0);

        pct_utf8_info info;
        memcpy(out, src, n);
        FUZZ_ASSERT(pct_decode_utf8(out, n, plus, out, &info) == want_len);
        FUZZ_ASSERT(memcmp(out, want, want_len) == 0);
        FUZZ_ASSERT(info.valid == valid);
        if (valid)
            FUZZ_ASSERT(info.nchars == count && info.maxchar == maxchar_of(cps, count));

        /* apart */
        memset(out, 0xAA, n);
        FUZZ_ASSERT(pct_decode_utf8(src, n, plus, out, &info) == want_len);
        FUZZ_ASSERT(memcmp(out, want, want_len) == 0);
        FUZZ_ASSERT(info.valid == valid);
        if (valid)
            FUZZ_ASSERT(info.nchars == count && info.maxchar == maxchar_of(cps, count));

        /* pct_decode_room: apart, into exactly n + PCT_DECODE_ROOM bytes,
         * with whether a byte >= 0x80 was written */
        {
            uint8_t *room = alloc_exact(n + PCT_DECODE_ROOM);
            int high = -1, want_high = 0;
            for (size_t i = 0; i < want_len; i++)
                want_high |= want[i] >= 0x80;
            FUZZ_ASSERT(pct_decode_room(src, n, plus, room, &high) == want_len);
            FUZZ_ASSERT(memcmp(room, want, want_len) == 0 && (high != 0) == want_high);
            free(room);
        }

        /* pct_decode_text, apart and in place: Latin-1 text as its code
         * points, anything else as pct_decode_utf8 */
        for (int in_place = 0; in_place <= 1; in_place++) {
            memcpy(out, src, n);
            size_t got = pct_decode_text(in_place ? out : src, n, plus, out, &info);
            FUZZ_ASSERT(info.valid == valid);
            if (valid && maxchar_of(cps, count) <= 0xFF) {
                FUZZ_ASSERT(got == count && info.nchars == count);
                for (size_t i = 0; i < count; i++)
                    FUZZ_ASSERT(out[i] == cps[i]);
            } else {
                FUZZ_ASSERT(got == want_len && memcmp(out, want, want_len) == 0);
            }
        }
        free(out);
    }
    free(cps);
    free(want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_list_kernels();
    fuzz_input in = {data, size};
    uint8_t mode = take_byte(&in);
    uint8_t offset = take_byte(&in);
    uint8_t cap = take_byte(&in);
    uint8_t *buf = dup_exact(in.data, in.size);
    size_t off = in.size ? offset % (in.size + 1) : 0;
    check_decoders(buf + off, in.size - off, mode & 1);
    /* the check and the writers on every kernel (AVX2 has its own) */
    for (size_t k = 0; k < fuzz_nkernels; k++) {
        fuzz_use_kernel(k);
        check_to_ucs(buf + off, in.size - off, cap);
    }
    free(buf);
    return 0;
}
