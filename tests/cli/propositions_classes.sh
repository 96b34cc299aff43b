# Does the cited page say what the sentence says, class by class?  The
# labelled cases of tests/data/propositions_classes.jsonl (made by
# tests/data/propositions_classes_gen.py) over the example matter and
# tests/data/class-record, in one matter: each checked against the record's
# page text by the generator, drafted as one Markdown draft (a chronology as
# consecutive lines), verified through the CLI and scored by
# tests/cli/propositions_classes.py: caught and false blocks overall and per
# class, failing past the bounds at the top of the scorer.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
CASES=$SW_TEST_DATA/propositions_classes.jsonl
GEN=$SW_TEST_DATA/propositions_classes_gen.py

"$SWORN" ingest -m m --labels "$SW_SRC/examples/acme/labels.csv" "$SW_SRC/examples/acme" >"$T/ingest" 2>&1
echo "ingest exited $?:"; sed 's/^/  /' "$T/ingest"
"$SWORN" ingest -m m --labels "$SW_TEST_DATA/class-record/labels.csv" "$SW_TEST_DATA/class-record" >"$T/ingest" 2>&1
echo "ingest exited $?:"; sed 's/^/  /' "$T/ingest"

# The file holds what its generator writes, and every label holds on the
# pages of the matter just built.
checks=$((checks + 1))
if ! python3 "$GEN" --check "$T/ws/matters/m/matter.db" -o "$T/gen.jsonl" 2>"$T/gen.err" ||
	! cmp -s "$T/gen.jsonl" "$CASES"; then
	echo "FAIL: tests/data/propositions_classes.jsonl is not what propositions_classes_gen.py writes, or a label does not hold"
	cat "$T/gen.err"
	failures=$((failures + 1))
fi
# At least 15 supported and 15 mismatched cases in every class.
checks=$((checks + 1))
short=$(python3 -c '
import collections, json, sys
n = collections.Counter((c["class"], c["label"]) for c in map(json.loads, open(sys.argv[1])))
classes = sorted({k[0] for k in n})
print(" ".join("%s/%s:%d" % (c, l, n[(c, l)]) for c in classes for l in ("supported", "mismatch") if n[(c, l)] < 15)
      or ("" if len(classes) == 11 else "classes:%d" % len(classes)))' "$CASES")
if [ -n "$short" ]; then
	echo "FAIL: fewer than 15 cases: $short"
	failures=$((failures + 1))
fi

run 0 python3 "$SW_SRC/tests/cli/propositions_classes.py" draft "$CASES" "$T/cases.md"
"$SWORN" verify -m m --json "$T/cases.md" >"$T/report.json" 2>"$T/err"
rc=$?
checks=$((checks + 1))
if [ "$rc" -gt 1 ]; then
	echo "FAIL: verify exited $rc: $(cat "$T/err")"
	failures=$((failures + 1))
elif ! python3 "$SW_SRC/tests/cli/propositions_classes.py" score "$CASES" "$T/cases.md" "$T/report.json"; then
	failures=$((failures + 1))
fi

done_testing
