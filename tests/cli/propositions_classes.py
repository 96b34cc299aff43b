#!/usr/bin/env python3
"""propositions_classes.py - the class corpus (tests/data/propositions_classes.jsonl)
as a Markdown draft, and the score of `sworn verify --json` on it, by class.

Usage: propositions_classes.py draft CASES.jsonl DRAFT.md
       propositions_classes.py [-v] score CASES.jsonl DRAFT.md REPORT.json

`draft` writes each case of layout "paragraph" as its own paragraph, in an
order that mixes the classes, and the cases of layout "line" (a chronology)
as blocks of consecutive lines, supported and mismatched entries mixed, every
other block as a Markdown list.  `score` finds each sentence in the draft
(its byte span) and gives it every claim of the report, of any kind, whose
[start, end) span overlaps it: a claim that spans several sentences (a
chronology read as one paragraph) counts for each of them, as a reader of
the report sees it.  A sentence is blocked when one of its claims is
unsupported, contradicted or uncited:
  a mismatch is caught when it is blocked; a supported sentence that is
  blocked is a false block.
Prints caught and false blocks overall and by class, each miss and each false
block with its claims' verdicts and reasons; exits 1 when the overall or a
class's figures pass the bounds below, or when the report has no proposition
claim at all, 2 on a malformed input.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from propositions import order, overlap, read_jsonl  # noqa: E402  (the same case rules)

# The bounds: issue 36's bar, 99% caught and at most 1% false blocks,
# overall and in every class.  Measured when set: caught 226/226, false
# blocks 0/231 (when the corpus was written: 138 and 50).  The corpus was
# written beside the rules, so it holds what they reach; sworn is also
# measured on the shared corpus, written apart (cli_verify_corpus).
MIN_CAUGHT, MAX_FALSE = 0.99, 0.01                  # overall
MIN_CLASS_CAUGHT, MAX_CLASS_FALSE = 0.99, 0.01      # each class

BLOCKING = {"unsupported", "contradicted", "uncited"}
LABELS = ("supported", "mismatch")
CLASSES = ("unnamed-party", "defined-term", "table-row", "number-words", "arithmetic",
           "date-format", "negation", "count", "quote-attribution", "wrong-party", "chronology")
BLOCK_LINES = 8


def fail(msg):
    print("propositions_classes: " + msg)
    sys.exit(2)


def read_cases(path):
    def check(c):
        if c["label"] not in LABELS or c["class"] not in CLASSES or \
                c["layout"] not in ("paragraph", "line"):
            return "label %r, class %r, layout %r" % (c["label"], c["class"], c["layout"])
        return None
    return read_jsonl(path, ("id", "class", "label", "layout", "sentence", "cites", "note"),
                      check, fail)


def write_draft(cases, path):
    paras = [c for c in order(cases) if c["layout"] == "paragraph"]
    lines = [c for c in order(cases) if c["layout"] == "line"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Carver Construction Co. v. Delmar Precast LLC\n\n## Statement of Facts\n\n")
        for c in paras:
            f.write(c["sentence"] + "\n\n")
        f.write("## Chronology\n\n")
        for b in range(0, len(lines), BLOCK_LINES):
            mark = "- " if (b // BLOCK_LINES) % 2 else ""
            for c in lines[b:b + BLOCK_LINES]:
                f.write(mark + c["sentence"] + "\n")
            f.write("\n")


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def main():
    args = sys.argv[1:]
    verbose = bool(args) and args[0] == "-v"
    if verbose:
        args = args[1:]
    if len(args) == 3 and args[0] == "draft":
        write_draft(read_cases(args[1]), args[2])
        return 0
    if len(args) != 4 or args[0] != "score":
        fail("usage: propositions_classes.py draft CASES.jsonl DRAFT.md | [-v] score CASES.jsonl DRAFT.md REPORT.json")
    cases = read_cases(args[1])
    draft = open(args[2], "rb").read()
    try:
        report = json.load(open(args[3], encoding="utf-8"))
    except ValueError as e:
        fail("%s: not JSON: %s" % (args[3], e))
    at = 0
    drafted = [c for c in order(cases) if c["layout"] == "paragraph"] + \
              [c for c in order(cases) if c["layout"] == "line"]
    for c in drafted:
        s = c["sentence"].encode("utf-8")
        k = draft.find(s, at)
        if k < 0:
            fail("%s: its sentence is not in the draft" % c["id"])
        c["start"], c["end"], c["claims"] = k, k + len(s), []
        at = k + len(s)
    claims = report.get("claims", [])
    if not any(p.get("kind") == "proposition" for p in claims):
        print("FAIL: no proposition claims in sworn verify --json: the deterministic layer is missing")
        return 1
    for p in claims:
        try:
            s, e = int(p["start"]), int(p["end"])
        except (KeyError, TypeError, ValueError):
            fail("a claim without a byte span: %r" % p)
        for c in drafted:
            if overlap(s, e, c["start"], c["end"]) > 0:
                c["claims"].append(p)
    per = {cls: {"caught": 0, "planted": 0, "false": 0, "true": 0, "noprop": 0} for cls in CLASSES}
    misses, falses = [], []
    for c in cases:
        k = per[c["class"]]
        blocked = [p for p in c["claims"] if p.get("verdict") in BLOCKING]
        if not any(p.get("kind") == "proposition" for p in c["claims"]):
            k["noprop"] += 1
        shown = blocked or [p for p in c["claims"] if p.get("kind") == "proposition"]
        why = "; ".join("%s %s: %s" % (p.get("kind"), p.get("verdict"), p.get("reason", "")) for p in shown) \
            or "(no proposition claim)"
        if c["label"] == "mismatch":
            k["planted"] += 1
            if blocked:
                k["caught"] += 1
            else:
                misses.append("%s %r (%s): %s" % (c["id"], c["sentence"], c["note"], why))
        else:
            k["true"] += 1
            if blocked:
                k["false"] += 1
                falses.append("%s %r: %s" % (c["id"], c["sentence"], why))
    tot = {f: sum(k[f] for k in per.values()) for f in ("caught", "planted", "false", "true", "noprop")}
    print("propositions by class: caught %d/%d (%.1f%%), false blocks %d/%d (%.1f%%)"
          % (tot["caught"], tot["planted"], pct(tot["caught"], tot["planted"]),
             tot["false"], tot["true"], pct(tot["false"], tot["true"])))
    print("  %-18s %-19s %-19s %s" % ("class", "caught", "false blocks", "no proposition claim"))
    ok = tot["planted"] > 0 and tot["caught"] >= MIN_CAUGHT * tot["planted"] and \
        tot["false"] <= MAX_FALSE * tot["true"]
    for cls in CLASSES:
        k = per[cls]
        print("  %-18s %3d/%-3d (%5.1f%%)   %3d/%-3d (%5.1f%%)   %d" % (
            cls, k["caught"], k["planted"], pct(k["caught"], k["planted"]),
            k["false"], k["true"], pct(k["false"], k["true"]), k["noprop"]))
        if k["caught"] < MIN_CLASS_CAUGHT * k["planted"] or k["false"] > MAX_CLASS_FALSE * k["true"]:
            ok = False
    for m in misses:
        print("MISSED: " + m)
    for f in falses:
        print("FALSE BLOCK: " + f)
    if verbose:
        for c in cases:
            if not any(p.get("kind") == "proposition" for p in c["claims"]):
                print("NO PROPOSITION: %s %r" % (c["id"], c["sentence"]))
    print("score: %s (needs caught >= %g%% and false blocks <= %g%% overall; by class >= %g%%, <= %g%%)"
          % ("pass" if ok else "FAIL", MIN_CAUGHT * 100, MAX_FALSE * 100,
             MIN_CLASS_CAUGHT * 100, MAX_CLASS_FALSE * 100))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
