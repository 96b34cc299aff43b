#!/bin/sh
# sworn fleet up/status/down/history with the fake llama-server in place of
# llama-server: slow start, crash and restart, hang, load failure, CPU
# fallback in the log, a board that lost a GPU, status and down from
# another process.  Everything listens on 127.0.0.1.
. "$(dirname "$0")/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
fleet_fixtures "$T/m"
trap '"$SWORN" -C "$T/ws" fleet down >/dev/null 2>&1; rm -rf "$T"' EXIT
mkdir -p "$T/m" "$T/bin" "$T/mode"
M=$T/m
export PATH="$SW_TEST_DATA/fleet/bin:$PATH"
export SW_FAKE_SMI="$SW_TEST_DATA/fleet/v100x12"
# GPUs of the nvidia-smi stand-in: the real driver, if any, is not asked.
export SWORN_NVML=off
# Below the ephemeral range (32768-), where the fakes of other tests bind.
PORT=$((20000 + ($$ * 7) % 6000))

# llama-server for the tests: records its pid and environment, can print a
# CPU-fallback line, and passes the fake the flags in $T/mode/<model>.
cat >"$T/bin/llama-server" <<EOF
#!/bin/sh
prev=
for a; do [ "\$prev" = -m ] && model=\$a; prev=\$a; done
name=\$(basename "\$model" .gguf)
echo \$\$ >"$T/pid.\$name"
echo "wrapper: CUDA_DEVICE_ORDER=\$CUDA_DEVICE_ORDER CUDA_VISIBLE_DEVICES=\$CUDA_VISIBLE_DEVICES"
[ -f "$T/mode/\$name.cpu" ] && echo "load_tensors: offloaded 0/49 layers to GPU"
exec "$SW_FAKE_LLAMA" "\$@" \$(cat "$T/mode/\$name" 2>/dev/null)
EOF
chmod +x "$T/bin/llama-server"

# A fleet in $T/ws of the given model specs.
fleet_ws() {
	rm -rf "$T/ws"
	"$SWORN" init -q "$T/ws" || exit 1
	{
		echo "[fleet]"
		echo "llama_server = $T/bin/llama-server"
		echo "hardware = $SW_SRC/examples/hardware/v100x12.ini"
		for m in "$@"; do echo "model = $M/$m"; done
		echo "port = $PORT"
		echo "ready_timeout = 30"
		echo "probe_interval = 0.5"
		echo "probe_timeout = 5"
		echo "restart_backoff = 0.2"
		echo "restart_max = 2"
	} >>"$T/ws/sworn.conf"
}

# until SECONDS TEXT: run `fleet status` until its output has TEXT.
until_status() {
	i=0
	while [ $i -lt $(($1 * 10)) ]; do
		"$SWORN" -C "$T/ws" fleet status >"$T/out" 2>"$T/err"
		grep -qF -- "$2" "$T/out" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	checks=$((checks + 1))
	failures=$((failures + 1))
	echo "FAIL: fleet status never showed '$2' in $1 s"
	cat "$T/out" "$T/err" "$T/ws/fleet/supervisor.log"
	return 1
}

QWEN=qwen3-30b-a3b-q8_0
GEMMA=gemma-4-26b-a4b-q8_0
QWEN36=qwen3.6-35b-a3b-q8_0

# ---- slow start, then every server ready; status from another process
fleet_ws $QWEN.gguf $GEMMA.gguf
echo "--fake-listen-delay 300 --fake-loading 1200" >"$T/mode/$QWEN"
run 0 "$SWORN" -C "$T/ws" fleet up
has "$T/out" "supervisor running"
has "$T/out" "pair-01-qwen3-30b-a3b "
has "$T/out" "ready"
lacks "$T/out" "starting"
has "$T/ws/fleet/logs/pair-01-qwen3-30b-a3b.log" "CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0,1"
has "$T/ws/fleet/logs/pair-01-qwen3-30b-a3b.log" "--port $PORT -ngl 49 -sm layer -ts"
run 1 "$SWORN" -C "$T/ws" fleet up
has "$T/err" "already up"
run 0 "$SWORN" -C "$T/ws" fleet status --json
has "$T/out" '"supervisor_running": true'
has "$T/out" '"state": "ready"'
has "$T/out" "\"url\": \"http://127.0.0.1:$PORT\""
has "$T/ws/fleet/history.jsonl" '"event":"start"'
has "$T/ws/fleet/history.jsonl" '"build":"b0000-fake"'
has "$T/ws/fleet/history.jsonl" "\"model_file\":\"$QWEN.gguf\""
has "$T/ws/fleet/history.jsonl" '"header_sha256":"'
has "$T/ws/fleet/history.jsonl" '"gpus":"0,1"'

# ---- a crash: restarted after the backoff, with a new pid
old=$(cat "$T/pid.$GEMMA")
kill -9 "$old"
i=0
while [ $i -lt 300 ]; do
	if "$SWORN" -C "$T/ws" fleet status >"$T/out" 2>&1 &&
		[ "$(cat "$T/pid.$GEMMA")" != "$old" ]; then
		break
	fi
	sleep 0.1
	i=$((i + 1))
done
new=$(cat "$T/pid.$GEMMA")
checks=$((checks + 1))
if [ "$new" = "$old" ] || ! kill -0 "$new" 2>/dev/null; then
	echo "FAIL: the crashed server was not restarted (old pid $old, new $new)"
	failures=$((failures + 1))
fi
has "$T/ws/fleet/history.jsonl" '"event":"crash"'
has "$T/ws/fleet/history.jsonl" '"exit":137'
has "$T/ws/fleet/supervisor.log" "restart 1 of 2"
run 0 "$SWORN" -C "$T/ws" fleet history
has "$T/out" "crash"

# ---- down from another process: servers and supervisor gone
qpid=$(cat "$T/pid.$QWEN")
run 0 "$SWORN" -C "$T/ws" fleet down
has "$T/out" "fleet is down"
checks=$((checks + 1))
if kill -0 "$qpid" 2>/dev/null || kill -0 "$new" 2>/dev/null; then
	echo "FAIL: servers still running after down"
	failures=$((failures + 1))
fi
run 1 "$SWORN" -C "$T/ws" fleet status
has "$T/out" "supervisor not running"
has "$T/out" "stopped"

# ---- a hang: the first completion answers, later ones never do
cat >"$T/hang.ini" <<EOF
[answer "first"]
seq = 1
text = ready
[answer "then"]
mode = hang
EOF
fleet_ws $GEMMA.gguf
rm -f "$T/mode/"*
echo "--fake-script $T/hang.ini" >"$T/mode/$GEMMA"
run 0 "$SWORN" -C "$T/ws" fleet up
until_status 20 "hung"
has "$T/out" "/health is ok but a one-token completion failed"
has "$T/ws/fleet/history.jsonl" '"event":"hang"'
# down ends a probe in flight at once, and that is not a hang.
run 0 "$SWORN" -C "$T/ws" fleet down
lacks "$T/ws/fleet/supervisor.log" "cancelled"

# ---- load failure, CPU fallback, and a board that lost GPU 11
grep -v '^11,' "$SW_TEST_DATA/fleet/v100x12-query.csv" >"$T/missing-query.csv"
cp "$SW_TEST_DATA/fleet/v100x12-topo.txt" "$T/missing-topo.txt"
fleet_ws $QWEN.gguf $GEMMA.gguf "$QWEN36.gguf:group=board-b"
rm -f "$T/mode/"* "$T/pid."*
echo "--fake-loading 200 --fake-load-fail" >"$T/mode/$QWEN"
touch "$T/mode/$GEMMA.cpu"
SW_FAKE_SMI="$T/missing" run 1 "$SWORN" -C "$T/ws" fleet up
has "$T/out" "failed"
has "$T/out" "the model did not load (exit 1)"
has "$T/out" "error loading model"
has "$T/out" "the log shows CPU fallback"
has "$T/out" "offloaded 0/49 layers to GPU"
has "$T/out" "board-b-qwen3-6-35b-a3b          degraded"
has "$T/out" "GPU 11 (Tesla V100-SXM2-32GB) of group board-b is missing"
checks=$((checks + 1))
if [ -e "$T/pid.$QWEN36" ]; then
	echo "FAIL: the model of the degraded board was started"
	failures=$((failures + 1))
fi
has "$T/ws/fleet/history.jsonl" '"event":"degraded"'
has "$T/ws/fleet/history.jsonl" '"event":"fail"'
run 1 "$SWORN" -C "$T/ws" fleet status
has "$T/out" "supervisor not running"

# ---- something else answers on the port: not taken for the server
"$SW_FAKE_LLAMA" --port "$PORT" --fake-port-file "$T/squatter.port" 2>/dev/null &
squatter=$!
i=0
while [ ! -s "$T/squatter.port" ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
fleet_ws $GEMMA.gguf
rm -f "$T/mode/"* "$T/pid."*
run 1 "$SWORN" -C "$T/ws" fleet up
has "$T/out" "port $PORT already answers"
checks=$((checks + 1))
if [ -e "$T/pid.$GEMMA" ]; then
	echo "FAIL: a server was started on a port in use"
	failures=$((failures + 1))
fi
kill $squatter
wait $squatter 2>/dev/null

# ---- servers a dead supervisor left behind: up refuses, down stops them
sleep 60 &
orphan=$!
cat >"$T/ws/fleet/state.json" <<EOF
{"phase": "running", "supervisor_pid": -1, "supervisor_start_ticks": 0,
 "servers": [{"name": "left-behind", "pid": $orphan, "start_ticks": 0, "state": "ready",
   "port": $PORT, "restarts": 0, "model": "x.gguf"}]}
EOF
run 1 "$SWORN" -C "$T/ws" fleet up
has "$T/err" "left-behind (pid $orphan)"
run 0 "$SWORN" -C "$T/ws" fleet down
has "$T/out" "left-behind: stopped pid $orphan"
wait $orphan 2>/dev/null

# ---- errors
run 2 "$SWORN" -C "$T/ws" fleet sideways
rm -rf "$T/ws"
"$SWORN" init -q "$T/ws" || exit 1
run 2 "$SWORN" -C "$T/ws" fleet up
has "$T/err" "no [fleet] section"
run 1 "$SWORN" -C "$T/ws" fleet status
has "$T/err" "never started"
printf '[fleet]\nllama_server = x\nhardware = h.ini\nmodel = a.gguf\nprobe_timeout = soon\n' >>"$T/ws/sworn.conf"
run 2 "$SWORN" -C "$T/ws" fleet up
has "$T/err" "sworn.conf:$(wc -l <"$T/ws/sworn.conf" | tr -d ' '): bad probe_timeout 'soon': expected more than 0, at most 3600"
printf 'restart_backof = 3\n' >>"$T/ws/sworn.conf"
sed -i '/probe_timeout = soon/d' "$T/ws/sworn.conf"
run 2 "$SWORN" -C "$T/ws" fleet up
has "$T/err" "unknown key 'restart_backof' in [fleet]: did you mean restart_backoff?"
run 0 "$SWORN" -C "$T/ws" doctor --keys
has "$T/out" "  bandwidth_gbs        peak memory bandwidth in GB/s"
has "$T/out" "  restart_backoff      seconds before the first restart"
printf '[endpont "x"]\nurl = http://127.0.0.1:1\n' >>"$T/ws/sworn.conf"
run 1 "$SWORN" -C "$T/ws" doctor
has "$T/out" "FAIL  sworn.conf: $T/ws/sworn.conf:$(wc -l <"$T/ws/sworn.conf" | tr -d " "): unknown section [endpont]: did you mean [endpoint]?"

echo "fleet: $checks checks, $failures failures"
[ "$failures" -eq 0 ] || cat "$T/ws/fleet/supervisor.log" 2>/dev/null
[ "$failures" -eq 0 ]
