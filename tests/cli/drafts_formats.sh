#!/bin/sh
# sworn claims and sworn verify on .docx and PDF drafts: the claims are
# found in the extracted text, a .docx draft gets the verdicts its Markdown
# twin gets, and a damaged PDF is an input error with a one-line message.
. "$(dirname "$0")/lib.sh"
# The fixtures: drafts written by record_formats_test of the same build.
RECORD_FIXTURES=$(dirname "$SWORN")/tests/record_formats_test
if [ ! -x "$RECORD_FIXTURES" ]; then
	echo "FAIL: $RECORD_FIXTURES not built (build the whole project)"
	exit 1
fi
mkdir -p "$T/d"
"$RECORD_FIXTURES" --write-drafts "$T/d" || exit 1

# The case citation, the Bates number and the date, in both formats; the
# claims' texts are the extracted text between their offsets.
for f in draft.docx draft.pdf; do
	run 0 "$SWORN" claims --json "$T/d/$f"
	has "$T/out" "\"draft\": \"$T/d/$f\""
	python3 - "$T/out" <<'PY' >"$T/check" 2>&1
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["claims"]:
    print(c["kind"], c["text"])
PY
	has "$T/check" "case Bell Atl. Corp. v. Twombly, 550 U.S. 544, 556 (2007)"
	has "$T/check" "bates ACME0000003"
	has "$T/check" "date March 3, 2021"
done
run 0 "$SWORN" claims --kind bates "$T/d/draft.pdf"
has "$T/out" "ACME0000003"

# The same small draft as Markdown and as .docx: the same verdicts.
new_workspace
cd "$T/ws" || exit 1
cp -r "$SW_TEST_DATA/acme-mini" acme
run 0 "$SWORN" ingest -m m --labels acme/labels.csv acme
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv" "$SW_SRC/examples/authorities/codes.csv"
for f in small.md small.docx; do
	run 1 "$SWORN" verify -m m --json "$T/d/$f"
	python3 - "$T/out" <<'PY' >"$T/$f.verdicts" 2>&1
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["claims"]:
    print(c["kind"], c["verdict"], c["text"])
PY
done
has "$T/small.md.verdicts" "supported"
has "$T/small.md.verdicts" "unsupported"
eq "docx verdicts" "$(cat "$T/small.docx.verdicts")" "$(cat "$T/small.md.verdicts")"
run 1 "$SWORN" verify -m m "$T/d/small.docx"
has "$T/out" "gate: blocked"
has "$T/out" "ACME0000012 is not in the production"

# A damaged PDF is an input error: exit 2, one line naming the file.
printf 'this is not a PDF\n' >"$T/bad.pdf"
run 2 "$SWORN" claims "$T/bad.pdf"
has "$T/err" "cannot read '$T/bad.pdf': "
lines "$T/err" 1
run 2 "$SWORN" verify -m m "$T/bad.pdf"
has "$T/err" "cannot read '$T/bad.pdf': "
lines "$T/err" 1

# Standard input stays text.
printf 'See ACME0000003.\n' | run 0 "$SWORN" claims -
has "$T/out" "ACME0000003"

done_testing
