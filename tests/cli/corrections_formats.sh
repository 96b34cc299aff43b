#!/bin/sh
# sworn corrections export in every trainer's format (trl, axolotl,
# llamafactory) and kind (sft, dpo), checked by corrections_formats.py:
# each line against the JSON Schema written from the trainer's
# documentation (tests/data/trainers/schemas.json), the same conversations
# in every format, and each example rendered through the chat template a
# model's GGUF carries, read back with sworn gguf --chat-template.  The
# templates (tests/data/trainers/*.jinja) are the tests' own, in the shapes
# of ChatML, Llama 3 and Gemma (which refuses a system role and two user
# turns in a row); they are rendered with Jinja2 as transformers does.
. "$(dirname "$0")/lib.sh"
D=$SW_TEST_DATA/trainers
PY=$SW_SRC/tests/cli/corrections_formats.py

if ! python3 -c 'import jsonschema, jinja2' 2>"$T/py"; then
	echo "FAIL: python3 lacks jsonschema or jinja2 (scripts/install-deps installs"
	echo "python3-jsonschema and python3-jinja2):"
	cat "$T/py"
	exit 1
fi

new_workspace
cd "$T/ws" || exit 1
run 0 "$SWORN" matter set -m m corrections.export=yes

# Three approved runs: a declaration with a system prompt, a letter whose
# texts hold what a template could trip on (Jinja markers, quotes, blank
# lines, a trailing space, non-ASCII), and a window with no system message.
sql m "
INSERT INTO documents (id, name, kind, origin, sha256, source_path, imported_at, bytes, page_count)
  VALUES (101, 'run-1-draft', 'text', 'model', 'd1', '(model output)', 't', 10, 1),
         (102, 'run-1-final.md', 'text', 'human', 'f1', '(human text)', 't', 10, 1),
         (103, 'run-2-draft', 'text', 'model', 'd2', '(model output)', 't', 10, 1),
         (104, 'run-2-final.md', 'text', 'human', 'f2', '(human text)', 't', 10, 1),
         (105, 'run-3-draft', 'text', 'model', 'd3', '(model output)', 't', 10, 1),
         (106, 'run-3-final.md', 'text', 'human', 'f3', '(human text)', 't', 10, 1);
INSERT INTO runs (id, task, task_sha256, task_source, brief_name, brief, rounds, status,
  draft_doc_id, final_doc_id, final_path, created_at, updated_at)
  VALUES (1, 'declaration', 'x', 'built-in', 'brief.md', 'b', 3, 'approved', 101, 102, 'f1.md', 't', 't'),
         (2, 'demand-letter', 'x', 'built-in', 'brief.md', 'b', 3, 'approved', 103, 104, 'f2.md', 't', 't'),
         (3, 'chronology', 'x', 'built-in', 'brief.md', 'b', 3, 'approved', 105, 106, 'f3.md', 't', 't');
INSERT INTO run_steps (id, run_id, key, step, kind, status, messages, output, output_doc_id, model)
  VALUES (11, 1, 'draft', 'draft', 'model', 'done',
          json_array(json_object('role', 'system', 'content', 'You draft declarations under 28 U.S.C. § 1746.'),
                     json_object('role', 'user', 'content', 'Draft it from the bundle.')),
          'd', 101, 'qwen3-30b-a3b-q8_0.gguf'),
         (21, 2, 'revise#1', 'revise', 'revise', 'done',
          json_array(json_object('role', 'system', 'content', 'You write letters. Never use {{ braces }} or {% tags %}.'),
                     json_object('role', 'user', 'content', 'Fix the letter:' || char(10) || char(10) || '\"Pay us.\" ')),
          'd', 103, 'gemma-4-26b-a4b-q8_0.gguf'),
         (31, 3, 'draft', 'draft', 'model', 'done',
          json_array(json_object('role', 'user', 'content', 'List the dates.')),
          'd', 105, NULL);
INSERT INTO corrections (run_id, step_key, messages, draft, final, draft_doc_id, final_doc_id, diff,
  words_kept, words_changed, words_added, words_removed, created_at)
  SELECT r.id, s.key, s.messages,
         CASE r.id WHEN 1 THEN 'The order shipped late (ACME0000004).'
                   WHEN 2 THEN 'Pay us.' ELSE '- March 2021' END,
         CASE r.id WHEN 1 THEN 'The order shipped on March 31, 2021 (ACME0000004).'
                   WHEN 2 THEN 'Acme asks that Brightline pay the credit — 5% of \$51,000.' || char(10) || char(10) || '{{ not a tag }} ' || char(10)
                   ELSE '- 2021-03-31: the order ships (ACME0000004).' END,
         r.draft_doc_id, r.final_doc_id, '[]', 1, 1, 1, 0, '2026-12-01T1' || r.id || ':00:00Z'
    FROM runs r JOIN run_steps s ON s.run_id = r.id ORDER BY r.id;"

mkdir "$T/x"
for fmt in trl axolotl llamafactory; do
	for kind in sft dpo; do
		run 0 "$SWORN" corrections export -m m --kind $kind --format $fmt -o "$T/x/$fmt-$kind.jsonl"
		has "$T/err" "wrote 3 corrections"
		lines "$T/x/$fmt-$kind.jsonl" 3
	done
done

# The chat templates, carried by GGUF files and read back by sworn.
set --
for name in chatml llama3 gemma; do
	python3 "$PY" gguf "$T/$name.gguf" "$D/$name.jinja" || exit 1
	run 0 "$SWORN" gguf --chat-template "$T/$name.gguf"
	cp "$T/out" "$T/$name.jinja"
	cmp -s "$T/$name.jinja" "$D/$name.jinja" || {
		echo "FAIL: sworn gguf --chat-template changed $name's template"
		failures=$((failures + 1))
	}
	set -- "$@" "$name=$T/$name.jinja"
done
run 2 "$SWORN" gguf --chat-template --json "$T/chatml.gguf"
has "$T/err" "--chat-template prints the template alone"
python3 "$PY" gguf "$T/none.gguf" - || exit 1
run 1 "$SWORN" gguf --chat-template "$T/none.gguf"
has "$T/err" "has no tokenizer.chat_template"

checks=$((checks + 1))
python3 "$PY" check "$D/schemas.json" "$T/x" "$@" || failures=$((failures + 1))
done_testing
