# Helpers for the black-box tests of the sworn binary.  Each test script
# sources this file; $SWORN is the binary under test (set by CTest).
set -u
: "${SWORN:?set SWORN to the sworn binary}"
# Files the tests write are the user's alone, as sworn wants a workspace's
# sworn.conf (a umask of 002 would make it group-writable, and refused).
umask 022
T=$(mktemp -d "${TMPDIR:-/tmp}/sworn-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
failures=0
checks=0

# run RC CMD...: run a command, keep stdout in $T/out and stderr in $T/err,
# and check its exit status.  A test that sets transcript to a file gets
# every command's output appended there too (to print it all on a failure).
run() {
	want=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	[ -z "${transcript:-}" ] ||
		{ echo "\$ $* (exit $got)"; cat "$T/out" "$T/err"; } >>"$transcript"
	checks=$((checks + 1))
	if [ "$got" != "$want" ]; then
		echo "FAIL: '$*' exited $got, expected $want"
		echo "--- stdout"; cat "$T/out"; echo "--- stderr"; cat "$T/err"
		failures=$((failures + 1))
	fi
}

# has FILE TEXT: FILE ($T/out or $T/err) contains TEXT (fixed string).
has() {
	checks=$((checks + 1))
	if ! grep -qF -- "$2" "$1"; then
		echo "FAIL: $(basename "$1") lacks '$2'"
		cat "$1"
		failures=$((failures + 1))
	fi
}

lacks() {
	checks=$((checks + 1))
	if grep -qF -- "$2" "$1"; then
		echo "FAIL: $(basename "$1") has '$2'"
		cat "$1"
		failures=$((failures + 1))
	fi
}

# eq WHAT GOT WANT
eq() {
	checks=$((checks + 1))
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: got '$2', expected '$3'"
		failures=$((failures + 1))
	fi
}

# lines FILE N: FILE has exactly N lines.
lines() {
	eq "lines of $(basename "$1")" "$(wc -l <"$1" | tr -d ' ')" "$2"
}

# sql MATTER QUERY: a value from a matter's database.
sql() {
	sqlite3 "$T/ws/matters/$1/matter.db" "$2"
}

# sql_only MATTER TABLE...: drop every table and view of the matter's
# database but the named ones (and the full-text index's own), as an older
# build that had only those left it.
sql_only() {
	_db="$T/ws/matters/$1/matter.db"
	shift
	_keep=$(printf "'%s'," "$@")
	sqlite3 "$_db" "SELECT 'DROP ' || upper(type) || ' ' || name || ';' FROM sqlite_schema
		WHERE type IN ('table', 'view') AND name NOT IN (${_keep%,})
		AND name NOT LIKE 'pages_fts%' AND name NOT LIKE 'sqlite_%'" | sqlite3 "$_db"
}

# old_matter MATTER VERSION [TABLE...]: take the matter's database back to what a
# build of record schema VERSION (5 to 8) left: record/'s tables of then,
# and the run journal's tables and columns as record/'s migrations made
# them before pipeline/ owned them (draft_edits from 6, run_steps.host
# from 7, the metadata fields from 8), nothing newer; the TABLEs named
# (a test's own) are kept.
old_matter() {
	_v8="documents pages transcript_lines labels quarantine settings removals doc_fields
		doc_terms runs run_steps run_sections run_flags corrections draft_edits"
	_runs="id task task_sha256 task_source brief_name brief brief_doc_id rounds status reason
		pid draft_doc_id final_doc_id final_path created_at updated_at wall_s"
	_run_steps="id run_id key step kind item round role endpoint model status prompt_sha256
		messages output output_doc_id error prompt_tokens completion_tokens prompt_per_s
		predicted_per_s started_at finished_at wall_s attempts detail host"
	_corrections="id run_id step_key messages draft final draft_doc_id final_doc_id diff
		words_kept words_changed words_added words_removed override overridden created_at"
	_m=$1 _ver=$2
	shift 2
	# shellcheck disable=SC2086 # lists of names
	sql_only "$_m" $_v8 "$@"
	set -- "$_m" "$_ver"
	for _t in runs run_steps corrections; do
		eval "_cols=\$_$_t"
		for _c in $(sql "$1" "SELECT name FROM pragma_table_info('$_t')"); do
			# shellcheck disable=SC2086
			case " $(echo $_cols) " in
			*" $_c "*) ;;
			*) sql "$1" "ALTER TABLE $_t DROP COLUMN $_c" || return 1 ;;
			esac
		done
	done
	[ "$2" -lt 8 ] && sql "$1" "DROP TABLE doc_terms; DROP TABLE doc_fields;"
	[ "$2" -lt 7 ] && sql "$1" "ALTER TABLE run_steps DROP COLUMN host;"
	[ "$2" -lt 6 ] && sql "$1" "DROP TABLE draft_edits;"
	sql "$1" "PRAGMA user_version = $2;"
}

# fleet_fixtures DIR: the header-only model files of fleet_gguf_test (of
# the same build) written into DIR.
fleet_fixtures() {
	fixtures=$(dirname "$SWORN")/tests/fleet_gguf_test
	if [ ! -x "$fixtures" ]; then
		echo "FAIL: $fixtures not built (build the whole project)"
		exit 1
	fi
	mkdir -p "$1"
	"$fixtures" --write "$1" >/dev/null || exit 1
}

# drafter_on_fake PORTFILE: wait (up to 10 s) for a llama-server test
# double started with --fake-port-file PORTFILE, then give sworn.conf an
# endpoint "local" at its port and the drafter role on it (the role's
# section comes last, so lines appended after it are the role's).
drafter_on_fake() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -s "$1" ] || { echo "FAIL: the test double wrote no port to $1"; exit 1; }
	printf '[endpoint "local"]\nurl = http://127.0.0.1:%s\n[role "drafter"]\nendpoint = local\n' \
		"$(cat "$1")" >>sworn.conf
}

# A fresh workspace in $T/ws with the matter m.
new_workspace() {
	rm -rf "$T/ws"
	"$SWORN" init -q "$T/ws" || exit 1
	"$SWORN" -C "$T/ws" matter new m >/dev/null || exit 1
}

# dat_row SEP QUAL FIELD...: one load-file row (CRLF) on stdout.  SEP and
# QUAL take printf escapes; fields are written as they are.
dat_row() {
	sep=$1 qual=$2
	shift 2
	first=1
	for f in "$@"; do
		[ $first -eq 1 ] || printf '%b' "$sep"
		printf '%b%s%b' "$qual" "$f" "$qual"
		first=0
	done
	printf '\r\n'
}
UTF8_THORN='\303\276'
LATIN1_THORN='\376'
DC4='\024'

done_testing() {
	echo "$checks checks, $failures failed"
	[ "$failures" -eq 0 ]
	exit $?
}

# Two fake llama-servers for the pipeline's tests (scripted stand-ins, not
# language models): board-a serves the drafter, board-b the reviewer and
# the reasoner.  boards_conf [SLOTS-A]: their endpoints and roles appended
# to $T/ws/sworn.conf.  fakes SCRIPT-A SCRIPT-B [FLAGS-B...]: (re)start both
# (FAKE_A_FLAGS: more flags for board-a) and point sworn.conf at them; the
# caller's EXIT trap kills $pids.
pids=""
boards_conf() {
	cat >>"$T/ws/sworn.conf" <<CONF
[endpoint "board-a"]
url = http://127.0.0.1:1
${1:+slots = $1}
[endpoint "board-b"]
url = http://127.0.0.1:1
slots = 2
[role "drafter"]
endpoint = board-a
[role "reviewer"]
endpoint = board-b
[role "reasoner"]
endpoint = board-b
CONF
}

# pipeline_ws [DRAFT]: the drafting tests' workspace: $T/ws with the two
# boards (boards_conf), matter acme (acme-mini ingested) and brief.md, the
# current folder; $T/a.ini has board-a draft DRAFT (default: a draft that
# invents a Bates number and a date), $T/b-fixes.ini has board-b review it
# and revise it into the fixed draft, $T/b-never.ini revise it into the
# invented one again.  The caller starts them with fakes.
pipeline_ws() {
	_pd="$SW_TEST_DATA/pipeline"
	"$SWORN" init -q "$T/ws" || exit 1
	boards_conf
	cd "$T/ws" || exit 1
	"$SWORN" matter new acme >/dev/null || exit 1
	"$SWORN" ingest -m acme "$SW_TEST_DATA/acme-mini" >/dev/null 2>&1 || exit 1
	cp "$_pd/brief.md" brief.md
	printf '[answer "draft"]\nfile = %s\n' "${1:-$_pd/draft-invented.md}" >"$T/a.ini"
	cat >"$T/b-fixes.ini" <<INI
[answer "review"]
match = opposing counsel's most careful associate
file = $_pd/review.json
[answer "revise"]
match = Revise the declaration
file = $_pd/draft-fixed.md
INI
	sed "s|draft-fixed.md|draft-invented.md|" "$T/b-fixes.ini" >"$T/b-never.ini"
}

fakes() {
	for p in $pids; do kill $p 2>/dev/null; wait $p 2>/dev/null; done
	pids=""
	a=$1 b=$2
	shift 2
	rm -f "$T/pa" "$T/pb" "$T/reqa" "$T/reqb"
	# shellcheck disable=SC2086 # FAKE_A_FLAGS is a list of flags
	"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/pa" --fake-script "$a" \
		--fake-log "$T/reqa" -a fake-drafter-35b ${FAKE_A_FLAGS:-} 2>"$T/fa.err" &
	pids="$pids $!"
	"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/pb" --fake-script "$b" \
		--fake-log "$T/reqb" -a fake-reasoner-122b -np 2 "$@" 2>"$T/fb.err" &
	pids="$pids $!"
	i=0
	while { [ ! -s "$T/pa" ] || [ ! -s "$T/pb" ]; } && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	sed -i "/^\[endpoint \"board-a\"\]/{n;s|^url = .*|url = http://127.0.0.1:$(cat "$T/pa")|}" \
		"$T/ws/sworn.conf"
	sed -i "/^\[endpoint \"board-b\"\]/{n;s|^url = .*|url = http://127.0.0.1:$(cat "$T/pb")|}" \
		"$T/ws/sworn.conf"
}
