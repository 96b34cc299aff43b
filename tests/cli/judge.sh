#!/bin/sh
# sworn verify with [role "judge"] against a scripted fake llama-server
# ($SW_FAKE_LLAMA, not a language model): a judge that agrees with a span
# of the cited page (accepted), one that says "supported" with words the
# page does not have (rejected, the reason records the judge error), one
# that says "not supported" (a reason under judge = warn, a block under
# judge = block), one that hangs past the role's deadline (the sentence
# stays as the facts left it, the reason says the judge failed), what the
# judge is shown (the sentence and only its cited page), --no-judge,
# judge = off, no judge role, and a bad [verify] key.
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$T"' EXIT

new_workspace
cd "$T/ws" || exit 1
mkdir -p "$T/vol"
# Two pages of a production, as a text export stamps them.
printf 'SHIPPING CONFIRMATION\nOn March 31, 2021, Acme Widgets shipped 12,000 housings to\nBrightline Logistics under PO 4471.\n\nACME0000001\n\fCREDIT MEMO\nAcme issued a credit of $52,850.00 to Brightline on April 7, 2021.\n\nACME0000002\n' \
	>"$T/vol/acme.txt"
# A long page (a log of 600 lines) whose fact is in its middle: more than
# a small judge's window holds.
mkdir -p "$T/vol2"
{
	echo "FREIGHT LOG FARSTART"
	i=1
	while [ $i -le 300 ]; do
		echo "Entry $i: pallet checked at the north dock and logged by the yard clerk."
		i=$((i + 1))
	done
	echo "On April 2, 2021, Acme trucked 12,000 housings to Brightline under PO 4471."
	while [ $i -le 600 ]; do
		echo "Entry $i: pallet checked at the south dock and logged by the yard clerk."
		i=$((i + 1))
	done
	echo "END OF LOG FAREND"
	echo
	echo "ACME0000009"
} >"$T/vol2/log.txt"
"$SWORN" ingest -m m "$T/vol" "$T/vol2" >/dev/null 2>&1 || exit 1

# One sentence per draft; the fake answers by the sentence's verb.
printf 'Acme shipped 12,000 housings to Brightline (ACME0000001).\n' >agree.md
printf 'Acme sent 12,000 housings to Brightline (ACME0000001).\n' >badspan.md
printf 'Acme delivered 12,000 housings to Brightline (ACME0000001).\n' >doubt.md
printf 'Acme moved 12,000 housings to Brightline (ACME0000001).\n' >hang.md
printf 'Acme trucked 12,000 housings to Brightline under PO 4471 (ACME0000009).\n' >long.md

cat >"$T/judge.ini" <<'INI'
[answer "agree"]
match = Acme shipped 12,000
text = {"supported": true, "span": "Acme Widgets shipped 12,000 housings to Brightline", "reason": "the confirmation says so"}
[answer "badspan"]
match = Acme sent 12,000
text = {"supported": true, "span": "Acme sent all 12,000 housings to Brightline on time", "reason": "it says so"}
[answer "doubt"]
match = Acme delivered 12,000
text = {"supported": false, "span": "shipped 12,000 housings", "reason": "the page says shipped, not delivered"}
[answer "hang"]
match = Acme moved 12,000
mode = hang
[answer "long"]
match = Acme trucked 12,000
text = {"supported": true, "span": "Acme trucked 12,000 housings to Brightline under PO 4471", "reason": "the log says so"}
INI
# The pipeline's steps (below): a draft that verifies, a review, a revision;
# the judge doubts every sentence it is shown.
D="$SW_TEST_DATA/pipeline"
# The judge quotes Tom Smith's e-mail (ACME0000003, the page it was shown)
# in full for the draft's first sentence: its answer is stored as model
# output, and a later copy of the e-mail is still evidence (issue 41,
# item 6: what the judge copied from its pages is not fingerprinted).
letter="$SW_TEST_DATA/acme-mini/VOL001/TEXT/0001/ACME0000003.txt"
span=$(sed '/^CONFIDENTIAL/d' "$letter" | tr '\n' ' ' | sed -e 's/  */ /g' -e 's/ $//')
printf '{"supported": true, "span": "%s", "reason": "the e-mail says so"}\n' "$span" \
	>"$T/judge-quotes.json"
cat >>"$T/judge.ini" <<INI
[answer "pipeline-judge-quotes"]
match = the March 10 date for PO 4471 (ACME0000003).\n<<<END SENTENCE>>>
file = $T/judge-quotes.json
[answer "pipeline-judge"]
match = <<<SENTENCE>>>
text = {"supported": false, "span": "", "reason": "the scripted judge doubts it"}
[answer "review"]
match = opposing counsel's most careful associate
file = $D/review.json
[answer "revise"]
match = Revise the declaration
file = $D/draft-fixed.md
[answer "draft"]
file = $D/draft-fixed.md
INI
"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/port" --fake-script "$T/judge.ini" \
	--fake-log "$T/req" -a fake-judge-8b -np 2 2>"$T/fake.err" &
pid=$!
i=0
while [ ! -s "$T/port" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -s "$T/port" ] || { echo "FAIL: the fake did not start"; cat "$T/fake.err"; exit 1; }
cp sworn.conf "$T/plain.conf"

# chats: chat requests the fake logged so far.
chats() {
	[ -f "$T/req" ] || { echo 0; return; }
	grep -cF '"path":"/v1/chat/completions"' "$T/req" 2>/dev/null || true
}

# No judge role: nothing changes, nothing is asked.
run 0 "$SWORN" verify -m m agree.md
lacks "$T/err" "judge:"
eq "requests without a judge" "$(chats)" 0

cat >>sworn.conf <<CONF
[endpoint "judge-box"]
url = http://127.0.0.1:$(cat "$T/port")
slots = 2
[role "judge"]
endpoint = judge-box
first_token_timeout = 1
timeout = 2
CONF

# Agreed: the span is on ACME0000001 and has 12,000 and Acme.
run 0 "$SWORN" verify -m m --json agree.md
has "$T/err" 'judge: [role "judge"] on endpoint judge-box, judge = warn, 2 at a time'
has "$T/out" '"outcome": "agreed"'
has "$T/out" 'the judge agrees, quoting \"Acme Widgets shipped 12,000 housings to Brightline\"'
has "$T/out" '"model": "fake-judge-8b"'
# it was shown the sentence and the cited page only, under the schema
eq "requests" "$(chats)" 1
has "$T/req" 'Acme shipped 12,000 housings to Brightline (ACME0000001).'
has "$T/req" 'SHIPPING CONFIRMATION'
lacks "$T/req" 'CREDIT MEMO'
has "$T/req" 'quote the exact words of the page'
has "$T/req" 'json_schema'

# A span that is not on the page: a judge error, never a support.
run 0 "$SWORN" verify -m m --json badspan.md
has "$T/out" '"outcome": "bad span"'
has "$T/out" 'judge error (judge = warn, not blocking): its span \"Acme sent all 12,000 housings to Brightline on time\" is not on the cited page'

# "Not supported" under warn: a reason, no block.
run 0 "$SWORN" verify -m m --json doubt.md
has "$T/out" '"outcome": "disagreed"'
has "$T/out" 'the judge doubts it (judge = warn, not blocking): the page says shipped, not delivered'

# A page longer than the judge's window: cut around the sentence's facts,
# counted with the server's /tokenize, and the verdict says so.
cp sworn.conf "$T/before-context.conf"
printf 'context = 1500\nmax_tokens = 200\n' >>sworn.conf
run 0 "$SWORN" verify -m m --json long.md
has "$T/out" '"outcome": "agreed"'
has "$T/out" 'the judge saw the cited page cut to fit its context'
has "$T/out" '"cut": true'
has "$T/out" '"tokens_estimated": false'
has "$T/req" '"path":"/tokenize"'
# (the page went whole to /tokenize; the judge saw only the cut)
grep -F '"path":"/v1/chat/completions"' "$T/req" >"$T/chatreq"
has "$T/chatreq" 'Acme trucked 12,000 housings to Brightline under PO 4471.'
lacks "$T/chatreq" 'FARSTART'
lacks "$T/chatreq" 'FAREND'
# the whole page when the window holds it
cp "$T/before-context.conf" sworn.conf
printf 'context = 32000\n' >>sworn.conf
run 0 "$SWORN" verify -m m --json long.md
has "$T/out" '"cut": false'
lacks "$T/out" 'cut to fit its context'
has "$T/req" 'FARSTART'
cp "$T/before-context.conf" sworn.conf

# In parallel across the role's slots: 8 sentences on a judge of 4 slots
# whose every token takes 15 ms are asked at once, as the fake counts them
# (the most answers it streamed at one moment), never more than the slots;
# a count, not a stopwatch, so a busy machine cannot fail it.
pid2=""
"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/port2" --fake-script "$T/judge.ini" \
	--fake-token-delay 15 --fake-peak-file "$T/peak2" -a fake-judge-8b -np 4 2>"$T/fake2.err" &
pid2=$!
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; [ -n "$pid2" ] && kill $pid2 2>/dev/null; rm -rf "$T"' EXIT
i=0
while [ ! -s "$T/port2" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -s "$T/port2" ] || { echo "FAIL: the second fake did not start"; cat "$T/fake2.err"; exit 1; }
sed -e "s|^url = http://127.0.0.1:$(cat "$T/port")\$|url = http://127.0.0.1:$(cat "$T/port2")|" \
	-e 's/^slots = 2$/slots = 4/' -e 's/^timeout = 2$/timeout = 20/' \
	-e 's/^first_token_timeout = 1$/first_token_timeout = 10/' "$T/before-context.conf" >sworn.conf
: >many.md
for k in 1 2 3 4 5 6 7 8; do
	printf 'Acme shipped 12,000 housings to Brightline (ACME0000001).\n\n' >>many.md
done
run 0 "$SWORN" verify -m m --json many.md
has "$T/err" '4 at a time'
python3 - "$T/out" "$(cat "$T/peak2" 2>/dev/null)" <<'PY' >"$T/par"
import json, sys
d = json.load(open(sys.argv[1]))
j = d.get("judge", [])
peak = int(sys.argv[2] or 0)
ok = len(j) == 8 and all(a["outcome"] == "agreed" for a in j) and 2 <= peak <= 4
print("judged %d, at most %d at once: %s" % (len(j), peak, "ok" if ok else "NOT PARALLEL"))
PY
cat "$T/par"
has "$T/par" ': ok'
cp "$T/before-context.conf" sworn.conf
kill $pid2 2>/dev/null
pid2=""

# A judge past its deadline: the facts' verdict stands, the reason says why.
run 0 "$SWORN" verify -m m --json hang.md
has "$T/out" '"outcome": "failed"'
has "$T/out" 'the judge failed ('

# judge = block: its "not supported" and its bad spans block.
printf '[verify]\njudge = block\n' >>sworn.conf
run 1 "$SWORN" verify -m m doubt.md
has "$T/err" 'judge = block'
has "$T/out" 'the judge finds the cited page does not say it: the page says shipped, not delivered'
run 1 "$SWORN" verify -m m --json badspan.md
has "$T/out" '"verdict": "unverifiable"'
has "$T/out" 'judge error: its span'
run 0 "$SWORN" verify -m m agree.md
run 0 "$SWORN" verify -m m hang.md

# --no-judge: this run asks nobody and the gate is the facts' alone.
before=$(chats)
run 0 "$SWORN" verify -m m --no-judge doubt.md
lacks "$T/err" "judge:"
eq "requests with --no-judge" "$(chats)" "$before"

# judge = off in sworn.conf.
sed -i 's/^judge = block$/judge = off/' sworn.conf
run 0 "$SWORN" verify -m m doubt.md
lacks "$T/err" "judge:"
eq "requests with judge = off" "$(chats)" "$before"

# A pipeline run: each verify round asks the judge (warn: it blocks
# nothing) and stores its answers as model output of the run.
sed -i 's/^judge = off$/judge = warn/' sworn.conf
cat >>sworn.conf <<CONF
[role "drafter"]
endpoint = judge-box
[role "reviewer"]
endpoint = judge-box
[role "reasoner"]
endpoint = judge-box
CONF
"$SWORN" matter new acme >/dev/null || exit 1
"$SWORN" ingest -m acme "$SW_TEST_DATA/acme-mini" >/dev/null 2>&1 || exit 1
cp "$D/brief.md" brief.md
run 0 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/out" "run 1: verified"
eq "judge answers stored as model output" \
	"$(sql acme "SELECT origin FROM documents WHERE name = 'run-1-verify#0-judge.json'")" model
eq "the last round's too" \
	"$(sql acme "SELECT count(*) FROM documents WHERE name = 'run-1-verify#1-judge.json'")" 1
sql acme "SELECT detail FROM run_steps WHERE run_id = 1 AND key = 'verify#0'" >"$T/detail"
has "$T/detail" '"judge":{"mode":"warn","judged":'
has "$T/detail" '"disagreed":'
sql acme "SELECT p.text FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'run-1-verify#0-judge.json'" >"$T/stored"
has "$T/stored" '"reason": "the scripted judge doubts it"'
has "$T/stored" '"model": "fake-judge-8b"'
has "$T/stored" 'We will not make the March 10 date for PO 4471. The earliest we can ship'
"$SWORN" matter new later >/dev/null || exit 1
sed '/^CONFIDENTIAL/d' "$letter" >smith-email-copy.txt
run 0 "$SWORN" ingest -m later smith-email-copy.txt
eq "the e-mail the judge quoted stays evidence" \
	"$(sql later "SELECT status FROM documents WHERE name = 'smith-email-copy.txt'")" active

# Approval verifies the final again with the judge as configured (not
# without it), and keeps its answers with the run as model output.
before=$(chats)
cp "$D/draft-fixed.md" final.md
run 0 "$SWORN" run approve 1 -m acme --final final.md --json
has "$T/err" 'judge: [role "judge"] on endpoint judge-box, judge = warn'
checks=$((checks + 1))
if [ "$(chats)" -le "$before" ]; then
	echo "FAIL: sworn run approve did not put the final's sentences to the judge"
	failures=$((failures + 1))
fi
has "$T/out" '"outcome": "disagreed"'
eq "approval's judge answers stored as model output" \
	"$(sql acme "SELECT origin FROM documents WHERE name = 'run-1-approve-judge.json'")" model

# A key [verify] does not have, and a bad value.
sed -i 's/^judge = warn$/jugde = block/' sworn.conf
run 2 "$SWORN" verify -m m doubt.md
has "$T/err" "unknown key 'jugde' in [verify]"
sed -i 's/^jugde = block$/judge = strict/' sworn.conf
run 2 "$SWORN" verify -m m doubt.md
has "$T/err" "judge"

done_testing
