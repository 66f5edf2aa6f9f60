/* pct_psl: the Public Suffix List compiled into a hash table of its rules,
 * and the public suffix of a host by the list's algorithm. Plain C99, no
 * Python.
 *
 * The list's format (publicsuffix.org/list): one rule a line, read up to
 * the first white space; lines starting with "//" are comments; the rules
 * between "===BEGIN PRIVATE DOMAINS===" and "===END PRIVATE DOMAINS==="
 * are the PRIVATE section, all others ICANN's. A rule is a domain ("co.uk"),
 * a wildcard "*." before one ("*.ck": every label under ck is a suffix) or
 * an exception "!" before one ("!www.ck": not a suffix, its parent is).
 * A rule's domain is stored in its ASCII form, mapped exactly as a host is
 * (pct_idna_to_ascii: UTS #46 mapping, xn-- labels), so that it matches the
 * hosts it names however either is written. A UTF-8 signature (BOM) at the
 * start of the text is not part of the first line.
 *
 * A compiled list is read-only: any number of threads may look up in it.
 */
#ifndef PCT_PSL_H
#define PCT_PSL_H

#include "pct.h"

typedef struct pct_psl pct_psl;

/* Rule counts by section: [0] ICANN, [1] PRIVATE. */
typedef struct {
    size_t rules[2];      /* every rule */
    size_t wildcards[2];  /* of which "*." rules */
    size_t exceptions[2]; /* of which "!" rules */
} pct_psl_counts;

/* Why a list does not compile: PCT_PSL_BAD_RULE (pct.h; *line, 1-based, says which). */

/* Compiles the list text[0..n) (UTF-8) into *out (pct_psl_free it).
 * Returns PCT_OK, PCT_ERR_NO_MEMORY, PCT_ERR_TOO_LARGE (over 2^31 bytes)
 * or PCT_PSL_BAD_RULE for a rule that names no domain: one pct_idna_to_ascii
 * refuses (bytes that are not UTF-8, a character no host may hold such as
 * '/' or NUL, a label UTS #46 rejects), an empty label, a wildcard that is
 * not the leftmost label, a label over 63 bytes or a domain over 253 bytes
 * in ASCII form. Linear in the text's length. `counts` may be NULL. */
int pct_psl_compile(const uint8_t *text, size_t n, pct_psl **out, pct_psl_counts *counts,
                    size_t *line);
/* pct_psl_compile that asks `stop` (may be NULL) now and then whether to go
 * on: PCT_ERR_INTERRUPTED, nothing kept, when it says no. */
int pct_psl_compile_stoppable(const uint8_t *text, size_t n, pct_psl **out,
                              pct_psl_counts *counts, size_t *line, const pct_interrupt *stop);
void pct_psl_free(pct_psl *psl);

/* The number of labels of the public suffix of host[0..n): ASCII,
 * lowercase, labels not empty, no trailing dot. `private_too`: the PRIVATE
 * section's rules count as well as ICANN's. At least 1 (the default rule
 * "*": an unlisted top-level domain is a suffix) and at most the host's
 * label count. */
size_t pct_psl_suffix_labels(const pct_psl *psl, const uint8_t *host, size_t n, int private_too);
/* pct_psl_suffix_labels of a host whose last nd dots the caller found:
 * their positions, ascending, in dots[0..nd) (`all`: they are all its
 * dots; else the lookup finds any before them itself). */
size_t pct_psl_suffix_labels_dots(const pct_psl *psl, const uint8_t *host, size_t n,
                                  const size_t *dots, size_t nd, int all, int private_too);

#endif /* PCT_PSL_H */
