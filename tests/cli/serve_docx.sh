#!/bin/sh
# sworn serve's draft view downloads the reviewed draft as .docx: GET
# /api/m/MATTER/runs/RUN/draft.docx gives the run's current draft (the saved
# edit) as a Word document with a comment on each claim that does not pass,
# the comments the CLI's verify --annotate writes for the same text; and
# POST .../verify.docx, a draft uploaded or pasted as to /verify, answered
# as a Word document (an uploaded .docx: itself, with the comments).
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
D="$SW_TEST_DATA/pipeline"
PY="$SW_SRC/tests/cli/word_docx.py"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

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
cat >"$T/fake.ini" <<INI
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
	-a fake-drafter-35b 2>"$T/fake.err" &
pids="$pids $!"
i=0
while [ ! -s "$T/fport" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
sed -i "s|^url = http://127.0.0.1:1$|url = http://127.0.0.1:$(cat "$T/fport")|" sworn.conf
run 0 "$SWORN" draft -m acme --task declaration --brief "$D/brief.md"

"$SWORN" serve -m acme --port 0 --port-file "$T/port" >"$T/serve.out" 2>"$T/serve.err" &
pids="$pids $!"
i=0
while [ ! -s "$T/port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
B="http://127.0.0.1:$(cat "$T/port")"
TOK=$(cat serve.token)
get() {
	code=$(curl -s -g -o "$T/body" -D "$T/head" -w '%{http_code}' \
		-H "Authorization: Bearer $TOK" "$@")
}

# The run's draft with an invented fact in it: its edit is what is served.
"$SWORN" run show 1 -m acme --draft >"$T/final.md"
printf '\nThe invoice is ACME0000012.\n' >>"$T/final.md"
python3 -c 'import json,sys; print(json.dumps({"text": open(sys.argv[1]).read(), "base_version": 0}))' \
	"$T/final.md" >"$T/edit.json"
get "$B/api/session"
CSRF=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["csrf"])' "$T/body")
get "$B/api/m/acme/runs/1/draft" -X POST -H "X-CSRF-Token: $CSRF" \
	-H 'Content-Type: application/json' --data-binary "@$T/edit.json"
eq "edit saved" "$code" 200

get "$B/api/m/acme/runs/1/draft.docx"
eq "draft.docx" "$code" 200
has "$T/head" "Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document"
cp "$T/body" "$T/draft.docx"
run 0 python3 "$PY" comments "$T/draft.docx"
has "$T/out" "sworn: unsupported bates | ACME0000012 is not in the production"
cp "$T/out" "$T/web-comments"
# The CLI's comments on the same text are the same.
run 1 "$SWORN" verify -m acme "$T/final.md" --annotate "$T/cli.docx"
run 0 python3 "$PY" comments "$T/cli.docx"
eq "the browser's comments are the CLI's" "$(cat "$T/web-comments")" "$(cat "$T/out")"
# sworn reads it back: the draft's text, the claim still there.
run 1 "$SWORN" verify -m acme "$T/draft.docx"
has "$T/out" "ACME0000012 is not in the production"

# "Verify a draft": an uploaded Word brief comes back itself with comments,
# nothing else changed; pasted text becomes a new document.
"$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv" >/dev/null || exit 1
python3 "$PY" brief "$T/brief.docx" || exit 1
printf '{"file_name": "brief.docx", "content_base64": "%s"}' "$(base64 -w0 "$T/brief.docx")" >"$T/up.json"
get "$B/api/m/acme/verify.docx" -X POST -H "X-CSRF-Token: $CSRF" \
	-H 'Content-Type: application/json' --data-binary "@$T/up.json"
eq "upload: verify.docx" "$code" 200
has "$T/head" "Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document"
cp "$T/body" "$T/brief-reviewed.docx"
"$SWORN" verify -m acme --json "$T/brief.docx" >"$T/brief.json"
run 0 python3 "$PY" check "$T/brief.docx" "$T/brief-reviewed.docx" "$T/brief.json"
has "$T/out" "ok: "
run 0 python3 "$PY" comments "$T/brief-reviewed.docx"
has "$T/out" "Jane Roe: Shorten the title."
has "$T/out" "sworn: unsupported bates | ACME0000012 is not in the production"
printf '{"text": "The invoice is ACME0000099.\\n"}' >"$T/paste.json"
get "$B/api/m/acme/verify.docx" -X POST -H "X-CSRF-Token: $CSRF" \
	-H 'Content-Type: application/json' --data-binary "@$T/paste.json"
eq "pasted: verify.docx" "$code" 200
cp "$T/body" "$T/pasted.docx"
run 0 python3 "$PY" comments "$T/pasted.docx"
has "$T/out" "sworn: unsupported bates | ACME0000099 is not in the production"
printf '{"file_name": "brief.exe", "content_base64": "AAAA"}' >"$T/bad.json"
get "$B/api/m/acme/verify.docx" -X POST -H "X-CSRF-Token: $CSRF" \
	-H 'Content-Type: application/json' --data-binary "@$T/bad.json"
eq "a file of another kind" "$code" 400
get "$B/api/m/acme/verify.docx" -X POST -H 'Content-Type: application/json' \
	--data-binary "@$T/paste.json"
eq "no CSRF token" "$code" 403

get "$B/api/m/acme/runs/9/draft.docx"
eq "no such run" "$code" 404
get "$B/api/m/acme/runs/1/draft.docx" -X POST -H "X-CSRF-Token: $CSRF"
eq "POST" "$code" 405
code=$(curl -s -o /dev/null -w '%{http_code}' "$B/api/m/acme/runs/1/draft.docx")
eq "no token" "$code" 403
done_testing
