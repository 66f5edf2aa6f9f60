"""Writes src/core/pct_idna_tables.c: the Unicode data of pct_idna.c.

    pip install 'idna==3.19' 'unicodedata2==17.0.1'
    python src/core/gen_idna_tables.py

Both inputs carry Unicode 17.0.0 and the script refuses others of different
versions: the UTS #46 mapping table and the joining types come from the
``idna`` package's data, canonical decompositions and compositions, combining
classes, bidi classes and general categories from ``unicodedata2``. Only the
facts are taken over; the lookup is pct_idna.c's own.

Layout (see pct_idna_tables.h): every code point has a 32-bit property word
(UTS #46 status, bidi class, joining type, combining class, flags), found in
two stages (a block index, then the block's entries, identical blocks
shared); mappings, decompositions and compositions are sorted arrays for a
binary search, consulted only for the code points whose flags say so.
"""
import os
import sys
from importlib.metadata import version

import idna.idnadata
import idna.uts46data
import unicodedata2 as ud

UNICODE = "17.0.0"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pct_idna_tables.c")

# Property word bits: the names pct_idna_tables.h gives them.
STATUS = {"valid": 0, "mapped": 1, "ignored": 2, "disallowed": 3}
BIDI = ["other", "L", "R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"]
JOINING = {"T": 1, "L": 2, "R": 3, "D": 4}
MARK, NFC_YES, DECOMPOSES = 1 << 9, 1 << 10, 1 << 11
CCC_SHIFT = 16
BIDI_SHIFT, JOINING_SHIFT = 2, 6


def check_versions():
    found = {"idna uts46data": idna.uts46data.__version__, "idna idnadata": idna.idnadata.__version__,
             "unicodedata2": ud.unidata_version}
    if set(found.values()) != {UNICODE}:
        sys.exit("need Unicode %s from every input, found %s" % (UNICODE, found))


def uts46():
    """(status, mapping) of every code point, UseSTD3ASCIIRules off and
    non-transitional: deviations are valid."""
    starts = list(idna.uts46data.uts46_starts)
    statuses = idna.uts46data.uts46_statuses
    repl = idna.uts46data.uts46_replacements
    out = [None] * 0x110000
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else 0x110000
        s, r = chr(statuses[i]), repl[i]
        if s in "VD" or (s == "3" and not r):
            v = ("valid", None)
        elif s in "M3":
            v = ("mapped", r)
        elif s == "I":
            v = ("ignored", None)
        else:
            v = ("disallowed", None)
        for cp in range(start, end):
            out[cp] = v
    return out


def joining_types():
    out = {}
    for name, ranges in idna.idnadata.joining_types.items():
        if name not in JOINING:
            continue
        for r in ranges:
            for cp in range(r >> 32, r & 0xFFFFFFFF):
                out[cp] = JOINING[name]
    return out


def is_hangul_syllable(cp):
    return 0xAC00 <= cp < 0xAC00 + 11172


def main():
    check_versions()
    status = uts46()
    joining = joining_types()
    decomp, comp, seconds = {}, {}, set(range(0x1161, 0x1176)) | set(range(0x11A8, 0x11C3))
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000 or is_hangul_syllable(cp):
            continue
        c = chr(cp)
        d = ud.normalize("NFD", c)
        if d != c:
            decomp[cp] = [ord(x) for x in d]
        raw = ud.decomposition(c)
        if raw and not raw.startswith("<"):
            parts = [int(x, 16) for x in raw.split()]
            if len(parts) == 2 and ud.normalize("NFC", c) == c:  # a primary composite
                comp[(parts[0], parts[1])] = cp
                seconds.add(parts[1])
    props = []
    for cp in range(0x110000):
        c = chr(cp) if not 0xD800 <= cp < 0xE000 else None
        st, _ = status[cp]
        p = STATUS[st]
        if c is not None:
            bidi = ud.bidirectional(c)
            p |= (BIDI.index(bidi) if bidi in BIDI else 0) << BIDI_SHIFT
            ccc = ud.combining(c)
            p |= ccc << CCC_SHIFT
            if ud.category(c).startswith("M"):
                p |= MARK
            if cp in decomp:
                p |= DECOMPOSES
            if ud.normalize("NFC", c) == c and cp not in seconds:  # NFC_Quick_Check=Yes
                p |= NFC_YES
        p |= joining.get(cp, 0) << JOINING_SHIFT
        props.append(p)

    records = sorted(set(props))
    index = {p: i for i, p in enumerate(records)}
    best = None
    for shift in range(4, 11):
        size = 1 << shift
        blocks, block_of = {}, []
        for b in range(0, 0x110000, size):
            key = tuple(index[p] for p in props[b:b + size])
            block_of.append(blocks.setdefault(key, len(blocks)))
        stage1_bytes = len(block_of) * (1 if len(blocks) <= 256 else 2)
        total = stage1_bytes + len(blocks) * size * (1 if len(records) <= 256 else 2)
        if best is None or total < best[0]:
            best = (total, shift, blocks, block_of)
    _, shift, blocks, block_of = best

    mapped = sorted(cp for cp in range(0x110000) if status[cp][0] == "mapped")
    map_pool, map_off = [], []
    for cp in mapped:
        map_off.append(len(map_pool))
        map_pool += [ord(x) for x in status[cp][1]]
    map_off.append(len(map_pool))
    dcps = sorted(decomp)
    d_pool, d_off = [], []
    for cp in dcps:
        d_off.append(len(d_pool))
        d_pool += decomp[cp]
    d_off.append(len(d_pool))
    pairs = sorted(comp)
    assert len(map_pool) < 65536 and len(d_pool) < 65536
    assert len(blocks) <= 256 and len(records) <= 256, "pct_idna_tables.h declares uint8_t stages"

    def arr(ctype, name, values, per_line=12, fmt="0x%X"):
        lines = ["const %s %s[%d] = {" % (ctype, name, len(values))]
        for i in range(0, len(values), per_line):
            lines.append("    " + ", ".join(fmt % v for v in values[i:i + per_line]) + ",")
        lines.append("};")
        return "\n".join(lines)

    stage2 = [i for key in sorted(blocks, key=blocks.get) for i in key]
    t1 = "uint8_t" if len(blocks) <= 256 else "uint16_t"
    t2 = "uint8_t" if len(records) <= 256 else "uint16_t"
    max_map = max(map_off[i + 1] - map_off[i] for i in range(len(mapped)))
    max_decomp = max(len(v) for v in decomp.values())
    out = [
        "/* Generated by src/core/gen_idna_tables.py: do not edit. Unicode %s, from" % UNICODE,
        " * idna %s (UTS #46 mapping, joining types) and unicodedata2 %s" % (version("idna"),
                                                                             version("unicodedata2")),
        " * (normalization, combining and bidi classes, general categories). */",
        '#include "pct_idna_tables.h"',
        "",
        "#if PCT_IDNA_BLOCK_SHIFT != %d || PCT_IDNA_MAX_MAPPING != %d || PCT_IDNA_MAX_DECOMPOSITION != %d"
        % (shift, max_map, max_decomp),
        "#error pct_idna_tables.h does not match the generated tables",
        "#endif",
        "#if %s" % " || ".join(["PCT_BIDI_%s != %d" % (b.upper(), i) for i, b in enumerate(BIDI)]
                               + ["PCT_JOIN_%s != %d" % (j, v) for j, v in JOINING.items()]),
        "#error the PCT_BIDI_* or PCT_JOIN_* of pct_idna_tables.h do not match the generated tables",
        "#endif",
        "",
        "const char pct_idna_unicode_version[] = \"%s\";" % UNICODE,
        "",
        arr("uint32_t", "pct_idna_props", records, 8),
        arr(t1, "pct_idna_stage1", block_of, 16, "%d"),
        arr(t2, "pct_idna_stage2", stage2, 16, "%d"),
        "const size_t pct_idna_n_mapped = %d;" % len(mapped),
        arr("uint32_t", "pct_idna_mapped_cp", mapped, 8),
        arr("uint16_t", "pct_idna_mapped_off", map_off, 12, "%d"),
        arr("uint32_t", "pct_idna_mapped_pool", map_pool, 8),
        "const size_t pct_idna_n_decomposed = %d;" % len(dcps),
        arr("uint32_t", "pct_idna_decomposed_cp", dcps, 8),
        arr("uint16_t", "pct_idna_decomposed_off", d_off, 12, "%d"),
        arr("uint32_t", "pct_idna_decomposed_pool", d_pool, 8),
        "const size_t pct_idna_n_composed = %d;" % len(pairs),
        arr("uint64_t", "pct_idna_composed_key", [a << 21 | b for a, b in pairs], 6, "0x%Xu"),
        arr("uint32_t", "pct_idna_composed_cp", [comp[k] for k in pairs], 8),
        "",
    ]
    with open(OUT, "w", encoding="ascii", newline="\n") as f:
        f.write("\n".join(out))
    print("%s: block shift %d, %d records, %d blocks, %d mapped, %d decomposed, %d pairs; "
          "types %s/%s; max mapping %d, max decomposition %d"
          % (OUT, shift, len(records), len(blocks), len(mapped), len(dcps), len(pairs), t1, t2,
             max_map, max_decomp))


if __name__ == "__main__":
    main()
