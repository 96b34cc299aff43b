#!/usr/bin/env python3
"""annotate.py - turns an annotated draft (src/NAME.src.md) into the draft
(NAME.md) and its labels (NAME.labels.tsv).  See README.md.

Markup, nestable:  ⟦T kind|text⟧      a true claim
                   ⟦P kind error|text⟧ a planted error of kind `error`
                   ⟦N|text⟧           a named thing that is no claim (never blocked)
                   ⟦D kind|text⟧      a claim whose verdict follows a planted error
                                      next to it (not scored either way)
The markers are removed; `text` stays in the draft and becomes the label's
locator, with the occurrence index that picks this place out of the draft.
Usage: annotate.py SRC.src.md|SRC.src.html...   (writes NAME.md or NAME.html
and NAME.labels.tsv into the folder above src/)
"""
import os
import sys

OPEN, CLOSE = "\u27e6", "\u27e7"


def esc(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def convert(src):
    text = open(src, encoding="utf-8").read()
    out = []
    stack = []   # (output position, header)
    spans = []   # (start, end, header)
    pos = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c == OPEN:
            bar = text.index("|", i)
            stack.append((pos, text[i + 1:bar]))
            i = bar + 1
        elif c == CLOSE:
            start, head = stack.pop()
            spans.append((start, pos, head))
            i += 1
        else:
            out.append(c)
            pos += 1
            i += 1
    if stack:
        sys.exit("%s: unclosed marker %r" % (src, stack[-1][1]))
    draft = "".join(out)
    rows = []
    for start, end, head in sorted(spans):
        loc = draft[start:end]
        occ, k = 0, -1
        while True:
            k = draft.find(loc, k + 1)
            if k < 0 or k > start:
                sys.exit("%s: cannot place %r" % (src, loc))
            occ += 1
            if k == start:
                break
        f = head.split()
        if f[0] == "T":
            rows.append(("true", f[1], "-", occ, loc))
        elif f[0] == "P":
            rows.append(("planted", f[1], f[2], occ, loc))
        elif f[0] == "D":
            rows.append(("depends", f[1], "-", occ, loc))
        elif f[0] == "N":
            rows.append(("none", "*", "-", occ, loc))
        else:
            sys.exit("%s: bad marker %r" % (src, head))
    base = os.path.basename(src)
    ext = base[base.index(".src.") + len(".src"):]
    name = base[:base.index(".src.")]
    top = os.path.dirname(os.path.dirname(os.path.abspath(src)))
    with open(os.path.join(top, name + ext), "w", encoding="utf-8") as f:
        f.write(draft)
    with open(os.path.join(top, name + ".labels.tsv"), "w", encoding="utf-8") as f:
        f.write("# labels of %s%s (tests/data/corpus/README.md): "
                "outcome, kind, error, occurrence, locator\n" % (name, ext))
        for r in rows:
            f.write("%s\t%s\t%s\t%d\t%s\n" % (r[0], r[1], r[2], r[3], esc(r[4])))
    n = {"true": 0, "planted": 0, "none": 0, "depends": 0}
    for r in rows:
        n[r[0]] += 1
    print("%s: %d true, %d planted, %d none" % (name, n["true"], n["planted"], n["none"]))


for a in sys.argv[1:]:
    convert(a)
