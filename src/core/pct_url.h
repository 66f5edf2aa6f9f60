/* pct_url: the WHATWG URL Standard's basic URL parser, serializer and
 * origin. Plain C99, no Python.
 *
 * A parsed URL is one buffer, its href (the URL serializer's output), and
 * the offsets of its components in it, so that href costs no copy and each
 * getter of the Standard's API is a slice (pct_url_component). Hosts go
 * through the core's domain to ASCII (pct_idna.h); bytes that are not
 * UTF-8 are percent-encoded as bytes, as any other byte outside a set.
 *
 * A pct_url is reused from parse to parse (its buffers grow and stay); it is
 * not shared between threads while a parse runs.
 */
#ifndef PCT_URL_H
#define PCT_URL_H

#include "pct.h"

/* A status of pct_url_parse's rejections (pct.h's URL range). */
#define PCT_URL_REJECTED(rc) ((int)(rc) >= (int)PCT_URL_FAILURE && (int)(rc) < 400)

/* The scheme's kind: the special schemes, or any other. */
enum {
    PCT_URL_OTHER = 0,
    PCT_URL_HTTP = 1,
    PCT_URL_HTTPS = 2,
    PCT_URL_WS = 3,
    PCT_URL_WSS = 4,
    PCT_URL_FTP = 5,
    PCT_URL_FILE = 6
};

/* The host's kind: null (no authority), the empty host, a domain, an IPv4
 * or IPv6 address, an opaque host (non-special schemes). */
enum {
    PCT_URL_HOST_NULL = 0,
    PCT_URL_HOST_EMPTY = 1,
    PCT_URL_HOST_DOMAIN = 2,
    PCT_URL_HOST_IPV4 = 3,
    PCT_URL_HOST_IPV6 = 4,
    PCT_URL_HOST_OPAQUE = 5
};

/* The getters of the URL Standard's API, for pct_url_component. */
typedef enum {
    PCT_URL_HREF = 0,
    PCT_URL_PROTOCOL = 1, /* the scheme and ':' */
    PCT_URL_USERNAME = 2,
    PCT_URL_PASSWORD = 3,
    PCT_URL_HOST = 4,     /* the hostname, then ':' and the port when there is one */
    PCT_URL_HOSTNAME = 5, /* an IPv6 address in brackets */
    PCT_URL_PORT = 6,     /* "" when none or the scheme's default */
    PCT_URL_PATHNAME = 7,
    PCT_URL_SEARCH = 8,   /* "" when the query is null or empty, else '?' and the query */
    PCT_URL_HASH = 9,     /* "" when the fragment is null or empty, else '#' and it */
    PCT_URL_ORIGIN = 10,  /* pct_url_origin's (pct_url_component gives "" for it) */
    PCT_URL_RECORD = 11   /* the batch's whole record: href, origin, then protocol to hash,
                           * joined by NUL bytes, which no getter holds (pct_url_component
                           * gives "" for it) */
} pct_url_part;

typedef struct pct_url {
    uint8_t *href; /* malloc'd; href[0..len) */
    size_t len, cap;
    uint8_t *scratch; /* malloc'd working space of the parser */
    size_t scratch_cap;
    /* Offsets into href; every range is [start, end). */
    size_t protocol_end; /* after the ':' */
    size_t username_start, username_end;
    size_t password_start, password_end;
    size_t host_start, host_end; /* the serialized host (hostname) */
    size_t port_start, port_end; /* the port's digits */
    size_t pathname_start, pathname_end;
    size_t search_start, search_end; /* from the '?'; empty when the query is null */
    size_t hash_start, hash_end;     /* from the '#'; empty when the fragment is null */
    int32_t port;      /* -1: none (or the default, which is never kept) */
    uint8_t scheme;    /* PCT_URL_OTHER, PCT_URL_HTTP, ... */
    uint8_t host_kind; /* PCT_URL_HOST_* */
    uint8_t opaque_path;
    size_t error_pos; /* after a failure: the offset in the input where it was found */
} pct_url;

void pct_url_init(pct_url *u);
void pct_url_free(pct_url *u);

/* Parses src[0..n) (UTF-8; other bytes are escaped) against `base` (a URL
 * this function parsed, or NULL) into u, which must not be base. href may
 * not pass `limit` bytes (PCT_ERR_TOO_LARGE). On failure the status is one
 * of PCT_ERR_URL_* (PCT_URL_REJECTED; u->error_pos says where), PCT_ERR_NO_MEMORY or
 * PCT_ERR_TOO_LARGE, and u holds no URL. */
pct_status pct_url_parse(pct_url *u, const uint8_t *src, size_t n, const pct_url *base,
                         size_t limit);

/* The rejection pct_url_parse gives a URL whose host host[0..n), at
 * offset `at` of the URL, it reads as written (no escape in it, no tab or
 * newline before its end: pct_domain_host_reader's READ_ALIKE) and whose
 * domain to ASCII fails: PCT_ERR_URL_FORBIDDEN_HOST at the host's first
 * forbidden domain code point when it is ASCII and has one, else
 * PCT_ERR_URL_DOMAIN at its start; *error_pos as u->error_pos would be.
 * Known without parsing (a failed row's reason). */
pct_status pct_url_refused_host(const uint8_t *host, size_t n, size_t at, size_t *error_pos);

/* 1 when the ASCII host s[0..n) is an IPv4 address written as the parser
 * writes it (its host is then s itself: "127.0.0.1", not "127.1",
 * "0x7f.0.0.1", "127.0.0.01" or "127.0.0.1."), else 0. */
int pct_url_ipv4_written(const uint8_t *s, size_t n);

/* The getter's value: a slice of u->href. */
void pct_url_component(const pct_url *u, pct_url_part part, const uint8_t **p, size_t *n);

/* The URL's origin serialized ("scheme://host[:port]", or "null" for an
 * opaque origin; a blob: URL's is its path's http(s) origin), in
 * *p[0..*n): a static string or work's scratch. work is a pct_url apart
 * from u, reused as scratch. */
pct_status pct_url_origin(const pct_url *u, pct_url *work, const uint8_t **p, size_t *n);

/* A short English reason for a PCT_ERR_URL_* status ("" for others). */
const char *pct_url_reason(pct_status status);

/* The URL Standard's default port of a scheme kind, or -1. */
int32_t pct_url_default_port(int scheme);

#endif /* PCT_URL_H */
