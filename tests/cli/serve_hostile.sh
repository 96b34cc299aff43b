#!/bin/sh
# sworn serve against an evidence page that draws without end: a PDF of a
# few KB whose page draws a form that draws a form ... (seven levels of ten:
# ten million draws).  Its text imports within the page bounds; its image
# is drawn by a worker process with limits, which is killed past them: the
# request is answered with an error, the server goes on answering others
# (four views of the page at once included), and SIGTERM stops it while a
# worker is drawing, the worker with it.  Waits below are liveness limits
# (generous, for a loaded machine), never a speed asserted.
. "$SW_SRC/tests/cli/lib.sh"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

# json FILE EXPR: a value of the JSON in FILE (python, j = the document).
json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)' "$1" "$2"
}

mkdir "$T/in"
python3 - "$T/in/hostile.pdf" <<'PY'
import sys
objs = {
    1: b"<< /Type /Catalog /Pages 2 0 R >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>",
    3: b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >>"
       b" /XObject << /X 6 0 R >> >> >>",
    5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
}
def stream(dict_, data):
    return b"<< " + dict_ + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
objs[4] = stream(b"", b"BT /F1 12 Tf 72 720 Td (Exhibit 7: the hostile page) Tj ET\n"
                      + b"/X Do " * 10)
for k in range(6, 13):  # forms 6..12, each drawing the next ten times
    if k < 12:
        body = b"q 0.9 0 0 0.9 1 1 cm /X Do Q " * 10
        res = b"/Resources << /XObject << /X %d 0 R >> >>" % (k + 1)
    else:
        body = b"0 0 m 600 780 l S 0 780 m 600 0 l S"
        res = b"/Resources << >>"
    objs[k] = stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] " + res, body)
out = bytearray(b"%PDF-1.4\n")
off = {}
for k in sorted(objs):
    off[k] = len(out)
    out += b"%d 0 obj\n" % k + objs[k] + b"\nendobj\n"
xref = len(out)
n = max(objs) + 1
out += b"xref\n0 %d\n0000000000 65535 f \n" % n
for k in range(1, n):
    out += b"%010d 00000 n \n" % off[k]
out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (n, xref)
open(sys.argv[1], "wb").write(out)
PY
eq "a few KB" "$(($(wc -c <"$T/in/hostile.pdf") < 8192))" 1
"$SWORN" init -q "$T/ws" || exit 1
cd "$T/ws" || exit 1
"$SWORN" matter new acme >/dev/null || exit 1
run 0 "$SWORN" ingest -m acme "$T/in"
run 0 "$SWORN" ingest -m acme "$SW_SRC/examples/acme/pdf"

# start_serve ARGS...: a server on a free port; $spid, $B, $TOK.
start_serve() {
	rm -f "$T/port"
	"$SWORN" serve -m acme --port 0 --port-file "$T/port" "$@" >"$T/serve.out" \
		2>"$T/serve.err" &
	spid=$!
	pids="$pids $spid"
	i=0
	while [ ! -s "$T/port" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	B="http://127.0.0.1:$(cat "$T/port")"
	TOK=$(cat serve.token)
}
# get URL [CURL-ARGS...]: the status into $code, the body into $T/body; at
# most 120 s (a liveness limit).
get() {
	u=$1
	shift
	code=$(curl -s -g -m 120 -o "$T/body" -w '%{http_code}' \
		-H "Authorization: Bearer $TOK" "$@" "$B$u")
}
# gone PID SECONDS: whether PID has ended within SECONDS.
gone() {
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt $(($2 * 20)) ]; do sleep 0.05; i=$((i + 1)); done
	! kill -0 "$1" 2>/dev/null
}

start_serve --render-cpu 2
get /api/m/acme/docs
hostile=$(json "$T/body" '[d["id"] for d in j["documents"] if d["name"] == "hostile.pdf"][0]')
good=$(json "$T/body" '[d["id"] for d in j["documents"] if d["name"] == "purchase-order-4471.pdf"][0]')
get "/api/m/acme/page?doc=$hostile&page=1"
eq "its text" "$code" 200
has "$T/body" "Exhibit 7: the hostile page"
eq "an image is offered" "$(json "$T/body" 'j["has_image"]')" true

get "/api/m/acme/page.png?doc=$hostile&page=1"
eq "the image: refused" "$code" 413
has "$T/body" "takes more than a page may to draw"
has "$T/body" "its text is shown"
get "/api/m/acme/page.png?doc=$good&page=1"
eq "another page's image" "$code" 200
eq "a PNG" "$(head -c 4 "$T/body" | od -An -tx1 | tr -d ' \n')" 89504e47

# four views at once: each is refused or told to retry; meanwhile the
# server answers
for k in 1 2 3 4; do
	curl -s -g -m 120 -o "$T/view$k" -w '%{http_code}' -H "Authorization: Bearer $TOK" \
		"$B/api/m/acme/page.png?doc=$hostile&page=1" >"$T/code$k" &
	eval "view$k=\$!"
done
sleep 0.5
get /api/session
eq "answers while four views draw" "$code" 200
get "/api/m/acme/page?doc=$good&page=1"
eq "a page's text meanwhile" "$code" 200
for k in 1 2 3 4; do
	eval "wait \$view$k"
	case $(cat "$T/code$k") in
	413 | 503) eq "view $k" ok ok ;;
	*) eq "view $k" "$(cat "$T/code$k")" "413 or 503" ;;
	esac
done
get "/api/m/acme/page.png?doc=$good&page=1"
eq "after them, an image" "$code" 200
kill $spid
gone $spid 20
eq "stopped" "$?" 0

# SIGTERM while a worker draws (with the default bound of 30 s of CPU)
start_serve
curl -s -g -m 120 -o /dev/null -H "Authorization: Bearer $TOK" \
	"$B/api/m/acme/page.png?doc=$hostile&page=1" &
view=$!
pids="$pids $view"
worker=""
i=0
while [ -z "$worker" ] && [ $i -lt 400 ]; do
	for s in $(ps -o pid= --ppid "$spid"); do
		worker=$(ps -o pid= --ppid "$s" | tr -d ' ' | head -n 1)
		[ -n "$worker" ] && break
	done
	[ -z "$worker" ] && sleep 0.05
	i=$((i + 1))
done
eq "a worker draws" "$([ -n "$worker" ] && echo yes)" yes
eq "named so" "$(cat "/proc/$worker/comm" 2>/dev/null)" sworn-render
kill -TERM $spid
gone $spid 20
eq "SIGTERM stops it while a page draws" "$?" 0
wait $spid
eq "exit status" "$?" 0
gone "${worker:-0}" 20
eq "the worker with it" "$?" 0
has "$T/serve.err" "stopped (SIGTERM)"
done_testing
