#!/bin/sh
# sworn against a real llama-server: the one scripts/real-server builds
# from the llama.cpp source that node-llama-cpp ships (scripts/install-deps
# runs it), serving a tiny qwen2 model with Qwen's real tokenizer that
# tests/tools/tiny_gguf.py writes here.  The server's own endpoints
# (/health while loading, /props, /slots, /tokenize, the API key, CORS),
# then sworn models, sworn ask (streamed, --json, a JSON schema, a prompt
# over the slot's context) through the key, and sworn draft end to end: the
# reviewer's JSON answered under its schema, the draft of made-up words
# blocked by the verifier.  No check reads a wall-clock
# time.  Without the built server the test fails and says how to build it.
. "$(dirname "$0")/lib.sh"

dir=$("$SW_SRC/scripts/real-server" --dir)
if ! "$SW_SRC/scripts/real-server" --check 2>/dev/null; then
	echo "FAIL: no real llama-server in $dir: run scripts/install-deps (it builds one, 10-15 minutes the first time)"
	exit 1
fi
LS=$dir/bin/llama-server
HTTP="python3 $SW_SRC/tests/tools/http_req.py"
python3 "$SW_SRC/tests/tools/tiny_gguf.py" "$dir/models/ggml-vocab-qwen2.gguf" "$T/tiny.gguf" ||
	{ echo "FAIL: tiny_gguf.py wrote no model"; exit 1; }

KEY=sworn-test-key-0123456789abcdef
printf '%s\n' "$KEY" >"$T/key"
chmod 600 "$T/key"

# A free port (the kernel's pick, released for the server to take).
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

srv=
trap 'if [ -n "$srv" ]; then kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null; fi; rm -rf "$T"' EXIT

# start_server ARGS...: the real server on a free port with ARGS, waited
# for until /health answers 200.  The poller starts first, so that it sees
# the port refused, then the server's answers while it loads (half a second
# for the tiny model's 151,936 tokens), then 200: each in $T/health.
start_server() {
	PORT=$(free_port)
	URL=http://127.0.0.1:$PORT
	$HTTP --wait-health "$URL" 120 >"$T/health" &
	poller=$!
	i=0
	while [ ! -s "$T/health" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	"$LS" -m "$T/tiny.gguf" --host 127.0.0.1 --port "$PORT" -t 1 "$@" >"$T/server.log" 2>&1 &
	srv=$!
	if ! wait "$poller"; then
		echo "FAIL: the real llama-server never answered /health 200"
		cat "$T/health" "$T/server.log"
		exit 1
	fi
}

stop_server() {
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	srv=
}

# ---- the build: its version line, and the flags sworn passes
run 0 "$LS" --version
has "$T/err" "version: "
"$LS" --help >"$T/help" 2>&1
for flag in --api-key-file --cors-origins --no-cors-credentials --no-webui --flash-attn --fit \
	-ctk -ctv -np -ngl -sm -ts; do
	has "$T/help" "$flag"
done

# ---- loading: /health is 503 "Loading model" until the model is in, then 200
start_server -c 8192 -np 2 --api-key-file "$T/key" --cors-origins none --no-cors-credentials --no-webui
eq "health answers" "$(uniq "$T/health")" 'refused
503 {"error":{"message":"Loading model","type":"unavailable_error","code":503}}
200 {"status":"ok"}'
has "$T/server.log" "listening on http://127.0.0.1:$PORT"
lacks "$T/server.log" "CORS is set to allow all origins"

# ---- the API key: every endpoint but /health and /models needs it
AUTH="Authorization: Bearer $KEY"
$HTTP "$URL/props" >"$T/out"
eq "/props without the key" "$(head -n 1 "$T/out")" 401
has "$T/out" "Invalid API Key"
$HTTP "$URL/props" GET "" "Authorization: Bearer wrong" >"$T/out"
eq "/props with a wrong key" "$(head -n 1 "$T/out")" 401
$HTTP "$URL/v1/chat/completions" POST '{"messages":[{"role":"user","content":"hi"}],"max_tokens":1}' >"$T/out"
eq "a completion without the key" "$(head -n 1 "$T/out")" 401

# ---- /props, /slots: two slots of 4096 tokens, the model and its template
$HTTP "$URL/props" GET "" "$AUTH" >"$T/out"
eq "/props status" "$(head -n 1 "$T/out")" 200
has "$T/out" '"total_slots":2'
has "$T/out" '"n_ctx":4096'
has "$T/out" '"build_info":"b'
has "$T/out" "tiny.gguf"
has "$T/out" "<|im_start|>"
$HTTP "$URL/slots" GET "" "$AUTH" >"$T/out"
eq "/slots status" "$(head -n 1 "$T/out")" 200
eq "slots" "$(tail -n 1 "$T/out" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(len(s), [x["n_ctx"] for x in s], [x["is_processing"] for x in s])')" \
	"2 [4096, 4096] [False, False]"

# ---- /tokenize: Qwen's tokenizer, as llama.cpp's own vocab tests have it
$HTTP "$URL/tokenize" POST '{"content":"Hello, world!"}' "$AUTH" >"$T/out"
has "$T/out" '{"tokens":[9707,11,1879,0]}'
$HTTP "$URL/tokenize" POST '{"content":" this is \ud83e\udd99.cpp"}' "$AUTH" >"$T/out"
has "$T/out" '{"tokens":[419,374,11162,99,247,13,10821]}'
$HTTP "$URL/tokenize" POST '{"content":"<|im_start|>user","parse_special":true}' "$AUTH" >"$T/out"
has "$T/out" '{"tokens":[151644,872]}'

# ---- CORS: no browser origin is allowed, none is echoed, no credentials
$HTTP "$URL/v1/chat/completions" OPTIONS "" "Origin: http://evil.example" \
	"Access-Control-Request-Method: POST" "Access-Control-Request-Headers: authorization" >"$T/out"
lacks "$T/out" "access-control-allow-origin: http://evil.example"
lacks "$T/out" "access-control-allow-origin: *"
has "$T/out" "access-control-allow-credentials: false"
$HTTP "$URL/health" GET "" "Origin: http://localhost:8080" >"$T/out"
lacks "$T/out" "access-control-allow-origin: http://localhost"
# ---- the web chat is off
$HTTP "$URL/" GET "" "$AUTH" >"$T/out"
lacks "$T/out" "<html"

# ---- sworn against it, with the key (api_key_file) and without
"$SWORN" init -q "$T/ws" || exit 1
cat >>"$T/ws/sworn.conf" <<CONF
[endpoint "real"]
url = $URL
api_key_file = $T/key
[endpoint "keyless"]
url = $URL
[role "drafter"]
endpoint = real
temperature = 0.8
max_tokens = 8
[role "stranger"]
endpoint = keyless
[role "quiet"]
endpoint = real
max_tokens = 4
reasoning = off
reasoning_budget = 16
CONF
cd "$T/ws" || exit 1

run 0 "$SWORN" models
has "$T/out" "real  $URL"
has "$T/out" "health  ready"

# Streamed: words on stdout, the server's timings on stderr.
run 0 "$SWORN" ask drafter Say hello
checks=$((checks + 1))
if ! grep -q '[a-z][a-z][a-z]' "$T/out"; then
	echo "FAIL: the streamed answer holds no word"
	cat "$T/out"
	failures=$((failures + 1))
fi
lacks "$T/out" "<|"
has "$T/err" "sworn: real · prompt "
has "$T/err" "answer 8 tok"
has "$T/err" "length"

run 0 "$SWORN" ask --json --max-tokens 4 drafter Say hello
eq "ask --json" "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
t=j["timings"]
print(j["endpoint"], j["finish_reason"], t["predicted_n"], t["prompt_n"] + t["cache_n"] > 5, len(j["content"]) > 0, j["usage"]["completion_tokens"])' "$T/out")" \
	"real length 4 True True 4"

# A role's reasoning settings: this build's /props lists chat_template_caps,
# so they are sent (chat_template_kwargs, thinking_budget_tokens), and it
# answers them; nothing is left unsent.
run 0 "$SWORN" ask --json quiet Say hello
eq "reasoning settings taken" "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
print(j["finish_reason"], j["reasoning_note"], j["usage"]["completion_tokens"])' "$T/out")" \
	"length None 4"

# The key is what lets sworn in: the same server without it is refused.
run 2 "$SWORN" ask stranger hi
has "$T/err" "401"

# A JSON schema: the server's grammar holds the answer to it.
cat >"$T/schema.json" <<'EOF'
{"type": "object", "properties": {"verdict": {"enum": ["supported", "unsupported"]},
 "pages": {"type": "integer", "minimum": 1, "maximum": 9}},
 "required": ["verdict", "pages"], "additionalProperties": false}
EOF
run 0 "$SWORN" ask --json --max-tokens 200 --schema "$T/schema.json" drafter Is the claim supported
eq "schema answer" "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
a=json.loads(j["content"])
print(j["finish_reason"], sorted(a), a["verdict"] in ("supported","unsupported"), 1 <= a["pages"] <= 9)' "$T/out")" \
	"stop ['pages', 'verdict'] True True"

# A prompt over the slot's 4096 tokens: the server refuses it, and sworn
# says so in one line.
python3 -c 'print("the record shows " * 1500)' >"$T/long"
run 2 sh -c "'$SWORN' ask drafter - <'$T/long'"
has "$T/err" "exceed"
lines "$T/err" 1

# ---- sworn draft end to end: every step on the real server
"$SWORN" matter new acme >/dev/null || exit 1
"$SWORN" ingest -m acme "$SW_TEST_DATA/acme-mini" >/dev/null 2>&1 || exit 1
cp "$SW_TEST_DATA/pipeline/brief.md" brief.md
cat >>sworn.conf <<CONF
[role "reviewer"]
endpoint = real
max_tokens = 400
[role "reasoner"]
endpoint = real
max_tokens = 32
CONF
sed -i '/^\[role "drafter"\]/,/^\[/s/^max_tokens = 8$/max_tokens = 48/' sworn.conf
run 1 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/out" "run 1: blocked after 3 revision rounds"
has "$T/err" "review done on real"
eq "steps" "$(sql acme "SELECT group_concat(k, ' ') FROM (SELECT key || ':' || status AS k FROM run_steps WHERE run_id = 1 ORDER BY id)")" \
	"draft:done verify#0:done review:done revise#1:done verify#1:done revise#2:done verify#2:done revise#3:done verify#3:done"
eq "run status" "$(sql acme 'SELECT status FROM runs WHERE id = 1')" blocked
# The review is JSON under the reviewer's schema (else the step fails).
run 0 "$SWORN" run show 1 -m acme
has "$T/out" "findings"
eq "the reviewer's model" "$(basename "$(sql acme "SELECT model FROM run_steps WHERE run_id = 1 AND key = 'review'")")" \
	tiny.gguf

# A review cut short (its max_tokens too small for the JSON): the run
# pauses at that step; given room, run resume finishes it, the draft kept.
sed -i '/^\[role "reviewer"\]/,/^\[/s/^max_tokens = 400$/max_tokens = 6/' sworn.conf
run 1 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/out" "run 2: paused"
has "$T/out" "sworn run resume 2"
eq "paused at" "$(sql acme "SELECT key || ':' || status FROM run_steps WHERE run_id = 2 AND status != 'done'")" \
	"review:failed"
sed -i '/^\[role "reviewer"\]/,/^\[/s/^max_tokens = 6$/max_tokens = 400/' sworn.conf
run 1 "$SWORN" run resume 2 -m acme
has "$T/out" "run 2: blocked after 3 revision rounds"
eq "draft not redone" "$(sql acme "SELECT count(*) FROM run_steps WHERE run_id = 2 AND key = 'draft'")" 1
eq "resumed run" "$(sql acme 'SELECT status FROM runs WHERE id = 2')" blocked

stop_server
done_testing
