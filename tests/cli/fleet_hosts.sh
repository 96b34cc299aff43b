#!/bin/sh
# sworn fleet over two hosts without a second machine: two network
# namespaces joined by a veth pair (10.200.0.1 box1, 10.200.0.2 box2, the
# test's own addresses), box2 reached through an exec wrapper that runs
# the command inside its namespace (as ssh would on the other box), the
# fake llama-server on each side.  up, status (one table, a host column),
# box2 made unreachable (its wrapper fails as ssh does), its role then
# unavailable with no other model standing in, down.  Needs root
# (CAP_NET_ADMIN): without it the test fails and says so.
. "$(dirname "$0")/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
fleet_fixtures "$T/m"
NS1=sworn-box1-$$
NS2=sworn-box2-$$
cleanup() {
	rm -f "$T/box2-down"
	ip netns exec $NS1 "$SWORN" -C "$T/ws" fleet down >/dev/null 2>&1
	ip netns del $NS1 2>/dev/null
	ip netns del $NS2 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
if ! ip netns add $NS1 2>"$T/netns.err"; then
	echo "FAIL: cannot create a network namespace (needs root or CAP_NET_ADMIN, and iproute2): $(cat "$T/netns.err")"
	exit 1
fi
ip netns add $NS2 &&
	ip link add veth-s1-$$ netns $NS1 type veth peer name veth-s2-$$ netns $NS2 &&
	ip -n $NS1 addr add 10.200.0.1/24 dev veth-s1-$$ &&
	ip -n $NS2 addr add 10.200.0.2/24 dev veth-s2-$$ &&
	ip -n $NS1 link set veth-s1-$$ up && ip -n $NS2 link set veth-s2-$$ up &&
	ip -n $NS1 link set lo up && ip -n $NS2 link set lo up || {
	echo "FAIL: cannot set up the veth pair between $NS1 and $NS2"
	exit 1
}

mkdir -p "$T/m" "$T/bin"
ln -s "$SWORN" "$T/bin/sworn"
PORT=$((20000 + ($$ * 7) % 6000))
QWEN=qwen3-30b-a3b-q8_0
GEMMA=gemma-4-26b-a4b-q8_0

# box2's exec: what ssh would be, inside box2's namespace; fails as ssh
# does when $T/box2-down exists.
cat >"$T/exec-box2" <<EOF
#!/bin/sh
if [ -f "$T/box2-down" ]; then
	echo "ssh: connect to host 10.200.0.2 port 22: No route to host" >&2
	exit 255
fi
[ -f "$T/box2-hang" ] && exec sleep 60
if [ -f "$T/box2-old" ] && [ "\$4" = version ]; then
	echo '{"version": "0.0.1", "commit": "0123abc"}'
	exit 0
fi
exec ip netns exec $NS2 env PATH="$T/bin:\$PATH" "\$@"
EOF
chmod +x "$T/exec-box2"

HW=$SW_SRC/examples/hardware
sed 's/^name = box1$/name = box1\naddress = 10.200.0.1/' "$HW/v100x12.ini" >"$T/box1.ini"
sed -e 's/^address = 10.0.0.12$/address = 10.200.0.2\nexec = '"$(echo "$T" | sed 's/[\/&]/\\&/g')"'\/exec-box2/' \
	"$HW/rtx3090x4-v100pcie.ini" >"$T/box2.ini"
has "$T/box1.ini" "address = 10.200.0.1"
has "$T/box2.ini" "exec = $T/exec-box2"

"$SWORN" init -q "$T/ws" || exit 1
cat >>"$T/ws/sworn.conf" <<EOF
[fleet]
llama_server = $SW_FAKE_LLAMA
hardware = $T/box1.ini, $T/box2.ini
model = $T/m/$QWEN.gguf:ctx=16k,role=drafter,group=pair-01
model = $T/m/$GEMMA.gguf:role=reviewer,group=ampere-01
port = $PORT
check_gpus = no
ready_timeout = 30
probe_interval = 0.5
probe_timeout = 5
EOF
S1="ip netns exec $NS1 $SWORN -C $T/ws"

run 2 $S1 fleet up --foreground
has "$T/err" "--foreground supervises one host"
run 2 $S1 fleet status --host box3
has "$T/err" "no such host"

# ---- another build on box2: refused before anything starts
touch "$T/box2-old"
run 2 $S1 fleet up
has "$T/err" "host box2 runs sworn 0.0.1 (0123abc)"
has "$T/err" "install the same build on every box"
[ ! -f "$T/ws/fleet/state-box1.json" ] || {
	echo "FAIL: box1 started although box2 runs another build"; failures=$((failures + 1)); }
checks=$((checks + 1))
rm -f "$T/box2-old"

# ---- up: box1's server here, box2's through its exec, one table
run 0 $S1 fleet up
has "$T/out" "fleet: 2 hosts"
has "$T/out" "HOST"
has "$T/out" "http://10.200.0.1:"
has "$T/out" "http://10.200.0.2:"
grep -E '^box1 +pair-01-qwen3-30b-a3b +ready' "$T/out" >/dev/null || {
	echo "FAIL: box1's server is not ready in:"; cat "$T/out"; failures=$((failures + 1)); }
grep -E '^box2 +ampere-01-gemma-4-26b-a4b +ready' "$T/out" >/dev/null || {
	echo "FAIL: box2's server is not ready in:"; cat "$T/out"; failures=$((failures + 1)); }
checks=$((checks + 2))
# Each box supervises its own: two state files, neither state.json.
[ -f "$T/ws/fleet/state-box1.json" ] && [ -f "$T/ws/fleet/state-box2.json" ] &&
	[ ! -f "$T/ws/fleet/state.json" ] || {
	echo "FAIL: expected fleet/state-box1.json and state-box2.json only"; ls "$T/ws/fleet"
	failures=$((failures + 1)); }
checks=$((checks + 1))
run 0 $S1 fleet status --host box1
has "$T/out" "pair-01-qwen3-30b-a3b"
lacks "$T/out" "gemma"
has "$T/ws/fleet/logs/ampere-01-gemma-4-26b-a4b.log" "--host 10.200.0.2"
# box2's server really listens in box2's namespace, reached over the veth.
P2=$(sed -n 's/^ *"port": \([0-9]*\),*$/\1/p' "$T/ws/fleet/state-box2.json")
run 0 ip netns exec $NS1 curl -sf -m 5 "http://10.200.0.2:$P2/health"
run 1 $S1 fleet up
has "$T/err" "already up"

# ---- status --json: every server with its host
run 0 $S1 fleet status --json
has "$T/out" '"host": "box2"'
has "$T/out" '"reachable": true'
has "$T/out" '"all_ready": true'
run 0 ip netns exec $NS2 "$SWORN" -C "$T/ws" fleet status --host box2
has "$T/out" "ampere-01-gemma-4-26b-a4b"
lacks "$T/out" "pair-01"

# ---- both roles answer, each from its box
run 0 $S1 ask reviewer "Say hello."
run 0 $S1 ask drafter "Say hello."
# doctor and bench read this box's state (state-box1.json)
$S1 doctor >"$T/out" 2>"$T/err"
has "$T/out" "supervisor running, 1 server;"
run 0 $S1 bench --json --tokens 8 --max-depth 1024 pair-01-qwen3-30b-a3b
has "$T/out" '"decode_tps"'

# ---- box2 unreachable: shown so, its role unavailable, no stand-in
touch "$T/box2-down"
run 1 $S1 fleet status
grep -E '^box2 +- +unreachable' "$T/out" >/dev/null || {
	echo "FAIL: box2 not shown unreachable in:"; cat "$T/out"; failures=$((failures + 1)); }
checks=$((checks + 1))
has "$T/out" "box2: its status exited 255: ssh: connect to host 10.200.0.2 port 22: No route to host"
has "$T/out" "roles unavailable: reviewer (ampere-01-gemma-4-26b-a4b)"
grep -E '^box1 +pair-01-qwen3-30b-a3b +ready' "$T/out" >/dev/null || {
	echo "FAIL: box1 should still be ready in:"; cat "$T/out"; failures=$((failures + 1)); }
checks=$((checks + 1))
run 1 $S1 fleet status --json
has "$T/out" '"reachable": false'
has "$T/out" '"role": "reviewer"'
run 2 $S1 ask reviewer "Say hello."
has "$T/err" "role 'reviewer' is unavailable: its server ampere-01-gemma-4-26b-a4b is on host box2, which does not answer"
run 0 $S1 ask drafter "Say hello."
# a box that hangs is unreachable too, within the status's 10 s
rm -f "$T/box2-down"
touch "$T/box2-hang"
t0=$(date +%s)
run 1 $S1 fleet status
t1=$(date +%s)
grep -E '^box2 +- +unreachable' "$T/out" >/dev/null || {
	echo "FAIL: a hung box2 not shown unreachable in:"; cat "$T/out"; failures=$((failures + 1)); }
[ $((t1 - t0)) -le 15 ] || {
	echo "FAIL: status took $((t1 - t0)) s with box2 hung (bound: 10 s)"; failures=$((failures + 1)); }
checks=$((checks + 2))
rm -f "$T/box2-hang"
touch "$T/box2-down"
# up refuses a box it cannot ask for its version
run 2 $S1 fleet up
has "$T/err" "box2"

# ---- down stops every host (box2 reachable again)
rm -f "$T/box2-down"
run 0 $S1 fleet down
has "$T/out" "fleet is down on every host"
run 1 $S1 fleet status
lacks "$T/out" " ready "
run 7 ip netns exec $NS1 curl -sf -m 3 "http://10.200.0.2:$P2/health"
echo "fleet_hosts: $checks checks, $failures failures"
[ "$failures" -eq 0 ] || cat "$T"/ws/fleet/supervisor-*.log 2>/dev/null
[ "$failures" -eq 0 ]
