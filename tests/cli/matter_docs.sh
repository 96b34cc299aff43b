# Documents a person can see and fix: sworn matter docs lists them, sworn
# show prints a page by its Bates number or its document and page, sworn
# matter rm takes a document (and what came in it) out of search and
# evidence while keeping its original and an audit entry, and sworn ingest
# --replace takes a corrected re-production in place of what it corrects.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1

q=$UTF8_THORN
V=prod/VOL001
mkdir -p $V/DATA $V/TEXT/TEXT001 loose
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES TEXTPATH
	dat_row "$DC4" "$q" BLT-000001 BLT-000003 'TEXT\TEXT001\BLT-000001.txt'
	dat_row "$DC4" "$q" BLT-000004 BLT-000004 'TEXT\TEXT001\BLT-000004.txt'
} > $V/DATA/VOL001.DAT
printf 'The supply agreement\fdelivery schedule for the widgets\fsigned by both parties\n' \
	> $V/TEXT/TEXT001/BLT-000001.txt
printf 'spreadsheet of late deliveries\n' > $V/TEXT/TEXT001/BLT-000004.txt
printf 'Meeting notes: the pallets were short.\fSecond page of the notes.\n' > loose/notes.txt
{
	printf 'From: Tom Vale <tom@vale.example>\r\nTo: roe@acme.example\r\n'
	printf 'Date: Wed, 3 Mar 2021 16:02:11 -0500\r\nSubject: the credit\r\n'
	printf 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n'
	printf -- '--b1\r\nContent-Type: text/plain\r\n\r\nThe credit note is attached.\r\n'
	printf -- '--b1\r\nContent-Type: text/plain; name="credit.txt"\r\n'
	printf 'Content-Disposition: attachment; filename="credit.txt"\r\n\r\n'
	printf 'Credit note CN-77 for the damaged crates.\r\n--b1--\r\n'
} > loose/credit.eml
run 0 "$SWORN" ingest -m m prod loose
has "$T/out" "imported 5"
kept=$(find matters/m/files -type f | wc -l | tr -d ' ')

# docs: every document with its origin, status, pages and Bates range.
run 0 "$SWORN" matter docs -m m
has "$T/out" "BLT-000001–BLT-000003"
has "$T/out" "notes.txt"
has "$T/out" "credit.txt"
eq "docs rows" "$(grep -c ' evidence  active ' "$T/out")" 5
run 0 "$SWORN" matter docs -m m --json
eq "json documents" "$(jq '.documents | length' "$T/out")" 5
eq "json range" "$(jq -r '.documents[] | select(.name == "BLT-000001") | "\(.beg_bates) \(.end_bates) \(.pages) \(.origin) \(.status)"' "$T/out")" \
	"BLT-000001 BLT-000003 3 evidence active"
eml_id=$(jq -r '.documents[] | select(.name == "credit.eml") | .id' "$T/out")
eq "attachment's parent" "$(jq -r '.documents[] | select(.name == "credit.txt") | .parent_id' "$T/out")" "$eml_id"

# show: by Bates number in any spelling, by document and page.
run 0 "$SWORN" show -m m BLT-000002
has "$T/out" "BLT-000002  BLT-000001 page 2 of 3"
has "$T/out" "evidence, active"
has "$T/out" "delivery schedule for the widgets"
lacks "$T/out" "supply agreement"
run 0 "$SWORN" show -m m "blt 000003"
has "$T/out" "signed by both parties"
run 0 "$SWORN" show -m m notes.txt:2
has "$T/out" "notes.txt page 2 of 2"
has "$T/out" "Second page of the notes."
run 0 "$SWORN" show -m m BLT-000001:3 --json
eq "json show" "$(jq -r '"\(.bates) \(.document) \(.page)/\(.pages) \(.origin) \(.status) \(.text_source)"' "$T/out")" \
	"BLT-000003 BLT-000001 3/3 evidence active text"
has "$T/out" '"text": "signed by both parties'
run 2 "$SWORN" show -m m BLT-000099
has "$T/err" "no page or document 'BLT-000099'"
run 2 "$SWORN" show -m m notes.txt:7
has "$T/err" "has no page 7"

# rm: out of search and evidence, the original and the reason kept.
printf 'The schedule covered the widgets (BLT-000002).\n' > draft.md
run 0 "$SWORN" verify -m m draft.md
has "$T/out" "BLT-000002 is in the production"
run 0 "$SWORN" search -m m widgets
has "$T/out" "BLT-000002"
run 2 "$SWORN" matter rm -m m BLT-000001
has "$T/err" "--reason"
run 0 "$SWORN" matter rm -m m BLT-000001 --reason "produced in error; clawed back"
has "$T/out" "removed document"
run 1 "$SWORN" search -m m widgets
run 1 "$SWORN" search -m m --all widgets
run 1 "$SWORN" search -m m BLT-000002
run 1 "$SWORN" search -m m --all BLT-000002
run 1 "$SWORN" verify -m m draft.md
has "$T/out" "not in the production"
# still shown, as what it is
run 0 "$SWORN" show -m m BLT-000002
has "$T/out" "evidence, removed"
eq "pages kept" "$(sql m "SELECT count(*) FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'BLT-000001'")" 3
run 0 "$SWORN" matter audit -m m
has "$T/out" "removals (1):"
has "$T/out" "BLT-000001 (was active); reason: produced in error; clawed back"
run 0 "$SWORN" matter audit -m m --json
eq "audit json" "$(jq -r '.removals[0] | "\(.document) \(.reason) \(.replaced_by)"' "$T/out")" \
	"BLT-000001 produced in error; clawed back null"
run 2 "$SWORN" matter rm -m m BLT-000001 --reason again
has "$T/err" "already removed"
run 2 "$SWORN" matter rm -m m nothing-here.pdf --reason x
has "$T/err" "no document 'nothing-here.pdf'"
# An e-mail goes with its attachments.
run 0 "$SWORN" matter rm -m m credit.eml --reason "privileged" --json
eq "rm json" "$(jq -r '"\(.documents) \(.reason)"' "$T/out")" "2 privileged"
run 1 "$SWORN" search -m m CN-77
eq "attachment removed" "$(sql m "SELECT status FROM documents WHERE name = 'credit.txt'")" removed
eq "originals kept" "$(find matters/m/files -type f | wc -l | tr -d ' ')" "$kept"
[ "$kept" -gt 0 ] || { echo "FAIL: no originals kept"; failures=$((failures + 1)); }

# --replace: a corrected re-production of BLT-000004 and of notes.txt.
W=prod2/VOL002
mkdir -p $W/DATA $W/TEXT
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES TEXTPATH
	dat_row "$DC4" "$q" BLT-000004 BLT-000004 'TEXT\BLT-000004.txt'
} > $W/DATA/VOL002.DAT
printf 'corrected spreadsheet of deliveries\n' > $W/TEXT/BLT-000004.txt
mkdir -p loose2
printf 'Meeting notes, corrected: the crates were short.\n' > loose2/notes.txt
run 0 "$SWORN" ingest -m m --replace prod2 loose2
has "$T/out" "replaced 2"
has "$T/out" "replaced BLT-000004: replaces BLT-000004"
has "$T/out" "replaced notes.txt: replaces notes.txt"
run 1 "$SWORN" search -m m late deliveries
run 1 "$SWORN" search -m m pallets
run 0 "$SWORN" search -m m corrected
has "$T/out" "BLT-000004"
has "$T/out" "notes.txt"
run 0 "$SWORN" show -m m BLT-000004
has "$T/out" "corrected spreadsheet"
run 0 "$SWORN" show -m m notes.txt
has "$T/out" "crates were short"
new_id=$(sql m "SELECT id FROM documents WHERE name = 'BLT-000004' AND status = 'active'")
run 0 "$SWORN" matter audit -m m --json
eq "replacement audited" "$(jq -r ".removals[] | select(.document == \"BLT-000004\") | \"\(.replaced_by) \(.reason)\"" "$T/out")" \
	"$new_id replaced by document $new_id, a corrected re-production"
eq "live BLT-000004" "$(sql m "SELECT count(*) FROM documents WHERE name = 'BLT-000004' AND status = 'active'")" 1
# Without --replace a changed file is a document of its own, beside the old.
printf 'Meeting notes, third version.\n' > loose2/notes.txt
run 0 "$SWORN" ingest -m m loose2
eq "two live notes" "$(sql m "SELECT count(*) FROM documents WHERE name = 'notes.txt' AND status = 'active'")" 2
run 2 "$SWORN" show -m m notes.txt
has "$T/err" "2 documents are called 'notes.txt'"
eq "integrity" "$(sql m 'PRAGMA integrity_check')" "ok"

done_testing
