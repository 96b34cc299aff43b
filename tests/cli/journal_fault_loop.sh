# Fault injection over the run journal's writers, SQLite's way (as
# fault_loop.sh does for ingest, authority import and verify): the Nth
# statement of `sworn run approve` fails (SWORN_FAULT=db-step:N interrupts
# it, db-prepare:N refuses to compile it) for N = 1, 2, ... until N is past
# the last statement; and of `sworn draft`, for every STRIDE-th N (a draft
# runs about 4,000 statements; each try drafts against the fake boards).
# Every failure must be clean (exit 1 or 2, one line "sworn: ...", no
# sanitizer report) and lose nothing: after it, the command again (approve)
# or `run resume` of the run it left (draft) ends as a run that never
# failed: the same run status, the same final or draft text, one
# correction.
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
D="$SW_TEST_DATA/pipeline"
MAX_N=20000
STRIDE=${SW_DRAFT_FAULT_STRIDE:-41}
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

# clean_failure RC WHAT: the failed run's exit status and stderr are clean.
clean_failure() {
	checks=$((checks + 1))
	case $1 in
	1 | 2) ;;
	*)
		echo "FAIL: $2: exit status $1"
		cat "$T/err"
		failures=$((failures + 1))
		return
		;;
	esac
	checks=$((checks + 1))
	# a draft that cannot journal pauses its run and says why (exit 1)
	if [ "$1" = 1 ] && grep -q "^run [0-9]*: paused" "$T/out" &&
		grep -q "sworn run resume" "$T/out" &&
		! grep -q -e 'Sanitizer' -e 'runtime error' -e 'BUG' "$T/err"; then
		return
	fi
	if [ "$(grep -c '^sworn: ' "$T/err")" -lt 1 ] ||
		grep -q -e 'Sanitizer' -e 'runtime error' -e 'BUG' "$T/err"; then
		echo "FAIL: $2: not a clean error (exit $1):"
		cat "$T/err"
		echo "--- its stdout:"
		tail -5 "$T/out"
		failures=$((failures + 1))
	fi
}

same() {
	checks=$((checks + 1))
	if ! cmp -s "$2" "$T/ref.state"; then
		echo "FAIL: $1: the result differs from a run that never failed:"
		diff "$T/ref.state" "$2"
		failures=$((failures + 1))
	fi
}

# loop SITE OP STATE RECOVER STRIDE: run OP (a function taking the
# workspace) from a copy of $T/ws0 with the Nth statement failing at SITE;
# after a failure RECOVER finishes the work; STATE must then equal the
# reference's.
loop() {
	site=$1 op=$2 state=$3 recover=$4 stride=$5
	n=1
	fired=0
	while [ $n -le $MAX_N ]; do
		rm -rf "$T/w" "$T/mark"
		cp -R "$T/ws0" "$T/w"
		SWORN_FAULT=$site:$n SWORN_FAULT_MARK="$T/mark" $op "$T/w" >"$T/out" 2>"$T/err"
		rc=$?
		if [ ! -e "$T/mark" ]; then
			eq "$site:$n run without a fault" "$rc" 0
			break
		fi
		fired=$((fired + 1))
		if [ $rc -ne 0 ]; then
			clean_failure $rc "$op $site:$n"
			$recover "$T/w" >"$T/out" 2>"$T/err"
			eq "$op $site:$n: finished after the failure" "$?" 0
		fi
		$state "$T/w" >"$T/got.state"
		same "$op $site:$n" "$T/got.state"
		n=$((n + stride))
	done
	[ $n -le $MAX_N ] || { echo "FAIL: $site: still failing at N=$MAX_N"; failures=$((failures + 1)); }
	checks=$((checks + 1))
	if [ $fired -lt 5 ]; then
		echo "FAIL: $op $site: the fault fired only $fired times"
		failures=$((failures + 1))
	fi
	echo "$site over $op: $fired statements failed in turn"
}

pipeline_ws
fakes "$T/a.ini" "$T/b-fixes.ini"
cd "$T" || exit 1

# ------------------------------------------------------- sworn draft
draft_state() {
	sqlite3 "$1/matters/acme/matter.db" \
		"SELECT count(*), group_concat(status) FROM runs; PRAGMA integrity_check;"
	"$SWORN" -C "$1" run show 1 -m acme --draft 2>&1
}
draft() { "$SWORN" -C "$1" draft -m acme --task declaration --brief "$1/brief.md"; }
# After a failure: the run it left, resumed; or, when none was journaled,
# the draft again.
draft_again() {
	if [ "$(sqlite3 "$1/matters/acme/matter.db" 'SELECT count(*) FROM runs')" = 1 ]; then
		"$SWORN" -C "$1" run resume 1 -m acme
	else
		draft "$1"
	fi
}
cp -R ws ws0
cp -R ws0 ref
run 0 draft "$T/ref"
has "$T/out" "run 1: verified"
draft_state "$T/ref" >"$T/ref.state"
has "$T/ref.state" "verified"
loop db-step draft draft_state draft_again "$STRIDE"

# -------------------------------------------------- sworn run approve
rm -rf ws0
cp -R ref ws0
"$SWORN" -C ws0 run show 1 -m acme --draft >final.md
printf '\nExecuted with care.\n' >>final.md
approve_state() {
	sqlite3 "$1/matters/acme/matter.db" \
		"SELECT status, final_path IS NOT NULL FROM runs;
		 SELECT count(*), group_concat(words_added) FROM corrections;
		 SELECT count(*) FROM documents WHERE origin = 'human';
		 PRAGMA integrity_check;"
	cat "$1/matters/acme/finals/run-1-final.md" 2>&1
}
approve() { "$SWORN" -C "$1" run approve 1 -m acme --final "$T/final.md" --by "Ann Lee"; }
rm -rf ref
cp -R ws0 ref
run 0 approve "$T/ref"
has "$T/out" "approved"
approve_state "$T/ref" >"$T/ref.state"
has "$T/ref.state" "approved|1"
loop db-step approve approve_state approve 1
loop db-prepare approve approve_state approve 1
done_testing
