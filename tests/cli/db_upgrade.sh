# A workspace whose provenance.db and authorities.db were written by the
# code before one SQLite opening helper (base/db.c) existed opens with the
# new: same schema versions, the data kept, nothing migrated twice.  The
# files are made here with the sqlite3 shell from the old code's schema
# text, which set user_version itself.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
"$SWORN" matter new other >/dev/null || exit 1

# provenance.db at version 1, as the old prov_open wrote it.
sqlite3 provenance.db "PRAGMA journal_mode = WAL;" \
	"CREATE TABLE outputs (
	  id INTEGER PRIMARY KEY, matter TEXT NOT NULL, sha256 TEXT NOT NULL,
	  beg_bates TEXT NOT NULL DEFAULT '', name TEXT NOT NULL, doc_id INTEGER,
	  words INTEGER NOT NULL, text_hash INTEGER NOT NULL, nprints INTEGER NOT NULL,
	  created_at TEXT NOT NULL, UNIQUE (matter, sha256, beg_bates));
	CREATE TABLE prints (
	  hash INTEGER NOT NULL,
	  output_id INTEGER NOT NULL REFERENCES outputs (id) ON DELETE CASCADE,
	  PRIMARY KEY (hash, output_id)) WITHOUT ROWID;
	PRAGMA user_version = 1;" >/dev/null || exit 1

words="the buyer rejected the freight because the carrier delivered the goods late and the seller never answered the notice of breach that counsel sent"
for k in 1 2 3; do printf '%s item%d. ' "$words" "$k"; done > draft.md
run 0 "$SWORN" ingest -m other --origin model draft.md
has "$T/out" "imported 1"
eq "outputs" "$(sqlite3 provenance.db 'SELECT count(*) FROM outputs')" 1
eq "provenance version kept" "$(sqlite3 provenance.db 'PRAGMA user_version')" 1
mkdir in
fold -s -w 60 draft.md > in/resaved.txt
run 0 "$SWORN" ingest -m m in
has "$T/out" "quarantined 1"

# authorities.db at version 1 (before sections' texts), and one from before
# versions were counted (user_version 0, tables present).  The rows are
# those an import of the CSV writes, copied into files made the old way.
mkdir "$T/ref"
"$SWORN" init -q "$T/ref" || exit 1
printf 'name,volume,reporter,page,last_page,court,year\r\nBell Atlantic Corp. v. Twombly,550,U.S.,544,570,scotus,2007\r\n' >"$T/cases.csv"
run 0 "$SWORN" -C "$T/ref" authorities import "$T/cases.csv"
rows=$(sqlite3 "$T/ref/authorities.db" ".mode insert cases" "SELECT * FROM cases")
[ -n "$rows" ] || { echo "FAIL: the import wrote no case"; exit 1; }
old_schema="CREATE TABLE IF NOT EXISTS cases (
  id INTEGER PRIMARY KEY, reporter_key TEXT NOT NULL, reporter TEXT NOT NULL,
  volume TEXT NOT NULL, page TEXT NOT NULL, page_num INTEGER, last_page INTEGER,
  name TEXT, court TEXT, year INTEGER, cluster_id INTEGER NOT NULL DEFAULT 0,
  UNIQUE (reporter_key, volume, page, cluster_id));
CREATE INDEX IF NOT EXISTS cases_at ON cases (reporter_key, volume, page_num);
CREATE INDEX IF NOT EXISTS cases_cluster ON cases (cluster_id) WHERE cluster_id <> 0;
CREATE TABLE IF NOT EXISTS cl_clusters (
  id INTEGER PRIMARY KEY, name TEXT, year INTEGER, docket_id INTEGER);
CREATE TABLE IF NOT EXISTS cl_dockets (id INTEGER PRIMARY KEY, court TEXT);
CREATE TABLE IF NOT EXISTS codes (
  code_key TEXT NOT NULL, title TEXT NOT NULL, section TEXT NOT NULL,
  name TEXT, PRIMARY KEY (code_key, title, section)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS texts (
  case_id INTEGER PRIMARY KEY REFERENCES cases (id) ON DELETE CASCADE,
  text TEXT NOT NULL);"
for version in 1 0; do
	rm -f authorities.db authorities.db-wal authorities.db-shm
	sqlite3 authorities.db "$old_schema" "$rows" "PRAGMA user_version = $version;" || exit 1
	run 0 "$SWORN" authorities lookup 550 U.S. 544
	has "$T/out" "Bell Atlantic Corp. v. Twombly"
	eq "authorities version (was $version)" "$(sqlite3 authorities.db 'PRAGMA user_version')" 2
	eq "sections' texts table (was $version)" "$(sqlite3 authorities.db 'SELECT count(*) FROM code_texts')" 0
	eq "cases kept (was $version)" "$(sqlite3 authorities.db 'SELECT count(*) FROM cases')" 1
	run 0 "$SWORN" authorities import "$T/cases.csv"
	eq "no duplicate (was $version)" "$(sqlite3 authorities.db 'SELECT count(*) FROM cases')" 1
done

# A file newer than this sworn is refused, one line, and left as it is.
sqlite3 authorities.db 'PRAGMA user_version = 5'
run 2 "$SWORN" authorities lookup 550 U.S. 544
has "$T/err" "newer than this sworn"
lines "$T/err" 1
eq "version left" "$(sqlite3 authorities.db 'PRAGMA user_version')" 5
sqlite3 provenance.db 'PRAGMA user_version = 3'
printf 'another model output, about the warehouse inspection and its report\n' > draft2.md
run 2 "$SWORN" ingest -m other --origin model draft2.md
has "$T/err" "newer than this sworn"
eq "provenance version left" "$(sqlite3 provenance.db 'PRAGMA user_version')" 3

done_testing
