# Full-text search from the command line.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
printf 'The plaintiff sued under 42 U.S.C. \302\247 1983 for damages.\n\nZED-0000042\n\fUnrelated page about lunch.\n\nZED-0000043\n' > a.txt
printf 'A draft that mentions damages twice: damages.\n' > draft.txt
run 0 "$SWORN" ingest -m m a.txt
run 0 "$SWORN" ingest -m m --origin model draft.txt

run 0 "$SWORN" search -m m "§ 1983"
has "$T/out" "ZED-0000042"
# Hits are marked so that no Bluebook alteration ("[t]he") reads as one.
has "$T/out" "⟦§⟧ ⟦1983⟧"
lacks "$T/out" "[§]"
run 0 "$SWORN" --color=always search -m m "§ 1983"
has "$T/out" "$(printf '\033[1;4m1983\033[0m')"
run 0 "$SWORN" search --color=never -m m "§ 1983"
lacks "$T/out" "$(printf '\033[')"
run 2 "$SWORN" search --color=sometimes -m m "§ 1983"
has "$T/err" "give auto, always or never"
run 0 "$SWORN" search -m m --json "§ 1983"
python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))["hits"][0]
marked = [h["snippet"].encode()[a:b].decode() for a, b in h["marks"]]
assert marked == ["§", "1983"], marked
' "$T/out" || { echo "FAIL: --json marks"; failures=$((failures + 1)); }
for q in ZED-0000042 ZED0000042 0000042; do
	run 0 "$SWORN" search -m m "$q"
	has "$T/out" "a.txt p.1"
done
run 0 "$SWORN" search -m m --json DAMAGES
has "$T/out" '"bates": "ZED-0000042"'
has "$T/out" '"page": 1'
lacks "$T/out" "draft.txt"          # a model's text is not evidence
run 0 "$SWORN" search -m m --all damages
has "$T/out" "draft.txt"
has "$T/out" "origin: model"
run 1 "$SWORN" search -m m nonexistentword
has "$T/err" "no hits"
run 1 "$SWORN" --quiet search -m m nonexistentword
lines "$T/err" 0
run 2 "$SWORN" search -m nope nonexistentword
has "$T/err" "no matter 'nope'"
run 0 "$SWORN" search -m m --fts 'lunch OR plaintiff'
has "$T/out" "p.2"
run 2 "$SWORN" search -m m --fts 'lunch AND ('
has "$T/err" "bad search query"
lines "$T/err" 1
run 2 "$SWORN" search -m m --limit 0 lunch
run 0 "$SWORN" search -m m -n 1 --all damages
eq "one hit" "$(grep -c 'p\.' "$T/out")" 1

# A production whose pages are numbered only by the load file, and a
# deposition: hits show the Bates number in any spelling, and transcript
# hits as the transcript is cited.
cp -r "$SW_TEST_DATA/acme-mini" acme
run 0 "$SWORN" ingest -m m --labels acme/labels.csv acme
for q in ACME0000002 ACME-0000002 'ACME 0000002' acme_0000002 ACME-002; do
	run 0 "$SWORN" search -m m "$q"
	has "$T/out" "ACME0000002"
done
run 0 "$SWORN" search -m m 'ACME0000001–ACME0000003'
eq "range" "$(grep -c 'ACME000000[123] ' "$T/out")" 3
run 0 "$SWORN" search -m m --json 'ACME-0000002'
has "$T/out" '"bates": "ACME0000002"'
has "$T/out" '"cite": null'
run 0 "$SWORN" search -m m "late-delivery credit"
has "$T/out" "Smith Dep. 1:13"
lacks "$T/out" "smith-dep.txt p.1"
run 0 "$SWORN" search -m m --json "Brightline Logistics"
has "$T/out" '"cite": "Smith Dep. 1:4"'

# A word is ranked in one pass; where a rounded tie could make its order
# unknown there (forced here), ORDER BY sw_rank ranks it: the same hits.
for q in the delivery '"late delivery"'; do
	run 0 "$SWORN" search -m m --all --json -n 50 "$q"
	cp "$T/out" "$T/one-pass.json"
	rm -f "$T/fired"
	export SWORN_FAULT=rank-tie:1 SWORN_FAULT_MARK="$T/fired"
	run 0 "$SWORN" search -m m --all --json -n 50 "$q"
	unset SWORN_FAULT SWORN_FAULT_MARK
	eq "rank-tie fired for $q" "$(test -e "$T/fired" && echo yes)" yes
	eq "same hits for $q" "$(cmp -s "$T/one-pass.json" "$T/out" && echo same)" same
	has "$T/out" '"doc_id"'
done

done_testing
