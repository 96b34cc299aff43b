#!/bin/sh
# sworn serve, from outside, with curl: the security of every request (no
# token, the token swapped for a session (no cookie), Host, Origin, CSRF, paths that
# climb out, a document whose text is HTML, the address it listens on) and
# the JSON API over a matter with a run seeded through the CLI against the
# llama-server test double (as draft.sh does): documents, search, pages
# and their images, runs, the context audit, the draft with its report,
# saved edits and their conflicts, the verifier on pasted text and an
# uploaded .docx, approval refused and then overridden, seen by the CLI.
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
D="$SW_TEST_DATA/pipeline"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

# json FILE EXPR: a value of the JSON in FILE (python, j = the document).
json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)' "$1" "$2"
}

# ---------------------------------------------- a matter with one run
"$SWORN" init -q "$T/ws" || exit 1
cat >>"$T/ws/sworn.conf" <<'CONF'
[endpoint "board-a"]
url = http://127.0.0.1:1
[role "drafter"]
endpoint = board-a
[role "reviewer"]
endpoint = board-a
[role "reasoner"]
endpoint = board-a
CONF
cd "$T/ws" || exit 1
"$SWORN" matter new acme >/dev/null || exit 1
"$SWORN" ingest -m acme "$SW_TEST_DATA/acme-mini" >/dev/null 2>&1 || exit 1
"$SWORN" ingest -m acme "$SW_SRC/examples/acme/pdf" >/dev/null 2>&1 || exit 1
mkdir hostile
printf 'Memo <script>alert(1)</script> and "><img src=x onerror=alert(2)> end.\n' >hostile/memo.txt
"$SWORN" ingest -m acme hostile >/dev/null 2>&1 || exit 1
cat >"$T/fake.ini" <<INI
[answer "judge"]
match = <<<SENTENCE>>>
text = {"supported": false, "span": "", "reason": "the scripted judge doubts it"}
[answer "review"]
match = opposing counsel's most careful associate
file = $D/review.json
[answer "revise"]
match = Revise the declaration
file = $D/draft-fixed.md
[answer "draft"]
file = $D/draft-invented.md
INI
"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/fport" --fake-script "$T/fake.ini" \
	--fake-log "$T/req" -a fake-drafter-35b 2>"$T/fake.err" &
pids="$pids $!"
i=0
while [ ! -s "$T/fport" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
sed -i "s|^url = http://127.0.0.1:1$|url = http://127.0.0.1:$(cat "$T/fport")|" sworn.conf
run 0 "$SWORN" draft -m acme --task declaration --brief "$D/brief.md"
has "$T/out" "run 1: verified"

# -------------------------------------------------------- the server
run 2 "$SWORN" serve -m nosuch --port 0
run 2 "$SWORN" serve --bind 192.0.2.1 --port 0
has "$T/err" "--allow-remote"
run 2 "$SWORN" serve --allow-remote --port 0
"$SWORN" serve -m acme --port 0 --port-file "$T/port" >"$T/serve.out" 2>"$T/serve.err" &
spid=$!
pids="$pids $spid"
i=0
while [ ! -s "$T/port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
P=$(cat "$T/port")
B="http://127.0.0.1:$P"
TOK=$(cat serve.token)
eq "token file mode" "$(stat -c %a serve.token)" 600
eq "token" "$(printf '%s' "$TOK" | tr -d '0-9a-f' | wc -c)$(printf '%s' "$TOK" | wc -c)" "064"
has "$T/serve.out" "sworn serve: http://127.0.0.1:$P/?token=$TOK"

# get URL [CURL-ARGS...]: the status into $code, the body into $T/body,
# the headers into $T/head, with the token as a Bearer header.
get() {
	u=$1
	shift
	code=$(curl -s -g -o "$T/body" -D "$T/head" -w '%{http_code}' \
		-H "Authorization: Bearer $TOK" "$@" "$B$u")
}
# raw URL [CURL-ARGS...]: the same without the token.
raw() {
	u=$1
	shift
	code=$(curl -s -g -o "$T/body" -D "$T/head" -w '%{http_code}' "$@" "$B$u")
}
# post URL FILE [CURL-ARGS...]: a POST with the CSRF token and FILE as body.
post() {
	u=$1 f=$2
	shift 2
	get "$u" -X POST -H "X-CSRF-Token: $CSRF" -H 'Content-Type: application/json' \
		--data-binary "@$f" "$@"
}

# -------------------------------------------------------- security
raw /api/session
eq "no token" "$code" 403
# the page and its assets hold nothing of the record: served to anyone
# (the first visit's script swaps the token for a session); no cookie
raw /
eq "no token, page" "$code" 200
has "$T/head" "Content-Type: text/html"
raw /assets/app.js
eq "no token, asset" "$code" 200
# the page is ES modules: index.html loads app.js as one, and every module
# it imports (and they import) is served as JavaScript under the page's CSP;
# every script of src/web/assets/ is one of them (or marks.js, a classic one)
raw /
has "$T/body" '<script type="module" src="/assets/app.js"></script>'
has "$T/body" '<script src="/assets/marks.js" defer></script>'
seen=" " todo="app.js marks.js"
while [ -n "$todo" ]; do
	next=""
	for m in $todo; do
		case $seen in *" $m "*) continue ;; esac
		seen="$seen$m "
		raw "/assets/$m"
		eq "script $m" "$code" 200
		has "$T/head" "Content-Type: text/javascript; charset=utf-8"
		has "$T/head" "Content-Security-Policy: default-src 'self'; script-src 'self';"
		next="$next $(sed -n "s|.* from '\./\([A-Za-z0-9_-]*\.js\)';\$|\1|p" "$T/body" | tr '\n' ' ')"
	done
	todo=$next
done
for f in "$SW_SRC"/src/web/assets/*.js; do
	case $seen in *" ${f##*/} "*) ;; *) eq "${f##*/} is loaded by the page" no yes ;; esac
done
raw "/?token=$TOK"
eq "the first visit" "$code" 200
lacks "$T/head" "Set-Cookie"
raw /api/session -H "Authorization: Bearer 0000"
eq "wrong bearer" "$code" 403
raw "/api/session?token=$TOK"
eq "no token in a query" "$code" 403
get /api/session
eq "bearer" "$code" 200
has "$T/head" "Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
lacks "$T/head" "Set-Cookie"
S=$(json "$T/body" 'j["session"]')
eq "a session" "$(printf '%s' "$S" | tr -d '0-9a-f' | wc -c)$(printf '%s' "$S" | wc -c)" "064"
eq "its life" "$(json "$T/body" 'j["session_ttl_s"]')" 28800
raw /api/session -H "Authorization: Bearer $S"
eq "the session: the API" "$code" 200
eq "the same session" "$(json "$T/body" 'j["session"]')" "$S"
raw /api/matters -H "Cookie: sworn_session=$S"
eq "a cookie is no credential" "$code" 403
raw /api/matters -H "Authorization: Bearer ${S}0"
eq "a longer session" "$code" 403
get /api/session
has "$T/head" "X-Content-Type-Options: nosniff"
has "$T/head" "Referrer-Policy: no-referrer"
has "$T/head" "Cache-Control: no-store"
has "$T/head" "Content-Type: application/json"
eq "default matter" "$(json "$T/body" 'j["matter"]')" acme
CSRF=$(json "$T/body" 'j["csrf"]')
eq "csrf" "$(printf '%s' "$CSRF" | wc -c)" 64
get /api/session -H "Host: evil.example:$P"
eq "wrong Host" "$code" 403
get /api/session -H "Host: 127.0.0.1:1"
eq "wrong port in Host" "$code" 403
get /api/session -H "Host: localhost:$P"
eq "localhost" "$code" 200

printf '{"text": "No claims here."}' >"$T/paste.json"
post /api/m/acme/verify "$T/paste.json"
eq "verify" "$code" 200
get /api/m/acme/verify -X POST -H 'Content-Type: application/json' --data-binary "@$T/paste.json"
eq "no CSRF token" "$code" 403
get /api/m/acme/verify -X POST -H "X-CSRF-Token: $TOK" -H 'Content-Type: application/json' \
	--data-binary "@$T/paste.json"
eq "wrong CSRF token" "$code" 403
post /api/m/acme/verify "$T/paste.json" -H "Origin: http://evil.example"
eq "wrong Origin" "$code" 403
post /api/m/acme/verify "$T/paste.json" -H "Origin: http://127.0.0.1:$P"
eq "right Origin" "$code" 200
post /api/m/acme/verify "$T/paste.json" -H "Origin: http://localhost:$P" -H "Host: localhost:$P"
eq "right Origin by name" "$code" 200
get /api/m/acme/verify
eq "GET changes nothing" "$code" 405
get /api/m/acme/runs/1/approve
eq "approve is POST" "$code" 405
get /api/session -X DELETE
eq "other method" "$code" 405
head -c $((17 * 1024 * 1024)) /dev/zero | tr '\0' ' ' >"$T/big.json"
post /api/m/acme/verify "$T/big.json"
eq "body too big" "$code" 413
printf '{"text": "a", "text": "b"}' >"$T/dup.json"
post /api/m/acme/verify "$T/dup.json"
eq "duplicate keys" "$code" 400
printf '{"text": "\xff"}' >"$T/bad.json"
post /api/m/acme/verify "$T/bad.json"
eq "not UTF-8" "$code" 400
printf '[1]' >"$T/arr.json"
post /api/m/acme/verify "$T/arr.json"
eq "not an object" "$code" 400

# paths that climb out, spelled every way
for u in /assets/../web.h /assets/%2e%2e/web.h /assets/..%2fweb.h /assets/%2E%2E%2Fserver.c \
	'/assets/..\web.h' /assets/..%5cweb.h /assets/.hidden /assets//index.html \
	/assets/./index.html /assets/nosuch.js /api/m/../matters /api/m/%2e%2e/docs \
	/api/m/acme/../acme/docs /api/m/acme/runs/../runs /api/m/acme%2fdocs \
	/api/m/..%2f..%2fetc/docs /api/m/acme%2Fdocs /assets%2findex.html /api/m/acme%5cdocs \
	/api/m/acme/docs%00 /api/nosuch /api/m/acme/nosuch /nosuch; do
	get "$u" --path-as-is
	eq "traversal $u" "$code" 404
done
get /assets/index.html
eq "asset" "$code" 200
has "$T/head" "Content-Type: text/html; charset=utf-8"

# a document whose text is HTML comes back as a JSON string, escaped
get /api/m/acme/docs
eq "docs" "$code" 200
hid=$(json "$T/body" '[d["id"] for d in j["documents"] if d["name"] == "memo.txt"][0]')
get "/api/m/acme/page?doc=$hid&page=1"
eq "hostile page" "$code" 200
lacks "$T/body" "<script>"
lacks "$T/body" "<img"
has "$T/body" '\u003cscript\u003e'
eq "text as text" "$(json "$T/body" 'j["text"]')" \
	'Memo <script>alert(1)</script> and "><img src=x onerror=alert(2)> end.'
has "$T/head" "Content-Type: application/json"

# ids and numbers are range-checked
for q in "doc=0" "doc=-1" "doc=1e3" "doc=99999999999999999999" "doc=1&page=0" "doc=1&page=x" \
	"doc=" "page=1" "bates=NOTBATES"; do
	get "/api/m/acme/page?$q"
	eq "bad page ?$q" "$code" 400
done
get "/api/m/acme/page?doc=99999&page=1"
eq "no such document" "$code" 404
get "/api/m/acme/page?doc=1&page=999"
eq "no such page" "$code" 404
get "/api/m/acme/search?q=x&limit=0"
eq "bad limit" "$code" 400
get "/api/m/acme/search"
eq "no query" "$code" 400
get /api/m/nosuch/docs
eq "no such matter" "$code" 404
get /api/m/acme/runs/0
eq "run 0" "$code" 404
get /api/m/acme/runs/99
eq "no such run" "$code" 404
get /api/m/acme/runs/abc
eq "run abc" "$code" 404

# ------------------------------------------------- the record's API
get /api/matters
eq "matters" "$code" 200
eq "matter listed" "$(json "$T/body" '[m["name"] for m in j["matters"]]')" '["acme"]'
eq "its documents" "$(json "$T/body" 'j["matters"][0]["documents"] > 0')" true
get /api/m/acme/docs
"$SWORN" matter docs -m acme --json >"$T/cli-docs.json"
eq "docs as the CLI lists them" "$(json "$T/body" '[(d["id"], d["name"], d["origin"], d["status"], d["beg_bates"], d["end_bates"], d["pages"], d["source"], d["metadata"]) for d in j["documents"]]')" \
	"$(json "$T/cli-docs.json" '[(d["id"], d["name"], d["origin"], d["status"], d["beg_bates"], d["end_bates"], d["pages"], d["source"], d["metadata"]) for d in j["documents"]]')"
get "/api/m/acme/search?q=Brightline&limit=3"
eq "search" "$code" 200
eq "hits" "$(json "$T/body" '0 < len(j["hits"]) <= 3')" true
eq "marks in the snippet" "$(json "$T/body" 'all(h["snippet"].encode()[a:b].decode().lower() == "brightline" for h in j["hits"] for a, b in h["marks"])')" true
eq "hit fields" "$(json "$T/body" 'sorted(j["hits"][0].keys())')" \
	'["bates", "cite", "doc", "doc_id", "marks", "origin", "page", "score", "snippet"]'
get "/api/m/acme/page?bates=ACME0000003"
eq "page by Bates" "$code" 200
eq "its number" "$(json "$T/body" 'j["bates"]')" ACME0000003
eq "its metadata" "$(json "$T/body" '(j["metadata"]["custodian"], j["metadata"]["sent"]["date"], j["metadata"]["sent"]["as_written"])')" \
	"('Smith, Tom', '2021-03-03', '03/03/2021')"
eq "no image for text" "$(json "$T/body" 'j["has_image"]')" false
# one builder (record's sw_shown_page_json) for the page route and sworn show
"$SWORN" show -m acme --json ACME0000003 >"$T/cli-page.json"
eq "the page as sworn show --json gives it" \
	"$(json "$T/body" 'sorted((k, v) for k, v in j.items() if k != "has_image")')" \
	"$(json "$T/cli-page.json" 'sorted((k, v) for k, v in j.items() if k not in ("sworn", "schema", "matter"))')"
get "/api/m/acme/page.png?doc=$(json "$T/body" 'j["document_id"]')&page=1"
eq "no PDF, no image" "$code" 404
get "/api/m/acme/search?q=custodian:roe+date:2021-04&limit=5"
eq "search by field" "$(json "$T/body" '[h["bates"] for h in j["hits"]]')" '["ACME0000007"]'
get /api/m/acme/docs
pdf=$(json "$T/body" '[d["id"] for d in j["documents"] if d["name"] == "purchase-order-4471.pdf"][0]')
get "/api/m/acme/page?doc=$pdf&page=1"
eq "PDF page" "$code" 200
eq "has an image" "$(json "$T/body" 'j["has_image"]')" true
get "/api/m/acme/page.png?doc=$pdf&page=1"
eq "page image" "$code" 200
has "$T/head" "Content-Type: image/png"
eq "PNG" "$(head -c 8 "$T/body" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a
python3 - "$T/body" >"$T/png" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
w, h = struct.unpack(">II", d[16:24])
print("ok" if 300 < max(w, h) <= 2200 else "size %dx%d" % (w, h))
PY
eq "page image size" "$(cat "$T/png")" ok
get "/api/m/acme/page.png?doc=$pdf&page=99"
eq "no such PDF page" "$code" 404

# ---------------------------------------------------- the runs' API
get /api/m/acme/runs
eq "runs" "$code" 200
"$SWORN" run list -m acme --json >"$T/cli-runs.json"
eq "runs as the CLI lists them" "$(json "$T/body" 'j["runs"]')" "$(json "$T/cli-runs.json" 'j["runs"]')"
get /api/m/acme/runs/1
eq "run" "$code" 200
eq "run status" "$(json "$T/body" 'j["run"]["status"] if "run" in j else j["status"]')" verified
has "$T/body" '"revise#1"'
get "/api/m/acme/runs/1/context?step=draft"
eq "context" "$code" 200
"$SWORN" run context 1 draft -m acme --json >"$T/cli-ctx.json"
eq "context as the CLI gives it" "$(json "$T/body" 'j["violations"]')" "$(json "$T/cli-ctx.json" 'j["violations"]')"
has "$T/body" '"origin":"evidence"'
get /api/m/acme/runs/1/draft
eq "draft" "$code" 200
eq "draft version" "$(json "$T/body" 'j["version"]')" 0
eq "not edited" "$(json "$T/body" 'j["edited"]')" false
eq "draft text" "$(json "$T/body" 'j["text"]')" "$("$SWORN" run show 1 -m acme --draft)"
eq "its report passes" "$(json "$T/body" 'j["report"]["gate"]["pass"] if isinstance(j["report"]["gate"], dict) else j["report"]["gate"]')" \
	"$(json "$T/body" 'True if isinstance(j["report"]["gate"], dict) else "pass"')"
# the claims' offsets are into the text sent
eq "offsets into the text" "$(json "$T/body" '[(c["kind"], j["text"].encode()[c["start"]:c["end"]].decode(), c["text"]) for c in j["report"]["claims"] if j["text"].encode()[c["start"]:c["end"]].decode() != c["text"]]')" "[]"

# saved edits: versions, conflicts, survive a restart
python3 - "$T/body" >"$T/edit1.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(json.dumps({"text": j["text"] + "\n5. Brightline admitted fault (ACME0000998).\n", "base_version": 0}))
PY
post /api/m/acme/runs/1/draft "$T/edit1.json"
eq "saved" "$code" 200
eq "version 1" "$(json "$T/body" 'j["version"]')" 1
post /api/m/acme/runs/1/draft "$T/edit1.json"
eq "conflict" "$code" 409
eq "conflict: the version" "$(json "$T/body" 'j["version"]')" 1
has "$T/body" "admitted fault"
printf '{"text": "x", "base_version": -1}' >"$T/edit-bad.json"
post /api/m/acme/runs/1/draft "$T/edit-bad.json"
eq "bad base" "$code" 400
printf '{"base_version": 1}' >"$T/edit-bad.json"
post /api/m/acme/runs/1/draft "$T/edit-bad.json"
eq "no text" "$code" 400
post /api/m/acme/runs/99/draft "$T/edit1.json"
eq "edit of no run" "$code" 404
eq "stored" "$(sql acme 'SELECT version FROM draft_edits WHERE run_id = 1')" 1

kill $spid
wait $spid
eq "stops on SIGTERM" "$?" 0
has "$T/serve.err" "GET /api/session 200"
lacks "$T/serve.err" "$TOK"
# From here on sworn.conf names a judge: approval asks it, as sworn run
# approve does; the page's Verify never does.
cat >>sworn.conf <<'CONF'
[role "judge"]
endpoint = board-a
[verify]
judge = warn
CONF
# judged: the judge's requests the fake has logged.
judged() { grep -cF '<<<SENTENCE>>>' "$T/req" 2>/dev/null || true; }
# a version-5 matter (before draft_edits, run_steps.host and the metadata
# fields) is upgraded on open
version=$(sql acme 'PRAGMA user_version')
sql acme "CREATE TABLE keep AS SELECT * FROM draft_edits"
old_matter acme 5 keep || exit 1
"$SWORN" serve -m acme --port "$P" --port-file "$T/port2" --keep-token --by "Ann Lee" \
	>"$T/serve.out" 2>"$T/serve.err" &
spid=$!
pids="$pids $spid"
i=0
while [ ! -s "$T/port2" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
eq "same port" "$(cat "$T/port2")" "$P"
has "$T/serve.err" 'judge: [role "judge"] on endpoint board-a, judge = warn'
has "$T/serve.out" "?token=$TOK"
get /api/session
CSRF=$(json "$T/body" 'j["csrf"]')
get /api/m/acme/runs/1/draft
eq "upgraded" "$(sql acme 'PRAGMA user_version')" "$version"
eq "nothing saved in the old file" "$(json "$T/body" 'j["version"]')" 0
sql acme "INSERT INTO draft_edits SELECT * FROM keep; DROP TABLE keep"
get /api/m/acme/runs/1/draft
eq "after a restart" "$(json "$T/body" 'j["version"]')" 1
eq "edited" "$(json "$T/body" 'j["edited"]')" true
has "$T/body" "admitted fault"
eq "the edit is blocked" "$(json "$T/body" 'any(c["verdict"] == "unsupported" for c in j["report"]["claims"])')" true

# the bind: loopback only
ss -ltn >"$T/ss"
has "$T/ss" "127.0.0.1:$P "
lacks "$T/ss" "0.0.0.0:$P "
lacks "$T/ss" "*:$P "
lacks "$T/ss" "[::]:$P "
for addr in $(hostname -I 2>/dev/null); do
	case $addr in *:*) h="[$addr]" ;; *) h=$addr ;; esac
	checks=$((checks + 1))
	if curl -s -g -m 2 -o /dev/null "http://$h:$P/" -H "Authorization: Bearer $TOK"; then
		echo "FAIL: answered on $addr"
		failures=$((failures + 1))
	fi
done

# ---------------------------------------------------- the verifier
printf '{"text": "The order shipped on April 9, 2021 (ACME0000004). See ACME0000999."}' >"$T/paste.json"
before=$(judged)
post /api/m/acme/verify "$T/paste.json"
eq "pasted" "$code" 200
eq "Verify asks no judge" "$(judged)" "$before"
eq "pasted: text back" "$(json "$T/body" 'j["text"]')" "The order shipped on April 9, 2021 (ACME0000004). See ACME0000999."
eq "pasted: a blocked Bates number" "$(json "$T/body" '[c["verdict"] for c in j["report"]["claims"] if c["text"] == "ACME0000999"]')" '["unsupported"]'
eq "pasted: offsets" "$(json "$T/body" 'all(j["text"][c["start"]:c["end"]] == c["text"] for c in j["report"]["claims"])')" true
printf 'See ACME0000999.\n' >"$T/d.md"
"$SWORN" verify -m acme --json "$T/d.md" >"$T/cli-verify.json"
printf '{"text": "See ACME0000999.\\n"}' >"$T/paste.json"
post /api/m/acme/verify "$T/paste.json"
eq "the CLI's verdicts" "$(json "$T/body" '[(c["kind"], c["verdict"], c["reason"], c["start"], c["end"]) for c in j["report"]["claims"]]')" \
	"$(json "$T/cli-verify.json" '[(c["kind"], c["verdict"], c["reason"], c["start"], c["end"]) for c in j["claims"]]')"
docx="$SW_SRC/examples/acme/VOL001/NATIVES/NATIVE001/ACME0000004.docx"
printf '{"file_name": "brief.docx", "content_base64": "%s"}' "$(base64 -w0 "$docx")" >"$T/up.json"
post /api/m/acme/verify "$T/up.json"
eq "docx upload" "$code" 200
"$SWORN" verify -m acme --json "$docx" >"$T/cli-claims.json"
eq "docx: the extracted text" "$(json "$T/body" 'len(j["text"]) > 20 and "PK" not in j["text"][:2]')" true
eq "docx: its claims" "$(json "$T/body" '[c["text"] for c in j["report"]["claims"]]')" \
	"$(json "$T/cli-claims.json" '[c["text"] for c in j["claims"]]')"
eq "no upload left behind" "$(find matters/acme -name '.upload-*' | wc -l)" 0
printf '{"file_name": "x.exe", "content_base64": "AAAA"}' >"$T/up.json"
post /api/m/acme/verify "$T/up.json"
eq "not a draft format" "$code" 400
printf '{"file_name": "../x.pdf", "content_base64": "AAAA"}' >"$T/up.json"
post /api/m/acme/verify "$T/up.json"
eq "a path as name" "$code" 400
printf '{"file_name": "x.pdf", "content_base64": "not base64!"}' >"$T/up.json"
post /api/m/acme/verify "$T/up.json"
eq "bad base64" "$code" 400
printf '{"file_name": "x.pdf", "content_base64": "%s"}' "$(printf 'not a pdf' | base64 -w0)" >"$T/up.json"
post /api/m/acme/verify "$T/up.json"
eq "damaged PDF" "$code" 400
has "$T/body" "cannot read 'x.pdf'"
lacks "$T/body" ".upload-"

# ------------------------------------------------------- approval
python3 - "$T/edit1.json" >"$T/approve.json" <<'PY'
import json, sys
print(json.dumps({"text": json.load(open(sys.argv[1]))["text"]}))
PY
post /api/m/acme/runs/1/approve "$T/approve.json"
eq "refused" "$code" 409
has "$T/body" "override"
eq "refused: the report" "$(json "$T/body" '[c["verdict"] for c in j["report"]["claims"] if c["text"] == "ACME0000998"]')" '["unsupported"]'
eq "still verified" "$(sql acme 'SELECT status FROM runs WHERE id = 1')" verified
python3 - "$T/edit1.json" >"$T/approve.json" <<'PY'
import json, sys
print(json.dumps({"text": json.load(open(sys.argv[1]))["text"], "override": ""}))
PY
post /api/m/acme/runs/1/approve "$T/approve.json"
eq "empty override" "$code" 400
python3 - "$T/edit1.json" >"$T/approve.json" <<'PY'
import json, sys
print(json.dumps({"text": json.load(open(sys.argv[1]))["text"], "override": "ACME0000998 is in the supplemental production"}))
PY
before=$(judged)
post /api/m/acme/runs/1/approve "$T/approve.json"
eq "approved" "$code" 200
checks=$((checks + 1))
if [ "$(judged)" -le "$before" ]; then
	echo "FAIL: approval did not put the final's sentences to the judge"
	failures=$((failures + 1))
fi
has "$T/body" '"outcome":"disagreed"'
eq "accepted" "$(json "$T/body" 'j["accepted"]')" true
eq "overridden" "$(json "$T/body" 'j["overridden"]')" true
eq "final" "$(json "$T/body" 'j["final"]')" "$T/ws/matters/acme/finals/run-1-final.md"
has matters/acme/finals/run-1-final.md "Brightline admitted fault"
post /api/m/acme/runs/1/approve "$T/approve.json"
eq "approved once" "$code" 409
# an approved run is frozen: no edit of its draft is saved
post /api/m/acme/runs/1/draft "$T/edit1.json"
eq "frozen" "$code" 409
has "$T/body" "is approved: its draft and final are frozen"
# the run page carries the decisions; the page's Verify honours a waiver
get /api/m/acme/runs/1
eq "approval in the run" "$(json "$T/body" 'j["approval"]["override"]')" \
	"ACME0000998 is in the supplemental production"
printf 'The carrier confirmed it (ACME0000997).\n' >"$T/w.md"
n=$("$SWORN" verify -m acme "$T/w.md" | awk '/unsupported +bates/ { print $1; exit }')
run 0 "$SWORN" verify -m acme "$T/w.md" --waive "$n" --reason "checked by hand" --by "Ann Lee"
printf '{"text": "The carrier confirmed it (ACME0000997)."}' >"$T/w.json"
post /api/m/acme/verify "$T/w.json"
eq "waived in the page" "$(json "$T/body" '[c["verdict"] for c in j["report"]["claims"] if c["text"] == "ACME0000997"]')" '["waived"]'
run 0 "$SWORN" run show 1 -m acme --json
has "$T/out" '"status": "approved"'
eq "override kept" "$(sql acme 'SELECT override FROM corrections WHERE run_id = 1')" \
	"ACME0000998 is in the supplemental production"
run 0 "$SWORN" matter set -m acme corrections.export=yes
run 0 "$SWORN" corrections export -m acme --format sft -o "$T/sft.jsonl"
has "$T/sft.jsonl" "Brightline admitted fault (ACME0000998)"

kill -INT $spid
wait $spid
eq "stops on SIGINT" "$?" 0

# a new token at each start (unless --keep-token); sessions end
rm -f "$T/port3"
"$SWORN" serve -m acme --port 0 --port-file "$T/port3" --session-ttl 1 >"$T/serve.out" \
	2>"$T/serve.err" &
spid=$!
pids="$pids $spid"
i=0
while [ ! -s "$T/port3" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
B="http://127.0.0.1:$(cat "$T/port3")"
OLD=$TOK
TOK=$(cat serve.token)
checks=$((checks + 1))
if [ "$TOK" = "$OLD" ]; then
	echo "FAIL: the token did not change at a start without --keep-token"
	failures=$((failures + 1))
fi
eq "still private" "$(stat -c %a serve.token)" 600
has "$T/serve.out" "?token=$TOK"
raw /api/session -H "Authorization: Bearer $OLD"
eq "the old token" "$code" 403
get /api/session
S=$(json "$T/body" 'j["session"]')
eq "a second's session" "$(json "$T/body" 'j["session_ttl_s"]')" 1
# a server that runs for nobody takes no override: it is someone's decision
CSRF=$(json "$T/body" 'j["csrf"]')
post /api/m/acme/runs/1/approve "$T/approve.json"
eq "an override with no person" "$code" 400
has "$T/body" "needs the name of the person who decides"
sleep 2.5
raw /api/matters -H "Authorization: Bearer $S"
eq "a session past its life" "$code" 403
has "$T/body" "the session has ended"
get /api/matters
eq "the token still" "$code" 200
kill $spid
wait $spid
done_testing
