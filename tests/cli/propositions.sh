# Does the cited page say what the sentence says?  The labelled proposition
# cases over the example matter (tests/data/propositions.jsonl, made and
# checked against the record by tests/data/propositions_gen.py): each
# sentence one paragraph of a Markdown draft, verified through the CLI,
# scored by tests/cli/propositions.py on the report's "proposition" claims:
# "propositions: recall X/Y, false flags A/B", overall and per kind, failing
# below 95% recall on the mismatches or above 2% false flags on the supported
# cases, and failing (not skipping) while sworn reports no proposition claim.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
CASES=$SW_TEST_DATA/propositions.jsonl

# The matter as scripts/demo builds it; the summary is shown for whoever
# reads a failing score.
"$SWORN" ingest -m m --labels "$SW_SRC/examples/acme/labels.csv" "$SW_SRC/examples/acme" >"$T/ingest" 2>&1
echo "ingest exited $?:"; sed 's/^/  /' "$T/ingest"

# The file holds what its generator writes (no hand edit drifts from the
# table the cases were checked with).
checks=$((checks + 1))
if ! python3 "$SW_TEST_DATA/propositions_gen.py" -o "$T/gen.jsonl" 2>"$T/gen.err" ||
	! cmp -s "$T/gen.jsonl" "$CASES"; then
	echo "FAIL: tests/data/propositions.jsonl is not what propositions_gen.py writes"
	cat "$T/gen.err"
	failures=$((failures + 1))
fi
eq "at least 300 cases" "$(($(wc -l <"$CASES") >= 300))" 1

run 0 python3 "$SW_SRC/tests/cli/propositions.py" draft "$CASES" "$T/cases.md"
"$SWORN" verify -m m --json "$T/cases.md" >"$T/report.json" 2>"$T/err"
rc=$?
checks=$((checks + 1))
if [ "$rc" -gt 1 ]; then
	echo "FAIL: verify exited $rc: $(cat "$T/err")"
	failures=$((failures + 1))
else
	checks=$((checks + 1))
	if ! python3 "$SW_SRC/tests/cli/propositions.py" score "$CASES" "$T/cases.md" "$T/report.json"; then
		failures=$((failures + 1))
	fi
fi

done_testing
