#!/bin/sh
# A reasoning model's settings on a [fleet] model line (reasoning=on|off,
# reasoning_budget=N) reach the servers fleet up starts as --reasoning and
# --reasoning-budget, only where the build's --help offers them (a build
# whose --reasoning-budget takes only -1 or 0 gets no budget); what is not
# passed is said when fleet up prepares them.  A bad value is one line.
. "$(dirname "$0")/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
fleet_fixtures "$T/m"
trap '"$SWORN" -C "$T/ws" fleet down >/dev/null 2>&1; rm -rf "$T"' EXIT
PORT=$((20000 + ($$ * 13) % 6000))
QWEN=qwen3-30b-a3b-q8_0

# server HELP-FILTER: a llama-server whose --help passes through the sed
# program HELP-FILTER (the double's own --help otherwise).
server() {
	cat >"$T/llama-server" <<EOF2
#!/bin/sh
if [ "\$1" = --help ]; then
	"$SW_FAKE_LLAMA" --help 2>&1 | sed '$1' >&2
	exit 0
fi
exec "$SW_FAKE_LLAMA" "\$@"
EOF2
	chmod 755 "$T/llama-server"
}

# ws SPEC: a workspace whose fleet runs the model with SPEC's options.
ws() {
	rm -rf "$T/ws"
	"$SWORN" init -q "$T/ws" || exit 1
	cat >>"$T/ws/sworn.conf" <<EOF2
[fleet]
llama_server = $T/llama-server
hardware = $SW_SRC/examples/hardware/v100x12.ini
model = $T/m/$QWEN.gguf:$1
port = $PORT
check_gpus = no
ready_timeout = 30
probe_interval = 0.5
EOF2
}
LOG="$T/ws/fleet/logs/pair-01-qwen3-30b-a3b.log"

# ---- a build that offers both: passed
server 'p'
ws role=reasoner,reasoning=off,reasoning_budget=512
run 0 "$SWORN" -C "$T/ws" fleet up
has "$LOG" "--reasoning off --reasoning-budget 512"
run 0 "$SWORN" -C "$T/ws" fleet down

# ---- a build without them: not passed, said
server '/reasoning/d'
ws role=reasoner,reasoning=on,reasoning_budget=512
run 0 "$SWORN" -C "$T/ws" fleet up
lacks "$LOG" "--reasoning"
has "$T/out" "reasoning=on not passed: this build's --help has no --reasoning"
has "$T/out" "reasoning_budget=512 not passed"
run 0 "$SWORN" -C "$T/ws" fleet down

# ---- an older build whose budget is only -1 or 0: the flag, no budget
server 's/token budget for thinking: -1 for unrestricted/currently only one of: -1 or 0/'
ws reasoning=off,reasoning_budget=512
run 0 "$SWORN" -C "$T/ws" fleet up
has "$LOG" "--reasoning off"
lacks "$LOG" "--reasoning-budget"
run 0 "$SWORN" -C "$T/ws" fleet down

# ---- bad values: one line, nothing started
ws reasoning=maybe
run 2 "$SWORN" -C "$T/ws" fleet up
has "$T/err" "bad option 'reasoning=maybe'"
has "$T/err" "reasoning=on|off, reasoning_budget=N"
eq "one line" "$(wc -l <"$T/err" | tr -d ' ')" 1
ws reasoning_budget=0
run 2 "$SWORN" -C "$T/ws" fleet up
has "$T/err" "bad option 'reasoning_budget=0'"

done_testing
