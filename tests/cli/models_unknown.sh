# sworn models against a server that answers /health but not /v1/models,
# and one whose /props says nothing: not "ready", and unknown is not 0.
. "$SW_SRC/tests/cli/lib.sh"

# A server as a proxy or an older build answers: MODE=nomodels fails
# /v1/models with a 500, MODE=bareprops answers /props with {} and no /slots.
cat >"$T/server.py" <<'PY'
import http.server, json, sys
mode, portfile = sys.argv[1], sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def reply(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def do_GET(self):
        if self.path == "/health":
            self.reply(200, {"status": "ok"})
        elif self.path in ("/v1/models", "/models"):
            if mode == "nomodels":
                self.reply(500, {"error": {"code": 500, "message": "model registry unavailable"}})
            else:
                self.reply(200, {"object": "list", "data": [{"id": "bare-model"}]})
        elif self.path == "/props":
            self.reply(200, {})
        else:
            self.reply(501, {"error": {"code": 501, "message": "not supported"}})
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(portfile, "w").write(str(s.server_address[1]))
s.serve_forever()
PY
pids=""
trap 'kill $pids 2>/dev/null; rm -rf "$T"' EXIT
for mode in nomodels bareprops; do
	python3 "$T/server.py" $mode "$T/port.$mode" &
	pids="$pids $!"
done
for mode in nomodels bareprops; do
	i=0
	while [ ! -s "$T/port.$mode" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
done

"$SWORN" init -q "$T/ws" || exit 1
cat >>"$T/ws/sworn.conf" <<CONF
[endpoint "nomodels"]
url = http://127.0.0.1:$(cat "$T/port.nomodels")
[endpoint "bareprops"]
url = http://127.0.0.1:$(cat "$T/port.bareprops")
CONF
cd "$T/ws" || exit 1

run 0 "$SWORN" models
has "$T/out" "health  broken: "
has "$T/out" "model registry unavailable"
lacks "$T/out" "health  ready: "
has "$T/out" "model   bare-model"
has "$T/out" "context ? per slot, ? slots"
lacks "$T/out" "context 0"
lacks "$T/out" " 0 slots"

run 0 "$SWORN" models --json
eq "health without /v1/models" "$(jq -r '.endpoints[] | select(.name == "nomodels") | .health' "$T/out")" broken
eq "unknown n_ctx" "$(jq -r '.endpoints[] | select(.name == "bareprops") | .server.n_ctx' "$T/out")" null
eq "unknown slots" "$(jq -r '.endpoints[] | select(.name == "bareprops") | .server.total_slots' "$T/out")" null
eq "unknown idle" "$(jq -r '.endpoints[] | select(.name == "bareprops") | .server.idle_slots' "$T/out")" null
eq "still ready" "$(jq -r '.endpoints[] | select(.name == "bareprops") | .health' "$T/out")" ready

done_testing
