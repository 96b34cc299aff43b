# Production QC (issue 40): `sworn matter qc` reports what the import of a
# load-file volume found wrong, each defect with its DAT line and Bates
# number and what the producing party should fix, plus the volume's totals;
# `sworn ingest` names the report.  One clean volume, then a volume for each
# defect alone, then one with every defect together; the report comes from
# what the import kept (the volume is gone when it is read) and is the same
# after importing the volume again.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
q=$UTF8_THORN

. "$SW_SRC/tests/cli/qc_volume.inc"

# findings VOLUME: "kind line bates" of each finding, one a line.
findings() {
	"$SWORN" matter qc -m m "$1" --json |
		jq -r '.volumes[0].findings[] | "\(.kind) \(.line) \(.bates)"'
}

# A clean volume: no report named, nothing found, the totals.
volume CLEAN CLN
run 0 "$SWORN" ingest -m m CLEAN
has "$T/out" "imported 3, skipped 0, failed 0"
lacks "$T/out" "production QC"
run 0 "$SWORN" matter qc -m m CLEAN
has "$T/out" "CLEAN  CLEAN/DATA/CLEAN.DAT with CLEAN/DATA/CLEAN.OPT, imported "
has "$T/out" "  3 documents, 4 pages, 1 natives, 4 images; text for 3 of 3 documents (100%)"
has "$T/out" "  no problems found"

# One defect at a time: each volume's report holds that one finding (the
# .OPT keyed under another number gives two sides of it).
volume GAP GAP
sed -i 's/GAP0004/GAP0007/g' GAP/DATA/GAP.DAT GAP/DATA/GAP.OPT
mv GAP/TEXT/GAP0004.txt GAP/TEXT/GAP0007.txt
mv GAP/IMAGES/GAP0004.tif GAP/IMAGES/GAP0007.tif

volume OVL OVL # no .OPT; P0001's ENDBATES reaches into P0003
rm -r OVL/DATA/OVL.OPT OVL/IMAGES
sed -i 's/OVL0002/OVL0003/' OVL/DATA/OVL.DAT
printf 'one\ftwo\fthree\n' > OVL/TEXT/OVL0001.txt

volume DUP DUP
cp DUP/TEXT/DUP0003.txt DUP/TEXT/DUP0004.txt

volume DOP DOP # the .OPT keys P0003 under another number
sed -i 's/^DOP0003,/DOP0003X,/' DOP/DATA/DOP.OPT

volume NTX NTX
rm NTX/TEXT/NTX0004.txt

volume NIM NIM
rm NIM/IMAGES/NIM0002.tif

volume NNA NNA
rm NNA/NATIVES/NNA0001.docx

volume PGS PGS
printf 'one\ftwo\fthree\n' > PGS/TEXT/PGS0001.txt

volume DAT DAT
sed -i 's#03/15/2021#00/00/0000#' DAT/DATA/DAT.DAT

volume ENC ENC
printf 'the caf\351 letter\n' > ENC/TEXT/ENC0003.txt

volume FAM FAM
sed -i '4s/FAM0003/FAM0099/' FAM/DATA/FAM.DAT

for v in GAP OVL DUP DOP NTX NIM NNA PGS DAT ENC FAM; do
	want=0
	[ $v = NTX ] && want=2 # its row failed
	run $want "$SWORN" ingest -m m $v
	n=1
	[ $v = DOP ] && n=2 # the row the .OPT lacks, the document no row begins
	has "$T/out" "production QC: $n problem(s) in $v for the producing party; the report: sworn matter qc -m m $v"
	lacks "$T/out" "warnings"
done
eq "gap" "$(findings GAP)" "gap 4 GAP0004-GAP0006"
eq "overlap" "$(findings OVL)" "overlap 3 OVL0003"
eq "duplicate" "$(findings DUP)" "duplicate 4 DUP0004"
eq "dat and opt" "$(findings DOP | tr '\n' ,)" "dat_opt null DOP0003X,dat_opt 3 DOP0003,"
eq "missing text" "$(findings NTX)" "no_text 4 NTX0004"
eq "missing image" "$(findings NIM)" "no_image null NIM0002"
eq "missing native" "$(findings NNA)" "no_native 2 NNA0001"
eq "page count" "$(findings PGS)" "page_count 2 PGS0001"
eq "bad date" "$(findings DAT)" "bad_date 2 DAT0001"
eq "encoding" "$(findings ENC)" "encoding 3 ENC0003"
eq "family" "$(findings FAM)" "family 4 FAM0004"

# Each with what it is and what to fix, in words.
run 0 "$SWORN" matter qc -m m GAP
has "$T/out" "  Bates gaps (1)"
has "$T/out" "    fix: produce the missing pages"
has "$T/out" "line 4     GAP0004-GAP0006          3 number(s) missing between GAP0003 (line 3) and the row at line 4"
run 0 "$SWORN" matter qc -m m NTX
has "$T/out" "text for 2 of 3 documents (66%)"
has "$T/out" "line 4     NTX0004                  TEXTPATH 'TEXT\\NTX0004.txt': not found; looked in"
run 0 "$SWORN" matter qc -m m NIM
has "$T/out" "NIM0002                  the .OPT's line 2 names 'IMAGES\\NIM0002.tif': not found"
has "$T/out" "3 images"
run 0 "$SWORN" matter qc -m m DAT
has "$T/out" "DATESENT '00/00/0000' is not a date"
run 0 "$SWORN" matter qc -m m FAM
has "$T/out" "names the parent 'FAM0099', which is no document imported from the volume"

# Every defect in one volume, with two more rows: a gap before P0009,
# which is not in the .OPT and whose text is missing.
volume ALL ALL
sed -i 's/ALL0004/ALL0007/g' ALL/DATA/ALL.DAT ALL/DATA/ALL.OPT
mv ALL/IMAGES/ALL0004.tif ALL/IMAGES/ALL0007.tif
printf 'the ALL enclosure\n' > ALL/TEXT/ALL0007.txt
rm ALL/TEXT/ALL0004.txt
sed -i 's#03/15/2021#Tuesday#' ALL/DATA/ALL.DAT
sed -i '4s/ALL0003/ALL0099/' ALL/DATA/ALL.DAT
dat_row "$DC4" "$q" ALL0009 ALL0010 '' '' 'TEXT\ALL0009.txt' '' >> ALL/DATA/ALL.DAT
dat_row "$DC4" "$q" ALL0010 ALL0010 '' '' 'TEXT\ALL0010.txt' '' >> ALL/DATA/ALL.DAT
printf 'the caf\351 letter\n' > ALL/TEXT/ALL0003.txt
cp ALL/TEXT/ALL0003.txt ALL/TEXT/ALL0010.txt
printf 'one\ftwo\fthree\n' > ALL/TEXT/ALL0001.txt
rm ALL/IMAGES/ALL0002.tif ALL/NATIVES/ALL0001.docx
run 2 "$SWORN" ingest -m m ALL
has "$T/out" "production QC: "
has "$T/out" " problem(s) in ALL for the producing party; the report: sworn matter qc -m m ALL"
eq "every kind" "$(findings ALL | cut -d' ' -f1 | sort -u | tr '\n' ' ')" \
	"bad_date dat_opt duplicate encoding family gap no_image no_native no_text overlap page_count "
"$SWORN" matter qc -m m ALL > "$T/all1"

# The report is what the import kept: the volume can be gone, and a
# second import of it gives the same report (its documents skipped).
run 0 "$SWORN" matter qc -m m ALL --format csv
has "$T/out" "volume,kind,line,bates,detail,fix"
has "$T/out" '"ALL","gap","4","ALL0004-ALL0006","3 number(s) missing between ALL0003 (line 3) and the row at line 4"'
has "$T/out" '"ALL","no_text","5","ALL0009",'
run 0 "$SWORN" matter qc -m m ALL --format html
has "$T/out" "<h1>Production QC: m</h1>"
has "$T/out" "<h3>Broken families (1)</h3>"
has "$T/out" "<tr><td>4</td><td>ALL0007</td><td>names the parent 'ALL0099'"
cp -r ALL ALL.keep
rm -rf ALL
run 0 "$SWORN" matter qc -m m ALL
eq "read without the volume" "$(cat "$T/out")" "$(cat "$T/all1")"
mv ALL.keep ALL
run 2 "$SWORN" ingest -m m ALL --json
eq "the report named in JSON" "$(jq -r .qc_report "$T/out")" "sworn matter qc -m m ALL"
eq "its findings counted" "$(jq -r '.qc_findings > 10' "$T/out")" true
eq "skipped" "$(jq -r '.skipped > 0' "$T/out")" true
"$SWORN" matter qc -m m ALL | sed 's/imported [0-9TZ:-]*$//' > "$T/all2"
sed 's/imported [0-9TZ:-]*$//' "$T/all1" > "$T/all1b"
eq "the same report again" "$(cat "$T/all2")" "$(cat "$T/all1b")"

# Every volume, the JSON totals, and bad input.
run 0 "$SWORN" matter qc -m m --json
eq "volumes" "$(jq '.volumes | length' "$T/out")" 13
eq "totals" "$(jq -c '.volumes[0].totals' "$T/out")" \
	'{"documents":3,"pages":4,"natives":1,"images":4,"texts":3,"text_coverage_percent":100}'
run 2 "$SWORN" matter qc -m m NOPE
has "$T/err" "no volume 'NOPE' in matter 'm'; its volumes: CLEAN, GAP"
run 2 "$SWORN" matter qc -m m --format pdf
has "$T/err" "bad --format 'pdf': give text, csv or html (or --json)"
run 0 "$SWORN" matter new empty
run 0 "$SWORN" matter qc -m empty
has "$T/out" "no load-file volume imported into 'empty' yet"

done_testing
