# Record-citation labels and deposition transcripts.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1

cp -r "$SW_TEST_DATA/acme-mini" acme
run 0 "$SWORN" ingest -m m --labels acme/labels.csv acme
has "$T/out" "imported 5, skipped 0, failed 0 (10 pages, 4 labels)"
eq "labels" "$(sql m "SELECT group_concat(norm || '>' || target, ';') FROM (SELECT * FROM labels ORDER BY norm)")" \
	"ex 1>ACME0000001;ex 2>ACME0000004;ex 3>ACME0000007;smith dep>smith-dep.txt"
eq "label to document" "$(sql m "SELECT d.beg_bates FROM labels l JOIN documents d ON d.id = l.doc_id WHERE l.norm = 'ex 2'")" "ACME0000004"

# The transcript is addressable by page:line.
eq "transcript kind" "$(sql m "SELECT kind FROM documents WHERE name = 'smith-dep.txt'")" "transcript"
eq "lines" "$(sql m "SELECT count(*) FROM transcript_lines")" 50
eq "line 1:6" "$(sql m "SELECT substr(p.text, t.start + 1, t.end - t.start) FROM transcript_lines t JOIN pages p ON p.id = t.page_id WHERE t.tr_page = 1 AND t.line = 6")" \
	"A.  Yes, on March 3, 2021."
eq "line 2:1" "$(sql m "SELECT substr(p.text, t.start + 1, t.end - t.start) FROM transcript_lines t JOIN pages p ON p.id = t.page_id WHERE t.tr_page = 2 AND t.line = 1")" \
	"A.  I see it."
eq "a production is no transcript" "$(sql m "SELECT count(*) FROM documents WHERE kind = 'transcript'")" 1

# Labels can be added alone, later; bad lines fail one by one; re-labelling
# moves a label.
cat > more.csv <<'CSV'
Exhibit 4, ACME0000003
"ECF No. 45",ACME0000007
Ex. 9,NOPE0000001
just one field
Ex. 1,ACME0000004
CSV
run 2 "$SWORN" ingest -m m --labels more.csv
has "$T/out" "failed 2"
has "$T/out" "3 labels"
has "$T/err" "more.csv:3: label 'Ex. 9': no imported document starts at Bates 'NOPE0000001'"
has "$T/err" "more.csv:4: expected 'label,target'"
eq "exhibit 4" "$(sql m "SELECT target FROM labels WHERE norm = 'ex 4'")" "ACME0000003"
eq "ecf 45" "$(sql m "SELECT target FROM labels WHERE norm = 'ecf 45'")" "ACME0000007"
eq "moved" "$(sql m "SELECT target FROM labels WHERE norm = 'ex 1'")" "ACME0000004"

# A label of no letters or digits would collide with every other such
# label; a field after the target is said to be ignored (issue 17, item 15).
cat > odd.csv <<'CSV'
--,ACME0000003
(*),ACME0000007
Ex. 5,ACME0000004,see also Ex. 6
CSV
run 2 "$SWORN" ingest -m m --labels odd.csv
has "$T/err" "odd.csv:1: label '--' has no letters or digits to be cited by"
has "$T/err" "odd.csv:2: label '(*)' has no letters or digits to be cited by"
has "$T/err" "odd.csv:3: label 'Ex. 5': 1 field(s) after the target ignored"
eq "no empty key" "$(sql m "SELECT count(*) FROM labels WHERE norm = ''")" 0
eq "ex 5" "$(sql m "SELECT target FROM labels WHERE norm = 'ex 5'")" "ACME0000004"

run 2 "$SWORN" ingest -m m --labels nosuch.csv
has "$T/err" "nosuch.csv"

# A video deposition saved without form feeds: a running header with the
# page number, time stamps in the margin, the reporter's footer.  Its pages
# are still addressable by page:line, and cites and quotations across the
# page break are checked on the words alone.
mkdir -p video
{
	printf 'JONES, ALEX   VIDEOTAPED DEPOSITION   04-11-2022            Page 7\n'
	for i in $(seq 1 23); do printf '%2d   10:%02d:00   Q.  Filler question %d?\n' "$i" "$i" "$i"; done
	printf '24   10:24:10   A.  We held every credit until the\n'
	printf '25   10:24:15       ship dates were final, and the\n'
	printf '\n              Lakeside Court Reporting, LLC\n'
	printf 'JONES, ALEX   VIDEOTAPED DEPOSITION   04-11-2022            Page 8\n'
	printf ' 1   10:24:20       late delivery credit was never applied.\n'
	for i in $(seq 2 25); do printf '%2d   10:%02d:30   A.  Filler answer %d.\n' "$i" "$((i + 24))" "$i"; done
	printf '\n              Lakeside Court Reporting, LLC\n'
} > video/jones-dep.txt
printf 'Label,Target\r\nJones Dep.,jones-dep.txt\r\n' > video/labels.csv
run 0 "$SWORN" ingest -m m --labels video/labels.csv video
eq "video transcript" "$(sql m "SELECT kind FROM documents WHERE name = 'jones-dep.txt'")" "transcript"
eq "video lines" "$(sql m "SELECT count(*) FROM transcript_lines t JOIN documents d ON d.id = t.doc_id WHERE d.name = 'jones-dep.txt'")" 50
eq "line 8:1 without its time stamp" "$(sql m "SELECT substr(p.text, t.start + 1, t.end - t.start) FROM transcript_lines t JOIN pages p ON p.id = t.page_id JOIN documents d ON d.id = t.doc_id WHERE d.name = 'jones-dep.txt' AND t.tr_page = 8 AND t.line = 1")" \
	"late delivery credit was never applied."
printf 'Jones admitted that "the late delivery credit was never applied." (Jones Dep. 7:25-8:1.) He said "[w]e held every credit until the ship dates were final." (*Id.* at 7:24-25.)\n' > jones.md
run 0 "$SWORN" verify -m m jones.md
has "$T/out" "gate: pass"
has "$T/out" "on Jones Dep. 7:25-8:1"
lacks "$T/out" "Jones Dep. 7:25-8:1 (Jones Dep. 7:25-8:1)"   # named once
printf 'He said "the credit was never applied." (Jones Dep. 8:2-3.) (Jones Dep. 9:1.)\n' > jones-bad.md
run 1 "$SWORN" verify -m m jones-bad.md
has "$T/out" "not found verbatim in the cited lines, Jones Dep. 8:2-3"
has "$T/out" "Jones Dep. (jones-dep.txt) has no page 9"

done_testing
