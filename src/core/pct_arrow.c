/* Arrow string columns: the layout checked before any row is read (see
 * pct_arrow.h). */
#include "pct_arrow.h"

char pct_arrow_kind(const struct ArrowSchema *schema)
{
    const char *f = schema->format ? schema->format : "";
    if (schema->dictionary || schema->n_children)
        return 0;
    return strcmp(f, "u") == 0 ? 'u' : strcmp(f, "U") == 0 ? 'U' : strcmp(f, "vu") == 0 ? 'v'
         : strcmp(f, "n") == 0 ? 'n' : 0;
}

const char *pct_arrow_problem_text(pct_arrow_problem problem)
{
    switch (problem) {
    case PCT_ARROW_OK:
        return "no problem";
    case PCT_ARROW_BAD_SHAPE:
        return "its length, offset, null count or number of buffers cannot be of its type";
    case PCT_ARROW_NO_BUFFER:
        return "a buffer it needs is missing (NULL)";
    case PCT_ARROW_SHORT_BUFFER:
        return "its validity bit, offsets or view lie past the end of their buffer";
    case PCT_ARROW_BAD_OFFSET:
        return "an offset is negative or smaller than the one before it";
    case PCT_ARROW_OFFSET_PAST:
        return "its end offset lies past the end of the data buffer";
    case PCT_ARROW_BAD_VIEW_LENGTH:
        return "its view has a negative length";
    case PCT_ARROW_BAD_VIEW_BUFFER:
        return "its view names a data buffer the array does not have";
    case PCT_ARROW_VIEW_PAST:
        return "its view's bytes lie outside its data buffer";
    }
    return "unknown problem";
}

/* The rows it takes: offset + length + 1 entries of 16 bytes stay well
 * inside int64_t and size_t arithmetic. */
#define MAX_ENTRIES ((int64_t)1 << 58)

pct_arrow_problem pct_arrow_init(pct_arrow_strings *a, char kind, const struct ArrowArray *array,
                                 const int64_t *sizes, int64_t nsizes)
{
    memset(a, 0, sizeof *a);
    a->kind = kind;
    a->length = array->length;
    a->offset = array->offset;
    a->sizes = sizes;
    a->nsizes = sizes && nsizes > 0 ? nsizes : 0;
    int64_t n = array->n_buffers;
    if (array->length < 0 || array->offset < 0 || array->length > MAX_ENTRIES
        || array->offset > MAX_ENTRIES - array->length || array->null_count < -1)
        return PCT_ARROW_BAD_SHAPE;
    if (kind == 'v' ? n < 3 || n - 3 > INT32_MAX : kind == 'n' ? n < 0 : n != 3)
        return PCT_ARROW_BAD_SHAPE;
    if (n > 0 && !array->buffers)
        return PCT_ARROW_NO_BUFFER;
    if (kind == 'n' || array->length == 0)
        return PCT_ARROW_OK; /* no byte of it is read */
    const void *const *b = (const void *const *)array->buffers;
    if (array->null_count != 0)
        a->validity = b[0];
    if (array->null_count > 0 && !b[0])
        return PCT_ARROW_NO_BUFFER;
    a->index = b[1];
    a->data = (const uint8_t *const *)(b + 2);
    a->ndata = kind == 'v' ? n - 3 : 1;
    if (kind == 'v')
        a->data_sizes = b[n - 1];
    if (!a->index || (kind == 'v' && a->ndata && !a->data_sizes))
        return PCT_ARROW_NO_BUFFER;
    return PCT_ARROW_OK;
}

/* The caller's size of buffer k, or -1. */
static int64_t known_size(const pct_arrow_strings *a, int64_t k)
{
    return k < a->nsizes && a->sizes[k] >= 0 ? a->sizes[k] : -1;
}

/* The first row whose entry (of `width` bytes, `extra` more after the
 * row's own) lies past a buffer of `size` bytes; a->length when none does
 * or the size is not known. */
static int64_t rows_within(const pct_arrow_strings *a, int64_t size, int64_t width, int64_t extra)
{
    if (size < 0)
        return a->length;
    int64_t fit = size / width - extra - a->offset; /* rows 0 .. fit - 1 fit */
    return fit < 0 ? 0 : fit < a->length ? fit : a->length;
}

/* The first row i < rows whose end offset is below its start, or -1: a
 * pass that a compiler vectorises over blocks, each looked into only when
 * it holds such a row. */
#define OFFSET_BLOCK 1024

/* 1 when an offset of p[0..m] is below the one before it (width is a
 * constant of each inlined copy, so that the loop vectorises). */
static inline int decreases(const uint8_t *p, int64_t m, int width)
{
    int bad = 0;
    for (int64_t i = 0; i < m; i++)
        bad |= pct_rows_offset(width, p, i + 1) < pct_rows_offset(width, p, i);
    return bad;
}

static int64_t decreasing_row(const void *offsets, int width, int64_t j0, int64_t rows)
{
    for (int64_t i0 = 0; i0 < rows; i0 += OFFSET_BLOCK) {
        int64_t m = rows - i0 < OFFSET_BLOCK ? rows - i0 : OFFSET_BLOCK;
        const uint8_t *p = (const uint8_t *)offsets + width * (j0 + i0);
        if (!(width == 4 ? decreases(p, m, 4) : decreases(p, m, 8)))
            continue;
        for (int64_t i = i0; i < i0 + m; i++)
            if (pct_rows_offset(width, offsets, j0 + i + 1) < pct_rows_offset(width, offsets, j0 + i))
                return i;
    }
    return -1;
}

/* Offsets of rows 0 .. rows - 1 (rows <= a->length, all readable). */
static pct_arrow_problem check_offsets(const pct_arrow_strings *a, int64_t rows, int64_t *row)
{
    int width = a->kind == 'u' ? 4 : 8;
    int64_t j0 = a->offset;
    if (rows == 0)
        return PCT_ARROW_OK; /* not even the first offset lies in the buffer */
    if (pct_rows_offset(width, a->index, j0) < 0) {
        *row = 0;
        return PCT_ARROW_BAD_OFFSET;
    }
    int64_t bad = decreasing_row(a->index, width, j0, rows);
    /* the end offsets are now increasing: the first past the data is found
     * by bisection, when the last is past it */
    /* no data buffer: every row must be empty */
    int64_t data = a->data[0] ? known_size(a, 2) : pct_rows_offset(width, a->index, j0), last = rows;
    if (data >= 0) {
        int64_t lo = 0, hi = bad >= 0 ? bad : rows;
        if (hi > 0 && pct_rows_offset(width, a->index, j0 + hi) > data) {
            while (lo < hi) { /* the first row i < hi whose end is past the data */
                int64_t mid = lo + (hi - lo) / 2;
                if (pct_rows_offset(width, a->index, j0 + mid + 1) > data)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            last = lo;
        }
    }
    if (bad >= 0 && bad < last) {
        *row = bad;
        return PCT_ARROW_BAD_OFFSET;
    }
    if (last < rows) {
        *row = last;
        return a->data[0] ? PCT_ARROW_OFFSET_PAST : PCT_ARROW_NO_BUFFER;
    }
    return PCT_ARROW_OK;
}

/* The views of the rows 0 .. rows - 1 that are not null. */
static pct_arrow_problem check_views(const pct_arrow_strings *a, int64_t rows, int64_t *row)
{
    const uint8_t *views = a->index, *sizes = a->data_sizes;
    for (int64_t i = 0; i < rows; i++) {
        int64_t j = a->offset + i;
        if (a->validity && !((a->validity[j >> 3] >> (j & 7)) & 1))
            continue;
        const uint8_t *view = views + 16 * j;
        int32_t len, buf, off;
        memcpy(&len, view, 4);
        if (len <= 12) {
            if (len < 0) {
                *row = i;
                return PCT_ARROW_BAD_VIEW_LENGTH;
            }
            continue;
        }
        memcpy(&buf, view + 8, 4);
        memcpy(&off, view + 12, 4);
        if (buf < 0 || buf >= a->ndata || !a->data[buf]) {
            *row = i;
            return PCT_ARROW_BAD_VIEW_BUFFER;
        }
        int64_t size, known = known_size(a, 2 + (int64_t)buf);
        memcpy(&size, sizes + 8 * (size_t)buf, 8);
        if (known >= 0 && known < size)
            size = known;
        /* off and len are below 2^31: their sum does not overflow */
        if (off < 0 || (int64_t)off + len > size) {
            *row = i;
            return PCT_ARROW_VIEW_PAST;
        }
    }
    return PCT_ARROW_OK;
}

pct_arrow_problem pct_arrow_check(const pct_arrow_strings *a, int64_t *row)
{
    *row = 0;
    if (a->kind == 'n' || a->length == 0)
        return PCT_ARROW_OK;
    int v = a->kind == 'v';
    /* the rows whose validity bit and offsets or view lie in their buffers */
    int64_t rows = a->length, fit, bits = known_size(a, 0);
    if (a->validity && bits >= 0 && bits < MAX_ENTRIES && (fit = rows_within(a, bits * 8, 1, 0)) < rows)
        rows = fit;
    if ((fit = rows_within(a, known_size(a, 1), v ? 16 : a->kind == 'u' ? 4 : 8, v ? 0 : 1)) < rows)
        rows = fit;
    pct_arrow_problem p = v ? check_views(a, rows, row) : check_offsets(a, rows, row);
    if (p == PCT_ARROW_OK && rows < a->length) {
        *row = rows;
        p = PCT_ARROW_SHORT_BUFFER;
    }
    return p;
}
