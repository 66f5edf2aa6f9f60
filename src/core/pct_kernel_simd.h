/* The vector algorithms, written once for every instruction set. An
 * including file defines its vector type and primitives, then includes this:
 *
 *   PK_W                 bytes per vector
 *   PK_SHIFT             log2 of the mask bits per byte (pk_bits keeps one of them)
 *   pk_vec, pk_mask      vector and bit-mask types; PK_FULL: the mask of all PK_W bytes
 *   PK_CTZ(m)            count of trailing zero bits of a non-zero mask
 *   pk_loadu, pk_storeu, pk_splat, pk_eq, pk_or, pk_and, pk_add, pk_sub
 *   pk_bits(v)           mask of the bytes of v that are 0xFF (others are 0)
 *   pk_hsum(v)           sum of the bytes of v
 *   pk_prep, pk_prepare(&prep, set)   a set made ready for pk_unsafe; 0 when
 *                        this instruction set cannot test it (scalar then)
 *   pk_unsafe(&prep, v)  0xFF for each byte not in the set, 0 otherwise
 *   pk_escape_block(src, dst)  "%XY" of PK_W bytes: 3*PK_W bytes, plus at
 *                        most one scratch byte after them
 *   PK_FN(name)          the kernel's name for a function; PK_NAME, PK_USABLE
 *   PK_ATTR              attributes of every function (the target instruction set)
 *
 * Loads never pass the end of the input: the last partial vector is handled
 * by one overlapping load or by the scalar kernel.
 */

static inline PK_ATTR pk_mask PK_FN(unsafe_bits)(const pk_prep *p, pk_vec v)
{
    return pk_bits(pk_unsafe(p, v));
}

static PK_ATTR size_t PK_FN(span_safe)(const uint8_t *src, size_t n, const pct_set *set)
{
    pk_prep p;
    if (n < PK_W || !pk_prepare(&p, set))
        return pct_scalar_span_safe(src, n, set);
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

static PK_ATTR size_t PK_FN(count_unsafe)(const uint8_t *src, size_t n, const pct_set *set)
{
    pk_prep p;
    if (n < PK_W || !pk_prepare(&p, set))
        return pct_scalar_count_unsafe(src, n, set);
    size_t count = 0, i = 0;
    const pk_vec zero = pk_splat(0);
    /* 0xFF is -1: subtracting counts; byte counters are summed before 255 blocks. */
    while (n - i >= PK_W) {
        pk_vec acc = zero;
        for (unsigned k = 0; k < 255 && n - i >= PK_W; k++, i += PK_W)
            acc = pk_sub(acc, pk_unsafe(&p, pk_loadu(src + i)));
        count += pk_hsum(acc);
    }
    return count + pct_scalar_count_unsafe(src + i, n - i, set);
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

static PK_ATTR size_t PK_FN(find_escape)(const uint8_t *src, size_t n, int plus)
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

static PK_ATTR size_t PK_FN(encode)(const uint8_t *src, size_t n, const pct_set *keep, int plus,
                            uint8_t *dst)
{
    pk_prep p;
    if (n < 2 * PK_W || !pk_prepare(&p, keep))
        return pct_scalar_encode(src, n, keep, plus, dst);
    uint8_t *d = dst;
    size_t i = 0;
    /* While a full vector follows the current one, every store below stays
     * inside dst: each input byte yet to come writes at least one byte, so
     * a whole vector (or the scratch byte of an escape) fits, and loads
     * from inside the current vector stay inside src. */
    while (n - i >= 2 * PK_W) {
        pk_vec v = pk_loadu(src + i);
        pk_mask unsafe = PK_FN(unsafe_bits)(&p, v);
        if (!unsafe) {
            pk_storeu(d, PK_FN(kept)(v, plus));
            d += PK_W;
        } else if (unsafe == PK_FULL) {
            pk_escape_block(src + i, d);
            d += 3 * PK_W;
        } else {
            /* Each kept stretch is stored as a whole vector, then the escape
             * after it overwrites the bytes past the stretch. */
            size_t from = 0;
            do {
                size_t j = PK_CTZ(unsafe) >> PK_SHIFT;
                pk_storeu(d, PK_FN(kept)(pk_loadu(src + i + from), plus));
                d = pct_put_escape4(d + (j - from), src[i + j]);
                from = j + 1;
                unsafe &= unsafe - 1;
            } while (unsafe);
            pk_storeu(d, PK_FN(kept)(pk_loadu(src + i + from), plus));
            d += PK_W - from;
        }
        i += PK_W;
    }
    d += pct_scalar_encode(src + i, n - i, keep, plus, d);
    return (size_t)(d - dst);
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

static PK_ATTR size_t PK_FN(decode)(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    if (n < PK_W)
        return pct_decode_bytes(src, n, plus, dst);
    if (pct_apart(src, dst, n))
        return PK_FN(decode_apart)(src, n, plus, dst);
    /* In place: each run is loaded before it is stored, one vector behind. */
    PCT_DECODE_BY_RUNS(src, n, plus, dst, PK_FN(find_escape_inline), PK_FN(copy_forward));
}

const pct_kernel PK_KERNEL = {
    PK_NAME,
    PK_FN(span_safe),
    PK_FN(count_unsafe),
    PK_FN(find_escape),
    PK_FN(encode),
    PK_FN(decode),
    PK_USABLE,
};
