# The .OPT is found where vendors put it (issue 41): beside the .DAT in
# DATA/, in IMAGES/ beside DATA/, or at the volume's root; the import says
# which one it used when it is not beside the .DAT (the QC report names
# it always), and its pages keep the .OPT's Bates numbers.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
q=$UTF8_THORN

# volume NAME WHERE: a volume whose .OPT is in WHERE (a folder of it, or
# "." for its root); one document of two pages with no ENDBATES, so that
# only the .OPT gives its second page.
volume() {
	mkdir -p "$1/DATA" "$1/TEXT" "$1/IMAGES/IMG001"
	{
		dat_row "$DC4" "$q" BEGBATES TEXTPATH
		dat_row "$DC4" "$q" "$1-0001" "TEXT\\$1-0001.txt"
	} > "$1/DATA/$1.DAT"
	printf 'first page of %s\fsecond page of %s\n' "$1" "$1" > "$1/TEXT/$1-0001.txt"
	for i in 1 2; do printf 'II*\0' > "$1/IMAGES/IMG001/$1-000$i.tif"; done
	{
		printf '%s-0001,%s,IMAGES\\IMG001\\%s-0001.tif,Y,,,2\r\n' "$1" "$1" "$1"
		printf '%s-0002,%s,IMAGES\\IMG001\\%s-0002.tif,,,,\r\n' "$1" "$1" "$1"
	} > "$1/$2/$1.OPT"
}

for place in DATA:DATA IMG:IMAGES TOP:. ; do
	v=${place%%:*} where=${place#*:}
	volume $v "$where"
	run 0 "$SWORN" ingest -m m $v
	has "$T/out" "imported 1, skipped 0, failed 0 (2 pages"
	case $where in
	.) opt=$v/$v.OPT ;;
	*) opt=$v/$where/$v.OPT ;;
	esac
	if [ $where = DATA ]; then
		lacks "$T/err" "note"
	else
		has "$T/err" "note     $v/DATA/$v.DAT: page images and their Bates numbers from $opt"
	fi
	lacks "$T/err" "an .OPT without a .DAT"
	eq "$v: pages from the .OPT" \
		"$(sql m "SELECT group_concat(p.bates || ':' || p.bates_source, ' ') FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = '$v-0001'")" \
		"$v-0001:opt $v-0002:opt"
	run 0 "$SWORN" matter qc -m m $v --json
	eq "$v: the report names it" "$(jq -r '.volumes[0].opt' "$T/out")" "$opt"
	eq "$v: images found" "$(jq -r '.volumes[0].totals.images' "$T/out")" 2
done

done_testing
