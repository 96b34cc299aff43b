# A production volume laid out as e-discovery vendors ship it: DATA/ with the
# DAT and OPT, TEXT/, NATIVES/ and IMAGES/ beside it, paths written with
# backslashes relative to the volume root, to the DAT, or to the folder
# above; families by BEGATTACH, ATTACHRANGE and PARENT_DOCID; paths that
# are absolute, climb out with '..' or leave through a symbolic link are
# refused and never read; files the load file covers are not imported again
# as loose documents; Bates numbers from the load file are searchable in any
# spelling; an Excel labels CSV imports.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1

q=$UTF8_THORN
printf 'TOPSECRET the password file\n' > "$T/secret.txt"

V=prod/VOL001
mkdir -p $V/DATA $V/TEXT/TEXT001 $V/NATIVES/NATIVE001 $V/IMAGES/IMAGES001 prod/loose
{
	printf '\357\273\277' # Excel and most vendors write a UTF-8 BOM
	dat_row "$DC4" "$q" BEGBATES ENDBATES BEGATTACH ENDATTACH CUSTODIAN TEXTPATH NATIVEPATH
	dat_row "$DC4" "$q" BLT-000001 BLT-000003 BLT-000001 BLT-000005 "Renée Roe" 'TEXT\TEXT001\BLT-000001.txt' ''
	dat_row "$DC4" "$q" BLT-000004 BLT-000004 BLT-000001 BLT-000005 "Renée Roe" '.\VOL001\TEXT\TEXT001\BLT-000004.txt' 'NATIVES\NATIVE001\BLT-000004.xlsx'
	dat_row "$DC4" "$q" BLT-000005 BLT-000005 BLT-000001 BLT-000005 "Renée Roe" '' 'NATIVES\NATIVE001\BLT-000005.eml'
	dat_row "$DC4" "$q" BLT-000006 BLT-000006 '' '' x '..\..\..\secret.txt' ''
	dat_row "$DC4" "$q" BLT-000007 BLT-000007 '' '' x 'C:\Windows\win.ini' ''
	dat_row "$DC4" "$q" BLT-000008 BLT-000008 '' '' x '/etc/passwd' ''
	dat_row "$DC4" "$q" BLT-000009 BLT-000009 '' '' x '\\fileserver\share\BLT-000009.txt' ''
	dat_row "$DC4" "$q" BLT-000010 BLT-000010 '' '' x 'TEXT\TEXT001\LINK.txt' ''
	dat_row "$DC4" "$q" BLT-000011 BLT-000011 '' '' x 'TEXT\TEXT001\MISSING.txt' ''
	dat_row "$DC4" "$q" BLT-000012 BLT-000013 '' '' x 'TEXT\TEXT001\BLT-000012.txt' ''
	dat_row "$DC4" "$q" BLT-000014 BLT-000014 '' '' x '..\TEXT\TEXT001\BLT-000014.txt' ''
	dat_row "$DC4" "$q" BLT-000015 BLT-000015 '' '' x 'Text\text001\blt-000015.TXT' ''
} > $V/DATA/VOL001.DAT
for n in 01 02 03 04 05 12 13 14; do
	printf 'II*\0' > $V/IMAGES/IMAGES001/BLT-0000$n.tif
done
{
	for n in 01 02 03; do
		printf 'BLT-0000%s,VOL001,IMAGES\\IMAGES001\\BLT-0000%s.tif,%s,,,%s\r\n' $n $n \
			"$([ $n = 01 ] && echo Y)" "$([ $n = 01 ] && echo 3)"
	done
	printf 'BLT-000004,VOL001,.\\VOL001\\IMAGES\\IMAGES001\\BLT-000004.tif,Y,,,1\r\n'
	printf 'BLT-000005,VOL001,IMAGES\\IMAGES001\\BLT-000005.tif,Y,,,1\r\n'
	printf 'BLT-000012,VOL001,IMAGES\\IMAGES001\\BLT-000012.tif,Y,,,2\r\n'
	printf 'BLT-000013,VOL001,IMAGES\\IMAGES001\\BLT-000013.tif,,,,\r\n'
	printf 'BLT-000014,VOL001,IMAGES\\IMAGES001\\BLT-000014.tif,Y,,,1\r\n'
} > $V/DATA/VOL001.OPT
printf 'The supply agreement\fdelivery schedule for the widgets\fsigned by both parties\n' \
	> $V/TEXT/TEXT001/BLT-000001.txt
printf 'spreadsheet of late deliveries\n' > $V/TEXT/TEXT001/BLT-000004.txt
printf 'PK\003\004 not really a workbook' > $V/NATIVES/NATIVE001/BLT-000004.xlsx
printf 'From: Tom Vale <tom@vale.example>\r\nTo: roe@acme.example\r\nDate: Wed, 3 Mar 2021 16:02:11 -0500\r\nSubject: the credit\r\n\r\nThe credit note is attached.\r\n' \
	> $V/NATIVES/NATIVE001/BLT-000005.eml
# Extracted text exported as "Unicode" (UTF-16 LE with a BOM), no form feed.
printf '\377\376' > $V/TEXT/TEXT001/BLT-000012.txt
printf 'Caf\303\251 invoice review memo\n' | iconv -f UTF-8 -t UTF-16LE >> $V/TEXT/TEXT001/BLT-000012.txt
printf 'fourteen, relative to the DAT folder\n' > $V/TEXT/TEXT001/BLT-000014.txt
printf 'fifteen, its name in another case\n' > $V/TEXT/TEXT001/BLT-000015.txt
ln -s "$T/secret.txt" $V/TEXT/TEXT001/LINK.txt
# A loose e-mail whose last line names an invoice: no Bates number.
printf 'From: a@example.com\r\nTo: b@example.com\r\nDate: Thu, 4 Mar 2021 09:00:00 +0000\r\nSubject: payment\r\n\r\nPlease pay the invoice below.\r\n\r\nInvoice INV-10236\r\n' \
	> prod/loose/invoice.eml

run 2 "$SWORN" ingest -m m prod
# LINK.txt, a link out of the production, is skipped by the walk, with a line.
has "$T/out" "imported 7, skipped 1, failed 6"
# Refused, each with its reason, and never read.
has "$T/err" "VOL001.DAT:5 BLT-000006: text file '..\\..\\..\\secret.txt' (from TEXTPATH): refused: '..' climbs out of the ingest folder 'prod'"
has "$T/err" "VOL001.DAT:6 BLT-000007: text file 'C:\\Windows\\win.ini' (from TEXTPATH): refused: an absolute Windows path (drive letter)"
has "$T/err" "VOL001.DAT:7 BLT-000008: text file '/etc/passwd' (from TEXTPATH): refused: an absolute path"
has "$T/err" "BLT-000009: text file '\\\\fileserver\\share\\BLT-000009.txt' (from TEXTPATH): refused: a network path"
has "$T/err" "VOL001.DAT:9 BLT-000010: text file 'TEXT\\TEXT001\\LINK.txt' (from TEXTPATH): refused: it leads out of the ingest folder 'prod' through a symbolic link"
eq "secret never read" "$(sql m "SELECT count(*) FROM pages WHERE text LIKE '%TOPSECRET%'")" 0
# A missing file says where it looked, in one line.
has "$T/err" "VOL001.DAT:10 BLT-000011: text file 'TEXT\\TEXT001\\MISSING.txt' (from TEXTPATH): not found; looked in prod/VOL001/DATA, prod/VOL001, prod"
eq "missing is one line" "$(grep -c MISSING "$T/err")" 1

# Paths relative to the volume root, to the folder above it, and to the
# DAT, and a name written in another case than the file's.
eq "pages of BLT-000001" "$(sql m "SELECT group_concat(bates || '=' || text, '|') FROM (SELECT bates, text FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'BLT-000001' ORDER BY page_no)")" \
	"BLT-000001=The supply agreement|BLT-000002=delivery schedule for the widgets|BLT-000003=signed by both parties"
eq "relative to the volume's parent" "$(sql m "SELECT text FROM pages WHERE bates = 'BLT-000004'")" "spreadsheet of late deliveries"
eq "relative to the DAT" "$(sql m "SELECT text FROM pages WHERE bates = 'BLT-000014'")" "fourteen, relative to the DAT folder"
eq "a name in another case" "$(sql m "SELECT text FROM pages WHERE bates = 'BLT-000015'")" "fifteen, its name in another case"
eq "UTF-16 text" "$(sql m "SELECT text FROM pages WHERE bates = 'BLT-000012'")" "Café invoice review memo"
eq "OPT page count" "$(sql m "SELECT page_count FROM documents WHERE name = 'BLT-000012'")" 2
# The e-mail native stands in for the missing text; its page shows the Date
# header as written, the metadata keeps ISO.
eq "native e-mail date on the page" "$(sql m "SELECT instr(text, 'Date: Wed, 3 Mar 2021 16:02:11 -0500') > 0 FROM pages WHERE bates = 'BLT-000005'")" 1

# Canonical prefixes; every page of the production numbered.
eq "canonical prefix" "$(sql m "SELECT DISTINCT bates_prefix FROM pages WHERE bates_num IS NOT NULL")" "BLT"

# Nothing the load file covers came in again loose: no text, native or image.
eq "documents" "$(sql m "SELECT count(*) FROM documents")" 7
eq "loose ones" "$(sql m "SELECT group_concat(name) FROM documents WHERE kind <> 'loadfile'")" "invoice.eml"
lacks "$T/err" "BLT-000001.txt"
lacks "$T/err" ".tif"
lacks "$T/err" "BLT-000004.xlsx"
lacks "$T/err" "VOL001.OPT"

# The invoice number on the e-mail's last line is not a Bates number.
eq "no INV series" "$(sql m "SELECT count(*) FROM pages WHERE bates_prefix = 'INV'")" 0
eq "invoice.eml unstamped" "$(sql m "SELECT count(*) FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'invoice.eml' AND p.bates IS NOT NULL")" 0

# The family: BEGATTACH links the attachments to their parent.
eq "children of BLT-000001" "$(sql m "SELECT group_concat(c.name) FROM documents c JOIN documents p ON p.id = c.parent_id WHERE p.name = 'BLT-000001' ORDER BY c.name")" "BLT-000004,BLT-000005"
eq "parent has none" "$(sql m "SELECT parent_id IS NULL FROM documents WHERE name = 'BLT-000001'")" 1

# Search finds pages by a Bates number that only the load file gives, in
# every spelling; a range finds each page of it.
for s in BLT-000002 BLT000002 'BLT 000002' BLT_000002 blt-002 BLT-0000002 'BLT.000002'; do
	run 0 "$SWORN" search -m m "$s"
	has "$T/out" "BLT-000002"
	lines "$T/out" 2
done
run 0 "$SWORN" search -m m 'BLT-000002–BLT-000004'
eq "range hits" "$(grep -c 'BLT-00000[234]' "$T/out")" 3
run 0 "$SWORN" search -m m BLT-000001-000003
eq "short range hits" "$(grep -c 'BLT-00000[123] ' "$T/out")" 3
run 0 "$SWORN" search -m m BLT-000002 widgets
has "$T/out" "BLT-000002"
run 1 "$SWORN" search -m m BLT-000002 nosuchword
run 1 "$SWORN" search -m m BLT-000099

# A matter written before prefixes were canonical ("BLT-") is brought to
# the canonical form by the next import, and found again.
sqlite3 "$T/ws/matters/m/matter.db" "UPDATE pages SET bates_prefix = bates_prefix || '-' WHERE bates_num IS NOT NULL"
run 1 "$SWORN" search -m m BLT-000003

# Importing again adds nothing and reads nothing loose.
run 2 "$SWORN" ingest -m m prod
has "$T/out" "imported 0"
eq "documents again" "$(sql m "SELECT count(*) FROM documents")" 7
eq "canonical again" "$(sql m "SELECT group_concat(DISTINCT bates_prefix) FROM pages WHERE bates_num IS NOT NULL")" "BLT"
run 0 "$SWORN" search -m m BLT-000003
has "$T/out" "BLT-000003"

# A second volume in Windows-1252 with DOCID/PARENT_DOCID families and an
# ATTACHRANGE family listed child first; the DAT named by itself (its
# volume root is the folder above DATA).
W=prod2/VOL002
mkdir -p $W/DATA $W/TEXT
{
	dat_row "$DC4" "$LATIN1_THORN" DOCID BEGBATES ENDBATES PARENT_DOCID ATTACHRANGE TEXTPATH
	dat_row "$DC4" "$LATIN1_THORN" CTRL-0002 'XYZ 000002' 'XYZ 000002' CTRL-0001 '' 'TEXT\2.txt'
	dat_row "$DC4" "$LATIN1_THORN" CTRL-0001 'XYZ 000001' 'XYZ 000001' '' '' 'TEXT\1.txt'
	dat_row "$DC4" "$LATIN1_THORN" CTRL-0005 'XYZ 000005' 'XYZ 000005' '' 'XYZ 000003 - XYZ 000005' 'TEXT\5.txt'
	dat_row "$DC4" "$LATIN1_THORN" CTRL-0003 'XYZ 000003' 'XYZ 000003' '' 'XYZ 000003 - XYZ 000005' 'TEXT\3.txt'
	dat_row "$DC4" "$LATIN1_THORN" CTRL-0004 'XYZ 000004' 'XYZ 000004' '' 'XYZ 000003 - XYZ 000005' 'TEXT\4.txt'
	dat_row "$DC4" "$LATIN1_THORN" CTRL-0006 'XYZ 000006' 'XYZ 000006' CTRL-0999 '' 'TEXT\6.txt'
} > $W/DATA/VOL002.DAT
for n in 1 2 3 4 5 6; do printf 'xyz document %s\n' $n > $W/TEXT/$n.txt; done
run 0 "$SWORN" ingest -m m $W/DATA/VOL002.DAT
has "$T/out" "imported 6, skipped 0, failed 0"
has "$T/err" "1 attachment(s) name a parent that is not a row of the load file"
eq "PARENT_DOCID" "$(sql m "SELECT p.name FROM documents c JOIN documents p ON p.id = c.parent_id WHERE c.name = 'XYZ 000002'")" "XYZ 000001"
eq "ATTACHRANGE" "$(sql m "SELECT group_concat(c.name, ',') FROM (SELECT c.name FROM documents c JOIN documents p ON p.id = c.parent_id WHERE p.name = 'XYZ 000003' ORDER BY c.name) AS c")" "XYZ 000004,XYZ 000005"
eq "range head has no parent" "$(sql m "SELECT parent_id IS NULL FROM documents WHERE name = 'XYZ 000003'")" 1
run 0 "$SWORN" search -m m XYZ-000004
has "$T/out" "XYZ 000004"

# A labels CSV as Excel saves it: BOM, CRLF, capitalised header, quoted
# fields, party prefixes, a description column, empty rows at the end.
printf '\357\273\277Label,Target,Description\r\n"Def. Ex. 1",BLT-000001,the agreement\r\nDX-2,"BLT 000004",\r\n"Pl. Ex. 3",BLT000005,"the credit, note"\r\nEx. 3,BLT-000012,\r\n"Defs.\342\200\231 Ex. 4",XYZ-000001,\r\n,,\r\n\r\n' > labels.csv
run 0 "$SWORN" ingest -m m --labels labels.csv
has "$T/out" "5 labels"
eq "labels" "$(sql m "SELECT group_concat(norm || '>' || d.name, ';') FROM (SELECT * FROM labels ORDER BY norm) AS l JOIN documents d ON d.id = l.doc_id")" \
	"def ex 1>BLT-000001;def ex 2>BLT-000004;def ex 4>XYZ 000001;ex 3>BLT-000012;pl ex 3>BLT-000005"
# European Excel: semicolons.
printf '\357\273\277LABEL;TARGET\r\nPX 7;BLT-000014\r\n;\r\n' > labels-eu.csv
run 0 "$SWORN" ingest -m m --labels labels-eu.csv
eq "semicolon CSV" "$(sql m "SELECT target FROM labels WHERE norm = 'pl ex 7'")" "BLT-000014"

done_testing
