# Hostile productions (issue 17): load-file page ranges that overrun their
# documents, mixed encodings, and inputs the walk must not drop in silence.
. "$SW_SRC/tests/cli/lib.sh"
q=$UTF8_THORN

# An .OPT without DocBreak flags: each document ends at the next row's
# BEGBATES (or its ENDBATES), never takes every later page.
new_workspace
cd "$T/ws" || exit 1
mkdir -p p1/TEXT
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES TEXTPATH
	dat_row "$DC4" "$q" ABC0000001 ABC0000003 'TEXT\A1.txt'
	dat_row "$DC4" "$q" ABC0000004 ABC0000006 'TEXT\A4.txt'
	dat_row "$DC4" "$q" ABC0000007 ABC0000009 'TEXT\A7.txt'
} > p1/PROD.DAT
for d in 1 4 7; do
	printf 'doc %s page a\fdoc %s page b\fdoc %s page c\n' "$d" "$d" "$d" > "p1/TEXT/A$d.txt"
done
i=1
while [ "$i" -le 9 ]; do
	printf 'ABC%07d,VOL001,IMAGES\\ABC%07d.tif,,,,\r\n' "$i" "$i"
	i=$((i + 1))
done > p1/PROD.OPT
run 0 "$SWORN" ingest -m m p1
has "$T/out" "imported 3, skipped 0, failed 0"
has "$T/err" "the .OPT marks no document breaks"
eq "pages stored" "$(sql m 'SELECT count(*) FROM pages')" 9
eq "end bates" "$(sql m "SELECT group_concat(end_bates, ',') FROM (SELECT end_bates FROM documents ORDER BY id)")" \
	"ABC0000003,ABC0000006,ABC0000009"
eq "page 4 belongs to the second" "$(sql m "SELECT d.name FROM pages p JOIN documents d ON d.id = p.doc_id WHERE p.bates = 'ABC0000004'")" "ABC0000004"

# The .OPT and ENDBATES disagree: the document ends at the first, with a
# warning naming both.
new_workspace
cd "$T/ws" || exit 1
mkdir -p p2/TEXT
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES TEXTPATH
	dat_row "$DC4" "$q" DEF0000001 DEF0000002 'TEXT\D1.txt'
	dat_row "$DC4" "$q" DEF0000006 DEF0000006 'TEXT\D6.txt'
} > p2/PROD.DAT
printf 'one\ftwo\n' > p2/TEXT/D1.txt
printf 'six\n' > p2/TEXT/D6.txt
{
	printf 'DEF0000001,V,I1.tif,Y,,,5\r\n'
	for i in 2 3 4 5; do printf 'DEF000000%s,V,I%s.tif,,,,\r\n' "$i" "$i"; done
	printf 'DEF0000006,V,I6.tif,Y,,,1\r\n'
} > p2/PROD.OPT
run 0 "$SWORN" ingest -m m p2
has "$T/err" "PROD.DAT:2 DEF0000001: the .OPT gives 5 page(s) from DEF0000001 to DEF0000005, ENDBATES DEF0000002 2; the document ends at the first"
eq "pages of the first" "$(sql m "SELECT page_count FROM documents WHERE name = 'DEF0000001'")" 2
eq "end of the first" "$(sql m "SELECT end_bates FROM documents WHERE name = 'DEF0000001'")" "DEF0000002"
eq "no stray pages" "$(sql m "SELECT count(*) FROM pages WHERE bates IN ('DEF0000003', 'DEF0000004', 'DEF0000005')")" 0

# A document the .OPT makes longer than SW_RECORD_MAX_PAGES (200000) fails
# alone; nothing of it is stored.
new_workspace
cd "$T/ws" || exit 1
mkdir -p p3
{
	dat_row "$DC4" "$q" BEGBATES TEXTPATH
	dat_row "$DC4" "$q" BIG0000001 ''
} > p3/PROD.DAT
awk 'BEGIN { for (i = 1; i <= 200001; i++) printf "BIG%07d,V,,%s,,,\r\n", i, (i == 1 ? "Y" : "") }' > p3/PROD.OPT
run 2 "$SWORN" ingest --no-ocr -m m p3
has "$T/err" "PROD.DAT:2 BIG0000001: the .OPT gives it more than 200000 pages (limit SW_RECORD_MAX_PAGES)"
eq "nothing of the long document" "$(sql m 'SELECT count(*) FROM pages')" 0

# One Windows-1252 byte in a UTF-8 DAT: the DAT is still read as UTF-8
# (its þ qualifiers found), the one value is read as 1252 with a warning
# naming its line and column, every other value stays as written.
new_workspace
cd "$T/ws" || exit 1
mkdir -p p4/TEXT
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES CUSTODIAN TEXTPATH
	dat_row "$DC4" "$q" MIX0000001 MIX0000001 "Renée Smith" 'TEXT\M1.txt'
	dat_row "$DC4" "$q" MIX0000002 MIX0000002 "$(printf 'Caf\351 Owner')" 'TEXT\M2.txt'
} > p4/PROD.DAT
printf 'first\n' > p4/TEXT/M1.txt
# A text of UTF-8 lines and one Windows-1252 line.
printf 'Renée wrote:\nthe caf\351 bill\nnaïve total\n' > p4/TEXT/M2.txt
run 0 "$SWORN" ingest -m m p4
has "$T/out" "imported 2, skipped 0, failed 0"
has "$T/err" "PROD.DAT:3 MIX0000002: line 3: CUSTODIAN is not valid UTF-8: read as Windows-1252"
has "$T/err" "MIX0000002: text: line 2 is not valid UTF-8: read as Windows-1252"
lacks "$T/err" "no BEGBATES"
eq "UTF-8 value kept" "$(sql m "SELECT json_extract(meta, '\$.CUSTODIAN') FROM documents WHERE name = 'MIX0000001'")" "Renée Smith"
eq "1252 value read" "$(sql m "SELECT json_extract(meta, '\$.CUSTODIAN') FROM documents WHERE name = 'MIX0000002'")" "Café Owner"
eq "mixed text" "$(sql m "SELECT text FROM pages WHERE bates = 'MIX0000002'")" "Renée wrote:
the café bill
naïve total"

# The same for a loose text file.
mkdir p5
printf 'Renée wrote:\nthe caf\351 bill\n' > p5/note.txt
run 0 "$SWORN" ingest -m m p5
has "$T/err" "note.txt: line 2 is not valid UTF-8: read as Windows-1252"
eq "loose mixed text" "$(sql m "SELECT text FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'note.txt'")" "Renée wrote:
the café bill"

# Nothing is skipped in silence: a link out of the production, a link to a
# folder, a FIFO, a binary file without NUL bytes each get a line and a
# count; a link to a file inside the production is followed.
new_workspace
cd "$T/ws" || exit 1
mkdir -p p6/sub outside
printf 'inside the production\n' > p6/sub/real.txt
printf 'secret outside\n' > outside/secret.txt
ln -s ../outside/secret.txt p6/escape.txt
ln -s sub/real.txt p6/alias.txt
printf 'linked elsewhere\n' > outside/other.txt
ln -s ../outside p6/folder
mkfifo p6/pipe.txt
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", 1 + int(rand() * 255) }' > p6/blob.txt
run 2 "$SWORN" ingest -m m p6
has "$T/out" "imported 1, skipped 4, failed 1"
run 2 "$SWORN" ingest -v -m m p6
cat "$T/out" "$T/err" > "$T/all"
has "$T/all" "p6/folder: symbolic link"
has "$T/all" "p6/pipe.txt: not a regular file"
has "$T/all" "p6/blob.txt: binary data ("
has "$T/all" "p6/escape.txt: symbolic link: not followed"
eq "nothing from outside" "$(sql m "SELECT count(*) FROM pages WHERE text LIKE '%outside%' OR text LIKE '%elsewhere%'")" 0
eq "the inside file once" "$(sql m "SELECT count(*) FROM documents")" 1
lacks "$T/all" "alias.txt: symbolic link"

# --origin model on bytes already stored as evidence re-classifies them:
# fingerprints registered, origin model, the change in the audit; a
# re-saved copy in another matter is then quarantined.  The other way
# (evidence asked of a model output) fails loudly; nothing is skipped.
new_workspace
cd "$T/ws" || exit 1
"$SWORN" matter new other >/dev/null || exit 1
words="the plaintiff agreed shipment contract payment invoice delivered warehouse notice breach damages court witness stated late never signed terms letter counsel records goods accepted rejected inspection freight carrier seller buyer price credit refund"
mkdir d e
i=0
for w in $words $words $words $words; do
	i=$((i + 1))
	printf '%s ' "$w"
	[ $((i % 13)) -eq 0 ] && printf 'item%d.\n' "$i"
done > d/draft.txt
printf '\n' >> d/draft.txt
run 0 "$SWORN" ingest -m m d
eq "first stored as evidence" "$(sql m "SELECT origin FROM documents WHERE name = 'draft.txt'")" "evidence"
run 0 "$SWORN" ingest -m m --origin model d
has "$T/out" "imported 0, skipped 0, failed 0, reclassified 1"
has "$T/out" "draft.txt: already imported as document 1 of origin evidence: now origin model, its fingerprints registered for the workspace"
eq "now a model output" "$(sql m "SELECT origin || ' ' || status FROM documents WHERE name = 'draft.txt'")" "model active"
eq "registered" "$(sqlite3 provenance.db "SELECT matter || ' ' || name FROM outputs")" "m draft.txt"
run 0 "$SWORN" matter audit -m m
has "$T/out" "origin changes (1):"
has "$T/out" "import      #1 draft.txt: evidence -> model"
run 0 "$SWORN" matter audit -m m --json
eq "origin change in JSON" "$(tr -d ' \n' < "$T/out" | grep -o '"origin_changes":\[{"document_id":1,"document":"draft.txt","from":"evidence","to":"model"')" \
	'"origin_changes":[{"document_id":1,"document":"draft.txt","from":"evidence","to":"model"'
tr '\n' ' ' < d/draft.txt | fold -s -w 50 > e/resaved.txt
run 0 "$SWORN" ingest -m other e
has "$T/err" "quarantined resaved.txt: matches model output 'draft.txt' of matter 'm'"
# Asked again for the origin it has: a plain skip.
run 0 "$SWORN" ingest -m m --origin model d
has "$T/out" "imported 0, skipped 1, failed 0"
# Evidence asked of a model output: refused, loudly.
run 2 "$SWORN" ingest -m m d
has "$T/err" "draft.txt: already stored as a model output (document 1); a model output never becomes evidence"
eq "still a model output" "$(sql m "SELECT origin FROM documents WHERE name = 'draft.txt'")" "model"

# An e-mail re-classified takes the documents that came in it along.
mkdir f
{
	printf 'From: a@acme.example\r\nTo: b@acme.example\r\nSubject: the draft\r\n'
	printf 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n'
	printf -- '--b1\r\nContent-Type: text/plain\r\n\r\nThe model drafted these.\r\n'
	for i in 1 2; do
		printf -- '--b1\r\nContent-Type: text/plain; name="n%s.txt"\r\n' "$i"
		printf 'Content-Disposition: attachment; filename="n%s.txt"\r\n\r\n' "$i"
		printf 'Drafted note %s.\r\n' "$i"
	done
	printf -- '--b1--\r\n'
} > f/draft.eml
run 0 "$SWORN" ingest -m m f
# A failure at any document's change (the parent's, either attachment's)
# leaves the whole family as it was (one transaction): nothing half
# re-classified, nothing audited.
for n in 1 2 3; do
	SWORN_FAULT=reclassify:$n run 2 "$SWORN" ingest -m m --origin model f
	has "$T/err" "draft.eml: cannot change the origin of document $((n + 1)): injected fault"
	eq "reclassify:$n leaves the family unchanged" "$(sql m "SELECT group_concat(origin, ',') FROM documents WHERE id = 2 OR parent_id = 2")" "evidence,evidence,evidence"
	eq "reclassify:$n audits no change" "$(sql m "SELECT count(*) FROM documents WHERE (id = 2 OR parent_id = 2) AND meta LIKE '%origin_changes%'")" 0
done
run 0 "$SWORN" ingest -m m --origin model f
has "$T/out" "draft.eml: already imported as document 2 of origin evidence: now origin model with the 2 document(s) that came in it"
eq "the family is model" "$(sql m "SELECT group_concat(origin, ',') FROM documents WHERE id = 2 OR parent_id = 2")" "model,model,model"

done_testing
