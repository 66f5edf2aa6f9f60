/* pct_arrow_init, pct_arrow_check and the reading of rows (pct_arrow_row,
 * pct_arrow_span, pct_batch_rows) on Arrow string arrays built from the
 * input: string, large_string, string_view and null, with any length,
 * offset, null count, buffer count, missing buffers, offsets (negative,
 * decreasing, past the data), views (negative lengths, unknown buffers,
 * bytes past their buffer, declared sizes that lie) and buffers of any size.
 * Every buffer is a heap block of exactly its size, so AddressSanitizer sees
 * any read past it.
 *
 * Two modes: the buffer sizes known to the check (as a pyarrow array's
 * are: the buffers may then be of any size), or not known (as through the C
 * data interface: the buffers are then as large as the layout says, the
 * producer's side of the contract). Checks: the verdict and first bad row
 * equal a reference written row by row here; every row of an array that
 * passes is read whole, by each reader, without a read outside its buffers.
 *
 * Input: kind, length, offset, flags, then the bytes each buffer takes. */
#include "fuzz_common.h"
#include "pct_arrow.h"
#include "pct_batch.h"

enum { F_VALIDITY = 1, F_NULL_COUNT_UNKNOWN = 2, F_SIZES_KNOWN = 4, F_BAD_NBUFFERS = 8,
       F_NO_INDEX = 16, F_NO_DATA = 32, F_NULL_COUNT_ZERO = 64 };

#define MAX_BUFFERS 8

typedef struct {
    char kind;
    int64_t length, offset, null_count, n_buffers;
    const void *buffers[MAX_BUFFERS];
    void *owned[MAX_BUFFERS];
    int64_t sizes[MAX_BUFFERS]; /* true sizes of the blocks (-1: NULL) */
    int64_t declared[4];        /* 'v': the sizes buffer's values */
    int64_t ndata;
    int known;                  /* the check is given sizes */
} built;

/* An offset step: mostly small increases, sometimes a decrease or a jump. */
static int64_t next_offset(fuzz_input *in, int64_t prev)
{
    uint8_t b = take_byte(in);
    if (b >= 0xF0)
        return prev - (b & 0xF);
    if (b == 0xEF)
        return prev + 1000000;
    return prev + b % 16;
}

static void *block(built *t, int k, size_t n, fuzz_input *in)
{
    uint8_t *p = alloc_exact(n);
    for (size_t i = 0; i < n; i++)
        p[i] = take_byte(in);
    t->owned[k] = p;
    t->buffers[k] = p;
    t->sizes[k] = (int64_t)n;
    return p;
}

static void build(fuzz_input *in, built *t)
{
    memset(t, 0, sizeof *t);
    static const char kinds[4] = {'u', 'U', 'v', 'n'};
    t->kind = kinds[take_byte(in) % 4];
    t->length = take_byte(in) % 48;
    t->offset = take_byte(in) % 20;
    uint8_t flags = take_byte(in);
    t->known = (flags & F_SIZES_KNOWN) != 0;
    int64_t end = t->offset + t->length; /* entries the layout says there are */
    for (int k = 0; k < MAX_BUFFERS; k++)
        t->sizes[k] = -1;
    if (t->kind == 'n') {
        t->n_buffers = (flags & F_BAD_NBUFFERS) ? 1 : 0;
        t->null_count = t->length;
        return;
    }
    /* validity */
    size_t bits = (size_t)(end + 7) / 8;
    if (flags & F_VALIDITY)
        block(t, 0, t->known ? take_byte(in) % (bits + 2) : bits, in);
    t->null_count = (flags & F_NULL_COUNT_ZERO) ? 0 : (flags & F_NULL_COUNT_UNKNOWN) ? -1 : 1;
    if (t->kind == 'v') {
        size_t nviews = t->known ? take_byte(in) % (size_t)(end + 2) : (size_t)end;
        t->ndata = take_byte(in) % 4;
        for (int64_t k = 0; k < t->ndata; k++) {
            block(t, 2 + (int)k, take_byte(in) % 64, in);
            t->declared[k] = t->sizes[2 + k];
            if (t->known && take_byte(in) % 3 == 0) /* a size that lies */
                t->declared[k] += take_byte(in);
        }
        uint8_t *views = alloc_exact(16 * nviews);
        for (size_t i = 0; i < nviews; i++) {
            uint8_t b = take_byte(in);
            int32_t len = b < 0xE0 ? b % 40 : -(int32_t)(b & 0xF) - 1;
            int32_t buf = (int32_t)(take_byte(in) % (t->ndata + 2)) - 1;
            int32_t off = (int8_t)take_byte(in);
            off = off < 0 ? off : off % 64;
            if (b == 0xDF)
                off = INT32_MAX - 5;
            memcpy(views + 16 * i, &len, 4);
            for (int j = 4; j < 16; j++)
                views[16 * i + (size_t)j] = take_byte(in);
            if (len > 12) {
                memcpy(views + 16 * i + 8, &buf, 4);
                memcpy(views + 16 * i + 12, &off, 4);
            }
        }
        t->owned[1] = views;
        t->buffers[1] = views;
        t->sizes[1] = (int64_t)(16 * nviews);
        int64_t *declared = alloc_exact(8 * (size_t)t->ndata);
        memcpy(declared, t->declared, 8 * (size_t)t->ndata);
        t->owned[2 + t->ndata] = declared;
        t->buffers[2 + t->ndata] = declared;
        t->sizes[2 + t->ndata] = 8 * t->ndata;
        t->n_buffers = 3 + t->ndata;
    } else {
        int width = t->kind == 'u' ? 4 : 8;
        size_t n = t->known ? take_byte(in) % (size_t)(end + 3) : (size_t)end + 1;
        uint8_t *offsets = alloc_exact((size_t)width * n);
        int64_t o = (int8_t)take_byte(in) < -100 ? -1 : 0, last = 0;
        for (size_t i = 0; i < n; i++) {
            if (width == 4) {
                int32_t v = (int32_t)o;
                memcpy(offsets + 4 * i, &v, 4);
                last = v;
            } else {
                memcpy(offsets + 8 * i, &o, 8);
                last = o;
            }
            o = next_offset(in, o);
        }
        t->owned[1] = offsets;
        t->buffers[1] = offsets;
        t->sizes[1] = (int64_t)(width * (int)n);
        /* not known: the data holds what the last offset says, when that is sane */
        if (!t->known && (last < 0 || last > 4096))
            t->known = 1;
        block(t, 2, t->known ? take_byte(in) * 2u : (size_t)last, in);
        t->n_buffers = 3;
        t->ndata = 1;
    }
    if (flags & F_BAD_NBUFFERS)
        t->n_buffers += take_byte(in) % 2 ? 1 : -1;
    if (flags & F_NO_INDEX)
        t->buffers[1] = NULL;
    if ((flags & F_NO_DATA) && t->kind != 'v')
        t->buffers[2] = NULL;
}

/* ---- the reference, row by row ------------------------------------------ */

static int64_t ref_offset(const built *t, int64_t j)
{
    return pct_rows_offset(t->kind == 'u' ? 4 : 8, t->buffers[1], j);
}

static pct_arrow_problem ref_check(const built *t, int64_t *row)
{
    const uint8_t *validity = t->null_count != 0 ? t->buffers[0] : NULL;
    int width = t->kind == 'u' ? 4 : 8;
    *row = 0;
    if (t->kind == 'n')
        return PCT_ARROW_OK;
    for (int64_t i = 0; i < t->length; i++) {
        int64_t j = t->offset + i;
        *row = i;
        if (t->known && validity && j / 8 >= t->sizes[0])
            return PCT_ARROW_SHORT_BUFFER;
        if (t->kind == 'v') {
            if (t->known && 16 * (j + 1) > t->sizes[1])
                return PCT_ARROW_SHORT_BUFFER;
            if (validity && !(validity[j / 8] & (1u << (j % 8))))
                continue;
            int32_t len, buf, off;
            const uint8_t *v = (const uint8_t *)t->buffers[1] + 16 * j;
            memcpy(&len, v, 4);
            memcpy(&buf, v + 8, 4);
            memcpy(&off, v + 12, 4);
            if (len < 0)
                return PCT_ARROW_BAD_VIEW_LENGTH;
            if (len <= 12)
                continue;
            if (buf < 0 || buf >= t->ndata || !t->buffers[2 + buf])
                return PCT_ARROW_BAD_VIEW_BUFFER;
            int64_t size = t->declared[buf];
            if (t->known && t->sizes[2 + buf] < size)
                size = t->sizes[2 + buf];
            if (off < 0 || (int64_t)off + (int64_t)len > size)
                return PCT_ARROW_VIEW_PAST;
            continue;
        }
        if (t->known && width * (j + 2) > t->sizes[1])
            return PCT_ARROW_SHORT_BUFFER;
        int64_t start = ref_offset(t, j), stop = ref_offset(t, j + 1);
        if ((i == 0 && start < 0) || stop < start)
            return PCT_ARROW_BAD_OFFSET;
        int64_t limit = !t->buffers[2] ? ref_offset(t, t->offset) : t->known ? t->sizes[2] : INT64_MAX;
        if (stop > limit)
            return t->buffers[2] ? PCT_ARROW_OFFSET_PAST : PCT_ARROW_NO_BUFFER;
    }
    *row = 0;
    return PCT_ARROW_OK;
}

/* ---- reading a checked array --------------------------------------------- */

static void read_rows(const pct_arrow_strings *a)
{
    volatile uint8_t sink = 0;
    (void)sink;
    for (int64_t i = 0; i < a->length; i++) {
        const uint8_t *p = NULL;
        size_t n = 0;
        int rc = pct_arrow_row(a, i, &p, &n);
        FUZZ_ASSERT(rc >= 0);
        for (size_t k = 0; rc && k < n; k++)
            sink ^= p[k];
    }
    size_t span = pct_arrow_span(a, 0, a->length);
    (void)span;
    if (a->kind != 'u' && a->kind != 'U')
        return;
    /* the batch core's own reader: CHECK (runs of rows scanned at once) and REQUOTE */
    pct_rows rows = {a->kind == 'u' ? 4 : 8, a->index, a->data ? a->data[0] : NULL, a->validity,
                     a->offset};
    size_t count = (size_t)a->length;
    int64_t *ends = alloc_exact(8 * count);
    uint8_t *valid = calloc(count / 8 + 1, 1);
    FUZZ_ASSERT(valid);
    static const int ops[2] = {PCT_BATCH_CHECK, PCT_BATCH_REQUOTE};
    for (int k = 0; k < 2; k++) {
        pct_batch_spec spec;
        memset(&spec, 0, sizeof spec);
        spec.op = ops[k];
        pct_buf out;
        pct_buf_init(&out);
        int status;
        pct_batch_info info;
        memset(valid, 0, count / 8 + 1);
        int64_t done = pct_batch_rows(&spec, &rows, 0, a->length, 0, &out, SIZE_MAX, ends, valid,
                                      &status, &info, NULL);
        FUZZ_ASSERT(done == a->length || status != PCT_ROW_MALFORMED);
        pct_buf_free(&out);
    }
    free(valid);
    free(ends);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    built t;
    build(&in, &t);
    struct ArrowArray array;
    memset(&array, 0, sizeof array);
    array.length = t.length;
    array.offset = t.offset;
    array.null_count = t.null_count;
    array.n_buffers = t.n_buffers;
    array.buffers = t.buffers;
    pct_arrow_strings a;
    int64_t nsizes = t.kind == 'v' ? 2 + t.ndata : 3;
    pct_arrow_problem shape = pct_arrow_init(&a, t.kind, &array, t.known ? t.sizes : NULL, nsizes);
    int nbuffers_ok = t.kind == 'n' || t.n_buffers == (t.kind == 'v' ? 3 + t.ndata : 3);
    if (!nbuffers_ok)
        FUZZ_ASSERT(shape == PCT_ARROW_BAD_SHAPE || t.kind == 'v');
    if (shape == PCT_ARROW_OK && nbuffers_ok) {
        int64_t row = -1, want_row = -1;
        pct_arrow_problem got = pct_arrow_check(&a, &row), want = ref_check(&t, &want_row);
        if (got != want || row != want_row)
            fprintf(stderr, "kind %c length %lld offset %lld: got %d at %lld, want %d at %lld\n",
                    t.kind, (long long)t.length, (long long)t.offset, (int)got, (long long)row,
                    (int)want, (long long)want_row);
        FUZZ_ASSERT(got == want && row == want_row);
        if (got == PCT_ARROW_OK)
            read_rows(&a);
    }
    FUZZ_ASSERT(strlen(pct_arrow_problem_text(shape)) > 0);
    for (int k = 0; k < MAX_BUFFERS; k++)
        free(t.owned[k]);
    return 0;
}
