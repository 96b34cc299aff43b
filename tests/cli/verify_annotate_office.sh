#!/bin/sh
# A brief annotated by sworn verify --annotate, opened by another word
# processor: LibreOffice's headless conversion to OpenDocument keeps the
# reviewer's comment and each of sworn's on the claim's own words, also one
# on a sentence that runs on from a table.
# LibreOffice is large and not in scripts/install-deps: without soffice
# the test is skipped, and says so (apt-get install libreoffice-writer-nogui).
. "$(dirname "$0")/lib.sh"
if ! command -v soffice >/dev/null 2>&1; then
	echo "*** SKIPPED: tests/cli/verify_annotate_office.sh needs LibreOffice's soffice (apt-get install libreoffice-writer-nogui)"
	exit 77
fi
PY="$SW_SRC/tests/cli/word_docx.py"
new_workspace
cd "$T/ws" || exit 1
cp -r "$SW_TEST_DATA/acme-mini" acme
run 0 "$SWORN" ingest -m m --labels acme/labels.csv acme
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv" "$SW_SRC/examples/authorities/codes.csv"
python3 "$PY" brief "$T/brief.docx" || exit 1
run 1 "$SWORN" verify -m m "$T/brief.docx" --annotate "$T/out.docx"
mkdir -p "$T/home" "$T/odt"
HOME="$T/home" soffice --headless --norestore --convert-to odt --outdir "$T/odt" "$T/out.docx" >"$T/soffice.log" 2>&1
run 0 python3 "$PY" odt "$T/odt/out.odt"
printf 'Jane Roe\tMEMORANDUM IN SUPPORT OF SUMMARY JUDGMENT\tShorten the title.\n' >"$T/want"
printf 'sworn\t\342\200\234the earliest we can ship is April 30, 2021\342\200\235\tunsupported quote\n' >>"$T/want"
printf 'sworn\tApril 30, 2021\tunsupported date\n' >>"$T/want"
printf 'sworn\tACME0000012\tunsupported bates\n' >>"$T/want"
printf 'sworn\tVale v. Acme Widgets, 999 F.3d 123, 125 (9th Cir. 2020)\tunsupported case\n' >>"$T/want"
printf 'sworn\tACME0000099\tunsupported bates\n' >>"$T/want"
eq "LibreOffice's comments" "$(cat "$T/out")" "$(cat "$T/want")"
# Sentences that run on from a table into the text after it: each comment
# is one LibreOffice keeps (a range from a cell to the body it would drop).
python3 "$PY" brief "$T/long.docx" --no-comment --repeat 3 || exit 1
run 1 "$SWORN" verify -m m "$T/long.docx" --annotate "$T/long-out.docx"
HOME="$T/home" soffice --headless --norestore --convert-to odt --outdir "$T/odt" "$T/long-out.docx" >>"$T/soffice.log" 2>&1
python3 "$PY" comments "$T/long-out.docx" | sed 's/ |.*//' | sort >"$T/long-docx"
run 0 python3 "$PY" odt "$T/odt/long-out.odt"
has "$T/out" "unsupported proposition"
awk -F '\t' '{print $1 ": " $3}' "$T/out" | sort >"$T/long-odt"
eq "LibreOffice keeps every comment" "$(cat "$T/long-odt")" "$(cat "$T/long-docx")"
# Its text as LibreOffice reads it is the brief's.
HOME="$T/home" soffice --headless --norestore --convert-to txt --outdir "$T/odt" "$T/out.docx" >>"$T/soffice.log" 2>&1
has "$T/odt/out.txt" "The invoice charged \$52,850.00 for housings & freight (ACME0000012)."
done_testing
