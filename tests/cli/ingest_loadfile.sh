# Concordance/Relativity productions: DAT encodings and delimiters, TEXTPATH
# texts split into pages, page Bates from BEGBATES or the OPT, and malformed
# rows or missing texts failing alone.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1

# A UTF-8 production with an OPT: three documents, one with a missing text.
mkdir -p p1/VOL001/TEXT/001
q=$UTF8_THORN
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES CUSTODIAN DATESENT TEXTPATH
	dat_row "$DC4" "$q" ABC0000001 ABC0000003 "Renée Smith" 03/03/2021 'TEXT\001\ABC0000001.txt'
	dat_row "$DC4" "$q" ABC0000004 ABC0000004 "Tom Jones" 03/04/2021 'TEXT\001\ABC0000004.txt'
	dat_row "$DC4" "$q" ABC0000005 ABC0000006 "Tom Jones" 03/05/2021 'TEXT\001\ABC0000005.txt'
	dat_row "$DC4" "$q" ABC0000007 ABC0000007 "Tom Jones" 03/06/2021 ''
} > p1/VOL001/PROD.DAT
printf 'page one\fpage two about the widget contract\fpage three\n' > p1/VOL001/TEXT/001/ABC0000001.txt
printf 'an email about shipping\n' > p1/VOL001/TEXT/001/ABC0000004.txt
printf 'ABC0000001,VOL001,IMAGES\\ABC0000001.tif,Y,,,3\r\nABC0000002,VOL001,IMAGES\\ABC0000002.tif,,,,\r\nABC0000003,VOL001,IMAGES\\ABC0000003.tif,,,,\r\nABC0000004,VOL001,IMAGES\\ABC0000004.tif,Y,,,1\r\n' > p1/VOL001/PROD.OPT

run 2 "$SWORN" ingest -m m p1
has "$T/out" "imported 3, skipped 0, failed 1"
has "$T/err" "PROD.DAT:4 ABC0000005: text file 'TEXT\\001\\ABC0000005.txt' (from TEXTPATH): not found; looked in p1/VOL001, p1"
has "$T/err" "PROD.DAT:5 ABC0000007: no extracted text"
lacks "$T/err" "ABC0000001.txt"    # used by the load file, not imported again
eq "documents" "$(sql m 'SELECT count(*) FROM documents')" 3
eq "pages of ABC0000001" "$(sql m "SELECT group_concat(bates || '=' || text, '|') FROM (SELECT bates, text FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'ABC0000001' ORDER BY page_no)")" \
	"ABC0000001=page one|ABC0000002=page two about the widget contract|ABC0000003=page three"
eq "opt source" "$(sql m "SELECT bates_source FROM pages WHERE bates = 'ABC0000002'")" "opt"
eq "custodian metadata" "$(sql m "SELECT json_extract(meta, '\$.CUSTODIAN') FROM documents WHERE name = 'ABC0000001'")" "Renée Smith"
eq "kind" "$(sql m "SELECT DISTINCT kind FROM documents")" "loadfile"
eq "end bates" "$(sql m "SELECT end_bates FROM documents WHERE name = 'ABC0000001'")" "ABC0000003"

# Supplying the missing text and importing again adds only that document.
printf 'the fifth\fthe sixth\n' > p1/VOL001/TEXT/001/ABC0000005.txt
run 0 "$SWORN" ingest -m m p1
has "$T/out" "imported 1, skipped 3, failed 0"
eq "documents" "$(sql m 'SELECT count(*) FROM documents')" 4
eq "page 6" "$(sql m "SELECT text FROM pages WHERE bates = 'ABC0000006'")" "the sixth"

# Latin-1 with a literal pilcrow as the separator, newline-in-field marks,
# no form feeds although the range has two pages.
mkdir -p p2/TEXT
{
	dat_row '\266' "$LATIN1_THORN" 'BEGDOC' 'ENDDOC' 'AUTHOR' 'TITLE' 'TEXT PATH'
	dat_row '\266' "$LATIN1_THORN" 'LAT-000010' 'LAT-000011' "$(printf 'Ren\351e')" \
		"$(printf 'line one\256line two')" 'TEXT/LAT-000010.txt'
} > p2/LAT.DAT
printf 'Caf\351 \223quoted\224 text\n' > p2/TEXT/LAT-000010.txt
run 0 "$SWORN" ingest -m m p2
has "$T/out" "imported 1, skipped 0, failed 0"
has "$T/err" "text: line 1 is not valid UTF-8: read as Windows-1252"
eq "latin1 author" "$(sql m "SELECT json_extract(meta, '\$.AUTHOR') FROM documents WHERE name = 'LAT-000010'")" "Renée"
eq "newline in field" "$(sql m "SELECT json_extract(meta, '\$.TITLE') FROM documents WHERE name = 'LAT-000010'")" "line one
line two"
eq "page 1 text" "$(sql m "SELECT text FROM pages WHERE bates = 'LAT-000010'")" "Café “quoted” text"
eq "page 2 kept empty" "$(sql m "SELECT length(text) FROM pages WHERE bates = 'LAT-000011'")" "0"

# Malformed rows fail one by one; the good rows are kept.
mkdir -p p3
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES TEXTPATH
	dat_row "$DC4" "$q" BAD0000001 BAD0000001
	dat_row "$DC4" "$q" BAD0000002 BAD0000002 ''
	dat_row "$DC4" "$q" 'not a bates' 'x' ''
	printf '\303\276BAD0000003\303\276\024\303\276BAD0000003\303\276\024\303\276unterminated'
} > p3/BAD.DAT
run 2 "$SWORN" ingest -m m p3
has "$T/out" "imported 1, skipped 0, failed 3"
has "$T/err" "BAD.DAT: line 2"
has "$T/err" "is not a Bates number"
eq "good row kept" "$(sql m "SELECT count(*) FROM documents WHERE name = 'BAD0000002'")" 1

# A file that is not a load file at all, and a DAT with no Bates column.
printf 'hello, world\n' > junk.dat
mkdir -p p4 && dat_row "$DC4" "$q" CUSTODIAN TEXTPATH > p4/NOBATES.DAT
run 2 "$SWORN" ingest -m m junk.dat p4
has "$T/err" "NOBATES.DAT: no BEGBATES"
lines "$T/err" 2

# A "Unicode" export (UTF-16 LE with a BOM) imports like its UTF-8 twin,
# and so does its UTF-16 text.
mkdir -p p6/TEXT
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES TEXTPATH
	dat_row "$DC4" "$q" UNI0000001 UNI0000002 'TEXT\UNI0000001.txt'
} | iconv -f UTF-8 -t UTF-16LE > p6/body
{ printf '\377\376'; cat p6/body; } > p6/UNI.DAT && rm p6/body
{ printf '\377\376'; printf 'Ren\303\251e wrote\fpage two\n' | iconv -f UTF-8 -t UTF-16LE; } > p6/TEXT/UNI0000001.txt
run 0 "$SWORN" ingest -m m p6
has "$T/out" "imported 1, skipped 0, failed 0"
eq "UTF-16 pages" "$(sql m "SELECT group_concat(bates || '=' || text, '|') FROM (SELECT bates, text FROM pages WHERE bates_prefix = 'UNI' ORDER BY bates_num)")" \
	"UNI0000001=Renée wrote|UNI0000002=page two"
# Truncated UTF-16 that converts to nothing usable still fails alone.
printf '\377\376B\000E\000' > utf16.dat
run 2 "$SWORN" ingest -m m utf16.dat
has "$T/err" "utf16.dat: no BEGBATES"

# Duplicate Bates across productions are reported.
mkdir -p p5/TEXT
{
	dat_row "$DC4" "$q" BEGBATES ENDBATES TEXTPATH
	dat_row "$DC4" "$q" ABC0000004 ABC0000004 'TEXT/x.txt'
} > p5/DUP.DAT
printf 'a different document stamped with a number in use\n' > p5/TEXT/x.txt
run 0 "$SWORN" ingest -m m p5
has "$T/err" "duplicate Bates: 1 page(s) reuse a number: ABC0000004"
eq "integrity" "$(sql m 'PRAGMA integrity_check')" "ok"

done_testing
