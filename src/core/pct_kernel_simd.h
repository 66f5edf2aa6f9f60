/* The vector algorithms, written once for every instruction set. An
 * including file defines its vector type and primitives, then includes this:
 *
 *   PK_W                 bytes per vector
 *   PK_SHIFT             log2 of the mask bits per byte (pk_bits keeps one of them)
 *   pk_vec, pk_mask      vector and bit-mask types; PK_FULL: the mask of all PK_W bytes
 *   PK_CTZ(m)            count of trailing zero bits of a non-zero mask
 *   pk_loadu, pk_storeu, pk_splat, pk_eq, pk_or, pk_and, pk_add, pk_sub
 *   pk_min(a, b)         the unsigned minimum of each byte pair (unless PK_URI_STOPS)
 *   pk_bits(v)           mask of the bytes of v that are 0xFF (others are 0)
 *   pk_hsum(v)           sum of the bytes of v
 *   pk_prep, pk_prepare(&prep, set)   a set made ready for pk_unsafe; 0 when
 *                        this instruction set cannot test it (scalar then)
 *   pk_unsafe(&prep, v)  0xFF for each byte not in the set, 0 otherwise
 *   pk_escape_block(src, dst)  "%XY" of PK_W bytes: 3*PK_W bytes, plus at
 *                        most one scratch byte after them (unless PK_ESCAPE_VALUE)
 *   PK_FN(name)          the kernel's name for a function; PK_NAME, PK_USABLE
 *   PK_ATTR              attributes of every function (the target instruction set)
 *   PK_UTF8_OF_UCS2      optional: the kernel's UCS-2 to UTF-8 transcoder
 *   PK_ESCAPED_SIZE_UCS2 optional: its escaped size of UCS-2 without the UTF-8
 *   PK_UTF8_CHECK, PK_UTF8_TO_UCS2  optional: its UTF-8 check and UCS-2 writer
 *   PK_ESCAPE_MIXED(v, kept, unsafe, d)  optional: the output of a vector with
 *                        some bytes escaped (up to 4*PK_W+1 bytes written)
 *   PK_ESCAPE_VALUE(v, d)  optional: the same of the bytes of v, in pk_escape_block's place
 *   PK_SHIFT_DOWN(v, j)  optional, with the two above: v's bytes from the j-th
 *                        on (0 < j < PK_W) first, anything after them
 *   PK_URI_STOPS(v), PK_HEX_DIGITS(v)  optional, both or neither: the masks
 *                        of the URI check (see uri_stops below, the default
 *                        by byte ranges)
 *
 * Loads never pass the end of the input: the last partial vector is handled
 * by one overlapping load, a zero-padded copy or the scalar kernel.
 */

/* The linkage of the table's functions: static, unless the including kernel
 * shares them with another (the AVX2 kernel's serve the AVX-512 one). */
#ifndef PK_LINKAGE
#define PK_LINKAGE static
#endif

/* Inputs this short cost less byte by byte than through a padded vector. */
#ifndef PCT_SCALAR_BELOW
#define PCT_SCALAR_BELOW 16
#endif

static inline PK_ATTR pk_mask PK_FN(unsafe_bits)(const pk_prep *p, pk_vec v)
{
    return pk_bits(pk_unsafe(p, v));
}

/* The mask bits of k bytes. */
#define PK_BYTES(k) ((unsigned)(k) << PK_SHIFT)

/* The mask of the first k < PK_W bytes of a vector (in pk_bits' terms). */
static inline PK_ATTR pk_mask PK_FN(first_bytes)(size_t k)
{
    return (pk_mask)((((pk_mask)1 << (k << PK_SHIFT)) - 1) & PK_FULL);
}

/* The n < PK_W bytes at src as a vector, zero after them: short inputs and
 * tails go through the vector code too, never reading past src + n. */
static inline PK_ATTR pk_vec PK_FN(load_short)(const uint8_t *src, size_t n)
{
    uint8_t pad[PK_W] = {0};
    if (PK_W <= 32)
        pct_copy_short(pad, src, n); /* a few fixed-size moves, not a call */
    else
        memcpy(pad, src, n);
    return pk_loadu(pad);
}

PK_LINKAGE PK_ATTR size_t PK_FN(span_safe)(const uint8_t *src, size_t n, const pct_set *set)
{
    pk_prep p;
    if (n < PCT_SCALAR_BELOW || !pk_prepare(&p, set))
        return pct_scalar_span_safe(src, n, set);
    if (n < PK_W) {
        /* short rows (URLs in a batch): one padded vector, its hits past n left out */
        pk_mask m = PK_FN(unsafe_bits)(&p, PK_FN(load_short)(src, n)) & PK_FN(first_bytes)(n);
        return m ? (size_t)(PK_CTZ(m) >> PK_SHIFT) : n;
    }
    size_t i = 0;
    for (; i + PK_W <= n; i += PK_W) {
        pk_mask m = PK_FN(unsafe_bits)(&p, pk_loadu(src + i));
        if (m)
            return i + (PK_CTZ(m) >> PK_SHIFT);
    }
    if (i < n) {
        pk_mask m = PK_FN(unsafe_bits)(&p, pk_loadu(src + n - PK_W));
        if (m)
            return n - PK_W + (PK_CTZ(m) >> PK_SHIFT);
    }
    return n;
}

PK_LINKAGE PK_ATTR size_t PK_FN(count_unsafe)(const uint8_t *src, size_t n, const pct_set *set)
{
    pk_prep p;
    if (n < PCT_SCALAR_BELOW || !pk_prepare(&p, set))
        return pct_scalar_count_unsafe(src, n, set);
    if (n < PK_W) {
        pk_mask m = PK_FN(unsafe_bits)(&p, PK_FN(load_short)(src, n)) & PK_FN(first_bytes)(n);
        return (size_t)pct_popcount64((uint64_t)m);
    }
    size_t count = 0, i = 0;
    const pk_vec zero = pk_splat(0);
    /* 0xFF is -1: subtracting counts; byte counters are summed before 255 blocks. */
    while (n - i >= PK_W) {
        pk_vec acc = zero;
        for (unsigned k = 0; k < 255 && n - i >= PK_W; k++, i += PK_W)
            acc = pk_sub(acc, pk_unsafe(&p, pk_loadu(src + i)));
        count += pk_hsum(acc);
    }
    if (i < n) {
        /* the last vector, overlapping: only its bytes from i on count */
        pk_mask m = PK_FN(unsafe_bits)(&p, pk_loadu(src + n - PK_W)) & ~PK_FN(first_bytes)(PK_W - (n - i));
        count += (size_t)pct_popcount64((uint64_t)m);
    }
    return count;
}

/* Inlined into decode, which calls it once per run. */
static inline PK_ATTR size_t PK_FN(find_escape_inline)(const uint8_t *src, size_t n, int plus)
{
    if (n < PK_W)
        return pct_scalar_find_escape(src, n, plus);
    /* Without plus, the second test is a repeat of the first: one loop serves both. */
    const pk_vec pct = pk_splat('%'), alt = pk_splat(plus ? '+' : '%');
    size_t i = 0;
    for (; i + PK_W <= n; i += PK_W) {
        pk_vec v = pk_loadu(src + i);
        pk_mask m = pk_bits(pk_or(pk_eq(v, pct), pk_eq(v, alt)));
        if (m)
            return i + (PK_CTZ(m) >> PK_SHIFT);
    }
    if (i < n) {
        pk_vec v = pk_loadu(src + n - PK_W);
        pk_mask m = pk_bits(pk_or(pk_eq(v, pct), pk_eq(v, alt)));
        if (m)
            return n - PK_W + (PK_CTZ(m) >> PK_SHIFT);
    }
    return n;
}

PK_LINKAGE PK_ATTR size_t PK_FN(find_escape)(const uint8_t *src, size_t n, int plus)
{
    return PK_FN(find_escape_inline)(src, n, plus);
}

/* A kept byte run as written out: spaces become '+' with plus. */
static inline PK_ATTR pk_vec PK_FN(kept)(pk_vec v, int plus)
{
    if (!plus)
        return v;
    return pk_add(v, pk_and(pk_eq(v, pk_splat(' ')), pk_splat('+' - ' ')));
}

/* Encodes the vector v, the PK_W bytes at s, whose bytes to escape are the
 * bits of `unsafe`, to d; returns the bytes of output. Writes up to
 * 4 * PK_W + 1 bytes at d: each kept stretch is stored as a whole vector,
 * then the escape after it overwrites the bytes past the stretch. Kernels
 * with PK_ESCAPE_VALUE and PK_ESCAPE_MIXED work on v alone; the others
 * read up to PK_W bytes past s. */
static inline PK_ATTR size_t PK_FN(encode_masked)(pk_vec v, pk_mask unsafe, const uint8_t *s,
                                                  int plus, uint8_t *d)
{
    (void)s; /* unread by the kernels that work on v alone */
    if (!unsafe) {
        pk_storeu(d, PK_FN(kept)(v, plus));
        return PK_W;
    }
    if (unsafe == PK_FULL) {
#ifdef PK_ESCAPE_VALUE
        PK_ESCAPE_VALUE(v, d);
#else
        pk_escape_block(s, d);
#endif
        return 3 * PK_W;
    }
#ifdef PK_ESCAPE_MIXED
    /* picked into place by byte shuffles, without a branch per escape */
    return PK_ESCAPE_MIXED(v, PK_FN(kept)(v, plus), unsafe, d);
#else
    uint8_t *start = d;
    size_t from = 0;
    do {
        size_t j = PK_CTZ(unsafe) >> PK_SHIFT;
        pk_storeu(d, PK_FN(kept)(pk_loadu(s + from), plus));
        d = pct_put_escape4(d + (j - from), s[j]);
        from = j + 1;
        unsafe &= unsafe - 1;
    } while (unsafe);
    pk_storeu(d, PK_FN(kept)(pk_loadu(s + from), plus));
    return (size_t)(d - start) + PK_W - from;
#endif
}

static inline PK_ATTR size_t PK_FN(encode_vector)(const pk_prep *p, pk_vec v, const uint8_t *s,
                                                  int plus, uint8_t *d)
{
    return PK_FN(encode_masked)(v, PK_FN(unsafe_bits)(p, v), s, plus, d);
}

/* The output of the first k <= PK_W bytes of v (the rest taken as kept
 * bytes, whose output after theirs is cut off) into scratch space at d. */
static inline PK_ATTR size_t PK_FN(encode_first)(const pk_prep *p, pk_vec v, const uint8_t *s,
                                                 size_t k, int plus, uint8_t *d)
{
    pk_mask unsafe = PK_FN(unsafe_bits)(p, v);
    if (k < PK_W)
        unsafe &= PK_FN(first_bytes)(k);
    return PK_FN(encode_masked)(v, unsafe, s, plus, d) - (PK_W - k);
}

/* pct_encode; with `room`, dst has 3n + PCT_ENCODE_ROOM bytes and the tail
 * is written in place (its stores past the output's end fall in the room),
 * else through scratch space. */
static inline PK_ATTR size_t PK_FN(encode_body)(const uint8_t *src, size_t n, const pct_set *keep,
                                                int plus, uint8_t *dst, int room)
{
    pk_prep p;
    if (n < PCT_SCALAR_BELOW || !pk_prepare(&p, keep))
        return pct_scalar_encode(src, n, keep, plus, dst);
    uint8_t *d = dst;
    size_t i = 0;
    /* While a full vector follows the current one, every access of
     * encode_vector stays inside src and dst: each input byte yet to come
     * writes at least one byte, so a whole vector (or the scratch byte of
     * an escape) fits. */
    for (; n - i >= 2 * PK_W; i += PK_W)
        d += PK_FN(encode_vector)(&p, pk_loadu(src + i), src + i, plus, d);
    size_t rest = n - i;
    if (!rest)
        return (size_t)(d - dst);
    /* The last 1..2*PK_W-1 bytes (all of a short input) are encoded into
     * the room or scratch space (7 * PK_W + 4 bytes), and then the output
     * of their own bytes copied out. */
    uint8_t scratch[7 * PK_W + 4], *out = room ? d : scratch;
    size_t w = 0;
#ifdef PK_SHIFT_DOWN
    if (n >= PK_W) {
        /* from registers: the last vector of the input, moved down so that
         * its bytes not yet encoded come first */
        pk_vec last = pk_loadu(src + n - PK_W);
        if (rest > PK_W) {
            w = PK_FN(encode_vector)(&p, pk_loadu(src + i), src + i, plus, out);
            w += PK_FN(encode_first)(&p, PK_SHIFT_DOWN(last, 2 * PK_W - rest), NULL, rest - PK_W, plus,
                                     out + w);
        } else {
            w = PK_FN(encode_first)(&p, PK_SHIFT_DOWN(last, PK_W - rest), NULL, rest, plus, out);
        }
        if (!room)
            memcpy(d, out, w);
        return (size_t)(d - dst) + w;
    }
#endif
    /* from a zero-padded copy */
    uint8_t in[3 * PK_W] = {0};
    memcpy(in, src + i, rest);
    for (size_t k = 0; k < rest; k += PK_W)
        w += PK_FN(encode_first)(&p, pk_loadu(in + k), in + k, rest - k < PK_W ? rest - k : PK_W, plus,
                                 out + w);
    if (!room)
        memcpy(d, out, w);
    return (size_t)(d - dst) + w;
}

PK_LINKAGE PK_ATTR size_t PK_FN(encode)(const uint8_t *src, size_t n, const pct_set *keep, int plus,
                                    uint8_t *dst)
{
    return PK_FN(encode_body)(src, n, keep, plus, dst, 0);
}

PK_LINKAGE PK_ATTR size_t PK_FN(encode_room)(const uint8_t *src, size_t n, const pct_set *keep, int plus,
                                         uint8_t *dst)
{
    return PK_FN(encode_body)(src, n, keep, plus, dst, 1);
}

/* A copy for decoding, where dst may be src - k (in place): every load of a
 * vector comes before any store that could overlap it. */
static inline PK_ATTR void PK_FN(copy_forward)(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (dst == src)
        return;
    if (n < PK_W) {
        pct_copy_short(dst, src, n);
        return;
    }
    pk_vec last = pk_loadu(src + n - PK_W);
    for (size_t i = 0; i + PK_W <= n; i += PK_W)
        pk_storeu(dst + i, pk_loadu(src + i));
    pk_storeu(dst + n - PK_W, last);
}

/* A literal run as decoded: with plus, '+' becomes a space. */
static inline PK_ATTR pk_vec PK_FN(unplus)(pk_vec v, int plus)
{
    if (!plus)
        return v;
    return pk_sub(v, pk_and(pk_eq(v, pk_splat('+')), pk_splat('+' - ' ')));
}

/* Decoding into a dst apart from src. Each vector is stored whole (with
 * plus, its '+' as ' '); when it holds a '%', the escapes from the first one
 * on are then decoded over the bytes stored past it. The stores stay inside
 * dst: o <= i and i + PK_W <= n. Where the kernel has a block decoder
 * (PK_DECODE_BLOCK), escape-dense vectors go to it instead. */
static PK_ATTR size_t PK_FN(decode_apart)(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    const pk_vec pct = pk_splat('%');
    size_t i = 0, o = 0;
    while (n - i >= PK_W) {
        pk_vec v = pk_loadu(src + i);
        pk_mask m = pk_bits(pk_eq(v, pct));
        if (!m) {
            pk_storeu(dst + o, PK_FN(unplus)(v, plus));
            i += PK_W;
            o += PK_W;
            continue;
        }
#ifdef PK_DECODE_BLOCK
        /* escape-dense text (a few escapes per vector): whole blocks while
         * two bytes past one can be read and the last held an escape;
         * sparse escapes are cheaper one by one */
        if (pct_popcount64((uint64_t)m) >= 3 && n - i >= PK_W + 2) {
            uint32_t skip = 0, escapes;
            do {
                o += PK_DECODE_BLOCK(src + i, plus, &skip, dst + o, &escapes);
                i += PK_W;
            } while (escapes && n - i >= PK_W + 2);
            i += (size_t)pct_popcount32(skip); /* digits already decoded */
            continue;
        }
#endif
        pk_storeu(dst + o, PK_FN(unplus)(v, plus));
        size_t j = PK_CTZ(m) >> PK_SHIFT, w;
        i += j;
        o += j;
        i += pct_decode_run(src + i, n - i, plus, dst + o, &w);
        o += w;
    }
    return o + pct_decode_bytes(src + i, n - i, plus, dst + o);
}

PK_LINKAGE PK_ATTR size_t PK_FN(decode)(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    if (n < PK_W)
        return pct_decode_bytes(src, n, plus, dst);
    if (pct_apart(src, dst, n))
        return PK_FN(decode_apart)(src, n, plus, dst);
    /* In place: each run is loaded before it is stored, one vector behind. */
    PCT_DECODE_BY_RUNS(src, n, plus, dst, PK_FN(find_escape_inline), PK_FN(copy_forward));
}

/* ---- the URI check: pct_uri_offence in one pass ------------------------
 * An offence at i is a byte that is neither kept (unreserved, gen-delims,
 * sub-delims) nor '%', or a '%' not followed by two hex digits (past the
 * end is not hex). That is where pct_scalar_uri_offence, which jumps over
 * each valid escape, stops: the two digits of a valid escape are hex
 * digits, which are kept bytes and not '%', so the test is false at them;
 * at every other byte before the sequential scan's stop the two tests are
 * the same, and at the stop both are true. So the first position where
 * the test holds, computed for all positions at once, is the scan's.
 *
 * Per block of vectors: bad (neither kept nor '%'), pct and hex masks in
 * 64 bits; the hex mask shifted by 1 and 2 bytes needs the next block's
 * first two bits, so each step decides the positions i-2 .. i+61 and
 * carries the last two. A kernel gives its classes by PK_URI_STOPS and
 * PK_HEX_DIGITS (AVX2: nibble tables) or takes the range tests below; one
 * whose masks have a bit per byte also gets uri_offence_bits, the test
 * at every position of a run of rows for pct_batch_rows. */

#ifndef PK_URI_STOPS
/* 0xFF for the bytes of v in [lo, lo + width] (unsigned). */
static inline PK_ATTR pk_vec PK_FN(in_range)(pk_vec v, uint8_t lo, uint8_t width)
{
    pk_vec t = pk_sub(v, pk_splat(lo));
    return pk_eq(pk_min(t, pk_splat(width)), t);
}

/* The bytes that are not kept, by byte ranges: outside '!'..'~' or one
 * of "%<>\^`{|}. */
static inline PK_ATTR pk_mask PK_FN(uri_stops)(pk_vec v)
{
    const pk_vec two = pk_splat(2);
    pk_vec good = PK_FN(in_range)(v, '!', '~' - '!');
    pk_vec excluded = pk_or(pk_or(pk_eq(v, pk_splat('"')), pk_eq(v, pk_splat('`'))),
                            pk_or(pk_eq(pk_or(v, two), pk_splat('>')),  /* < > */
                                  pk_eq(pk_or(v, two), pk_splat('^')))); /* \ ^ */
    excluded = pk_or(pk_or(excluded, pk_eq(v, pk_splat('%'))), PK_FN(in_range)(v, '{', 2)); /* { | } */
    return (~pk_bits(good) | pk_bits(excluded)) & PK_FULL;
}

/* 0-9, and with bit 5 set a-f. */
static inline PK_ATTR pk_mask PK_FN(hex_digits)(pk_vec v)
{
    return pk_bits(pk_or(PK_FN(in_range)(v, '0', 9), PK_FN(in_range)(pk_or(v, pk_splat(0x20)), 'a', 5)));
}
#define PK_URI_STOPS(v) PK_FN(uri_stops)(v)
#define PK_HEX_DIGITS(v) PK_FN(hex_digits)(v)
#endif

/* The check goes by blocks of PK_BLOCK bytes whose masks fill 64 bits
 * (two AVX2 vectors, four SSE2 ones, one NEON one): a row of up to a block
 * (most URLs) is decided without a loop or a carry. */
#define PK_PER_BLOCK (64 / PK_BYTES(PK_W))
#define PK_BLOCK (PK_PER_BLOCK * PK_W)

typedef struct {
    uint64_t bad, pct, hex; /* neither kept nor '%'; '%'; hex digits */
} pk_uri_block;

/* The classes of v into b, at bit `at`. */
static inline PK_ATTR void PK_FN(uri_classes)(pk_vec v, unsigned at, pk_uri_block *b)
{
    pk_mask stops = PK_URI_STOPS(v), pct = pk_bits(pk_eq(v, pk_splat('%')));
    b->bad |= (uint64_t)(stops & ~pct) << at;
    b->pct |= (uint64_t)pct << at;
    b->hex |= (uint64_t)PK_HEX_DIGITS(v) << at;
}

/* The block of the PK_W <= k <= PK_BLOCK bytes at src: its vectors at
 * min(j * PK_W, k - PK_W), where overlapping ones agree. */
static inline PK_ATTR void PK_FN(uri_block)(const uint8_t *src, size_t k, pk_uri_block *b)
{
    b->bad = b->pct = b->hex = 0;
    for (size_t j = 0; j < PK_PER_BLOCK; j++) {
        size_t at = j * PK_W < k - PK_W ? j * PK_W : k - PK_W;
        PK_FN(uri_classes)(pk_loadu(src + at), PK_BYTES(at), b);
    }
}

/* The offences among positions i-2 .. i+PK_BLOCK-3 (bit t: position
 * i-2+t) from the block at i and the one before it (p: zero before the
 * first). Bytes past the end have no class, so are not hex. */
static inline PK_ATTR uint64_t PK_FN(uri_window)(const pk_uri_block *b, const pk_uri_block *p)
{
    uint64_t b2 = b->bad << PK_BYTES(2) | p->bad >> (64 - PK_BYTES(2));
    uint64_t p2 = b->pct << PK_BYTES(2) | p->pct >> (64 - PK_BYTES(2));
    uint64_t h1 = b->hex << PK_BYTES(1) | p->hex >> (64 - PK_BYTES(1));
    /* a '%' at i-2+t needs hex at i-1+t (h1) and at i+t */
    return b2 | (p2 & ~(h1 & b->hex));
}

PK_LINKAGE PK_ATTR size_t PK_FN(uri_offence)(const uint8_t *src, size_t n)
{
    pk_uri_block b = {0, 0, 0}, p = {0, 0, 0};
    uint64_t off;
    if (n <= PK_BLOCK) {
        /* one block, a zero-padded vector below PK_W bytes (its bits past n
         * cut), branch-free from there */
        if (n >= PK_W) {
            PK_FN(uri_block)(src, n, &b);
        } else if (n) {
            PK_FN(uri_classes)(PK_FN(load_short)(src, n), 0, &b);
            b.bad &= (uint64_t)PK_FN(first_bytes)(n);
        }
        off = b.bad | (b.pct & ~((b.hex >> PK_BYTES(1)) & (b.hex >> PK_BYTES(2))));
        return off ? (size_t)pct_ctz64(off) >> PK_SHIFT : n;
    }
    size_t i = 0;
    for (; n - i >= PK_BLOCK; i += PK_BLOCK) {
        PK_FN(uri_block)(src + i, PK_BLOCK, &b);
        if ((off = PK_FN(uri_window)(&b, &p)) != 0)
            return i - 2 + (pct_ctz64(off) >> PK_SHIFT);
        p = b;
    }
    if (i < n) {
        /* the last n - i bytes: the block ending at n, moved down by the
         * bits of the bytes already seen */
        unsigned drop = PK_BYTES(PK_BLOCK - (n - i));
        PK_FN(uri_block)(src + n - PK_BLOCK, PK_BLOCK, &b);
        b.bad >>= drop;
        b.pct >>= drop;
        b.hex >>= drop;
        if ((off = PK_FN(uri_window)(&b, &p)) != 0)
            return i - 2 + (pct_ctz64(off) >> PK_SHIFT);
        p = b;
        i += PK_BLOCK;
    }
    /* the carried last two positions, nothing (no hex) after them */
    b.bad = b.pct = b.hex = 0;
    off = PK_FN(uri_window)(&b, &p);
    return off ? i - 2 + (pct_ctz64(off) >> PK_SHIFT) : n;
}

#if PK_SHIFT == 0
/* How far ahead of its loads the scan asks for the text (bytes): a block's
 * work is long enough that without it too few lines are in flight to keep
 * up with memory. */
#ifndef PCT_URI_AHEAD
#define PCT_URI_AHEAD 1024
#endif

/* The offence bits of src[0, n), the test at every position regardless of
 * escapes (bytes past n are not hex): bit t % 64 of bits[t / 64] for
 * position t, (n + 63) / 64 words written, 0 past n. A block's window
 * decides the two last bits of the word before it. */
PK_LINKAGE PK_ATTR void PK_FN(uri_offence_bits)(const uint8_t *src, size_t n, uint64_t *bits)
{
    pk_uri_block b = {0, 0, 0}, p = {0, 0, 0};
    size_t i = 0, w = 0;
    for (; n - i >= PK_BLOCK; i += PK_BLOCK, w++) {
        if (n - i > PCT_URI_AHEAD)
            pct_prefetch_ahead(src + i, PCT_URI_AHEAD);
        PK_FN(uri_block)(src + i, PK_BLOCK, &b);
        uint64_t off = PK_FN(uri_window)(&b, &p);
        if (w)
            bits[w - 1] |= off << 62;
        bits[w] = off >> 2;
        p = b;
    }
    if (i < n) {
        size_t r = n - i;
        b.bad = b.pct = b.hex = 0;
        if (n >= PK_BLOCK) { /* the block ending at n, moved down */
            unsigned drop = PK_BYTES(PK_BLOCK - r);
            PK_FN(uri_block)(src + n - PK_BLOCK, PK_BLOCK, &b);
            b.bad >>= drop;
            b.pct >>= drop;
            b.hex >>= drop;
        } else if (r >= PK_W) {
            PK_FN(uri_block)(src + i, r, &b);
        } else {
            PK_FN(uri_classes)(PK_FN(load_short)(src + i, r), 0, &b);
            b.bad &= (uint64_t)PK_FN(first_bytes)(r);
        }
        uint64_t off = PK_FN(uri_window)(&b, &p);
        if (w)
            bits[w - 1] |= off << 62;
        bits[w] = off >> 2;
        p = b;
        w++;
    }
    if (w) { /* the last two positions, nothing after them */
        b.bad = b.pct = b.hex = 0;
        bits[w - 1] |= PK_FN(uri_window)(&b, &p) << 62;
    }
}
#define PK_URI_OFFENCE_BITS PK_FN(uri_offence_bits)
#else
#define PK_URI_OFFENCE_BITS NULL /* more than one mask bit per byte */
#endif

#ifndef PK_UTF8_OF_UCS2
#define PK_UTF8_OF_UCS2 pct_scalar_utf8_of_ucs2
#endif
#ifndef PK_ESCAPED_SIZE_UCS2
#define PK_ESCAPED_SIZE_UCS2 NULL
#endif
#ifndef PK_UTF8_CHECK
#define PK_UTF8_CHECK NULL
#endif
#ifndef PK_UTF8_TO_UCS2
#define PK_UTF8_TO_UCS2 NULL
#endif
#ifndef PK_DECODE_ROOM
#define PK_DECODE_ROOM NULL
#endif
#ifndef PK_URI_SCAN
#define PK_URI_SCAN NULL
#endif

const pct_kernel PK_KERNEL = {
    PK_NAME,
    PK_FN(span_safe),
    PK_FN(count_unsafe),
    PK_FN(find_escape),
    PK_FN(encode),
    PK_FN(encode_room),
    PK_FN(decode),
    PK_UTF8_OF_UCS2,
    PK_ESCAPED_SIZE_UCS2,
    PK_UTF8_CHECK,
    PK_UTF8_TO_UCS2,
    PK_USABLE,
    PK_DECODE_ROOM,
    PK_FN(uri_offence),
    PK_URI_OFFENCE_BITS,
    PK_URI_SCAN,
    NULL, /* uri_write: the AVX-512 kernel's alone */
    NULL, /* uri_normalize */
    NULL, /* decode_utf8_room */
};
