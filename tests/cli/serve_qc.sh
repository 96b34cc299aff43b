#!/bin/sh
# The production QC report through sworn serve (issue 40, part 2's
# browser side), with curl: GET /api/m/NAME/qc answers exactly what
# `sworn matter qc --json` prints, /qc.csv what `--format csv` prints,
# ?volume= narrows to one
# volume, and bad input (no token, an unknown volume, an empty one, a POST)
# gets one clear error.  The volume has a defect of each kind, made the way
# matter_qc.sh makes them; a clean volume beside it reports nothing.
. "$SW_SRC/tests/cli/lib.sh"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
new_workspace
cd "$T/ws" || exit 1
q=$UTF8_THORN

. "$SW_SRC/tests/cli/qc_volume.inc"

volume CLEAN CLN
"$SWORN" ingest -m m CLEAN >/dev/null 2>&1 || exit 1
# Every defect in one volume (matter_qc.sh's ALL); its bad date looks like
# a spreadsheet formula.
volume ALL ALL
sed -i 's/ALL0004/ALL0007/g' ALL/DATA/ALL.DAT ALL/DATA/ALL.OPT
mv ALL/IMAGES/ALL0004.tif ALL/IMAGES/ALL0007.tif
printf 'the ALL enclosure\n' > ALL/TEXT/ALL0007.txt
rm ALL/TEXT/ALL0004.txt
sed -i 's#03/15/2021#=HYPERLINK(1)#' ALL/DATA/ALL.DAT
sed -i '4s/ALL0003/ALL0099/' ALL/DATA/ALL.DAT
dat_row "$DC4" "$q" ALL0009 ALL0010 '' '' 'TEXT\ALL0009.txt' '' >> ALL/DATA/ALL.DAT
dat_row "$DC4" "$q" ALL0010 ALL0010 '' '' 'TEXT\ALL0010.txt' '' >> ALL/DATA/ALL.DAT
printf 'the caf\351 letter\n' > ALL/TEXT/ALL0003.txt
cp ALL/TEXT/ALL0003.txt ALL/TEXT/ALL0010.txt
printf 'one\ftwo\fthree\n' > ALL/TEXT/ALL0001.txt
rm ALL/IMAGES/ALL0002.tif ALL/NATIVES/ALL0001.docx
"$SWORN" ingest -m m ALL >/dev/null 2>&1
"$SWORN" matter new empty >/dev/null || exit 1
"$SWORN" matter qc -m m --json > "$T/cli.json" || exit 1
"$SWORN" matter qc -m m ALL --json > "$T/cli-all.json" || exit 1
"$SWORN" matter qc -m m --format csv > "$T/cli.csv" || exit 1

"$SWORN" serve -m m --port 0 --port-file "$T/port" >"$T/serve.out" 2>"$T/serve.err" &
spid=$!
pids="$pids $spid"
i=0
while [ ! -s "$T/port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -s "$T/port" ] || { echo "FAIL: sworn serve did not start"; cat "$T/serve.err"; exit 1; }
B="http://127.0.0.1:$(cat "$T/port")"
TOK=$(cat serve.token)

# get URL [CURL-ARGS...]: the status into $code, the body into $T/body,
# the headers into $T/head, with the token as a Bearer header.
get() {
	u=$1
	shift
	code=$(curl -s -g -o "$T/body" -D "$T/head" -w '%{http_code}' \
		-H "Authorization: Bearer $TOK" "$@" "$B$u")
}

# The JSON: the command's, key for key (less its envelope of schema and
# version, which the API's replies do not carry).
get /api/m/m/qc
eq "qc status" "$code" 200
has "$T/head" "Content-Type: application/json"
has "$T/head" "Cache-Control: no-store"
eq "the same JSON as sworn matter qc --json" "$(jq -S . "$T/body")" \
	"$(jq -S 'del(.schema, .sworn)' "$T/cli.json")"
eq "volumes" "$(jq -r '[.volumes[].name] | join(" ")' "$T/body")" "CLEAN ALL"
eq "the clean volume" "$(jq -c '.volumes[0] | [.findings, .totals.documents]' "$T/body")" '[[],3]'
eq "every kind" "$(jq -r '[.volumes[1].findings[].kind] | unique | join(" ")' "$T/body")" \
	"bad_date dat_opt duplicate encoding family gap no_image no_native no_text overlap page_count"
eq "a gap with its line, Bates and fix" \
	"$(jq -r '[.volumes[1].findings[] | select(.kind == "gap")][0] | "\(.line) \(.bates) \(.title): \(.fix)"' "$T/body")" \
	"4 ALL0004-ALL0006 Bates gaps: produce the missing pages, or confirm in writing that the numbers were skipped and nothing was withheld (or log what was withheld)"

# One volume, by folder or .DAT name.
get "/api/m/m/qc?volume=ALL"
eq "one volume" "$code" 200
eq "the same as sworn matter qc ALL --json" "$(jq -S . "$T/body")" \
	"$(jq -S 'del(.schema, .sworn)' "$T/cli-all.json")"
get "/api/m/m/qc?volume=all.dat"
eq "by the .DAT's name" "$(jq -r '[.volumes[].name] | join(" ")' "$T/body")" "ALL"

# The CSV: the command's, byte for byte.
get /api/m/m/qc.csv
eq "csv status" "$code" 200
has "$T/head" "Content-Type: text/csv; charset=utf-8"
eq "the same CSV as sworn matter qc --format csv" "$(cat "$T/body")" "$(cat "$T/cli.csv")"
has "$T/body" "volume,kind,line,bates,detail,fix"
has "$T/body" '"ALL","gap","4","ALL0004-ALL0006",'
has "$T/body" "DATESENT '=HYPERLINK(1)' is not a date"
get "/api/m/m/qc.csv?volume=CLEAN"
eq "a clean volume's CSV: the header alone" "$(cat "$T/body")" "volume,kind,line,bates,detail,fix"

# A matter with no volume: none, not an error.
get /api/m/empty/qc
eq "no volumes" "$code" 200
eq "empty" "$(jq -c .volumes "$T/body")" "[]"

# Bad input: one line each, nothing changed.
get "/api/m/m/qc?volume=NOPE"
eq "unknown volume" "$code" 404
has "$T/body" "no volume 'NOPE' in matter 'm'; its volumes: CLEAN, ALL"
get "/api/m/m/qc?volume="
eq "empty volume" "$code" 400
has "$T/body" "'volume' is empty"
get /api/m/nosuch/qc
eq "unknown matter" "$code" 404
get /api/session
CSRF=$(jq -r .csrf "$T/body")
get /api/m/m/qc -X POST -H "X-CSRF-Token: $CSRF" -H 'Content-Type: application/json' \
	--data-binary '{}'
eq "POST" "$code" 405
has "$T/body" "use GET here"
code=$(curl -s -o "$T/body" -w '%{http_code}' "$B/api/m/m/qc")
eq "no token" "$code" 403
code=$(curl -s -o "$T/body" -w '%{http_code}' "$B/api/m/m/qc.csv")
eq "no token, csv" "$code" 403

# The page offers the view: its route, its section, its download.
get /assets/core.js
has "$T/body" "'Production QC'"
get /assets/app.js
has "$T/body" "view = viewQc(m)"
get /assets/qc.js
has "$T/body" "'/qc.csv'"

# It stops cleanly (under ASan: no error, no leak in the handlers).
kill $spid
wait $spid
eq "stops on SIGTERM" "$?" 0
lacks "$T/serve.err" "ERROR: "

done_testing
