#!/bin/sh
# Fault injection over `sworn ask` against the fake llama-server, SQLite's
# way: the Nth HTTP transfer of the call fails, for N = 1, 2, ... until N is
# past the call's last transfer (SWORN_FAULT_MARK tells whether the fault
# fired).  SWORN_FAULT=http:N resets the connection before any byte of the
# answer, http-mid:N breaks it after the first KiB of the body.  Every
# failure must be clean: a non-zero exit, one error line "sworn: ..." that
# names the endpoint (a streamed answer cut short may add its timings
# line), no sanitizer report, nothing in llm-speed.log, and no fallback to
# anything that is not local.  The run after it answers as one that never
# failed.
#
# Like llm_commands.sh it runs inside a network namespace with only
# loopback, so a broken policy could not reach a network; without one it
# says so loudly and exits 77 (skipped).
if [ -z "${SW_IN_NETNS:-}" ]; then
	if command -v unshare >/dev/null 2>&1 && command -v ip >/dev/null 2>&1 &&
		unshare -n true 2>/dev/null; then
		SW_IN_NETNS=1 exec unshare -n sh -c 'ip link set lo up && exec sh "$0"' "$0"
	fi
	echo "***************************************************************"
	echo "*** SKIPPED: tests/cli/llm_fault_loop.sh needs 'unshare -n' and ip(8)"
	echo "*** to isolate the network; THESE TESTS DID NOT RUN."
	echo "***************************************************************"
	exit 77
fi
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
MAX_N=50

# start_fake NAME ARGS...: a fake llama-server on a free port; its pid in
# $fake_pid, its port in $fake_port.
start_fake() {
	name=$1
	shift
	rm -f "$T/$name.port"
	"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/$name.port" -a fake-qwen -c 8192 -np 2 \
		--fake-log "$T/$name.requests" "$@" 2>"$T/$name.err" &
	fake_pid=$!
	i=0
	while [ ! -s "$T/$name.port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	fake_port=$(cat "$T/$name.port")
}
start_fake main --fake-endless
main_pid=$fake_pid
main_port=$fake_port
busy_pid=
trap 'kill $main_pid $busy_pid 2>/dev/null; rm -rf "$T"' EXIT

"$SWORN" init -q "$T/ws" || exit 1
cat >>"$T/ws/sworn.conf" <<CONF
[endpoint "board-a"]
url = http://127.0.0.1:$main_port
[endpoint "board-b"]
url = http://127.0.0.1:$main_port
[endpoint "cloud"]
url = http://198.51.100.9:$main_port
[role "drafter"]
endpoint = board-a
max_tokens = 40
[role "guarded"]
endpoint = board-a
fallback = cloud
max_tokens = 40
[role "spare"]
endpoint = board-a
fallback = board-b
max_tokens = 40
CONF
cd "$T/ws" || exit 1
# same_answer WHAT: $T/out answers as $T/ref.out (of JSON, the content).
same_answer() {
	checks=$((checks + 1))
	if [ "$(grep -F -e '"content":' "$T/out" || cat "$T/out")" != \
		"$(grep -F -e '"content":' "$T/ref.out" || cat "$T/ref.out")" ]; then
		echo "FAIL: $1: another answer than a run that never failed:"
		cat "$T/out"
		failures=$((failures + 1))
	fi
}
speed_lines() { if [ -e llm-speed.log ]; then wc -l <llm-speed.log | tr -d ' '; else echo 0; fi; }

# A long enough answer that http-mid cuts a stream in its middle.
run 0 "$SWORN" ask drafter Say hello
cp "$T/out" "$T/ref.stream"
has "$T/ref.stream" "lorem ipsum dolor sit amet"
checks=$((checks + 1))
[ "$(wc -c <"$T/ref.stream")" -gt 100 ] || { echo "FAIL: the answer is too short"; failures=$((failures + 1)); }

# clean_error SITE N ENDPOINT: stderr is one error line naming ENDPOINT,
# plus at most the timings line of a streamed answer cut short.
clean_error() {
	checks=$((checks + 1))
	errs=$(grep -v "^sworn: $3 · " "$T/err")
	if [ "$(printf '%s\n' "$errs" | grep -c "^sworn: .*endpoint '$3'")" != 1 ] ||
		printf '%s\n' "$errs" | grep -v "^sworn: .*endpoint '$3'" | grep -q . ||
		grep -q -e 'Sanitizer' -e 'runtime error' -e 'BUG' "$T/err"; then
		echo "FAIL: $1:$2: not one clean error line naming '$3':"
		cat "$T/err"
		failures=$((failures + 1))
	fi
	checks=$((checks + 1))
	if grep -q "^sworn: $3 · " "$T/err" && [ ! -s "$T/out" ]; then
		echo "FAIL: $1:$2: timings of an answer that showed nothing"
		cat "$T/err"
		failures=$((failures + 1))
	fi
}

# aloop SITE WANT ROLE ASK-ARGS...: `sworn ask ROLE ARGS` with the Nth
# transfer failing at SITE.  WANT is how a fired fault must end: "error"
# (a clean failure naming board-a), "refused" (the fallback to the public
# endpoint refused: nothing but local is tried) or "fallback" (the local
# fallback answers in full).
aloop() {
	site=$1 want=$2 role=$3
	shift 3
	"$SWORN" ask "$role" "$@" >"$T/ref.out" 2>"$T/err" || { echo "FAIL: $role $*: no reference"; failures=$((failures + 1)); }
	n=1
	fired=0
	while [ $n -le $MAX_N ]; do
		rm -f "$T/mark"
		before=$(speed_lines)
		SWORN_FAULT=$site:$n SWORN_FAULT_MARK="$T/mark" "$SWORN" ask "$role" "$@" >"$T/out" 2>"$T/err"
		rc=$?
		if [ ! -e "$T/mark" ]; then
			eq "ask $site:$n run without a fault" "$rc" 0
			same_answer "ask $role $site:$n run without a fault"
			break
		fi
		fired=$((fired + 1))
		case $want in
		error)
			checks=$((checks + 1))
			[ $rc -ne 0 ] || { echo "FAIL: ask $role $site:$n: exit 0"; failures=$((failures + 1)); }
			clean_error "ask $role $site" $n board-a
			eq "ask $role $site:$n: llm-speed.log lines" "$(speed_lines)" "$before"
			lacks "$T/err" "fallback"
			;;
		refused)
			checks=$((checks + 1))
			[ $rc -ne 0 ] || { echo "FAIL: ask $role $site:$n: exit 0"; failures=$((failures + 1)); }
			clean_error "ask $role $site" $n board-a
			eq "ask $role $site:$n: llm-speed.log lines" "$(speed_lines)" "$before"
			if [ -s "$T/out" ]; then
				# Text was shown: no fallback may follow.
				lacks "$T/err" "then fallback"
			else
				has "$T/err" "then fallback: endpoint 'cloud' refused"
				has "$T/err" "must be local"
			fi
			;;
		fallback)
			if [ $rc -eq 0 ]; then
				has "$T/err" "sworn: board-b (fallback)"
				same_answer "ask $role $site:$n: the fallback's answer"
				eq "ask $role $site:$n: llm-speed.log lines" "$(speed_lines)" "$((before + 1))"
			else
				# Only an answer already under way may end without one.
				checks=$((checks + 1))
				[ -s "$T/out" ] || { echo "FAIL: ask $role $site:$n: no fallback before any text"; cat "$T/err"; failures=$((failures + 1)); }
				clean_error "ask $role $site" $n board-a
				eq "ask $role $site:$n: llm-speed.log lines" "$(speed_lines)" "$before"
			fi
			;;
		esac
		# The next run is an ordinary one.
		before=$(speed_lines)
		"$SWORN" ask "$role" "$@" >"$T/out" 2>"$T/err"
		eq "ask $role $site:$n: the run after the failure" "$?" 0
		same_answer "ask $role $site:$n: the run after the failure"
		eq "ask $role $site:$n: the run after logs its speed" "$(speed_lines)" "$((before + 1))"
		n=$((n + 1))
	done
	[ $n -le $MAX_N ] || { echo "FAIL: $site: still failing at N=$MAX_N"; failures=$((failures + 1)); }
	checks=$((checks + 1))
	[ $fired -ge 1 ] || { echo "FAIL: ask $role $* $site: the fault never fired"; failures=$((failures + 1)); }
	echo "$site over ask $role $*: $fired transfers failed in turn"
}

for site in http http-mid; do
	aloop $site error drafter Say hello
	aloop $site error drafter --no-stream Say hello
	aloop $site error drafter --json Say hello
	aloop $site refused guarded Say hello
	aloop $site fallback spare Say hello
done
# The streamed cut shows text first: the part shown is the answer's start.
SWORN_FAULT=http-mid:1 "$SWORN" ask drafter Say hello >"$T/out" 2>"$T/err"
has "$T/out" " lorem ipsum dolor"
checks=$((checks + 1))
[ "$(wc -c <"$T/out")" -lt "$(wc -c <"$T/ref.stream")" ] || { echo "FAIL: http-mid did not cut the stream"; failures=$((failures + 1)); }
has "$T/err" "sworn: endpoint 'board-a': the connection broke mid-answer"
SWORN_FAULT=http:1 "$SWORN" ask drafter Say hello >"$T/out" 2>"$T/err"
has "$T/err" "sworn: endpoint 'board-a': the connection broke before an answer"

# A server that answers 503 (loading) first: the retry is the second
# transfer of the call, and the loop reaches it.
start_fake busy --fake-loading-requests 1
busy_pid=$fake_pid
sed -i "s|127.0.0.1:$main_port|127.0.0.1:$fake_port|" sworn.conf
kill $main_pid 2>/dev/null
main_pid=
for site in http http-mid; do
	n=1
	while [ $n -le 5 ]; do
		rm -f "$T/mark"
		kill $busy_pid 2>/dev/null
		wait $busy_pid 2>/dev/null
		start_fake busy --fake-loading-requests 1
		busy_pid=$fake_pid
		sed -i "s|127.0.0.1:[0-9]*|127.0.0.1:$fake_port|" sworn.conf
		SWORN_FAULT=$site:$n SWORN_FAULT_MARK="$T/mark" "$SWORN" ask drafter Say hello >"$T/out" 2>"$T/err"
		rc=$?
		[ -e "$T/mark" ] || break
		checks=$((checks + 1))
		[ $rc -ne 0 ] || { echo "FAIL: ask after 503 $site:$n: exit 0"; failures=$((failures + 1)); }
		clean_error "ask after 503 $site" $n board-a
		n=$((n + 1))
	done
	eq "ask after 503 $site:$n: run without a fault" "$rc" 0
	eq "ask after 503 $site: transfers failed in turn" "$n" 3
	echo "$site over ask after a 503: $((n - 1)) transfers failed in turn"
done

done_testing
