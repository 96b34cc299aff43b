# The run journal's tables belong to pipeline/ and migrate under their own
# owner ("journal" in schema_versions).  Older builds made them through
# record/'s migrations: a matter.db from each released shape (user_version
# 4-5: runs without draft_edits or step hosts; 6: draft_edits; 7-8: all of
# them, no record_docs view) opens, is adopted at the version its tables
# reach, and upgrades with every row kept.  Also: a journal newer than this
# sworn is refused with a clear line, and nothing is written.
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
D="$SW_TEST_DATA/pipeline"
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

pipeline_ws "$D/draft-fixed.md"
journal_version=$(sql acme "SELECT version FROM schema_versions WHERE owner = 'journal'")
case $journal_version in
[3-9] | [1-9][0-9]) ;;
*) echo "FAIL: a new matter's journal is at version '$journal_version'"; exit 1 ;;
esac
eq "record_docs" "$(sql acme "SELECT count(*) FROM record_docs")" \
	"$(sql acme "SELECT count(*) FROM documents")"

fakes "$T/a.ini" "$T/b-fixes.ini"
run 0 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/out" "run 1: verified"
steps=$(sql acme "SELECT count(*) FROM run_steps")
cp matters/acme/matter.db "$T/current.db"
record_version=$(sql acme 'PRAGMA user_version')

old() {
	cp "$T/current.db" matters/acme/matter.db
	rm -f matters/acme/matter.db-wal matters/acme/matter.db-shm
	old_matter acme "$1" || exit 1
}
check() {
	run 0 "$SWORN" run list -m acme
	has "$T/out" "verified"
	eq "$1: journal version" \
		"$(sql acme "SELECT version FROM schema_versions WHERE owner = 'journal'")" "$journal_version"
	eq "$1: record version" "$(sql acme 'PRAGMA user_version')" "$record_version"
	eq "$1: steps kept" "$(sql acme 'SELECT count(*) FROM run_steps')" "$steps"
	eq "$1: host column" \
		"$(sql acme "SELECT count(*) FROM pragma_table_info('run_steps') WHERE name = 'host'")" 1
	eq "$1: draft_edits" \
		"$(sql acme "SELECT count(*) FROM sqlite_schema WHERE name = 'draft_edits'")" 1
	run 0 "$SWORN" run show 1 -m acme --json
	has "$T/out" '"status": "verified"'
	run 0 "$SWORN" run context 1 -m acme
	eq "$1: integrity" "$(sql acme 'PRAGMA integrity_check')" "ok"
}

old 8
check "schema 8"
old 7
check "schema 7"
old 6
check "schema 6"
old 5
check "schema 5"

# A journal newer than this sworn: refused, the file left as it is.
cp "$T/current.db" matters/acme/matter.db
sql acme "UPDATE schema_versions SET version = 99 WHERE owner = 'journal'"
run 2 "$SWORN" run list -m acme
has "$T/err" "newer than this sworn"
eq "left as it was" "$(sql acme "SELECT version FROM schema_versions WHERE owner = 'journal'")" 99
done_testing
