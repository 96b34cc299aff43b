#!/bin/sh
# sworn fleet up with the real llama-server of scripts/real-server (a CPU
# build) and the tiny model of tests/tools/tiny_gguf.py, planned on the
# V100 inventory of the fleet tests (nvidia-smi is the fake of
# tests/data/fleet).  First the binary as built: every flag sworn passes is
# accepted, and its CPU fallback fails the server.  Then the same binary
# behind a wrapper that drops -ngl (so that it does not warn of the missing
# GPU): ready, locked with the workspace's API key (mode 0600), no browser
# origin, no web chat, as fleet status says, and sworn ask through the
# fleet's role sends the key.  Everything listens on 127.0.0.1.
. "$(dirname "$0")/lib.sh"

dir=$("$SW_SRC/scripts/real-server" --dir)
if ! "$SW_SRC/scripts/real-server" --check 2>/dev/null; then
	echo "FAIL: no real llama-server in $dir: run scripts/install-deps (it builds one, 10-15 minutes the first time)"
	exit 1
fi
LS=$dir/bin/llama-server
HTTP="python3 $SW_SRC/tests/tools/http_req.py"
trap '"$SWORN" -C "$T/ws" fleet down >/dev/null 2>&1; rm -rf "$T"' EXIT
python3 "$SW_SRC/tests/tools/tiny_gguf.py" "$dir/models/ggml-vocab-qwen2.gguf" "$T/tiny.gguf" ||
	{ echo "FAIL: tiny_gguf.py wrote no model"; exit 1; }
export PATH="$SW_TEST_DATA/fleet/bin:$PATH"
export SW_FAKE_SMI="$SW_TEST_DATA/fleet/v100x12"
# GPUs of the nvidia-smi stand-in: the real driver, if any, is not asked.
export SWORN_NVML=off
# Below the ephemeral range, away from the ports of fleet.sh, fleet_hosts.sh
# (20000-25999) and fleet_roles.sh (26000-28999).
PORT=$((29000 + ($$ * 7) % 3000))

# The binary without -ngl N: what a GPU build would run, less the warning.
mkdir -p "$T/bin"
cat >"$T/bin/llama-server" <<EOF
#!/bin/sh
n=\$#
skip=0
while [ \$n -gt 0 ]; do
	a=\$1
	shift
	n=\$((n - 1))
	if [ \$skip -eq 1 ]; then skip=0; continue; fi
	if [ "\$a" = -ngl ]; then skip=1; continue; fi
	set -- "\$@" "\$a"
done
exec "$LS" "\$@" -t 1
EOF
chmod +x "$T/bin/llama-server"

fleet_ws() {
	rm -rf "$T/ws"
	"$SWORN" init -q "$T/ws" || exit 1
	cat >>"$T/ws/sworn.conf" <<CONF
[fleet]
llama_server = $1
hardware = $SW_SRC/examples/hardware/v100x12.ini
model = $T/tiny.gguf:ctx=1024,role=drafter
port = $PORT
ready_timeout = 120
probe_interval = 0.5
probe_timeout = 30
restart_max = 0
CONF
}

# until_status SECONDS TEXT: fleet status until it shows TEXT.
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
	cat "$T/out" "$T/err" "$T/ws/fleet/supervisor.log" "$T/ws/fleet/logs/"*.log
	return 1
}

SERVER=pair-01-sworn-tiny-words
LOG=$T/ws/fleet/logs/$SERVER.log

# ---- the CPU build as it is: its flags accepted, its CPU fallback failed
fleet_ws "$LS"
run 1 "$SWORN" -C "$T/ws" fleet up
until_status 120 "failed"
has "$T/out" "the log shows CPU fallback"
has "$T/out" "no usable GPU found"
has "$LOG" "--api-key-file $T/ws/fleet/api-key --cors-origins none --no-cors-credentials --no-webui"
lacks "$LOG" "invalid argument"
lacks "$LOG" "error:"
"$SWORN" -C "$T/ws" fleet down >/dev/null 2>&1

# ---- without -ngl: ready, and locked
fleet_ws "$T/bin/llama-server"
run 0 "$SWORN" -C "$T/ws" fleet up
has "$T/out" "ready"
run 0 "$SWORN" -C "$T/ws" fleet status
has "$T/out" "$SERVER"
has "$T/out" "access: API key (fleet/api-key); browsers refused (--cors-origins none, --no-cors-credentials); web UI off (--no-webui)"
eq "key file mode" "$(stat -c %a "$T/ws/fleet/api-key")" 600
eq "key length" "$(tr -d '\n' <"$T/ws/fleet/api-key" | wc -c)" 64
key=$(cat "$T/ws/fleet/api-key")
lacks "$LOG" "$key"
lacks "$LOG" "CORS is set to allow all origins"
run 0 "$SWORN" -C "$T/ws" fleet status --json
has "$T/out" "\"api_key_file\": \"$T/ws/fleet/api-key\""
has "$T/out" '"access": "API key'

URL=http://127.0.0.1:$PORT
$HTTP "$URL/v1/chat/completions" POST '{"messages":[{"role":"user","content":"hi"}],"max_tokens":1}' >"$T/out"
eq "a completion without the key" "$(head -n 1 "$T/out")" 401
$HTTP "$URL/v1/chat/completions" POST '{"messages":[{"role":"user","content":"hi"}],"max_tokens":1}' \
	"Authorization: Bearer $key" >"$T/out"
eq "a completion with the key" "$(head -n 1 "$T/out")" 200
$HTTP "$URL/v1/chat/completions" OPTIONS "" "Origin: http://localhost:3000" \
	"Access-Control-Request-Method: POST" "Access-Control-Request-Headers: authorization" >"$T/out"
lacks "$T/out" "access-control-allow-origin: http://localhost:3000"
lacks "$T/out" "access-control-allow-origin: *"

# sworn's client sends the key: the fleet's role answers.
run 0 "$SWORN" -C "$T/ws" ask --json --max-tokens 3 drafter Say hello
has "$T/out" "\"endpoint\": \"$SERVER\""
has "$T/out" '"predicted_n": 3'
run 0 "$SWORN" -C "$T/ws" models
has "$T/out" "health  ready"

# The key is kept: a second fleet up uses the same one.
run 0 "$SWORN" -C "$T/ws" fleet down
run 0 "$SWORN" -C "$T/ws" fleet up
eq "the key after a second up" "$(cat "$T/ws/fleet/api-key")" "$key"
run 0 "$SWORN" -C "$T/ws" fleet down

# A key file others may read is refused, not used.
chmod 644 "$T/ws/fleet/api-key"
run 2 "$SWORN" -C "$T/ws" fleet up
has "$T/err" "may be read by others (mode 644)"

done_testing
