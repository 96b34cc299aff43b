#!/usr/bin/env python3
"""scoring.py - scores `sworn verify --json` reports against the labelled
corpus (tests/data/corpus/README.md says how labels are matched).

Usage: scoring.py [-v] DRAFT REPORT.json [DRAFT REPORT.json ...]
Each draft (NAME.md, NAME.html) has NAME.labels.tsv beside it.  Prints the score, each miss
and each false block with its input, expected and actual verdict; exits 1
below 99% caught or above 1% false blocks, 2 on a malformed input.
"""
import hashlib
import json
import os
import sys

BLOCKING = {"unsupported", "contradicted", "unverifiable"}  # strict gate
KINDS = {  # label kind -> claim kinds of the report
    "case": {"case"},
    "statute": {"statute", "rule"},
    "record": {"record", "bates"},
    "quote": {"quote"},
    "date": {"date"},
    "*": None,
}
MIN_CAUGHT, MAX_FALSE = 0.99, 0.01


def unesc(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"t": "\t", "n": "\n", "\\": "\\"}.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def fail(msg):
    print("scoring: " + msg)
    sys.exit(2)


def read_labels(path, draft):
    """Labels with their byte spans in the draft."""
    labels = []
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) != 5 or f[0] not in ("true", "planted", "none", "depends") \
                or f[1] not in KINDS:
            fail("%s:%d: malformed label" % (path, no))
        loc = unesc(f[4]).encode("utf-8")
        occ = int(f[3])
        k = -1
        for _ in range(occ):
            k = draft.find(loc, k + 1)
            if k < 0:
                fail("%s:%d: occurrence %d of %r is not in the draft" % (path, no, occ, f[4]))
        labels.append({"outcome": f[0], "kind": f[1], "error": f[2], "occ": occ,
                       "text": unesc(f[4]), "start": k, "end": k + len(loc),
                       "where": "%s:%d" % (os.path.basename(path), no), "claims": []})
    return labels


def line_col(draft, off):
    """1-based line and column (in characters) of a byte offset."""
    line = draft.count(b"\n", 0, off) + 1
    head = draft[draft.rfind(b"\n", 0, off) + 1:off]
    return "%d:%d" % (line, len(head.decode("utf-8", "replace")) + 1)


def check_report(name, draft, report, problems):
    """What the report says about the draft itself: the audit stamp's
    SHA-256 and format, and each claim's line:column (issue 10, item 15)."""
    audit = report.get("audit") or {}
    if audit.get("draft_sha256") != hashlib.sha256(draft).hexdigest():
        problems.append("%s: audit.draft_sha256 is %r, not the draft's SHA-256"
                        % (name, audit.get("draft_sha256")))
    want = "html" if name.endswith(".html") else "markdown"
    if audit.get("format") != want:
        problems.append("%s: audit.format is %r, not %r" % (name, audit.get("format"), want))
    for c in report.get("claims", []):
        got = "%s:%s" % (c.get("line"), c.get("column"))
        if got != line_col(draft, c["start"]):
            problems.append("%s: claim %s %r is at %s, the report says %s"
                            % (name, c.get("id"), c.get("text"), line_col(draft, c["start"]), got))


def overlaps(a0, a1, b0, b1):
    return a0 < b1 and b0 < a1 if a0 != a1 and b0 != b1 else a0 <= b0 < a1 or b0 <= a0 < b1


def verdicts(lab):
    return "; ".join("%s %s: %s" % (c["kind"], c["verdict"], c.get("reason", ""))
                     for c in lab["claims"]) or "(no claim found by the scanner)"


def main():
    args = sys.argv[1:]
    verbose = bool(args) and args[0] == "-v"
    if verbose:
        args = args[1:]
    if not args or len(args) % 2:
        fail("usage: scoring.py [-v] DRAFT.md REPORT.json ...")
    caught = planted = fblocks = trues = 0
    unscanned, misses, falses = [], [], []
    per_error, per_kind = {}, {}
    unlabelled_seen = 0
    problems = []
    for d, r in zip(args[::2], args[1::2]):
        draft = open(d, "rb").read()
        labels = read_labels(os.path.splitext(d)[0] + ".labels.tsv", draft)
        try:
            report = json.load(open(r, encoding="utf-8"))
        except ValueError as e:
            fail("%s: not JSON: %s" % (r, e))
        name = os.path.basename(d)
        check_report(name, draft, report, problems)
        for c in report.get("claims", []):
            s, e = c["start"], c["end"]
            hit = False
            for lab in labels:
                kinds = KINDS[lab["kind"]]
                if (kinds is None or c["kind"] in kinds) and \
                        overlaps(s, e, lab["start"], lab["end"]):
                    lab["claims"].append(c)
                    hit = True
            # An unlabelled claim inside a planted error or a claim that
            # depends on one is part of that error; any other is a claim of
            # the draft nobody planted, so blocking it is a false block.
            if not hit and not any(overlaps(s, e, lab["start"], lab["end"])
                                   for lab in labels
                                   if lab["outcome"] in ("planted", "depends")):
                unlabelled_seen += 1
                trues += 1
                k = per_kind.setdefault("(unlabelled " + c["kind"] + ")", [0, 0])
                k[1] += 1
                if c["verdict"] in BLOCKING:
                    fblocks += 1
                    k[0] += 1
                    falses.append("%s %s unlabelled %s claim %r: expected not blocked, got %s: %s"
                                  % (name, line_col(draft, s), c["kind"], c["text"],
                                     c["verdict"], c.get("reason", "")))
        for lab in labels:
            at = "%s %s" % (name, line_col(draft, lab["start"]))
            blocked = any(c["verdict"] in BLOCKING for c in lab["claims"])
            if lab["outcome"] == "planted":
                planted += 1
                pe = per_error.setdefault(lab["error"], [0, 0])
                pe[1] += 1
                if blocked:
                    caught += 1
                    pe[0] += 1
                else:
                    misses.append("%s planted %s (%s) %r: expected blocked, got %s"
                                  % (at, lab["error"], lab["kind"], lab["text"], verdicts(lab)))
            elif lab["outcome"] in ("true", "none"):
                if lab["outcome"] == "true" and not lab["claims"]:
                    unscanned.append("%s true %s %r: the scanner found no claim there"
                                     % (at, lab["kind"], lab["text"]))
                    continue
                trues += 1
                pk = per_kind.setdefault(lab["kind"] if lab["outcome"] == "true"
                                         else "(named thing)", [0, 0])
                pk[1] += 1
                if blocked:
                    fblocks += 1
                    pk[0] += 1
                    falses.append("%s %s %s %r: expected not blocked, got %s"
                                  % (at, lab["outcome"], lab["kind"], lab["text"], verdicts(lab)))
    print("caught %d/%d, false blocks %d/%d" % (caught, planted, fblocks, trues))
    print("planted errors caught, by kind:")
    for k in sorted(per_error):
        print("  %-24s %d/%d" % (k, per_error[k][0], per_error[k][1]))
    print("true claims blocked, by kind:")
    for k in sorted(per_kind):
        print("  %-24s %d/%d" % (k, per_kind[k][0], per_kind[k][1]))
    print("true claims the scanner did not find (not scored): %d" % len(unscanned))
    for m in misses:
        print("MISSED: " + m)
    for f in falses:
        print("FALSE BLOCK: " + f)
    if verbose:
        for u in unscanned:
            print("UNSCANNED: " + u)
    for p in problems[:50]:
        print("REPORT: " + p)
    if len(problems) > 50:
        print("REPORT: ... and %d more" % (len(problems) - 50))
    ok = planted > 0 and caught >= MIN_CAUGHT * planted and fblocks <= MAX_FALSE * trues
    ok = ok and not problems
    print("score: %s (needs >= %d%% caught, <= %d%% false blocks, reports that place "
          "every claim)" % ("pass" if ok else "FAIL", MIN_CAUGHT * 100, MAX_FALSE * 100))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
