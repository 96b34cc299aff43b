#!/bin/sh
# After `sworn fleet up`, the fleet's servers are endpoints and its models'
# roles (role=NAME in a [fleet] model line) are roles: sworn ask, models and
# doctor use them with nothing pasted into sworn.conf, and an explicit
# [endpoint]/[role] section wins.  The fake llama-server stands in.
. "$(dirname "$0")/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
fleet_fixtures "$T/m"
trap '"$SWORN" -C "$T/ws" fleet down >/dev/null 2>&1; kill $other 2>/dev/null; rm -rf "$T"' EXIT
other=
mkdir -p "$T/m" "$T/bin"
export PATH="$SW_TEST_DATA/fleet/bin:$PATH"
export SW_FAKE_SMI="$SW_TEST_DATA/fleet/v100x12"
# GPUs of the nvidia-smi stand-in: the real driver, if any, is not asked.
export SWORN_NVML=off
# Below the ephemeral range, away from fleet.sh's ports.
PORT=$((26000 + ($$ * 7) % 3000))
QWEN=qwen3-30b-a3b-q8_0
GEMMA=gemma-4-26b-a4b-q8_0

cat >"$T/drafter.ini" <<EOF
[answer "any"]
text = the drafter on the fleet answers
EOF
# Each model answers in its own words, so the test sees which one answered.
# An older build: -fa takes no value and there is no --fit; the fleet reads
# its --help and starts it with flags it knows.
cat >"$T/bin/llama-server" <<EOF
#!/bin/sh
case "\$1" in
--version) echo "version: 4000 (0123abc)" >&2; exit 0 ;;
--help) printf '%s\n' "-fa,   --flash-attn   enable Flash Attention (default: disabled)" >&2; exit 0 ;;
esac
prev=
for a; do [ "\$prev" = -m ] && model=\$a; prev=\$a; done
case \$(basename "\$model" .gguf) in
$QWEN) exec "$SW_FAKE_LLAMA" "\$@" --fake-script "$T/drafter.ini" ;;
*) exec "$SW_FAKE_LLAMA" "\$@" ;;
esac
EOF
chmod +x "$T/bin/llama-server"

"$SWORN" init -q "$T/ws" || exit 1
cat >>"$T/ws/sworn.conf" <<EOF
[fleet]
llama_server = $T/bin/llama-server
hardware = $SW_SRC/examples/hardware/v100x12.ini
model = $T/m/$QWEN.gguf:ctx=16k,np=2,role=drafter
model = $T/m/$GEMMA.gguf:role=reviewer
port = $PORT
ready_timeout = 30
probe_interval = 0.5
probe_timeout = 5
EOF

# ---- before the fleet is up: no role, and doctor says how to get one
run 2 "$SWORN" -C "$T/ws" ask drafter "Say hello."
has "$T/err" "no role 'drafter'"

run 0 "$SWORN" -C "$T/ws" fleet up
has "$T/out" "ready"
has "$T/ws/fleet/logs/pair-01-qwen3-30b-a3b.log" " -fa -ctk q8_0 -ctv q8_0 -c 16384 -np 2"
lacks "$T/ws/fleet/logs/pair-01-qwen3-30b-a3b.log" "--fit"
run 0 "$SWORN" -C "$T/ws" fleet status --json
has "$T/out" '"role": "drafter"'
has "$T/out" '"context": 8192'

# ---- the fleet's roles answer, with nothing added to sworn.conf
checks=$((checks + 1))
if grep -q '^\[role' "$T/ws/sworn.conf"; then
	echo "FAIL: sworn.conf has a [role] section"
	failures=$((failures + 1))
fi
run 0 "$SWORN" -C "$T/ws" ask drafter "Say hello."
has "$T/out" "the drafter on the fleet answers"
run 0 "$SWORN" -C "$T/ws" ask reviewer "Say hello."
has "$T/out" "The fake llama-server answers every prompt with this sentence."
run 0 "$SWORN" -C "$T/ws" ask --json drafter "Say hello."
has "$T/out" "\"endpoint\": \"pair-01-qwen3-30b-a3b\""
run 0 "$SWORN" -C "$T/ws" models
has "$T/out" "pair-01-qwen3-30b-a3b"
has "$T/out" "http://127.0.0.1:$PORT"
run 0 "$SWORN" -C "$T/ws" doctor
has "$T/out" "ok    endpoint pair-01-qwen3-30b-a3b"
has "$T/out" "ok    role drafter: endpoint pair-01-qwen3-30b-a3b is ready"
has "$T/out" "ok    role reviewer:"
lacks "$T/out" "no [role] section"

# ---- an explicit [role] wins over the fleet's
"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/other.port" 2>/dev/null &
other=$!
i=0
while [ ! -s "$T/other.port" ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
cat >>"$T/ws/sworn.conf" <<EOF
[endpoint "mine"]
url = http://127.0.0.1:$(cat "$T/other.port")
[role "drafter"]
endpoint = mine
EOF
run 0 "$SWORN" -C "$T/ws" ask --json drafter "Say hello."
has "$T/out" '"endpoint": "mine"'
lacks "$T/out" "the drafter on the fleet answers"
# ... and the fleet's other role is still there.
run 0 "$SWORN" -C "$T/ws" ask reviewer "Say hello."
# An explicit endpoint on the fleet's url is the fleet server: its role
# points at it, under its sworn.conf name.
sed -i '/^\[endpoint "mine"\]/,$d' "$T/ws/sworn.conf"
cat >>"$T/ws/sworn.conf" <<EOF
[endpoint "pasted"]
url = http://127.0.0.1:$PORT
EOF
run 0 "$SWORN" -C "$T/ws" ask --json drafter "Say hello."
has "$T/out" '"endpoint": "pasted"'
has "$T/out" "the drafter on the fleet answers"

# ---- the fleet down: its roles go with it
run 0 "$SWORN" -C "$T/ws" fleet down
run 2 "$SWORN" -C "$T/ws" ask reviewer "Say hello."
has "$T/err" "no role 'reviewer'"

echo "fleet_roles: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
