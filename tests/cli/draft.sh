#!/bin/sh
# sworn draft and sworn run end to end against two fake llama-servers
# ($SW_FAKE_LLAMA, scripted stand-ins, not language models): board-a
# serves the drafter, board-b the reviewer and the reasoner.  The drafter
# invents a Bates number and a date; the verifier's reasons make the
# reasoner fix them.  Then: a reasoner that never fixes (blocked, no final
# document), an endpoint that dies mid-run (paused; resume completes it),
# kill -9 and Ctrl-C mid-run (resume redoes no finished step), evidence
# carrying an injection attempt (reported), a model output re-imported as
# evidence (never in a bundle), approval with and without --override,
# corrections export off and on, and run statistics.
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
D="$SW_TEST_DATA/pipeline"
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

# chats FILE [TEXT]: chat requests a fake logged (holding TEXT).
chats() {
	grep -F '"path":"/v1/chat/completions"' "$1" 2>/dev/null | grep -cF -- "${2:-}"
}

# wait_step RUN KEY STATUS: until the journal shows the step so.
wait_step() {
	i=0
	while [ "$(sql acme "SELECT status FROM run_steps WHERE run_id = $1 AND key = '$2'")" != "$3" ] &&
		[ $i -lt 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

pipeline_ws

# -------------------------------------------------- no server: says so
run 2 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/err" "no local model answers at endpoint board-a"
has "$T/err" "sworn plan"
eq "nothing journaled" "$(sql acme 'SELECT count(*) FROM runs')" 0
run 2 "$SWORN" draft -m acme --task nosuch --brief brief.md
run 2 "$SWORN" draft -m acme --task declaration --brief missing.md
run 2 "$SWORN" draft -m nope --task declaration --brief brief.md

# ------------------------------------- 1: invents, then fixes: verified
fakes "$T/a.ini" "$T/b-fixes.ini"
run 0 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/out" "run 1: verified after 1 revision round"
has "$T/err" "verify#0: "
has "$T/err" "3 blocked" # the wrong date, and its sentence's proposition
eq "drafter calls" "$(chats "$T/reqa")" 1
eq "reviewer and reasoner calls" "$(chats "$T/reqb")" 2
# the reviser was handed the verifier's own reasons and the findings
has "$T/reqb" 'ACME0000999 is not in the production (ACME0000001'
has "$T/reqb" 'the cited page (ACME0000004) gives'
has "$T/reqb" 'the notice of breach in the record'
# the first draft's window: the brief, and evidence framed as data
has "$T/reqa" '<<<EVIDENCE'
has "$T/reqa" 'ACME0000003'
eq "status" "$(sql acme 'SELECT status FROM runs WHERE id = 1')" verified
eq "steps" "$(sql acme "SELECT group_concat(k, ' ') FROM (SELECT key || ':' || status AS k FROM run_steps WHERE run_id = 1 ORDER BY id)")" \
	"draft:done verify#0:done review:done revise#1:done verify#1:done"
eq "outputs stored as model text" \
	"$(sql acme "SELECT count(*) FROM documents WHERE origin = 'model'")" 3
eq "model named" "$(sql acme "SELECT model FROM run_steps WHERE run_id = 1 AND key = 'draft'")" \
	fake-drafter-35b
run 0 "$SWORN" run show 1 -m acme
has "$T/out" "revise#1"
has "$T/out" "fake-reasoner-122b"
run 0 "$SWORN" run show 1 -m acme --draft
has "$T/out" "The order shipped on March 31, 2021 (ACME0000004)."
run 0 "$SWORN" run show 1 -m acme --json
has "$T/out" '"status": "verified"'
run 0 "$SWORN" run list -m acme
has "$T/out" "declaration"
run 0 "$SWORN" run list -m acme --json
has "$T/out" '"runs": ['
has "$T/out" '"schema"'
run 0 "$SWORN" run context 1 -m acme --json
has "$T/out" '"violations": []'
has "$T/out" '"origin": "evidence"'
has "$T/out" '"kind": "prior_draft"'
run 0 "$SWORN" run context 1 draft -m acme
has "$T/out" "brief"
run 2 "$SWORN" run show 99 -m acme
has "$T/err" "run 99 does not exist"

# approval: a human edit that adds an unsupported claim is refused, then
# accepted with --override, which is recorded
"$SWORN" run show 1 -m acme --draft >final.md
printf '\n4. Brightline admitted fault (ACME0000998).\n' >>final.md
# The final is held to what the drafts were: an empty one is no document
# (even overridden), and one without the task's elements (the § 1746
# clause, the signature) is refused, naming them.
printf '\n \n' >empty.md
run 2 "$SWORN" run approve 1 -m acme --final empty.md --override "nothing to add" --by "Ann Lee"
has "$T/err" "the final of run 1 is empty"
grep -v -i -e 'penalty of perjury' -e '^/s/' -e 'signature' final.md >bare.md
run 1 "$SWORN" run approve 1 -m acme --final bare.md
has "$T/out" "refused"
has "$T/err" "the clause of 28 U.S.C. § 1746"
run 1 "$SWORN" run approve 1 -m acme --final final.md
has "$T/out" "refused"
eq "still verified" "$(sql acme 'SELECT status FROM runs WHERE id = 1')" verified
eq "no correction yet" "$(sql acme 'SELECT count(*) FROM corrections')" 0
run 2 env XDG_CONFIG_HOME="$T/nouser" "$SWORN" run approve 1 -m acme --final final.md \
	--override "ACME0000998 is in the supplemental production"
has "$T/err" "needs the name of the person who decides" # an override is someone's
run 0 "$SWORN" run approve 1 -m acme --final final.md --override "ACME0000998 is in the supplemental production" \
	--by "Ann Lee"
has "$T/out" "approved with override"
eq "approved" "$(sql acme 'SELECT status FROM runs WHERE id = 1')" approved
eq "override kept" "$(sql acme 'SELECT override FROM corrections WHERE run_id = 1')" \
	"ACME0000998 is in the supplemental production"
has matters/acme/finals/run-1-final.md "Brightline admitted fault"
eq "final stored as human text" "$(sql acme "SELECT count(*) FROM documents WHERE origin = 'human'")" 1

# ----------------------------------- 2: never fixes: blocked, no final
fakes "$T/a.ini" "$T/b-never.ini"
run 1 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/out" "run 2: blocked after 3 revision rounds"
has "$T/out" "no final document is written"
eq "blocked" "$(sql acme 'SELECT status FROM runs WHERE id = 2')" blocked
eq "rounds" "$(sql acme "SELECT count(*) FROM run_steps WHERE run_id = 2 AND kind = 'revise'")" 3
eq "no final" "$(sql acme 'SELECT ifnull(final_path, 0) FROM runs WHERE id = 2')" 0
run 0 "$SWORN" run show 2 -m acme
has "$T/out" "ACME0000999 is not in the production"
run 2 "$SWORN" run resume 2 -m acme
has "$T/err" "nothing to resume"

# --------------------- 3: the reasoner's server dies mid-answer: paused
cat "$T/b-fixes.ini" >"$T/b-dies.ini"
printf '[answer "dies"]\nseq = 2\nmode = error-mid\n' >"$T/b-dies.ini.head"
cat "$T/b-dies.ini.head" "$T/b-fixes.ini" >"$T/b-dies.ini"
fakes "$T/a.ini" "$T/b-dies.ini"
run 1 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/out" "run 3: paused"
has "$T/out" "sworn run resume 3"
has "$T/err" "revise#1 failed on board-b"
eq "paused" "$(sql acme 'SELECT status FROM runs WHERE id = 3')" paused
eq "failed step" "$(sql acme "SELECT status FROM run_steps WHERE run_id = 3 AND key = 'revise#1'")" failed
run 0 "$SWORN" run resume 3 -m acme
has "$T/out" "run 3: verified"
eq "draft not redone" "$(chats "$T/reqa")" 1
eq "review not redone" "$(chats "$T/reqb" 'most careful associate')" 1
eq "revise tried twice" "$(sql acme "SELECT attempts FROM run_steps WHERE run_id = 3 AND key = 'revise#1'")" 2

# ----------------------------------------------- 4: kill -9, then resume
fakes "$T/a.ini" "$T/b-fixes.ini" --fake-token-delay 40
"$SWORN" draft -m acme --task declaration --brief brief.md >"$T/k.out" 2>"$T/k.err" &
pid=$!
wait_step 4 'revise#1' running
kill -9 $pid
wait $pid 2>/dev/null
eq "left running" "$(sql acme 'SELECT status FROM runs WHERE id = 4')" running
# ...which the journal could not record (nor could it on a full disk):
# shown as what it is, paused and resumable, with why
run 0 "$SWORN" run show 4 -m acme
has "$T/out" "run 4 · task declaration · paused · interrupted: its process $pid ended"
run 0 "$SWORN" run list -m acme --json
has "$T/out" "sworn run resume 4 goes on from the last finished step"
eq "step left running" "$(sql acme "SELECT status FROM run_steps WHERE run_id = 4 AND key = 'revise#1'")" running
run 0 "$SWORN" run resume 4 -m acme
has "$T/out" "run 4: verified"
eq "one row per step" "$(sql acme 'SELECT count(*) - count(DISTINCT key) FROM run_steps WHERE run_id = 4')" 0
eq "draft once" "$(chats "$T/reqa")" 1
eq "review once" "$(chats "$T/reqb" 'most careful associate')" 1
# a clean approval, with the lawyer's own wording
"$SWORN" run show 4 -m acme --draft | sed 's/The order shipped/Brightline shipped the order/' >final4.md
run 0 "$SWORN" run approve 4 -m acme --final final4.md -o "$T/final4-out.md"
has "$T/out" "approved:"
has "$T/final4-out.md" "Brightline shipped the order"
eq "correction stats" "$(sql acme 'SELECT words_changed > 0 AND words_kept > 20 FROM corrections WHERE run_id = 4')" 1

# --------------------------- 5: Ctrl-C pauses at once, the model's answer cut
# The revision streams for minutes (40 ms a token); Ctrl-C while it streams
# must close it: the fake records the answer cut before its end.  A fact,
# not a stopwatch, so a busy machine cannot fail it.
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do cat "$D/draft-fixed.md"; done >"$T/long-revise.md"
sed "s|$D/draft-fixed.md|$T/long-revise.md|" "$T/b-fixes.ini" >"$T/b-long.ini"
rm -f "$T/cut"
fakes "$T/a.ini" "$T/b-long.ini" --fake-token-delay 40 --fake-cut-file "$T/cut"
"$SWORN" draft -m acme --task declaration --brief brief.md >"$T/c.out" 2>"$T/c.err" &
pid=$!
i=0 # the reviewer's request is the first on board-b, the revision's the second
while [ "$(chats "$T/reqb")" -lt 2 ] && [ $i -lt 1200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
eq "Ctrl-C exit" "$rc" 1
has "$T/c.out" "interrupted (Ctrl-C)"
i=0
while [ ! -s "$T/cut" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
has "$T/cut" "cut after"
eq "paused" "$(sql acme 'SELECT status FROM runs WHERE id = 5')" paused
fakes "$T/a.ini" "$T/b-fixes.ini"
run 0 "$SWORN" run resume 5 -m acme
has "$T/out" "run 5: verified"

# --------------------------- 6: evidence that reads as instructions: reported
cp "$D/injection.txt" fw-po4471.txt
"$SWORN" ingest -m acme fw-po4471.txt >/dev/null 2>&1
fakes "$T/a.ini" "$T/b-fixes.ini"
run 0 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/err" "WARNING: evidence in draft reads as instructions to a model"
has "$T/err" "fw-po4471.txt"
run 0 "$SWORN" run show 6 -m acme
has "$T/out" "reads as instructions to a model"
eq "flags journaled" "$(sql acme 'SELECT count(*) > 0 FROM run_flags f JOIN run_steps s ON s.id = f.step_id WHERE s.run_id = 6')" 1

# ------------- 7: a model output re-imported as evidence never reaches a bundle
# re-saved from the shared drive with a line of its own: not byte-identical
{ printf 'Saved from the shared drive, 12/01/2026\n\n'; "$SWORN" run show 6 -m acme --draft; } >reimported.md
run 0 "$SWORN" ingest -m acme reimported.md
eq "quarantined" "$(sql acme "SELECT status FROM documents WHERE name = 'reimported.md'")" quarantined
fakes "$T/a.ini" "$T/b-fixes.ini"
run 0 "$SWORN" draft -m acme --task declaration --brief brief.md
run 0 "$SWORN" run context 7 -m acme --json
has "$T/out" '"violations": []'
lacks "$T/out" "reimported.md"
lacks "$T/reqa" "I, Jane Roe, declare as follows"

# -------------------------------------------------- corrections export
run 2 "$SWORN" corrections export -m acme --format sft
has "$T/err" "corrections.export=yes"
run 0 "$SWORN" matter set -m acme corrections.export=yes
run 0 "$SWORN" corrections export -m acme --format sft -o "$T/sft.jsonl"
lines "$T/sft.jsonl" 2
has "$T/sft.jsonl" '"role":"assistant"'
has "$T/sft.jsonl" 'Brightline shipped the order'
run 0 "$SWORN" corrections export -m acme --format dpo
has "$T/out" '"rejected"'
has "$T/out" '"chosen"'

# ------------------------------------------------------------- cancel
# a run cancelled from another shell while it runs stops, and stays cancelled
fakes "$T/a.ini" "$T/b-fixes.ini" --fake-token-delay 40
"$SWORN" draft -m acme --task declaration --brief brief.md >"$T/x.out" 2>"$T/x.err" &
pid=$!
wait_step 8 'revise#1' running
run 0 "$SWORN" run cancel 8 -m acme
has "$T/out" "run 8 cancelled"
wait $pid
eq "cancelled run's exit" "$?" 1
eq "cancelled" "$(sql acme 'SELECT status FROM runs WHERE id = 8')" cancelled
run 2 "$SWORN" run resume 8 -m acme
has "$T/err" "run 8 is cancelled"
run 2 "$SWORN" run cancel 1 -m acme
has "$T/err" "only a running or paused run"

# ------------------------------------------------------------- stats
run 0 "$SWORN" run stats -m acme --json
has "$T/out" 'fake-reasoner-122b'
run 0 "$SWORN" run stats -m acme --by task --json
has "$T/out" 'declaration'
run 2 "$SWORN" run stats -m acme --by colour

# ------------------- a draft that block-quotes evidence it was shown
# The drafter quotes Tom Smith's e-mail (ACME0000003, in its window) in
# full; a later copy of that e-mail imported into another matter is
# evidence, not the model's output: the draft's fingerprints leave out
# what it copied from its window (issue 41, item 6).
letter="$SW_TEST_DATA/acme-mini/VOL001/TEXT/0001/ACME0000003.txt"
{
	printf 'DECLARATION OF JANE ROE\n\nI, Jane Roe, declare as follows:\n\n'
	printf '1. I am the general counsel of Acme Widgets, Inc. On March 3, 2021 I received\n'
	printf 'this e-mail from Brightline (ACME0000003), which I quote in full:\n\n'
	sed -e '/^CONFIDENTIAL/d' -e 's/^/> /' "$letter"
	printf '\n2. Acme relied on the March 10 date when it scheduled its own production.\n'
} >"$T/quoting.md"
printf '[answer "draft"]\nfile = %s\n' "$T/quoting.md" >"$T/a-quote.ini"
fakes "$T/a-quote.ini" "$T/b-fixes.ini"
"$SWORN" draft -m acme --task declaration --brief brief.md >"$T/q.out" 2>"$T/q.err"
has "$T/reqa" 'We will not make the March 10 date for PO 4471'
"$SWORN" matter new later >/dev/null || exit 1
sed '/^CONFIDENTIAL/d' "$letter" >smith-email-copy.txt
run 0 "$SWORN" ingest -m later smith-email-copy.txt
eq "the quoted e-mail stays evidence" \
	"$(sql later "SELECT status FROM documents WHERE name = 'smith-email-copy.txt'")" active

done_testing
