# The command line contract: help, version, exit codes, one-line errors.
. "$SW_SRC/tests/cli/lib.sh"

run 0 "$SWORN" --version
has "$T/out" "sworn "
run 0 "$SWORN" --help
cp "$T/out" "$T/toplevel"
for c in init matter ingest search help; do
	has "$T/toplevel" "  $c "
	run 0 "$SWORN" "$c" --help
	has "$T/out" "usage: sworn $c"
	has "$T/out" "--help"
done
run 2 "$SWORN" frobnicate
has "$T/err" "'frobnicate' is not a sworn command"
lines "$T/err" 1
run 2 "$SWORN"
run 2 "$SWORN" --bogus
run 2 "$SWORN" -C "$T/nonexistent" matter list
has "$T/err" "cannot change to"

# Outside a workspace: a usage error that names the folder searched from
# (absolute, from a relative -C too) and says what to do.
mkdir "$T/empty"
run 2 "$SWORN" -C "$T/empty" matter list
has "$T/err" "sworn init"
has "$T/err" "pass -C DIR"
has "$T/err" "'$(cd "$T/empty" && pwd -P)'"
lines "$T/err" 1
cd "$T" && run 2 "$SWORN" -C empty verify -m acme draft.md
has "$T/err" "'$(cd "$T/empty" && pwd -P)' or any folder above it"

run 0 "$SWORN" init "$T/ws"
has "$T/out" "created a sworn workspace"
test -f "$T/ws/sworn.conf" && test -d "$T/ws/matters"
eq "workspace files" "$?" 0
run 2 "$SWORN" init "$T/ws"
has "$T/err" "already a sworn workspace"

cd "$T/ws" || exit 1
run 0 "$SWORN" matter list
has "$T/out" "no matters yet"
run 0 "$SWORN" matter new acme
test -f "$T/ws/matters/acme/matter.db" && test -d "$T/ws/matters/acme/files"
eq "matter files" "$?" 0
eq "journal mode" "$(sqlite3 "$T/ws/matters/acme/matter.db" 'PRAGMA journal_mode')" "wal"
eq "schema version" "$(sqlite3 "$T/ws/matters/acme/matter.db" 'PRAGMA user_version')" "11"
run 2 "$SWORN" matter new acme
has "$T/err" "already exists"
run 2 "$SWORN" matter new "../escape"
has "$T/err" "bad matter name"
run 2 "$SWORN" matter new ""
run 2 "$SWORN" matter rename acme
has "$T/err" "usage"

# Commands find the workspace from a folder below it.
mkdir -p "$T/ws/deep/er"
cd "$T/ws/deep/er" || exit 1
run 0 "$SWORN" matter list --json
has "$T/out" '"name": "acme"'
run 2 "$SWORN" ingest -m nosuch "$T"
has "$T/err" "no matter 'nosuch'"
run 2 "$SWORN" ingest "$T"
has "$T/err" "pass -m MATTER"
run 2 "$SWORN" ingest -m acme
has "$T/err" "nothing to import"
run 2 "$SWORN" ingest -m acme --origin robot "$T"
has "$T/err" "bad origin"

# A database from a newer sworn is refused, not damaged.
sqlite3 "$T/ws/matters/acme/matter.db" 'PRAGMA user_version = 99'
run 2 "$SWORN" matter list
has "$T/err" "newer than this sworn"
eq "version kept" "$(sqlite3 "$T/ws/matters/acme/matter.db" 'PRAGMA user_version')" "99"

# Not a database at all.
"$SWORN" matter new junk >/dev/null
printf 'this is not sqlite' > "$T/ws/matters/junk/matter.db"
run 2 "$SWORN" search -m junk hello
lines "$T/err" 1

done_testing
