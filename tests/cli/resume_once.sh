# One run, one runner (issue 41, item 7): two `sworn run resume` of one
# paused run at once.  The first is held, by the fault seam, right after
# it has read the run as paused; the second resumes it to the end; the
# first, released, must then find the run taken (a compare-and-set on the
# journal's row) and refuse with what happened, instead of running the
# remaining steps again and asking the model twice.  Fake llama-servers:
# board-a drafts, board-b reviews and revises (and dies once mid-answer,
# which pauses the run).
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
D="$SW_TEST_DATA/pipeline"
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

chats() {
	grep -F '"path":"/v1/chat/completions"' "$1" 2>/dev/null | grep -cF -- "${2:-}"
}

pipeline_ws
printf '[answer "dies"]\nseq = 2\nmode = error-mid\n' | cat - "$T/b-fixes.ini" >"$T/b-dies.ini"

fakes "$T/a.ini" "$T/b-dies.ini"
run 1 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/out" "run 1: paused"
fakes "$T/a.ini" "$T/b-fixes.ini"

# A reads the run as paused and is held there.
SWORN_FAULT=resume-read:1:pause SWORN_FAULT_MARK="$T/mark" SWORN_FAULT_RELEASE="$T/release" \
	"$SWORN" run resume 1 -m acme >"$T/a.out" 2>"$T/a.err" &
apid=$!
pids="$pids $apid"
i=0
while [ ! -e "$T/mark" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
eq "A held after reading the run" "$([ -e "$T/mark" ] && echo yes)" yes
eq "A read it paused" "$(sql acme 'SELECT status FROM runs WHERE id = 1')" paused
# B resumes it to the end meanwhile.
run 0 "$SWORN" run resume 1 -m acme
has "$T/out" "run 1: verified"
touch "$T/release"
wait $apid
eq "A refused" "$?" 2
has "$T/a.err" "run 1 was resumed by another process and is verified now"
lacks "$T/a.out" "verified"
eq "the reviser asked by B alone" "$(chats "$T/reqb" 'Revise the declaration')" 1
eq "still verified" "$(sql acme 'SELECT status FROM runs WHERE id = 1')" verified

# And while B is still running: A is told who holds it.
fakes "$T/a.ini" "$T/b-dies.ini"
run 1 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/out" "run 2: paused"
fakes "$T/a.ini" "$T/b-fixes.ini" --fake-token-delay 40
rm -f "$T/mark" "$T/release"
SWORN_FAULT=resume-read:1:pause SWORN_FAULT_MARK="$T/mark" SWORN_FAULT_RELEASE="$T/release" \
	"$SWORN" run resume 2 -m acme >"$T/a.out" 2>"$T/a.err" &
apid=$!
pids="$pids $apid"
i=0
while [ ! -e "$T/mark" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
"$SWORN" run resume 2 -m acme >"$T/b.out" 2>"$T/b.err" &
bpid=$!
pids="$pids $bpid"
i=0
while [ "$(sql acme 'SELECT status FROM runs WHERE id = 2')" != running ] && [ $i -lt 600 ]; do
	sleep 0.05
	i=$((i + 1))
done
touch "$T/release"
wait $apid
eq "A refused while B runs" "$?" 2
has "$T/a.err" "run 2 is being resumed by process $bpid"
wait $bpid
eq "B finished" "$?" 0
has "$T/b.out" "run 2: verified"
done_testing
