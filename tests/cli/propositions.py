#!/usr/bin/env python3
"""propositions.py - the labelled proposition cases (tests/data/propositions.jsonl)
as a Markdown draft, and the score of `sworn verify --json` on it.

Usage: propositions.py draft CASES.jsonl DRAFT.md
       propositions.py [-v] score CASES.jsonl DRAFT.md REPORT.json

`draft` writes each case's sentence as its own paragraph of a Markdown draft,
in an order that mixes the kinds.  `score` finds each sentence in the draft
(its byte span), takes the report's claims of kind "proposition" whose
[start, end) byte span overlaps it (a claim overlapping several sentences
goes to the one it overlaps most), and scores:
  a mismatch is caught when one of its propositions is unsupported or
  contradicted; a supported case is a false flag when one of its
  propositions is unsupported or contradicted.
A case with no proposition claim counts as not caught (mismatch) or not
flagged (supported) and is listed.  Prints recall, false flags and precision,
overall and per kind; exits 1 below 95% recall or above 2% false flags, or
when the report has no proposition claim at all (the layer is missing), 2 on
a malformed input.
"""
import hashlib
import json
import sys

FLAGGED = {"unsupported", "contradicted"}
LABELS = {"supported", "mismatch"}
KINDS = {"supported": {"faithful_paraphrase", "exact"},
         "mismatch": {"wrong_amount", "wrong_quantity", "wrong_party", "wrong_page",
                      "other_document", "merged_pair", "negation", "wrong_identifier"}}
MIN_RECALL, MAX_FALSE = 0.95, 0.02


def fail(msg):
    print("propositions: " + msg)
    sys.exit(2)


def read_jsonl(path, fields, check, fail):
    """Cases one JSON object a line: each with `fields`, check(case) None
    (else what is wrong), a unique id, its cites in its sentence, the
    sentence on one line.  fail(msg) on the first that is not."""
    cases, ids = [], set()
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip():
            continue
        try:
            c = json.loads(line)
        except ValueError as e:
            fail("%s:%d: not JSON: %s" % (path, no, e))
        for f in fields:
            if f not in c:
                fail("%s:%d: no field %r" % (path, no, f))
        wrong = check(c)
        if wrong:
            fail("%s:%d: %s" % (path, no, wrong))
        if c["id"] in ids:
            fail("%s:%d: id %r twice" % (path, no, c["id"]))
        ids.add(c["id"])
        if not c["cites"] or any(x not in c["sentence"] for x in c["cites"]):
            fail("%s:%d: a cite of %r is not in its sentence" % (path, no, c["id"]))
        if "\n" in c["sentence"]:
            fail("%s:%d: a sentence on two lines" % (path, no))
        cases.append(c)
    if not cases:
        fail("%s: no cases" % path)
    return cases


def read_cases(path):
    def check(c):
        if c["label"] not in LABELS or c["kind"] not in KINDS[c["label"]]:
            return "label %r with kind %r" % (c["label"], c["kind"])
        return None
    return read_jsonl(path, ("id", "sentence", "cites", "label", "kind", "note"), check, fail)


def order(cases):
    """The kinds mixed, the same order every time."""
    return sorted(cases, key=lambda c: hashlib.sha256(c["id"].encode()).hexdigest())


def write_draft(cases, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Acme Widgets, Inc. v. Brightline Logistics LLC\n\n## Statement of Undisputed Facts\n\n")
        for c in order(cases):
            f.write(c["sentence"] + "\n\n")


def overlap(a0, a1, b0, b1):
    return max(0, min(a1, b1) - max(a0, b0))


def main():
    args = sys.argv[1:]
    verbose = bool(args) and args[0] == "-v"
    if verbose:
        args = args[1:]
    if len(args) == 3 and args[0] == "draft":
        write_draft(read_cases(args[1]), args[2])
        return 0
    if len(args) != 4 or args[0] != "score":
        fail("usage: propositions.py draft CASES.jsonl DRAFT.md | [-v] score CASES.jsonl DRAFT.md REPORT.json")
    cases = read_cases(args[1])
    draft = open(args[2], "rb").read()
    try:
        report = json.load(open(args[3], encoding="utf-8"))
    except ValueError as e:
        fail("%s: not JSON: %s" % (args[3], e))
    at = 0
    for c in order(cases):
        s = c["sentence"].encode("utf-8")
        k = draft.find(s, at)
        if k < 0:
            fail("%s: its sentence is not in the draft" % c["id"])
        c["start"], c["end"], c["props"] = k, k + len(s), []
        at = k + len(s)
    spans = sorted(cases, key=lambda c: c["start"])
    props = [p for p in report.get("claims", []) if p.get("kind") == "proposition"]
    if not props:
        print("FAIL: no proposition claims in sworn verify --json: the deterministic layer is missing")
        return 1
    stray = 0
    for p in props:
        try:
            s, e = int(p["start"]), int(p["end"])
        except (KeyError, TypeError, ValueError):
            fail("a proposition claim without a byte span: %r" % p)
        best, most = None, 0
        for c in spans:
            if c["start"] >= e:
                break
            o = overlap(s, e, c["start"], c["end"])
            if o > most:
                best, most = c, o
        if best is None:
            stray += 1
        else:
            best["props"].append(p)
    caught = planted = flagged = trues = 0
    per = {}
    misses, falses, unclaimed = [], [], []
    for c in cases:
        hit = any(p.get("verdict") in FLAGGED for p in c["props"])
        k = per.setdefault((c["label"], c["kind"]), [0, 0, 0])
        k[1] += 1
        if not c["props"]:
            k[2] += 1
            unclaimed.append(c)
        why = "; ".join("%s: %s" % (p.get("verdict"), p.get("reason", "")) for p in c["props"]) \
            or "(no proposition claim)"
        if c["label"] == "mismatch":
            planted += 1
            if hit:
                caught += 1
                k[0] += 1
            else:
                misses.append("%s %r: expected unsupported or contradicted (%s), got %s"
                              % (c["id"], c["sentence"], c["note"], why))
        else:
            trues += 1
            if hit:
                flagged += 1
                k[0] += 1
                falses.append("%s %r: expected supported, got %s" % (c["id"], c["sentence"], why))

    def pct(a, b):
        return 100.0 * a / b if b else 0.0
    print("propositions: recall %d/%d (%.1f%%), false flags %d/%d (%.1f%%), precision %d/%d (%.1f%%)"
          % (caught, planted, pct(caught, planted), flagged, trues, pct(flagged, trues),
             caught, caught + flagged, pct(caught, caught + flagged)))
    print("by kind (mismatches: caught; supported: false flags; cases without a proposition claim):")
    for (label, kind) in sorted(per):
        a, b, n = per[(label, kind)]
        what = "recall" if label == "mismatch" else "false flags"
        print("  %-9s %-20s %s %d/%d (%.1f%%)%s" % (label, kind, what, a, b, pct(a, b),
                                                   ", %d without a claim" % n if n else ""))
    print("proposition claims: %d (%d outside every case's sentence)" % (len(props), stray))
    for m in misses:
        print("MISSED: " + m)
    for f in falses:
        print("FALSE FLAG: " + f)
    if verbose:
        for c in unclaimed:
            print("NO CLAIM: %s %r" % (c["id"], c["sentence"]))
    ok = planted > 0 and caught >= MIN_RECALL * planted and flagged <= MAX_FALSE * trues
    print("score: %s (needs recall >= %d%%, false flags <= %d%%)"
          % ("pass" if ok else "FAIL", MIN_RECALL * 100, MAX_FALSE * 100))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
