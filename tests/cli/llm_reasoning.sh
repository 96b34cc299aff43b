#!/bin/sh
# A reasoning model's thinking never becomes the answer, the draft or the
# review: the test double ($SW_FAKE_LLAMA) sends it in each shape servers
# use (reasoning_content, reasoning, a <think> block left in the content,
# a stray </think> whose block the template opened), streamed and not.
# sworn ask keeps it apart; sworn draft keeps it beside the step, shown by
# sworn run show --reasoning.  A role's reasoning and reasoning_budget go
# only to a server whose /props says it takes them per request.
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
D="$SW_TEST_DATA/pipeline"
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

cat >"$T/think.ini" <<'INI'
[answer "content"]
match = SHAPE-CONTENT
reasoning = I weigh the record first.
text = Answer one.
[answer "other"]
match = SHAPE-OTHER
reasoning_key = reasoning
reasoning = Another server thinks aloud.
text = Answer two.
[answer "block"]
match = SHAPE-BLOCK
text = <think>secret plan of attack</think>\n\nAnswer three.
[answer "stray"]
match = SHAPE-STRAY
text = musing without an opening tag</think>\n\nAnswer four.
INI

# start NAME FLAGS...: a double with the script, its port in $T/NAME.port.
start() {
	name=$1
	shift
	"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/$name.port" --fake-script "$T/think.ini" \
		--fake-log "$T/$name.req" -a fake-thinker "$@" 2>"$T/$name.err" &
	pids="$pids $!"
	i=0
	while [ ! -s "$T/$name.port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -s "$T/$name.port" ] || { echo "FAIL: the test double wrote no port"; exit 1; }
}
start old
start new --fake-template-caps

"$SWORN" init -q "$T/ws" || exit 1
cd "$T/ws" || exit 1
cat >>sworn.conf <<CONF
[endpoint "old"]
url = http://127.0.0.1:$(cat "$T/old.port")
[endpoint "new"]
url = http://127.0.0.1:$(cat "$T/new.port")
[role "plain"]
endpoint = old
[role "quiet"]
endpoint = new
reasoning = off
reasoning_budget = 64
[role "quiet-old"]
endpoint = old
reasoning = off
reasoning_budget = 64
CONF

# ------------------------------------------- each shape, streamed and not
# check SHAPE ANSWER THINKING: sworn ask --json, --no-stream and streamed.
check() {
	run 0 "$SWORN" ask --json plain "$1"
	has "$T/out" "\"content\": \"$2\""
	has "$T/out" "\"reasoning\": \"$3\""
	run 0 "$SWORN" ask --no-stream plain "$1"
	eq "$1 not streamed" "$(cat "$T/out")" "$2"
	run 0 "$SWORN" ask plain "$1"
	lacks "$T/out" "$3"
}
check SHAPE-CONTENT "Answer one." "I weigh the record first."
check SHAPE-OTHER "Answer two." "Another server thinks aloud."
check SHAPE-BLOCK "Answer three." "secret plan of attack"
# A stray </think> is known only when it comes: what streamed before it
# was on the screen, but the answer (and --json, and a step's output)
# drops it.
run 0 "$SWORN" ask --json plain SHAPE-STRAY
has "$T/out" '"content": "Answer four."'
has "$T/out" '"reasoning": "musing without an opening tag"'
run 0 "$SWORN" ask --no-stream plain SHAPE-STRAY
eq "stray not streamed" "$(cat "$T/out")" "Answer four."

# ----------------------------------------- reasoning settings, where taken
run 0 "$SWORN" ask --json quiet SHAPE-CONTENT
has "$T/new.req" 'chat_template_kwargs\":{\"enable_thinking\":false}'
has "$T/new.req" 'thinking_budget_tokens\":64'
has "$T/out" '"reasoning_note": null'
: >"$T/old.req"
run 0 "$SWORN" ask --json quiet-old SHAPE-CONTENT
lacks "$T/old.req" 'enable_thinking'
lacks "$T/old.req" 'thinking_budget_tokens'
has "$T/out" 'reasoning = off and reasoning_budget = 64 not sent: its /props lists no chat_template_caps'
run 0 "$SWORN" ask quiet-old SHAPE-CONTENT
has "$T/err" "not sent: its /props lists no chat_template_caps"
# sworn models says which servers take them
run 0 "$SWORN" models
has "$T/out" "  think   a role's reasoning and reasoning_budget are sent"
has "$T/out" "  think   a role's reasoning and reasoning_budget are not sent (its /props lists no chat_template_caps)"
run 0 "$SWORN" models --json
has "$T/out" '"reasoning_settings": true'
has "$T/out" '"reasoning_settings": false'
# a role without settings asks nothing of /props
: >"$T/old.req"
run 0 "$SWORN" ask plain SHAPE-CONTENT
lacks "$T/old.req" '"/props"'

# bad settings: one line with the file and line, nothing else
cp sworn.conf sworn.conf.good
printf '[role "bad"]\nendpoint = old\nreasoning = maybe\n' >>sworn.conf
run 2 "$SWORN" ask bad hello
has "$T/err" "reasoning"
has "$T/err" "maybe"
cp sworn.conf.good sworn.conf
printf '[role "bad"]\nendpoint = old\nreasoning_budget = 0\n' >>sworn.conf
run 2 "$SWORN" ask bad hello
has "$T/err" "reasoning = off for none"
cp sworn.conf.good sworn.conf

# ---------------------------------- a draft: thinking beside the step only
"$SWORN" matter new acme >/dev/null || exit 1
"$SWORN" ingest -m acme "$SW_TEST_DATA/acme-mini" >/dev/null 2>&1 || exit 1
cp "$D/brief.md" brief.md
{
	printf '<think>The drafter privately doubts ACME0000004.</think>\n\n'
	cat "$D/draft-fixed.md"
} >"$T/drafted.md"
printf '[answer "draft"]\nfile = %s\n' "$T/drafted.md" >"$T/a.ini"
cat >"$T/b.ini" <<INI
[answer "review"]
match = opposing counsel's most careful associate
reasoning = The reviewer mulls the findings.
file = $D/review.json
[answer "revise"]
match = Revise the declaration
file = $D/draft-fixed.md
INI
boards_conf
fakes "$T/a.ini" "$T/b.ini"
"$SWORN" draft -m acme --task declaration --brief brief.md >"$T/out" 2>"$T/err"
checks=$((checks + 1))
if ! grep -q '^run 1: ' "$T/out"; then
	echo "FAIL: the draft did not end (stdout, stderr follow)"
	cat "$T/out" "$T/err"
	failures=$((failures + 1))
fi
eq "no thinking in any model output" \
	"$(sql acme "SELECT count(*) FROM documents d JOIN pages p ON p.doc_id = d.id
		WHERE d.origin = 'model' AND (p.text LIKE '%privately doubts%'
		OR p.text LIKE '%mulls the findings%' OR p.text LIKE '%think>%')")" 0
run 0 "$SWORN" run show 1 --draft -m acme
lacks "$T/out" "privately doubts"
run 0 "$SWORN" run show 1 -m acme
lacks "$T/out" "privately doubts"
run 0 "$SWORN" run show 1 --reasoning -m acme
has "$T/out" "--- draft: thinking (fake-drafter-35b)"
has "$T/out" "The drafter privately doubts ACME0000004."
has "$T/out" "--- review: thinking (fake-reasoner-122b)"
has "$T/out" "The reviewer mulls the findings."
run 0 "$SWORN" run show 1 --json -m acme
has "$T/out" '"reasoning": "The drafter privately doubts ACME0000004."'

done_testing
