#!/bin/sh
# sworn ask, sworn models and sworn doctor against the fake llama-server
# ($SW_FAKE_LLAMA), including a public endpoint refused by the policy.
#
# The script runs itself inside a fresh network namespace that has only
# loopback, so the refusal check cannot reach a network even if the policy
# were broken.  Without one it says so loudly and exits 77 (skipped).
if [ -z "${SW_IN_NETNS:-}" ]; then
	if command -v unshare >/dev/null 2>&1 && command -v ip >/dev/null 2>&1 &&
		unshare -n true 2>/dev/null; then
		SW_IN_NETNS=1 exec unshare -n sh -c 'ip link set lo up && exec sh "$0"' "$0"
	fi
	echo "***************************************************************"
	echo "*** SKIPPED: tests/cli/llm_commands.sh needs 'unshare -n' and ip(8)"
	echo "*** to isolate the network; THESE TESTS DID NOT RUN."
	echo "***************************************************************"
	exit 77
fi
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"

"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/port" -a fake-qwen -c 8192 -np 2 \
	-ngl 99 -fa on --fake-log "$T/requests" 2>"$T/fake.err" &
fake=$!
trap 'kill $fake 2>/dev/null; rm -rf "$T"' EXIT
i=0
while [ ! -s "$T/port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
port=$(cat "$T/port")

"$SWORN" init -q "$T/ws" || exit 1
cat >>"$T/ws/sworn.conf" <<CONF
[endpoint "board-a"]
url = http://127.0.0.1:$port
gpus = 0,1
[endpoint "cloud"]
url = http://models.example.com:$port
[role "drafter"]
endpoint = board-a
temperature = 0.2
max_tokens = 5
[role "outsider"]
endpoint = cloud
[role "long"]
endpoint = board-a
context = 32768
CONF
cd "$T/ws" || exit 1

run 0 "$SWORN" ask drafter Say hello
eq "streamed answer" "$(cat "$T/out")" "The fake llama-server answers every"
has "$T/err" "sworn: board-a · prompt"
has "$T/err" "answer 5 tok"
has "$T/err" "length"
has "$T/requests" '\"temperature\":0.2'
has "$T/requests" '\"max_tokens\":5'

echo "Read this from stdin" >"$T/prompt"
run 0 sh -c "'$SWORN' ask --json --max-tokens 2 drafter - <'$T/prompt'"
has "$T/out" '"endpoint": "board-a"'
has "$T/out" '"content": "The fake"'
has "$T/out" '"predicted_n": 2'
has "$T/requests" 'Read this from stdin'

run 2 "$SWORN" ask nobody hi
has "$T/err" "no role 'nobody'"
run 2 "$SWORN" ask drafter
has "$T/err" "too few arguments"

# models.example.com is not in DNS here: a real name would need DNS, which
# this namespace lacks; a public literal shows the connect-time refusal.
sed -i "s|http://models.example.com:$port|http://198.51.100.9:$port|" sworn.conf
run 1 "$SWORN" ask outsider hi
has "$T/err" "endpoint 'cloud' refused by the local-only policy"
has "$T/err" "198.51.100.9:$port"
lacks "$T/err" "allow_hosts"   # never a suggestion to trust what was refused

run 0 "$SWORN" models
has "$T/out" "board-a  http://127.0.0.1:$port"
has "$T/out" "policy  allowed: 127.0.0.1:$port is loopback"
has "$T/out" "health  ready"
has "$T/out" "model   fake-qwen"
has "$T/out" "context 4096 per slot, 2 of 2 slots idle, build b0000-fake"
has "$T/out" "speed   prompt"
has "$T/out" "policy  REFUSED: endpoint 'cloud' refused"

run 0 "$SWORN" models --json
has "$T/out" '"policy": "refused"'
has "$T/out" '"n_ctx": 4096'

run 1 "$SWORN" doctor
has "$T/out" "ok    endpoint board-a"
has "$T/out" "FAIL  endpoint cloud"
has "$T/out" "FAIL  role outsider"
has "$T/out" "warn  role long: context 32768 is more than endpoint board-a's 4096 tokens per slot"

# A server that wants an API key sworn does not have: /health is public on
# llama-server, /props is not; doctor must not call that ready.
"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/kport" --api-key s3cret 2>"$T/kfake.err" &
kfake=$!
trap 'kill $fake $kfake 2>/dev/null; rm -rf "$T"' EXIT
i=0
while [ ! -s "$T/kport" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
cp sworn.conf sworn.conf.keep
printf '[endpoint "keyed"]\nurl = http://127.0.0.1:%s\n' "$(cat "$T/kport")" >>sworn.conf
run 1 "$SWORN" doctor
has "$T/out" "FAIL  endpoint keyed"
has "$T/out" "the server wants an API key; set api_key_file"
echo s3cret >"$T/key"
printf 'api_key_file = %s\n' "$T/key" >>sworn.conf
run 1 "$SWORN" doctor                 # still 1: the cloud endpoint above fails
has "$T/out" "ok    endpoint keyed"
kill $kfake 2>/dev/null
mv sworn.conf.keep sworn.conf

# A server that answers with a redirect: named with its target, never
# followed (the policy judged this address, not that one).
"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/rport" --fake-mode redirect 2>"$T/rfake.err" &
rfake=$!
trap 'kill $fake $kfake $rfake 2>/dev/null; rm -rf "$T"' EXIT
i=0
while [ ! -s "$T/rport" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
cp sworn.conf sworn.conf.keep
printf '[endpoint "moved"]\nurl = http://127.0.0.1:%s\n[role "mover"]\nendpoint = moved\n' \
	"$(cat "$T/rport")" >>sworn.conf
run 2 "$SWORN" ask mover hi
has "$T/err" "endpoint 'moved' answered HTTP 302, a redirect to 'http://203.0.113.7:8080/v1/chat/completions', which sworn does not follow"
lacks "$T/err" "HTTP 0"
kill $rfake 2>/dev/null
mv sworn.conf.keep sworn.conf

echo "[endpoint \"bad\"]" >>sworn.conf
echo "urll = http://127.0.0.1:1" >>sworn.conf
run 2 "$SWORN" models
has "$T/err" "sworn.conf:$(wc -l <sworn.conf | tr -d ' '): unknown key 'urll' in [endpoint \"bad\"]"

done_testing
