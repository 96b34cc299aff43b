# Facts with no citation, and a task's required elements: a word-salad
# declaration that cites nothing is blocked under `declaration` (no 1746
# clause, no signature, no record) and under `motion-section` (uncited
# facts); the modes warn, block and off, from --uncited, [verify] uncited
# of sworn.conf and the task; what is exempt (headings, captions, the
# perjury clause, definitions); the JSON's shape.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
"$SWORN" ingest -m m --labels "$SW_SRC/examples/acme/labels.csv" "$SW_SRC/examples/acme" >/dev/null 2>&1

cat >salad.md <<'MD'
# Declaration of Dana Ortiz

1. On March 3, 2021, the shipment of 412 pallets arrived late and cost $52,850.00 to store.

2. The crane stood idle for fourteen days, and invoice INV-7781 charged 12% interest.

3. The wind was blue and the contract sang of seven thousand dollars.
MD

# the default (no task): listed, not blocking (its date the record holds)
run 0 "$SWORN" verify -m m salad.md
has "$T/out" "uncited facts (3, listed, not blocking):"
has "$T/out" "412 pallets, \$52,850.00 with no citation"
has "$T/out" "states seven thousand dollars with no citation"

# --uncited off: not looked for
run 0 "$SWORN" verify -m m --uncited off salad.md
lacks "$T/out" "uncited facts"

# a bad mode: usage, one line
run 2 "$SWORN" verify -m m --uncited maybe salad.md
has "$T/err" "--uncited maybe: say block, warn or off"

# declaration: warn on uncited, but the clause, the signature and the
# record are required
run 1 "$SWORN" verify -m m --task declaration salad.md
has "$T/out" "missing: the task requires the clause of 28 U.S.C. § 1746; the draft has none"
has "$T/out" "missing: the task requires a signature line; the draft has none"
has "$T/out" "missing: the task expects record support; the draft cites no record"
has "$T/out" "uncited facts (3, listed, not blocking):"

# motion-section: uncited facts block
run 1 "$SWORN" verify -m m --task motion-section --json salad.md
checks=$((checks + 1))
if ! python3 - "$T/out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["gate"] == "blocked", r["gate"]
assert r["uncited_mode"] == "block", r["uncited_mode"]
assert r["summary"]["uncited"] == 3, r["summary"]
u = r["uncited"]
assert all(x["verdict"] == "uncited" and x["blocks"] for x in u), u
assert "INV-7781" in u[1]["facts"] and "12%" in u[1]["facts"], u[1]
assert r["no_record_citation"] is True
assert r["missing_elements"] == []
PY
then
	echo "FAIL: motion-section JSON"
	failures=$((failures + 1))
fi

# the workspace's [verify] uncited = block, and --uncited over it
printf '[verify]\nuncited = block\n' >>sworn.conf
run 1 "$SWORN" verify -m m --json salad.md
has "$T/out" '"uncited_mode": "block"'
run 0 "$SWORN" verify -m m --uncited warn --json salad.md
has "$T/out" '"uncited_mode": "warn"'

# a cited declaration with its clause and signature passes the elements;
# exempt: the heading, the caption in capitals, a definition, the clause
cat >decl.md <<'MD'
# Declaration

ACME WIDGETS, INC. v. BRIGHTLINE LOGISTICS LLC, Case No. 21-1187

1. Acme Widgets, Inc. ("Acme") buys from Brightline Logistics LLC ("Brightline").

2. The order shipped on March 31, 2021. (ACME0000004.)

I declare under penalty of perjury that the foregoing is true and correct. Executed on May 1, 2021.

/s/ Dana Whitaker
MD
"$SWORN" verify -m m --task declaration --json decl.md >"$T/out" 2>"$T/err"
checks=$((checks + 1))
if ! python3 - "$T/out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["missing_elements"] == [], r["missing_elements"]
assert r["no_record_citation"] is False
assert r["uncited"] == [], r["uncited"]
PY
then
	echo "FAIL: the cited declaration: $(head -c 600 "$T/out")"
	failures=$((failures + 1))
fi
done_testing
