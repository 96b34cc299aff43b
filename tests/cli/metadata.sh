# Load-file metadata: read from a vendor's DAT (þ qualifiers, 0x14
# separators, the column names and date formats review platforms export),
# shown by show and matter docs, searched by field (custodian:, from:,
# doctype:, title:, date:FROM..TO) alone or with words, and filled in from
# documents.meta when a matter written before the fields is opened.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1

mkdir -p vol/VOL001/DATA vol/VOL001/TEXT/001
q=$UTF8_THORN
{
	dat_row "$DC4" "$q" "Begin Bates" "End Bates" "Custodian" "Doc Type" "Email Subject" \
		"Email From" "Email To" "Email CC" "Date Sent" "Date Received" "Confidentiality" \
		"Text Path"
	dat_row "$DC4" "$q" WHT0000001 WHT0000002 "Whitfield, Dana" "E-Mail" "Q1 pricing" \
		"Harlow, Peter <pharlow@acme.com>" "Whitfield, Dana" "" "03/15/2021 10:42 AM" \
		"2021-03-16T09:00:00Z" "CONFIDENTIAL" 'TEXT\001\WHT0000001.txt'
	dat_row "$DC4" "$q" WHT0000003 WHT0000003 "Whitfield, Dana" "Spreadsheet" "Pricing model" \
		"" "" "" "" "" "" 'TEXT\001\WHT0000003.txt'
	dat_row "$DC4" "$q" WHT0000004 WHT0000004 "Lee, Sam" "Email" "Re: delivery" "Lee, Sam" \
		"Harlow, Peter" "Whitfield, Dana" "15-Jun-2021" "" "HIGHLY CONFIDENTIAL - AEO" \
		'TEXT\001\WHT0000004.txt'
	dat_row "$DC4" "$q" WHT0000005 WHT0000005 "Whitfield, Dana" "Email" "late shipment" \
		"Whitfield, Dana" "Harlow, Peter" "" "Mon, 2 Aug 2021 10:00:00 -0500" "" "" \
		'TEXT\001\WHT0000005.txt'
	dat_row "$DC4" "$q" WHT0000006 WHT0000006 "Whitfield, Dana" "Email" "undated" \
		"Harlow, Peter" "" "" "00/00/0000" "" "" 'TEXT\001\WHT0000006.txt'
} > vol/VOL001/DATA/VOL001.DAT
printf 'pricing for the widget contract\fsecond page of the pricing email\n' \
	> vol/VOL001/TEXT/001/WHT0000001.txt
printf 'pricing model tab\n' > vol/VOL001/TEXT/001/WHT0000003.txt
printf 'the delivery was late\n' > vol/VOL001/TEXT/001/WHT0000004.txt
printf 'shipment late again, pricing holds\n' > vol/VOL001/TEXT/001/WHT0000005.txt
printf 'a note on the widget contract\n' > vol/VOL001/TEXT/001/WHT0000006.txt
# Another vendor: Latin-1 with a pilcrow separator, other column names.
mkdir -p vol2/TEXT
{
	dat_row '\266' "$LATIN1_THORN" BEGDOC ENDDOC CUSTODIAN DOCDATE TITLE 'TEXT PATH'
	dat_row '\266' "$LATIN1_THORN" LAT-000010 LAT-000010 "$(printf 'Ren\351e Ortiz')" 20210402 \
		"Board minutes" 'TEXT/LAT-000010.txt'
} > vol2/LAT.DAT
printf 'minutes of the board on pricing\n' > vol2/TEXT/LAT-000010.txt

# matches FILE REGEX: a line of FILE matches the extended REGEX.
matches() {
	checks=$((checks + 1))
	grep -Eq "$2" "$1" && return
	echo "FAIL: no line of $(basename "$1") matches '$2'"
	cat "$1"
	failures=$((failures + 1))
}

run 0 "$SWORN" ingest -m m vol vol2
has "$T/out" "imported 6, skipped 0, failed 0"

# show: the metadata before the text, a date as read and as written.
run 0 "$SWORN" show -m m WHT0000001
has "$T/out" "  Custodian        Whitfield, Dana"
has "$T/out" "  Type             E-Mail"
has "$T/out" "  From             Harlow, Peter <pharlow@acme.com>"
has "$T/out" "  Sent             2021-03-15 (as written: 03/15/2021 10:42 AM)"
has "$T/out" "  Received         2021-03-16 (as written: 2021-03-16T09:00:00Z)"
has "$T/out" "  Confidentiality  CONFIDENTIAL"
run 0 "$SWORN" show -m m WHT0000006
has "$T/out" "  Sent             00/00/0000 (not read as a date)"
run 0 "$SWORN" show -m m WHT0000004 --json
eq "json sent" "$(jq -r '.metadata.sent.date + " " + .metadata.sent.as_written' "$T/out")" \
	"2021-06-15 15-Jun-2021"
eq "json cc" "$(jq -r '.metadata.cc' "$T/out")" "Whitfield, Dana"
run 0 "$SWORN" show -m m LAT-000010 --json
eq "latin-1 custodian" "$(jq -r '.metadata.custodian' "$T/out")" "Renée Ortiz"
eq "compact date" "$(jq -r '.metadata.docdate.date' "$T/out")" "2021-04-02"
run 0 "$SWORN" show -m m WHT0000006 --json
eq "not a date" "$(jq -r '.metadata.sent.date' "$T/out")" "null"

# matter docs: date, custodian and title under each document; --fields
# picks columns.
run 0 "$SWORN" matter docs -m m
matches "$T/out" "^        2021-08-02  ·  Whitfield, Dana  ·  late shipment\$"
matches "$T/out" "^        Whitfield, Dana  ·  Pricing model\$"
run 0 "$SWORN" matter docs -m m --fields id,bates,sent,from,confidentiality
has "$T/out" "HIGHLY CONFIDENTIAL - AEO"
matches "$T/out" "^3 .*WHT0000004 .*2021-06-15 .*Lee, Sam"
lacks "$T/out" "late shipment"
run 2 "$SWORN" matter docs -m m --fields id,colour
has "$T/err" "no column 'colour'"
run 0 "$SWORN" matter docs -m m --json
eq "docs json" "$(jq -r '.documents[] | select(.name == "WHT0000005") | .metadata.sent.date' "$T/out")" "2021-08-02"

# Search by field: the first page of each document, earliest first.
hits() { jq -r '[.hits[] | .document] | join(" ")' "$T/out"; }
run 0 "$SWORN" search -m m custodian:whitfield --json
eq "custodian" "$(hits)" "WHT0000001 WHT0000005 WHT0000003 WHT0000006"
run 0 "$SWORN" search -m m from:harlow --json
eq "from" "$(hits)" "WHT0000001 WHT0000006"
run 0 "$SWORN" search -m m 'from:pharlow@acme.com' --json
eq "from address" "$(hits)" "WHT0000001"
run 0 "$SWORN" search -m m doctype:email --json
eq "doctype email in any spelling" "$(hits)" "WHT0000001 WHT0000004 WHT0000005 WHT0000006"
run 0 "$SWORN" search -m m 'date:2021-03..2021-06' --json
eq "date range" "$(hits)" "WHT0000001 LAT-000010 WHT0000004"
run 0 "$SWORN" search -m m 'date:2021-06' --json
eq "one month" "$(hits)" "WHT0000004"
run 0 "$SWORN" search -m m 'date:2021-07..' --json
eq "open range" "$(hits)" "WHT0000005"
run 0 "$SWORN" search -m m 'received:..2021-12-31' --json
eq "received" "$(hits)" "WHT0000001"
run 0 "$SWORN" search -m m 'custodian:whit*' 'date:2021' --json
eq "prefix and year" "$(hits)" "WHT0000001 WHT0000005"
run 0 "$SWORN" search -m m 'title:"q1 pricing"' --json
eq "quoted title" "$(hits)" "WHT0000001"
run 0 "$SWORN" search -m m 'custodian:"Renee Ortiz"' --json
eq "accents folded" "$(hits)" "LAT-000010"
# With words and phrases: the pages that hold them, of those documents.
run 0 "$SWORN" search -m m custodian:whitfield pricing --json
eq "with a word" "$(jq -r '[.hits[] | .bates] | sort | join(" ")' "$T/out")" \
	"WHT0000001 WHT0000002 WHT0000003 WHT0000005"
run 0 "$SWORN" search -m m 'custodian:whitfield "widget contract"' --json
eq "with a phrase" "$(hits)" "WHT0000001 WHT0000006"
run 0 "$SWORN" search -m m 'date:2021-03..2021-06' '"widget contract"' --json
eq "phrase and dates" "$(hits)" "WHT0000001"
run 0 "$SWORN" search -m m custodian:whitfield from:harlow
has "$T/out" "WHT0000001"
lacks "$T/out" "WHT0000005"
run 1 "$SWORN" search -m m custodian:nobody
run 2 "$SWORN" search -m m 'date:March'
has "$T/err" "bad date 'March'"
# A word that only looks like a field stays a word.
run 1 "$SWORN" search -m m 're:delivery'
# A removed document leaves field searches too.
run 0 "$SWORN" matter rm -m m WHT0000006 --reason "clawed back"
run 0 "$SWORN" search -m m from:harlow --json
eq "removed" "$(hits)" "WHT0000001"

# A matter written before the fields (schema 7: meta alone) gets them from
# documents.meta when it is opened.
eq "schema" "$(sql m 'PRAGMA user_version')" 11
sqlite3 "$T/ws/matters/m/matter.db" "DROP TABLE doc_terms; DROP TABLE doc_fields;" \
	"DROP VIEW record_docs; DROP TABLE qc_findings; DROP TABLE qc_volumes;" \
	"PRAGMA user_version = 7;" || exit 1
run 0 "$SWORN" search -m m custodian:whitfield pricing --json
eq "upgraded search" "$(jq -r '[.hits[] | .bates] | sort | join(" ")' "$T/out")" \
	"WHT0000001 WHT0000002 WHT0000003 WHT0000005"
eq "upgraded schema" "$(sql m 'PRAGMA user_version')" 11
eq "upgraded dates" "$(sql m "SELECT group_concat(day, ' ') FROM (SELECT day FROM doc_fields WHERE day IS NOT NULL ORDER BY day)")" \
	"2021-03-15 2021-03-16 2021-04-02 2021-06-15 2021-08-02"
run 0 "$SWORN" show -m m WHT0000001
has "$T/out" "  Sent             2021-03-15 (as written: 03/15/2021 10:42 AM)"

# An e-mail's own headers are its metadata too.
mkdir loose
{
	printf 'From: Tom Vale <tom@vale.example>\r\nTo: roe@acme.example\r\n'
	printf 'Date: Wed, 3 Mar 2021 16:02:11 -0500\r\nSubject: the credit\r\n'
	printf 'MIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\nThe credit note.\r\n'
} > loose/credit.eml
run 0 "$SWORN" ingest -m m loose
run 0 "$SWORN" search -m m from:vale 'date:2021-03' title:credit --json
eq "e-mail headers" "$(hits)" "credit.eml"
done_testing
