#!/bin/sh
# sworn bench against the fake llama-server: depths the context allows, the
# server's timings, the prediction beside them, JSON, SVG, a calibration
# file that reproduces the measurement, the fleet history; a fleet server
# found by name.  Everything listens on 127.0.0.1.
. "$(dirname "$0")/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
fleet_fixtures "$T/m"
M=$T/m
HW=$SW_SRC/examples/hardware/v100x12.ini

# start_fake CTX: a fake with that context, port in $port, pid in $fake.
start_fake() {
	rm -f "$T/port"
	"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/port" -c "$1" --fake-endless \
		--fake-token-delay 2 2>"$T/fake.err" &
	fake=$!
	i=0
	while [ ! -s "$T/port" ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
	port=$(cat "$T/port")
}
start_fake 40000
trap 'kill $fake 2>/dev/null; "$SWORN" -C "$T/ws" fleet down >/dev/null 2>&1; rm -rf "$T"' EXIT

"$SWORN" init -q "$T/ws" || exit 1
printf '[endpoint "local"]\nurl = http://127.0.0.1:%s\n' "$port" >>"$T/ws/sworn.conf"

run 0 "$SWORN" -C "$T/ws" bench local --json --svg "$T/bench.svg" \
	--save-calibration "$T/cal.ini" --model "$M/qwen3-30b-a3b-q8_0.gguf" \
	--hardware "$HW" --group pair-01
for d in 1024 4096 16384 32768; do has "$T/out" "\"depth\": $d"; done
has "$T/out" '"build": "b0000-fake"'
has "$T/out" '"predicted_n": 64'
has "$T/out" '"predicted_decode_tps":'
has "$T/out" '"decode_ratio":'
has "$T/out" '"predicted_for": "qwen3-30b-a3b-q8_0.gguf on pair-01"'
# The prompt really was that long: the fake counts the tokens it got.
has "$T/out" '"prompt_n": 32'
has "$T/bench.svg" "<svg "
has "$T/bench.svg" "predicted"
has "$T/bench.svg" "32k"
has "$T/cal.ini" '[gpu "measured"]'
has "$T/cal.ini" '[class "measured"]'
has "$T/cal.ini" 'arch = qwen3moe'
has "$T/ws/fleet/history.jsonl" '"event":"bench"'
# Each depth's prompt is predicted on its own (attention grows with it),
# and prompts read as fast as predicted are not flagged.
has "$T/out" '"predicted_prompt_tps":'
has "$T/out" '"slow": false'

# A server far slower than predicted (the fake reads ~4,000 tokens/s; a
# tiny model on a V100 pair should read millions) is flagged: the model
# is not where the plan put it.
run 0 "$SWORN" -C "$T/ws" bench local --max-depth 1024 --model "$M/tiny.gguf" --hardware "$HW" \
	--group pair-01
has "$T/out" "warning: prompts read"
has "$T/out" "slower than predicted for tiny.gguf on pair-01: is the model on those GPUs?"
run 0 "$SWORN" -C "$T/ws" bench local --json --max-depth 1024 --model "$M/tiny.gguf" \
	--hardware "$HW" --group pair-01
has "$T/out" '"slow": true'

# The saved constants predict what was measured (the fake decodes at a
# steady pace: 2 ms a token).
run 0 "$SWORN" -C "$T/ws" bench local --json --max-depth 4096 --calibration "$T/cal.ini" \
	--model "$M/qwen3-30b-a3b-q8_0.gguf" --hardware "$HW" --group pair-01
ratio=$(sed -n 's/.*"decode_ratio": \([0-9.]*\).*/\1/p' "$T/out")
checks=$((checks + 1))
if ! awk -v r="$ratio" 'BEGIN { exit !(r > 0.5 && r < 2.0) }'; then
	echo "FAIL: decode ratio after calibration is '$ratio', not about 1"
	failures=$((failures + 1))
fi
lacks "$T/out" '"depth": 16384'
"$SWORN" plan -H "$HW" --calibration "$T/cal.ini" "$M/qwen3-30b-a3b-q8_0.gguf" >"$T/plan.out" 2>&1
checks=$((checks + 1))
grep -q "planned 1 of 1" "$T/plan.out" || { echo "FAIL: plan with the saved calibration"; cat "$T/plan.out"; failures=$((failures + 1)); }

# A URL goes through sworn.conf's parser: userinfo is refused, so a host
# in allow_hosts cannot stand in front of the address curl would connect
# to (issue 17, item 11).
printf '[policy]\nallow_hosts = gpu2.lan\n' >> "$T/ws/sworn.conf"
run 2 "$SWORN" -C "$T/ws" bench "http://gpu2.lan:x@203.0.113.7:$port" --tokens 8
has "$T/err" "no user name in the url"
lacks "$T/out" "endpoint"

# Text; a URL; a small context allows fewer depths.
run 0 "$SWORN" -C "$T/ws" bench "http://127.0.0.1:$port" --tokens 8
has "$T/out" "endpoint http://127.0.0.1:$port"
has "$T/out" "32768"
lacks "$T/out" "pred decode"
kill $fake
wait $fake 2>/dev/null
start_fake 8192
run 0 "$SWORN" -C "$T/ws" bench "http://127.0.0.1:$port" --json --tokens 8
has "$T/out" '"depth": 4096'
lacks "$T/out" '"depth": 16384'
kill $fake
wait $fake 2>/dev/null
start_fake 1024
run 2 "$SWORN" -C "$T/ws" bench "http://127.0.0.1:$port"
has "$T/err" "too small"
kill $fake
wait $fake 2>/dev/null

# Errors: no prediction to calibrate; half a prediction; an unknown name.
start_fake 8192
run 2 "$SWORN" -C "$T/ws" bench "http://127.0.0.1:$port" --save-calibration "$T/x.ini" --tokens 4
has "$T/err" "no prediction to calibrate"
run 2 "$SWORN" -C "$T/ws" bench "http://127.0.0.1:$port" --model "$M/qwen3-30b-a3b-q8_0.gguf"
has "$T/err" "--model, --hardware and --group together"
run 2 "$SWORN" -C "$T/ws" bench nowhere
has "$T/err" "no endpoint 'nowhere'"
kill $fake
wait $fake 2>/dev/null

# A fleet server by name: the prediction comes from the fleet's plan.
export PATH="$SW_TEST_DATA/fleet/bin:$PATH"
export SW_FAKE_SMI="$SW_TEST_DATA/fleet/v100x12"
mkdir -p "$T/bin"
cat >"$T/bin/llama-server" <<EOF
#!/bin/sh
exec "$SW_FAKE_LLAMA" "\$@" --fake-endless --fake-token-delay 2
EOF
chmod +x "$T/bin/llama-server"
cat >>"$T/ws/sworn.conf" <<EOF
[fleet]
llama_server = $T/bin/llama-server
hardware = $HW
model = $M/gemma-4-26b-a4b-q8_0.gguf:ctx=8k
port = $((26000 + ($$ * 11) % 6000))
ready_timeout = 30
EOF
run 0 "$SWORN" -C "$T/ws" fleet up
run 0 "$SWORN" -C "$T/ws" bench pair-01-gemma-4-26b-a4b --tokens 8
has "$T/out" "predicted for gemma-4-26b-a4b-q8_0.gguf on pair-01"
has "$T/out" "4096"
run 0 "$SWORN" -C "$T/ws" fleet history
has "$T/out" "bench    pair-01-gemma-4-26b-a4b"
run 0 "$SWORN" -C "$T/ws" fleet down

echo "bench: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
