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
python3 "$SW_SRC/tests/cli/hostile_pdf.py" "$T/in/hostile.pdf" || exit 1
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
has "$T/body" "more than a page may"
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
# the helper's child that draws, once it has taken its name (a process
# forked a moment ago may still bear its parent's)
while [ -z "$worker" ] && [ $i -lt 400 ]; do
	for s in $(ps -o pid= --ppid "$spid"); do
		for c in $(ps -o pid= --ppid "$s"); do
			[ "$(cat "/proc/$c/comm" 2>/dev/null)" = sworn-render ] && worker=$c
		done
		[ -n "$worker" ] && break
	done
	[ -z "$worker" ] && sleep 0.05
	i=$((i + 1))
done
eq "a worker named sworn-render draws" "$([ -n "$worker" ] && echo yes)" yes
kill -TERM $spid
gone $spid 20
eq "SIGTERM stops it while a page draws" "$?" 0
wait $spid
eq "exit status" "$?" 0
gone "${worker:-0}" 20
eq "the worker with it" "$?" 0
has "$T/serve.err" "stopped (SIGTERM)"
done_testing
