# Black-box tests of `sworn claims`: text from a file and from stdin, the
# human table, --json in DESIGN.md's shape, --kind, byte offsets that hold
# around multi-byte characters, and errors.
. "$(dirname "$0")/lib.sh"

printf 'In Bell Atl. Corp. v. Twombly, 550 U.S. 544, 556 (2007), the Court said \342\200\234plausible\342\200\235. Id. at 557.\nSmith Dep. 45:3\342\200\22312; Ex. 12 at 3; ACME0000123-25; on March 3, 2021, see 42 U.S.C. \302\247 1983.\n' >draft.md

run 0 "$SWORN" claims draft.md
has "$T/out" "Bell Atl. Corp. v. Twombly, 550 U.S. 544, 556 (2007)"
has "$T/out" "Smith Dep. 45:3"
has "$T/out" "iso=2021-03-03"
has "$T/out" "end=ACME0000125"
has "$T/err" "claims in"

run 0 "$SWORN" claims --json draft.md
has "$T/out" '"draft": "draft.md"'
has "$T/out" '"kind": "case"'
has "$T/out" '"summary"'
# every claim's text is the file's bytes between its offsets
python3 - "$T/out" draft.md <<'PY' >"$T/check" 2>&1
import json, sys
doc = json.load(open(sys.argv[1]))
data = open(sys.argv[2], 'rb').read()
bad = [c for c in doc["claims"] if data[c["start"]:c["end"]].decode() != c["text"]]
print("offsets ok" if not bad and doc["claims"] else "bad offsets: %r" % bad)
kinds = sorted({c["kind"] for c in doc["claims"]})
print("kinds", " ".join(kinds))
PY
has "$T/check" "offsets ok"
has "$T/check" "kinds bates case date proposition quote record statute"

# a Markdown draft as a model writes it: the streamed --json keeps its
# shape, --kind keeps ids and the summary, and record id., quotation
# attribution, party labels and Bates positions come through the CLI
cat >brief.md <<'MD'
# Statement of Facts

Acme shipped late (Whitaker Dep. 12:3-5). It never cured. (*Id.* at 14:2.)

- Whitaker wrote "the goods were late." ACME0000003.
- The memo says so. *See* Def. Ex. 3 at 2; Pl. Ex. 3 at 4.
- Invoice INV-10236 was paid on March 3, 2021.[^1]

[^1]: *Hadley v. Baxendale*, 9 Ex. 341 (1854).
MD
run 0 "$SWORN" claims --json brief.md
python3 - "$T/out" brief.md <<'PY' >"$T/check" 2>&1
import json, sys
doc = json.load(open(sys.argv[1]))
data = open(sys.argv[2], 'rb').read()
cl = doc["claims"]
by = {c["text"]: c for c in cl}
def f(c, k): return c["fields"].get(k)
print("keys", " ".join(doc.keys()))
print("claim keys", " ".join(cl[0].keys()))
idc = [c for c in cl if c["form"] == "id"][0]
print("id", idc["kind"], f(idc, "witness"), f(idc, "page"), f(idc, "line"),
      cl[idc["resolves_to"] - 1]["text"])
q = [c for c in cl if c["kind"] == "quote"][0]
print("quote to", cl[q["attributed_to"] - 1]["text"])
print("parties", " ".join(f(c, "party") for c in cl if f(c, "party")))
print("positions", " ".join("%s=%s" % (c["text"], f(c, "position")) for c in cl if c["kind"] == "bates"))
print("hadley", " ".join(c["kind"] for c in cl if "341" in c["text"]))
bad = [c for c in cl if data[c["start"]:c["end"]].decode() != c["text"].replace("*", "")
       and "*" not in data[c["start"]:c["end"]].decode()]
print("offsets ok" if not bad else "bad offsets: %r" % bad)
PY
has "$T/check" "keys draft claims summary audit"
has "$T/check" "claim keys id kind form text start end cite_start cite_end sentence fields"
has "$T/check" "id record Whitaker 14 2 Whitaker Dep. 12:3-5"
has "$T/check" "quote to ACME0000003"
has "$T/check" "parties defendant plaintiff"
has "$T/check" "positions ACME0000003=citation INV-10236=text"
has "$T/check" "hadley case"
lacks "$T/check" "Traceback"
run 0 "$SWORN" claims --json --kind bates brief.md
python3 - "$T/out" <<'PY' >"$T/check" 2>&1
import json, sys
doc = json.load(open(sys.argv[1]))
print("kinds", " ".join(sorted({c["kind"] for c in doc["claims"]})))
print("summary counts all", doc["summary"]["claims"] > len(doc["claims"]))
PY
has "$T/check" "kinds bates"
has "$T/check" "summary counts all True"

run 0 sh -c "cat draft.md | '$SWORN' claims --kind date -"
has "$T/out" "March 3, 2021"
lacks "$T/out" "Twombly"

run 0 sh -c "printf 'nothing to see here\n' | '$SWORN' claims"
has "$T/err" "no claims"

run 2 "$SWORN" claims --kind planet draft.md
has "$T/err" "unknown --kind"
run 2 "$SWORN" claims no-such-file.md
has "$T/err" "no-such-file.md"

run 0 "$SWORN" claims --help
has "$T/out" "FILE"

done_testing
