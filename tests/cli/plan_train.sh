#!/bin/sh
# sworn plan --train: the seed's question (a 35B-A3B MoE, a 14B and a 27B
# dense on 4x V100-SXM2 32 GB NVLink and 4x RTX 3090 24 GB) as a table and
# as verdicts with their reasons, JSON, a GGUF for the shapes, the
# sequence length and the epoch from a matter's corrections, and errors.
. "$(dirname "$0")/lib.sh"
D=$SW_TEST_DATA/train
HW=$D/boards.ini
MOE=$D/qwen3.6-35b-a3b.config.json
Q14=$D/qwen3-14b.config.json
Q27=$D/qwen3.6-27b.config.json

run 0 "$SWORN" -C "$T" plan --train -H "$HW" --board v100-board --board rtx3090-board --compare \
	--seq 2048 "$MOE" "$Q14" "$Q27"
lines "$T/out" 11
has "$T/out" "model                        board            fits"
has "$T/out" "qwen3-14b                    v100-board       yes"
has "$T/out" "qwen3.6-27b                  rtx3090-board    yes"
has "$T/out" "fp16 with loss scaling"
has "$T/out" "bf16, layer split, MoE"
has "$T/out" "qwen3-14b trains fastest on v100-board"
lacks "$T/out" "warning"

# Without --compare: the table, then each verdict with its reasons.
run 0 "$SWORN" -C "$T" plan --train -H "$HW" --board v100-board --seq 2048 "$MOE"
has "$T/out" "qwen3.6-35b-a3b on v100-board (4 x Tesla V100-SXM2-32GB, NVLink)"
has "$T/out" "  model    qwen3_5_moe_text from config.json: 34.7B params, 2.9B active (MoE), 40 layers (10 full attention)"
has "$T/out" "  verdict  FITS: peak "
has "$T/out" "  request  qlora, rank 16 on q,k,v,o,gate,up,down, seq 2048 (given)"
has "$T/out" "  memory   base "
has "$T/out" "GiB (each GPU, data parallel)"
has "$T/out" "PyTorch SDPA memory-efficient (no FA2 below sm80), fp16 with loss scaling"
has "$T/out" "  warning  qwen3.6-35b-a3b was trained in bf16 and these GPUs have no bf16"
has "$T/out" "or on rtx3090-board, which has bf16"
has "$T/out" "  warning  Volta (sm_70): CUDA 13 dropped it"
has "$T/out" "  warning  MoE: all 256 experts stay in memory"
has "$T/out" "add 'experts' to --target"

# A chunked loss never holds the whole logits: the MoE's peak drops.
run 1 "$SWORN" -C "$T" plan --train -H "$HW" --board rtx3090-board --seq 8192 "$MOE"
has "$T/out" "a chunked cross-entropy (Liger kernel, Unsloth, Cut Cross-Entropy) would save most of it"
run 0 "$SWORN" -C "$T" plan --train -H "$HW" --board rtx3090-board --seq 8192 --chunked-loss "$MOE"
has "$T/out" "checkpointing on, chunked loss"
lacks "$T/out" "would save most of it"
has "$T/out" "  verdict  FITS"

# --json: one plan per model and board.
run 0 "$SWORN" -C "$T" plan --train -H "$HW" --board rtx3090-board --json --seq 2048 --rank 32 \
	--target q,v --method qlora "$Q14" "$Q27"
has "$T/out" '"fitting": 2'
has "$T/out" '"board": "rtx3090-board"'
has "$T/out" '"parallel": "data parallel"'
has "$T/out" '"parallel": "layer split"'
has "$T/out" '"targets": "q,v"'
has "$T/out" '"rank": 32'
has "$T/out" '"precision": "bf16"'
has "$T/out" '"attention": "FlashAttention-2"'
has "$T/out" '"total": 14767882240'
has "$T/out" '"hours_per_epoch": null'
has "$T/out" '"schema": 1'

# Nothing fits: exit 1, and why.
run 1 "$SWORN" -C "$T" plan --train -H "$HW" --board rtx3090-board --method lora --seq 8192 "$Q27"
has "$T/out" "  verdict  DOES NOT FIT: peak"
has "$T/out" "  why      needs "
has "$T/out" "try --method qlora"

# A GGUF gives the shapes too.
fleet_fixtures "$T/m"
run 0 "$SWORN" -C "$T" plan --train -H "$HW" --board v100-board --seq 1024 "$T/m/qwen3-32b-q8_0.gguf"
has "$T/out" "from GGUF: 32.8B params"
has "$T/out" "trained in bf16 (assumed)"

# The matter's corrections set the sequence length and the epoch.
new_workspace
cd "$T/ws" || exit 1
run 0 "$SWORN" ingest -m m "$SW_TEST_DATA/acme-mini/VOL001"
sql m "
INSERT INTO documents (id, name, kind, origin, sha256, source_path, imported_at, bytes, page_count)
  VALUES (101, 'run-1-draft', 'text', 'model', 'd1', '(model output)', 't', 10, 1),
         (102, 'run-1-final.md', 'text', 'human', 'f1', '(human text)', 't', 10, 1);
INSERT INTO runs (id, task, task_sha256, task_source, brief_name, brief, rounds, status,
  draft_doc_id, final_doc_id, final_path, created_at, updated_at)
  VALUES (1, 'declaration', 'x', 'built-in', 'brief.md', 'b', 3, 'approved', 101, 102, 'f1.md', 't', 't');
INSERT INTO run_steps (id, run_id, key, step, kind, status, messages, output, output_doc_id, model)
  VALUES (11, 1, 'draft', 'draft', 'model', 'done',
          '[{\"role\":\"system\",\"content\":\"You draft declarations.\"},{\"role\":\"user\",\"content\":\"Draft it from the bundle.\"}]',
          'Late.', 101, 'q.gguf');
INSERT INTO corrections (run_id, step_key, messages, draft, final, draft_doc_id, final_doc_id, diff,
  words_kept, words_changed, words_added, words_removed, created_at)
  VALUES (1, 'draft', (SELECT messages FROM run_steps WHERE id = 11), 'Late.',
          'The order shipped on March 31, 2021.', 101, 102, '[]', 0, 1, 6, 0, '2026-12-01T10:00:00Z');"
# Off until the matter allows the export: the default length, and why.
run 0 "$SWORN" plan --train -H "$HW" --board rtx3090-board "$Q14"
has "$T/out" "seq 4096 (default: no corrections read)"
has "$T/err" "sworn: no corrections read ("
has "$T/err" "): planning --seq 4096"
run 2 "$SWORN" plan --train -H "$HW" --board rtx3090-board -m m "$Q14"
has "$T/err" "corrections export is off for matter m"
run 0 "$SWORN" matter set -m m corrections.export=yes
# 6 template tokens a message plus a token per 4 bytes: the system
# message (23 bytes) 12, the user's (25) 13, the final (36) 15 = 40.
run 0 "$SWORN" plan --train -H "$HW" --board rtx3090-board -m m "$Q14"
has "$T/out" "  data     1 corrections, 40 tokens; longest 40, 95th percentile 40"
has "$T/out" "seq 256 (the longest correction)"
has "$T/out" "per epoch of 1 corrections (40 tokens)"
cd "$T" || exit 1

# Errors: one line, what to do.
run 2 "$SWORN" plan --train -H "$HW" --board nosuch "$Q14"
has "$T/err" "no board 'nosuch' in"
run 2 "$SWORN" plan --train -H "$HW" --method dora "$Q14"
has "$T/err" "bad --method 'dora': give qlora, lora or full"
run 2 "$SWORN" plan --train -H "$HW" --target q,lm_head "$Q14"
has "$T/err" "bad --target 'lm_head'"
run 2 "$SWORN" plan --train --board v100-board "$Q14"
has "$T/err" "--train needs the boards: give --hardware FILE"
run 2 "$SWORN" plan --train -H "$HW"
has "$T/err" "no model to train"
run 2 "$SWORN" plan -H "$HW" --board v100-board "$Q14"
has "$T/err" "plan a fine-tune: add --train"
run 2 "$SWORN" plan -H "$HW" --chunked-loss "$Q14"
has "$T/err" "plan a fine-tune: add --train"
printf '{"hidden_size": 64}' >"$T/half.json"
run 2 "$SWORN" plan --train -H "$HW" --seq 512 "$T/half.json"
has "$T/err" "has no num_hidden_layers: give the model's own config.json"
lines "$T/err" 1
done_testing
