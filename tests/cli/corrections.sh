#!/bin/sh
# sworn matter set/get (known keys and values only) and sworn corrections
# export: off until the matter turns it on, SFT and DPO lines (TRL's field
# names unless --format says another trainer's) on stdout or written
# atomically to a file, and corrections whose final or window evidence is
# quarantined left out.  corrections_formats.sh checks every format against
# the trainers' schemas and chat templates.  The runs and corrections are
# journaled with sqlite3, as the pipeline leaves them after approval.
. "$(dirname "$0")/lib.sh"

new_workspace
cd "$T/ws" || exit 1
run 0 "$SWORN" ingest -m m "$SW_TEST_DATA/acme-mini/VOL001"

# --- matter set / get
run 0 "$SWORN" matter get -m m corrections.export
eq "default" "$(cat "$T/out")" "no"
run 0 "$SWORN" matter get -m m corrections.export --json
has "$T/out" '"default": true'
run 2 "$SWORN" matter set -m m colour=blue
has "$T/err" "unknown setting 'colour': the known ones are corrections.export"
run 2 "$SWORN" matter get -m m colour
has "$T/err" "the known ones are corrections.export"
run 2 "$SWORN" matter set -m m corrections.export=maybe
has "$T/err" "bad value 'maybe' for corrections.export: give yes or no"
run 2 "$SWORN" matter set -m m corrections.export
has "$T/err" "usage: sworn matter set -m MATTER KEY=VALUE"
run 2 "$SWORN" matter set corrections.export=yes
run 2 "$SWORN" matter set -m nosuch corrections.export=yes
has "$T/err" "no matter 'nosuch'"
eq "nothing set" "$(sql m "SELECT count(*) FROM settings")" "0"

# --- two approved runs and their corrections
ev=$(sql m "SELECT doc_id FROM pages WHERE bates = 'ACME0000004'")
sql m "
INSERT INTO documents (id, name, kind, origin, sha256, source_path, imported_at, bytes, page_count)
  VALUES (101, 'run-1-draft', 'text', 'model', 'd1', '(model output)', 't', 10, 1),
         (102, 'run-1-final.md', 'text', 'human', 'f1', '(human text)', 't', 10, 1),
         (103, 'run-2-draft', 'text', 'model', 'd2', '(model output)', 't', 10, 1),
         (104, 'run-2-final.md', 'text', 'human', 'f2', '(human text)', 't', 10, 1);
INSERT INTO runs (id, task, task_sha256, task_source, brief_name, brief, rounds, status,
  draft_doc_id, final_doc_id, final_path, created_at, updated_at)
  VALUES (1, 'declaration', 'x', 'built-in', 'brief.md', 'b', 3, 'approved', 101, 102, 'f1.md', 't', 't'),
         (2, 'demand-letter', 'x', 'built-in', 'brief.md', 'b', 3, 'approved', 103, 104, 'f2.md', 't', 't');
INSERT INTO run_steps (id, run_id, key, step, kind, status, messages, output, output_doc_id, model)
  VALUES (11, 1, 'draft', 'draft', 'model', 'done',
          '[{\"role\":\"system\",\"content\":\"You draft declarations.\"},{\"role\":\"user\",\"content\":\"Draft it from the bundle.\"}]',
          'The order shipped late (ACME0000004).', 101, 'qwen3-30b-a3b-q8_0.gguf'),
         (21, 2, 'revise#1', 'revise', 'revise', 'done',
          '[{\"role\":\"system\",\"content\":\"You write letters.\"},{\"role\":\"user\",\"content\":\"Fix the letter.\"}]',
          'Pay us.', 103, NULL);
INSERT INTO run_sections VALUES (21, 1, 'evidence', 'evidence', $ev, 'ACME0000004.txt', 1, 'ACME0000004', 90, 0);
INSERT INTO corrections (run_id, step_key, messages, draft, final, draft_doc_id, final_doc_id, diff,
  words_kept, words_changed, words_added, words_removed, created_at)
  VALUES (1, 'draft', (SELECT messages FROM run_steps WHERE id = 11), 'The order shipped late (ACME0000004).',
          'The order shipped on March 31, 2021 (ACME0000004).', 101, 102, '[]', 4, 1, 3, 0, '2026-12-01T10:00:00Z'),
         (2, 'revise#1', (SELECT messages FROM run_steps WHERE id = 21), 'Pay us.',
          'Acme asks that Brightline pay the credit — 5% of \$51,000.', 103, 104, '[]', 0, 2, 8, 0, '2026-12-01T11:00:00Z');"

# --- export is off until turned on
run 2 "$SWORN" corrections export -m m --format sft
has "$T/err" "corrections export is off for matter m (client confidentiality); turn it on with: sworn matter set -m m corrections.export=yes"
eq "nothing on stdout" "$(cat "$T/out")" ""
run 0 "$SWORN" matter set -m m corrections.export=no
run 2 "$SWORN" corrections export -m m --format dpo -o "$T/off.jsonl"
[ ! -e "$T/off.jsonl" ] || { echo "FAIL: export off wrote a file"; failures=$((failures + 1)); }

run 0 "$SWORN" matter set -m m corrections.export=yes
has "$T/out" "corrections.export = yes"
run 0 "$SWORN" matter get -m m corrections.export
eq "set" "$(cat "$T/out")" "yes"

run 2 "$SWORN" corrections export -m m
has "$T/err" "needs --kind sft or --kind dpo"
run 2 "$SWORN" corrections export -m m --format trl
has "$T/err" "needs --kind sft or --kind dpo"
run 2 "$SWORN" corrections export -m m --kind rlhf
has "$T/err" "bad --kind 'rlhf': give sft or dpo"
run 2 "$SWORN" corrections export -m m --kind sft --format jsonl
has "$T/err" "bad --format 'jsonl': give trl, axolotl or llamafactory"
run 2 "$SWORN" corrections export -m m --kind dpo --format sft
has "$T/err" "--kind dpo and --format sft disagree"
run 2 "$SWORN" corrections import -m m --kind sft

# SFT on stdout, TRL's conversational prompt-completion: one line per
# correction, the window as the prompt, the final as the completion.
run 0 "$SWORN" corrections export -m m --kind sft
lines "$T/out" 2
has "$T/err" "wrote 2 corrections"
head -1 "$T/out" >"$T/l1"
has "$T/l1" '{"prompt":[{"role":"system","content":"You draft declarations."},{"role":"user","content":"Draft it from the bundle."}],"completion":[{"role":"assistant","content":"The order shipped on March 31, 2021 (ACME0000004)."}]'
has "$T/l1" '"metadata":{"run":1,"task":"declaration","step":"draft","model":"qwen3-30b-a3b-q8_0.gguf","matter":"m","export_consent":{"corrections.export":"yes","set_at":"'
has "$T/l1" '"created_at":"2026-12-01T10:00:00Z","approved_by":null,"override":null,"waivers":[]}'
lacks "$T/out" "shipped late"
tail -1 "$T/out" >"$T/l2"
has "$T/l2" "5% of \$51,000."
has "$T/l2" "—"
has "$T/l2" '"step":"revise#1","model":null'
# The older spelling, --format sft, is the same export.
cp "$T/out" "$T/sft-kind.jsonl"
run 0 "$SWORN" corrections export -m m --format sft
eq "--format sft is --kind sft" "$(cat "$T/out")" "$(cat "$T/sft-kind.jsonl")"
run 0 "$SWORN" corrections export -m m --kind sft --format trl
eq "trl is the default" "$(cat "$T/out")" "$(cat "$T/sft-kind.jsonl")"

# Axolotl's and LLaMA-Factory's names for the same line.
run 0 "$SWORN" corrections export -m m --kind sft --format axolotl
head -1 "$T/out" >"$T/l1"
has "$T/l1" '{"messages":[{"role":"system","content":"You draft declarations."},{"role":"user","content":"Draft it from the bundle."},{"role":"assistant","content":"The order shipped on March 31, 2021 (ACME0000004)."}],"metadata":{"run":1,'
run 0 "$SWORN" corrections export -m m --kind sft --format llamafactory
head -1 "$T/out" >"$T/l1"
has "$T/l1" '{"conversations":[{"from":"human","value":"Draft it from the bundle."},{"from":"gpt","value":"The order shipped on March 31, 2021 (ACME0000004)."}],"system":"You draft declarations.","metadata":{"run":1,'
run 0 "$SWORN" corrections export -m m --kind dpo --format llamafactory
head -1 "$T/out" >"$T/l1"
has "$T/l1" '{"conversations":[{"from":"human","value":"Draft it from the bundle."}],"chosen":{"from":"gpt","value":"The order shipped on March 31, 2021 (ACME0000004)."},"rejected":{"from":"gpt","value":"The order shipped late (ACME0000004)."},"system":"You draft declarations."'
run 0 "$SWORN" corrections export -m m --kind dpo --format axolotl
head -1 "$T/out" >"$T/l1"
has "$T/l1" '"chosen":{"role":"assistant","content":"The order shipped on March 31, 2021 (ACME0000004)."},"rejected":{"role":"assistant","content":"The order shipped late (ACME0000004)."}'

# DPO to a file: the final chosen, the draft rejected, each an assistant
# message.
run 0 "$SWORN" corrections export -m m --kind dpo -o "$T/dpo.jsonl"
eq "stdout with -o" "$(cat "$T/out")" ""
has "$T/err" "wrote 2 corrections"
lines "$T/dpo.jsonl" 2
head -1 "$T/dpo.jsonl" >"$T/l1"
has "$T/l1" '"prompt":[{"role":"system","content":"You draft declarations."},{"role":"user","content":"Draft it from the bundle."}]'
has "$T/l1" '"chosen":[{"role":"assistant","content":"The order shipped on March 31, 2021 (ACME0000004)."}]'
has "$T/l1" '"rejected":[{"role":"assistant","content":"The order shipped late (ACME0000004)."}]'
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys
for l in open(sys.argv[1]): json.loads(l)' "$T/dpo.jsonl" || { echo "FAIL: not JSON Lines"; failures=$((failures + 1)); }
fi

# A window of two user turns in a row stays home (the stricter chat
# templates refuse one), and says so.
sql m "UPDATE corrections SET messages = json_insert(messages, '\$[#]', json_object('role', 'user', 'content', 'more')) WHERE run_id = 1"
run 0 "$SWORN" corrections export -m m --kind sft
has "$T/err" "wrote 1 correction (1 left out:"
has "$T/err" "a window that is not a system and a user message"
lacks "$T/out" "March 31"
sql m "UPDATE corrections SET messages = json_remove(messages, '\$[#-1]') WHERE run_id = 1"

# The evidence page run 2's window held is quarantined: run 2 stays home.
sql m "UPDATE documents SET status = 'quarantined' WHERE id = $ev"
run 0 "$SWORN" corrections export -m m --kind dpo --format axolotl -o "$T/dpo.jsonl"
has "$T/err" "wrote 1 correction (1 left out:"
lines "$T/dpo.jsonl" 1
lacks "$T/dpo.jsonl" "Brightline pay"
# ...and run 1's final too: nothing leaves, and the file says so (empty).
sql m "UPDATE documents SET status = 'quarantined' WHERE id = 102"
run 0 "$SWORN" corrections export -m m --kind sft --format llamafactory
has "$T/err" "wrote 0 corrections (2 left out:"
eq "empty export" "$(cat "$T/out")" ""

# --- clawed back: a privileged memo read by run 3's first draft, then
# removed.  The correction is of the revise step, whose own window held
# no evidence: the memo's words reached it through the earlier draft and
# the verifier's reasons.  Any step of the run having read it keeps the
# correction home, and --audit names what already left, when and where.
printf 'PRIVILEGED MEMO. Counsel advises settling for forty percent.\n' >"$T/memo.txt"
run 0 "$SWORN" ingest -m m "$T/memo.txt"
memo=$(sql m "SELECT id FROM documents WHERE name = 'memo.txt'")
sql m "
INSERT INTO documents (id, name, kind, origin, sha256, source_path, imported_at, bytes, page_count)
  VALUES (205, 'run-3-draft', 'text', 'model', 'd3', '(model output)', 't', 10, 1),
         (206, 'run-3-final.md', 'text', 'human', 'f3', '(human text)', 't', 10, 1);
INSERT INTO runs (id, task, task_sha256, task_source, brief_name, brief, rounds, status,
  draft_doc_id, final_doc_id, final_path, created_at, updated_at)
  VALUES (3, 'demand-letter', 'x', 'built-in', 'brief.md', 'b', 3, 'approved', 205, 206, 'f3.md', 't', 't');
INSERT INTO run_steps (id, run_id, key, step, kind, status, messages, output, output_doc_id)
  VALUES (31, 3, 'draft', 'draft', 'model', 'done', '[]', 'Counsel advises settling for forty percent.', NULL),
         (32, 3, 'revise#1', 'revise', 'revise', 'done',
          '[{\"role\":\"system\",\"content\":\"You revise.\"},{\"role\":\"user\",\"content\":\"Fix: Counsel advises settling for forty percent.\"}]',
          'We demand payment.', 205);
INSERT INTO run_sections VALUES (31, 1, 'evidence', 'evidence', $memo, 'memo.txt', 1, NULL, 20, 0);
INSERT INTO run_sections VALUES (32, 1, 'draft', 'model', 205, 'run-3-draft', 1, NULL, 20, 0);
INSERT INTO corrections (run_id, step_key, messages, draft, final, draft_doc_id, final_doc_id, diff,
  words_kept, words_changed, words_added, words_removed, created_at)
  VALUES (3, 'revise#1', (SELECT messages FROM run_steps WHERE id = 32), 'We demand payment.',
          'We demand payment in full.', 205, 206, '[]', 3, 0, 2, 0, '2026-12-01T12:00:00Z');"
run 0 "$SWORN" corrections export -m m --kind sft -o "$T/before.jsonl"
has "$T/err" "wrote 1 correction"
has "$T/before.jsonl" "forty percent"
run 0 "$SWORN" matter rm -m m memo.txt --reason "clawed back: privileged"
run 0 "$SWORN" corrections export -m m --kind sft -o "$T/after.jsonl"
has "$T/err" "wrote 0 corrections (3 left out:"
lacks "$T/after.jsonl" "forty percent"
run 1 "$SWORN" corrections export -m m --audit
has "$T/out" "correction 3 (run 3) left on "
has "$T/out" "as sft/trl to $T/before.jsonl; since then: memo.txt (removed)"
has "$T/out" "no longer active evidence"
run 1 "$SWORN" corrections export -m m --audit --json
eq "tainted exports" "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(sorted({r["correction"] for r in j["tainted"]}))' "$T/out")" "[1, 2, 3]"

run 0 "$SWORN" corrections --help
has "$T/out" "corrections.export=yes"
has "$T/out" "--format sft and"
run 0 "$SWORN" matter --help
has "$T/out" "set -m MATTER KEY=VALUE"

done_testing
