#!/bin/sh
# sworn fleet over two hosts without a second machine: two network
# namespaces joined by a veth pair (10.200.0.1 box1, 10.200.0.2 box2, the
# test's own addresses), box2 reached through an exec wrapper that runs
# the command inside its namespace (as ssh would on the other box), the
# fake llama-server on each side.  up, status (one table, a host column),
# a draft whose two parallel steps run one on each box (the run's record
# names each step's host), box2's exec broken (its wrapper fails as ssh
# does) with its servers read over the LAN instead, then its link down
# too: unreachable, its role unavailable with no other model standing in,
# down.  Needs root (CAP_NET_ADMIN): without it the test fails and says so.
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

# The fake llama-server with each model's own answers (drafter on box1,
# reviewer on box2), logging its requests: the draft's two parallel steps
# answer slowly (28 tokens at 100 ms), so that running them one after the
# other would show in the run's time.
cat >"$T/drafter.ini" <<EOF
[answer "facts"]
match = FACTS-STEP
text = the facts step answers from box one with words enough to take about three seconds at the slow pace of one token every tenth of a second here
mode = slow
[answer "draft"]
match = JOIN-STEP
text = The draft joins what the two boxes wrote.
EOF
cat >"$T/reviewer.ini" <<EOF
[answer "law"]
match = LAW-STEP
text = the law step answers from box two with words enough to take about three seconds at the slow pace of one token every tenth of a second here
mode = slow
[answer "review"]
match = REVIEW-STEP
text = {"findings": []}
EOF
cat >"$T/llama-server" <<EOF
#!/bin/sh
case "\$1" in --version|--help) exec "$SW_FAKE_LLAMA" "\$@" ;; esac
prev=
for a; do [ "\$prev" = -m ] && model=\$a; prev=\$a; done
case \$(basename "\$model" .gguf) in
$QWEN) exec "$SW_FAKE_LLAMA" "\$@" --fake-script "$T/drafter.ini" --fake-log "$T/req-box1" ;;
*) exec "$SW_FAKE_LLAMA" "\$@" --fake-script "$T/reviewer.ini" --fake-log "$T/req-box2" ;;
esac
EOF
chmod +x "$T/llama-server"

# box2's exec: what ssh would be, inside box2's namespace; fails as ssh
# does when $T/box2-down exists.
cat >"$T/exec-box2" <<EOF
#!/bin/sh
if [ -f "$T/box2-down" ]; then
	echo "ssh: connect to host 10.200.0.2 port 22: No route to host" >&2
	exit 255
fi
if [ -f "$T/box2-hang" ]; then
	sleep 60
	echo "\$*" >>"$T/box2-slept-out" # only a caller that waited it out sees this
	exit 255
fi
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
llama_server = $T/llama-server
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
# Every command's whole output, printed on a failure: a failure seen once
# on a busy machine is understood from that one run.
transcript=$T/transcript

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
grep -E '^box1 +file +pair-01-qwen3-30b-a3b +ready' "$T/out" >/dev/null || {
	echo "FAIL: box1's server is not ready in:"; cat "$T/out"; failures=$((failures + 1)); }
grep -E '^box2 +exec +ampere-01-gemma-4-26b-a4b +ready' "$T/out" >/dev/null || {
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

# ---- a draft uses both boxes: facts (drafter, box1) and law (reviewer,
# box2) read nothing of each other and run at once; the run's record
# names each step's host.
mkdir -p "$T/ws/tasks/two-boxes"
cat >"$T/ws/tasks/two-boxes/task.ini" <<EOF
[task]
title = Two boxes: facts and law at once, then the draft
rounds = 1
draft = draft
[step "facts"]
role = drafter
template = facts.md
[step "law"]
role = reviewer
template = law.md
[step "draft"]
role = drafter
template = draft.md
after = facts, law
[review]
role = reviewer
template = review.md
[revise]
role = drafter
template = revise.md
EOF
( cd "$T/ws/tasks/two-boxes" &&
	printf 'You draft for a lawyer.\n' >system.md &&
	printf 'FACTS-STEP: the facts for {{brief}}\n' >facts.md &&
	printf 'LAW-STEP: the law for {{brief}}\n' >law.md &&
	printf 'JOIN-STEP:\n{{step.facts}}\n\n{{step.law}}\n' >draft.md &&
	printf 'REVIEW-STEP: attack this draft:\n{{draft}}\n' >review.md &&
	printf 'REVISE-STEP: {{findings}}\n{{verifier}}\n{{draft}}\n' >revise.md &&
	printf '{"type": "object", "properties": {"findings": {"type": "array"}}, "required": ["findings"]}\n' \
		>review.schema.json ) || exit 1
"$SWORN" -C "$T/ws" matter new m >/dev/null || exit 1
echo "Draft the facts and the law." >"$T/brief.md"
run 0 $S1 draft -m m --task two-boxes --brief "$T/brief.md"
has "$T/out" "run 1: verified"
has "$T/err" "sworn: law done on ampere-01-gemma-4-26b-a4b (box2): 28 tokens"
has "$T/err" "sworn: facts done on pair-01-qwen3-30b-a3b (box1): 28 tokens"
run 0 $S1 run show 1 -m m --json
cp "$T/out" "$T/run1.json"
step_host() { jq -r --arg k "$1" '.steps[] | select(.key == $k) | .host' "$T/run1.json"; }
eq "host of facts" "$(step_host facts)" box1
eq "host of law" "$(step_host law)" box2
eq "host of draft" "$(step_host draft)" box1
eq "host of review" "$(step_host review)" box2
eq "host of verify#0 (no model)" "$(step_host 'verify#0')" null
# At once: the run took less than its two slow steps one after the other.
eq "facts and law ran at once" \
	"$(jq '([.steps[] | select(.key == "facts" or .key == "law") | .wall_s] | add) > .wall_s' "$T/run1.json")" true
# Each box's server saw its own steps only.
has "$T/req-box1" FACTS-STEP
lacks "$T/req-box1" LAW-STEP
has "$T/req-box2" LAW-STEP
lacks "$T/req-box2" FACTS-STEP
run 0 $S1 run show 1 -m m
grep -E '^STEP +STATUS +ROLE +ENDPOINT +HOST ' "$T/out" >/dev/null &&
	grep -E '^law +done +reviewer +ampere-01-gemma-4-26b-a4b +box2 ' "$T/out" >/dev/null &&
	grep -E '^facts +done +drafter +pair-01-qwen3-30b-a3b +box1 ' "$T/out" >/dev/null || {
	echo "FAIL: run show names no host per step:"; cat "$T/out"; failures=$((failures + 1)); }
checks=$((checks + 1))

# ---- box2's exec broken, its server still up: read over the LAN
touch "$T/box2-down"
run 1 $S1 fleet status
grep -E '^box2 +lan +ampere-01-gemma-4-26b-a4b +ready +http://10\.200\.0\.2:' "$T/out" >/dev/null &&
	grep -E '^box1 +file +pair-01-qwen3-30b-a3b +ready' "$T/out" >/dev/null || {
	echo "FAIL: box2 not read over the LAN in:"; cat "$T/out"; failures=$((failures + 1)); }
checks=$((checks + 1))
has "$T/out" "supervisor unknown: its servers read over the LAN (/health, /props), its exec failing: host box2: its status exited 255: ssh: connect to host 10.200.0.2 port 22: No route to host"
lacks "$T/out" "unreachable"
run 1 $S1 fleet status --json
has "$T/out" '"read": "lan"'
has "$T/out" '"read": "file"'
has "$T/out" '"build": "b0000-fake"'
lacks "$T/out" '"reachable": false'
# its role still answers, from box2's server over the LAN
run 0 $S1 ask reviewer "Say hello."

# ---- box2 unreachable (its exec broken, its link down): shown so, its
# role unavailable, no stand-in.  Its server's connect gets no answer
# (box2's side is down, ARP unanswered): curl's connect timeout and
# sworn's own deadline for the call (both 3 s) race, and on a busy machine
# either may fire first; each names the server's url.
ip -n $NS2 link set veth-s2-$$ down || exit 1
run 1 $S1 fleet status
grep -E '^box2 +- +- +unreachable' "$T/out" >/dev/null || {
	echo "FAIL: box2 not shown unreachable in:"; cat "$T/out"; failures=$((failures + 1)); }
checks=$((checks + 1))
has "$T/out" "box2: its status exited 255: ssh: connect to host 10.200.0.2 port 22: No route to host"
has "$T/out" "; over the LAN no server of host box2 answers ("
has "$T/out" "(http://10.200.0.2:$P2)"
has "$T/out" "roles unavailable: reviewer (ampere-01-gemma-4-26b-a4b)"
grep -E '^box1 +file +pair-01-qwen3-30b-a3b +ready' "$T/out" >/dev/null || {
	echo "FAIL: box1 should still be ready in:"; cat "$T/out"; failures=$((failures + 1)); }
checks=$((checks + 1))
run 1 $S1 fleet status --json
has "$T/out" '"reachable": false'
has "$T/out" '"role": "reviewer"'
run 2 $S1 ask reviewer "Say hello."
has "$T/err" "role 'reviewer' is unavailable: its server ampere-01-gemma-4-26b-a4b is on host box2, which does not answer"
run 0 $S1 ask drafter "Say hello."
# a box that hangs is unreachable too, by the status's own deadline: it
# answers before the hung exec's minute is out (an order, not a stopwatch)
rm -f "$T/box2-down" "$T/box2-slept-out"
touch "$T/box2-hang"
run 1 $S1 fleet status
grep -E '^box2 +- +- +unreachable' "$T/out" >/dev/null || {
	echo "FAIL: a hung box2 not shown unreachable in:"; cat "$T/out"; failures=$((failures + 1)); }
[ ! -e "$T/box2-slept-out" ] || {
	echo "FAIL: status waited out box2's hung exec instead of its deadline"; failures=$((failures + 1)); }
checks=$((checks + 2))
rm -f "$T/box2-hang"
touch "$T/box2-down"
# up refuses a box it cannot ask for its version
run 2 $S1 fleet up
has "$T/err" "box2"

# ---- down stops every host (box2 reachable again)
rm -f "$T/box2-down"
ip -n $NS2 link set veth-s2-$$ up || exit 1
run 0 $S1 fleet down
has "$T/out" "fleet is down on every host"
run 1 $S1 fleet status
lacks "$T/out" " ready "
run 7 ip netns exec $NS1 curl -sf -m 3 "http://10.200.0.2:$P2/health"
echo "fleet_hosts: $checks checks, $failures failures"
if [ "$failures" -ne 0 ]; then
	echo "--- every command's output, in order"
	cat "$transcript"
	echo "--- the supervisors' logs"
	cat "$T"/ws/fleet/supervisor-*.log 2>/dev/null
fi
[ "$failures" -eq 0 ]
