/* Result arrays out, for the batch engine (see _pctcodec_arrow.h). Plain
 * C99, no Python. */
#include <stdlib.h>
#include <string.h>

#include "_pctcodec_arrow.h"
#include "_pctcodec_memory.h"

/* ---- building ------------------------------------------------------------ */

typedef struct {
    int64_t n;
    void *bufs[]; /* malloc'd, freed by the release callback (big ones pooled) */
} out_private;

static void release_array(struct ArrowArray *a)
{
    out_private *pv = a->private_data;
    if (pv) {
        for (int64_t i = 0; i < pv->n; i++)
            big_free(pv->bufs[i]);
        free(pv);
    }
    a->private_data = NULL;
    a->release = NULL;
}

static void release_schema(struct ArrowSchema *s)
{
    s->release = NULL; /* format and name are string literals */
}

void arrow_schema_init(struct ArrowSchema *schema, char kind)
{
    memset(schema, 0, sizeof *schema);
    schema->format = kind == 'l' ? "l" : kind == 'u' ? "u" : kind == 'U' ? "U" : kind == 'v' ? "vu" : "n";
    schema->name = "";
    schema->flags = ARROW_FLAG_NULLABLE;
    schema->release = release_schema;
}

static int valid_bit(const arrow_piece *pc, int64_t r)
{
    return (pc->valid[r >> 3] >> (r & 7)) & 1;
}

/* The number of rows of pc that are not null: the set bits of valid. */
static int64_t count_valid(const arrow_piece *pc)
{
    int64_t count = 0, r = 0;
    for (; pc->rows - r >= 64; r += 64) {
        uint64_t w;
        memcpy(&w, pc->valid + r / 8, 8);
        w -= (w >> 1) & 0x5555555555555555u; /* the bits counted in parallel */
        w = (w & 0x3333333333333333u) + ((w >> 2) & 0x3333333333333333u);
        w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
        count += (int64_t)((w * 0x0101010101010101u) >> 56);
    }
    for (; r < pc->rows; r++)
        count += valid_bit(pc, r);
    return count;
}

static void free_data(arrow_piece *pieces, int np)
{
    for (int k = 0; k < np; k++) {
        big_free(pieces[k].data);
        pieces[k].data = NULL;
    }
}

/* The views of 'v': each piece's data becomes variadic buffer k (taken). */
static int build_views(arrow_piece *pieces, int np, out_private *pv, size_t nrows)
{
    uint8_t *views = calloc(nrows ? nrows : 1, 16);
    int64_t *sizes = malloc((size_t)np * sizeof *sizes + 1);
    pv->bufs[1] = views;
    pv->bufs[2 + np] = sizes;
    if (!views || !sizes)
        return PCT_ERR_NO_MEMORY;
    for (int k = 0; k < np; k++)
        if (pieces[k].len > INT32_MAX)
            return PCT_ERR_TOO_LARGE;
    int64_t i = 0;
    for (int k = 0; k < np; k++) {
        arrow_piece *pc = &pieces[k];
        uint8_t *data = pc->data ? pc->data : malloc(1);
        if (!(pv->bufs[2 + k] = data))
            return PCT_ERR_NO_MEMORY;
        pc->data = NULL; /* taken */
        sizes[k] = (int64_t)pc->len;
        int64_t from = 0;
        for (int64_t r = 0; r < pc->rows; r++, i++) {
            int32_t len = (int32_t)(pc->ends[r] - from), buf = k, off = (int32_t)from;
            uint8_t *view = views + 16 * i;
            memcpy(view, &len, 4);
            if (len <= 12) {
                memcpy(view + 4, data + from, (size_t)len);
            } else {
                memcpy(view + 4, data + from, 4);
                memcpy(view + 8, &buf, 4);
                memcpy(view + 12, &off, 4);
            }
            from = pc->ends[r];
        }
    }
    return PCT_OK;
}

/* Offsets and one data buffer for 'u' and 'U': the only piece's data is
 * taken, several are copied one after the other (each freed at once). */
static int build_offsets(arrow_piece *pieces, int np, char kind, out_private *pv, size_t nrows)
{
    size_t width = kind == 'u' ? 4 : 8, size = 0;
    for (int k = 0; k < np; k++) {
        if (pieces[k].len > SIZE_MAX / 2 - size)
            return PCT_ERR_TOO_LARGE;
        size += pieces[k].len;
    }
    if (kind == 'u' ? size > INT32_MAX : size > INT64_MAX)
        return PCT_ERR_TOO_LARGE;
    uint8_t *offsets = big_malloc((nrows + 1) * width);
    if (!(pv->bufs[1] = offsets))
        return PCT_ERR_NO_MEMORY;
    int take = np == 1 && pieces[0].data;
    uint8_t *data = take ? pieces[0].data : big_malloc(size);
    if (!(pv->bufs[2] = data))
        return PCT_ERR_NO_MEMORY;
    if (take)
        pieces[0].data = NULL;
    int64_t at = 0, i = 0;
    memset(offsets, 0, width);
    for (int k = 0; k < np; k++) {
        arrow_piece *pc = &pieces[k];
        if (!take && pc->len)
            memcpy(data + at, pc->data, pc->len);
        for (int64_t r = 0; r < pc->rows; r++, i++) {
            int64_t end = at + pc->ends[r];
            if (width == 4) {
                int32_t e32 = (int32_t)end;
                memcpy(offsets + 4 * (size_t)(i + 1), &e32, 4);
            } else {
                memcpy(offsets + 8 * (size_t)(i + 1), &end, 8);
            }
        }
        at += (int64_t)pc->len;
        big_free(pc->data);
        pc->data = NULL;
    }
    return PCT_OK;
}

int arrow_build(arrow_piece *pieces, int np, char kind, struct ArrowArray *out)
{
    int64_t total = 0, nulls = 0;
    for (int k = 0; k < np; k++) {
        total += pieces[k].rows;
        nulls += pieces[k].rows - count_valid(&pieces[k]);
    }
    int64_t nbuf = kind == 'l' ? 2 : kind == 'n' ? 0 : kind == 'v' ? 2 + np + 1 : 3;
    out_private *pv = calloc(1, sizeof *pv + (size_t)(nbuf ? nbuf : 1) * sizeof(void *));
    memset(out, 0, sizeof *out);
    if (!pv) {
        free_data(pieces, np);
        return PCT_ERR_NO_MEMORY;
    }
    pv->n = nbuf;
    out->length = total;
    out->null_count = nulls;
    out->n_buffers = nbuf;
    out->buffers = (const void **)pv->bufs;
    out->private_data = pv;
    out->release = release_array;
    size_t nrows = (size_t)total;
    int rc = PCT_OK;
    if (nulls && nbuf && np == 1) {
        pv->bufs[0] = pieces[0].valid; /* the same bits: taken */
        pieces[0].valid = NULL;
    } else if (nulls && nbuf) {
        uint8_t *bits = calloc(nrows / 8 + 1, 1);
        if (!(pv->bufs[0] = bits)) {
            rc = PCT_ERR_NO_MEMORY;
        } else {
            int64_t i = 0;
            for (int k = 0; k < np; k++)
                for (int64_t r = 0; r < pieces[k].rows; r++, i++)
                    if (valid_bit(&pieces[k], r))
                        bits[i >> 3] |= (uint8_t)(1u << (i & 7));
        }
    }
    if (rc == PCT_OK && kind == 'l' && np == 1 && pieces[0].ends) {
        pv->bufs[1] = pieces[0].ends; /* a null's value is left as it is: taken */
        pieces[0].ends = NULL;
    } else if (rc == PCT_OK && kind == 'l') {
        int64_t *values = big_malloc(nrows * sizeof *values);
        if (!(pv->bufs[1] = values)) {
            rc = PCT_ERR_NO_MEMORY;
        } else {
            int64_t i = 0;
            for (int k = 0; k < np; k++)
                for (int64_t r = 0; r < pieces[k].rows; r++, i++)
                    values[i] = valid_bit(&pieces[k], r) ? pieces[k].ends[r] : 0;
        }
    } else if (rc == PCT_OK && kind == 'v') {
        rc = build_views(pieces, np, pv, nrows);
    } else if (rc == PCT_OK && kind != 'n') {
        rc = build_offsets(pieces, np, kind, pv, nrows);
    }
    free_data(pieces, np);
    if (rc != PCT_OK)
        release_array(out);
    return rc;
}
