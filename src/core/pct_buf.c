/* The growing byte buffer (pct_buf.h). */
#include <stdlib.h>
#include <string.h>

#include "pct_buf.h"

void pct_buf_init(pct_buf *buf)
{
    buf->data = NULL;
    buf->len = buf->cap = 0;
    buf->scratch = NULL;
    buf->scratch_cap = 0;
}

void pct_buf_free(pct_buf *buf)
{
    free(buf->data);
    free(buf->scratch);
    pct_buf_init(buf);
}

/* *p holds at least `need` bytes (and is allocated, even for 0): grown to
 * max(need, 2 * cap, 64). */
static pct_status grow(uint8_t **p, size_t *cap, size_t need)
{
    if (need <= *cap && *p)
        return PCT_OK;
    size_t want = *cap > SIZE_MAX / 2 ? SIZE_MAX : 2 * *cap;
    if (want < need)
        want = need;
    if (want < 64)
        want = 64;
    uint8_t *q = realloc(*p, want);
    if (!q)
        return PCT_ERR_NO_MEMORY;
    *p = q;
    *cap = want;
    return PCT_OK;
}

pct_status pct_buf_reserve(pct_buf *buf, size_t extra, size_t limit)
{
    if (buf->len > limit || extra > limit - buf->len)
        return PCT_ERR_TOO_LARGE;
    return grow(&buf->data, &buf->cap, buf->len + extra);
}

pct_status pct_buf_append(pct_buf *buf, const void *p, size_t n, size_t limit)
{
    pct_status rc = pct_buf_reserve(buf, n, limit);
    if (rc != PCT_OK)
        return rc;
    if (n)
        memcpy(buf->data + buf->len, p, n);
    buf->len += n;
    return PCT_OK;
}

pct_status pct_buf_scratch(pct_buf *buf, size_t n)
{
    return grow(&buf->scratch, &buf->scratch_cap, n);
}
