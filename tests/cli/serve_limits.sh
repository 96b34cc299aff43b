#!/bin/sh
# sworn serve's bounds on one request, from outside: a request whose
# headers trickle in (slowloris) is cut at the request deadline while
# other clients are answered; two Host headers or two different
# Content-Length values are answered 400; a pasted draft past the page's
# size or claim count is refused with a line saying what to do; and bound
# to 0.0.0.0 with --allow-remote the server answers to this machine's real
# addresses and host name, not only "Host: 0.0.0.0".  Waits are liveness
# limits (generous, for a loaded machine), never a speed asserted.
. "$SW_SRC/tests/cli/lib.sh"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)' "$1" "$2"
}

"$SWORN" init -q "$T/ws" || exit 1
cd "$T/ws" || exit 1
"$SWORN" matter new acme >/dev/null || exit 1
"$SWORN" ingest -m acme "$SW_TEST_DATA/acme-mini" >/dev/null 2>&1 || exit 1

# start_serve ARGS...: a server on a free port; $spid, $P, $TOK.
start_serve() {
	rm -f "$T/port"
	"$SWORN" serve -m acme --port 0 --port-file "$T/port" "$@" >"$T/serve.out" \
		2>"$T/serve.err" &
	spid=$!
	pids="$pids $spid"
	i=0
	while [ ! -s "$T/port" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	P=$(cat "$T/port")
	TOK=$(cat serve.token)
}
# raw_http HOST REQUEST-IN-PYTHON-BYTES: the status line of the answer to
# the bytes sent as they are.
raw_http() {
	python3 - "$1" "$P" "$2" <<'PY'
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=60)
s.sendall(eval(sys.argv[3]))
data = b""
while b"\r\n" not in data:
    chunk = s.recv(4096)
    if not chunk:
        break
    data += chunk
print(data.split(b"\r\n")[0].decode(errors="replace"))
PY
}

start_serve --request-timeout 2
A="Authorization: Bearer $TOK"

# ----------------------------------------------- headers said twice
eq "one Host" "$(raw_http 127.0.0.1 "b'GET /api/matters HTTP/1.1\\r\\nHost: 127.0.0.1:$P\\r\\n$A\\r\\nConnection: close\\r\\n\\r\\n'")" \
	"HTTP/1.1 200 OK"
eq "two Host headers" "$(raw_http 127.0.0.1 "b'GET /api/matters HTTP/1.1\\r\\nHost: 127.0.0.1:$P\\r\\nHost: evil.example\\r\\n$A\\r\\n\\r\\n'")" \
	"HTTP/1.1 400 Bad Request"
eq "the same Host twice" "$(raw_http 127.0.0.1 "b'GET /api/matters HTTP/1.1\\r\\nHost: 127.0.0.1:$P\\r\\nHost: 127.0.0.1:$P\\r\\n$A\\r\\n\\r\\n'")" \
	"HTTP/1.1 400 Bad Request"
eq "two Content-Length values" "$(raw_http 127.0.0.1 "b'POST /api/m/acme/verify HTTP/1.1\\r\\nHost: 127.0.0.1:$P\\r\\n$A\\r\\nContent-Length: 2\\r\\nContent-Length: 40\\r\\n\\r\\n{}'")" \
	"HTTP/1.1 400 Bad Request"

# ----------------------------------------------- slowloris
# headers a byte at a time, one every 0.4 s, for up to 60 s: cut at the
# deadline (2 s here), while another client is answered meanwhile
python3 - "$P" >"$T/slow" <<'PY' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
s.sendall(b"GET /api/matters HTTP/1.1\r\nHost: 127.0.0.1:" + sys.argv[1].encode() + b"\r\n")
t0 = time.monotonic()
try:
    while time.monotonic() - t0 < 60:
        s.sendall(b"X")
        time.sleep(0.4)
    print("still open")
except OSError:
    print("closed")
PY
slow=$!
sleep 0.5
code=$(curl -s -m 60 -o /dev/null -w '%{http_code}' -H "$A" "http://127.0.0.1:$P/api/matters")
eq "answered while one trickles" "$code" 200
wait $slow
eq "the trickling request is cut" "$(cat "$T/slow")" closed
# a whole request in one go still passes, on a connection kept alive
eq "after it" "$(raw_http 127.0.0.1 "b'GET /api/matters HTTP/1.1\\r\\nHost: 127.0.0.1:$P\\r\\n$A\\r\\n\\r\\n'")" \
	"HTTP/1.1 200 OK"

# ----------------------------------------------- the work of one request
get_session() {
	curl -s -m 60 -H "$A" "http://127.0.0.1:$P/api/session" >"$T/session.json"
	CSRF=$(json "$T/session.json" 'j["csrf"]')
}
get_session
eq "the limits said" "$(json "$T/session.json" '(j["limits"]["draft_bytes"], j["limits"]["claims"])')" \
	"(1048576, 5000)"
# verify FILE: POST it as pasted text
verify() {
	code=$(curl -s -m 120 -o "$T/body" -w '%{http_code}' -H "$A" -H "X-CSRF-Token: $CSRF" \
		-H 'Content-Type: application/json' --data-binary "@$1" \
		"http://127.0.0.1:$P/api/m/acme/verify")
}
python3 -c 'import json; print(json.dumps({"text": "word " * 220000}))' >"$T/big.json"
verify "$T/big.json"
eq "a draft over a MiB" "$code" 413
has "$T/body" "at most 1048576"
has "$T/body" "sworn verify -m acme FILE"
python3 -c 'import json; print(json.dumps({"text": " ".join("See ACME%07d." % (i % 9 + 1) for i in range(6000))}))' >"$T/many.json"
verify "$T/many.json"
eq "6,000 claims" "$code" 413
has "$T/body" "has 6000 claims"
has "$T/body" "at most 5000"
printf '{"text": "The order shipped (ACME0000004)."}' >"$T/small.json"
verify "$T/small.json"
eq "a draft within them" "$code" 200
kill $spid
wait $spid

# ----------------------------------------------- 0.0.0.0: the machine's names
start_serve --bind 0.0.0.0 --allow-remote
A="Authorization: Bearer $TOK" # a new token at each start
# host HOST-HEADER: the status of /api/matters asked with that Host
host() {
	curl -s -m 60 -o /dev/null -w '%{http_code}' -H "$A" -H "Host: $1" \
		"http://127.0.0.1:$P/api/matters"
}
eq "Host: 0.0.0.0" "$(host "0.0.0.0:$P")" 200
eq "Host: 127.0.0.1" "$(host "127.0.0.1:$P")" 200
eq "Host: localhost" "$(host "localhost:$P")" 200
name=$(hostname)
eq "Host: the host name ($name)" "$(host "$name:$P")" 200
eq "Host: another name" "$(host "evil.example:$P")" 403
eq "Host: another port" "$(host "$name:1")" 403
for addr in $(hostname -I 2>/dev/null); do
	case $addr in *:*) continue ;; *) h=$addr ;; esac # 0.0.0.0 is IPv4
	eq "Host: $h" "$(host "$h:$P")" 200
	code=$(curl -s -m 60 -o /dev/null -w '%{http_code}' -H "$A" "http://$h:$P/api/matters")
	eq "reached at $h" "$code" 200
done
kill $spid
wait $spid
done_testing
