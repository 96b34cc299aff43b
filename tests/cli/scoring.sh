# The gate on drafts as local models write them (tests/data/corpus/): every
# labelled draft (Markdown, and one HTML export) verified through the CLI over the example matter
# (examples/acme, the vendor layout), scored by tests/cli/scoring.py:
# "caught X/Y, false blocks A/B", failing below 99% caught or above 1% false
# blocks; and the clean draft passes the gate without --lenient.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
C=$SW_TEST_DATA/corpus

# The matter as it ships; the import's own verdict is the ingest tests'
# business, but its summary is shown for whoever reads a failing score.
"$SWORN" ingest -m m --labels "$SW_SRC/examples/acme/labels.csv" "$SW_SRC/examples/acme" >"$T/ingest" 2>&1
echo "ingest exited $?:"; sed 's/^/  /' "$T/ingest"
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv" \
	"$SW_SRC/examples/authorities/codes.csv" "$SW_SRC/examples/authorities/opinions"

set --
for d in "$C"/*.md "$C"/*.html; do
	case $d in *README.md) continue ;; esac
	"$SWORN" verify -m m --json "$d" >"$T/$(basename "$d").json" 2>"$T/err"
	rc=$?
	checks=$((checks + 1))
	if [ "$rc" -gt 1 ]; then
		echo "FAIL: verify $(basename "$d") exited $rc: $(cat "$T/err")"
		failures=$((failures + 1))
		continue
	fi
	set -- "$@" "$d" "$T/$(basename "$d").json"
done
eq "drafts scored" "$(($# / 2))" 7
checks=$((checks + 1))
if ! python3 "$SW_SRC/tests/cli/scoring.py" "$@"; then
	failures=$((failures + 1))
fi

# The clean draft: every claim true, the strict gate passes.
run 0 "$SWORN" verify -m m "$C/clean.md"
has "$T/out" "gate: pass"
has "$T/out" "0 unsupported, 0 contradicted, 0 unverifiable"

done_testing
