# A .DAT whose lines end in CR alone (classic Mac OS exporters), LF or CRLF
# gives the same documents with their Bates numbers (issue 41); a load file
# that yields no document rows is an error naming it, never dropped in
# silence with its texts coming in loose.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1

q=$UTF8_THORN
# volume NAME EOL: a volume of two documents whose DAT lines end with EOL.
volume() {
	mkdir -p "$1/DATA" "$1/TEXT"
	{
		dat_row "$DC4" "$q" BEGBATES ENDBATES TEXTPATH
		dat_row "$DC4" "$q" "$1-0001" "$1-0002" "TEXT\\$1-0001.txt"
		dat_row "$DC4" "$q" "$1-0003" "$1-0003" "TEXT\\$1-0003.txt"
	} | case $2 in
		cr) tr -d '\n' ;;
		lf) tr -d '\r' ;;
		*) cat ;;
	esac > "$1/DATA/$1.DAT"
	printf 'first page of %s\fsecond page\n' "$1" > "$1/TEXT/$1-0001.txt"
	printf 'the letter of %s\n' "$1" > "$1/TEXT/$1-0003.txt"
}
volume MAC cr
volume UNX lf
volume WIN crlf
eq "the CR-only DAT has no LF" "$(tr -cd '\n' < MAC/DATA/MAC.DAT | wc -c | tr -d ' ')" 0

for v in MAC UNX WIN; do
	run 0 "$SWORN" ingest -m m $v
	has "$T/out" "imported 2, skipped 0, failed 0 (3 pages"
	eq "$v: Bates from the load file" \
		"$(sql m "SELECT group_concat(beg_bates || '..' || end_bates, ' ') FROM (SELECT beg_bates, end_bates FROM documents WHERE beg_bates LIKE '$v-%' ORDER BY id)")" \
		"$v-0001..$v-0002 $v-0003..$v-0003"
	eq "$v: no loose text" "$(sql m "SELECT count(*) FROM documents WHERE name LIKE '%.txt'")" 0
done

# A header and nothing else (CR-only or not): one line naming the file, exit 2.
mkdir -p EMPTY/DATA
printf 'BEGBATES,ENDBATES,TEXTPATH\r' > EMPTY/DATA/EMPTY.DAT
run 2 "$SWORN" ingest -m m EMPTY
has "$T/err" "EMPTY/DATA/EMPTY.DAT: the load file has a header row and no document rows"
has "$T/out" "failed 1"

done_testing
