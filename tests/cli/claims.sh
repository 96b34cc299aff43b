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
has "$T/check" "kinds bates case date quote record statute"

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
