#!/bin/sh
# sworn gguf: the summary of header-only model files, JSON, and errors.
. "$(dirname "$0")/lib.sh"
fleet_fixtures "$T/m"
HW=$SW_SRC/examples/hardware

run 0 "$SWORN" gguf "$T/m/qwen3-30b-a3b-q8_0.gguf"
has "$T/out" "architecture  qwen3moe"
has "$T/out" "experts       128, 8 used per token"
has "$T/out" "layers        48: 48 with KV cache"
has "$T/out" "heads         32 query, 4 KV, head dim 128"
has "$T/out" "Q8_0"

run 0 "$SWORN" gguf "$T/m/qwen3.6-35b-a3b-q8_0.gguf"
has "$T/out" "10 with KV cache (0 sliding-window), 30 recurrent"
run 0 "$SWORN" gguf "$T/m/gemma-4-26b-a4b-q8_0.gguf"
has "$T/out" "(25 sliding-window)"
has "$T/out" "output tied to the embedding"
run 0 "$SWORN" gguf "$T/m/qwen3.6-27b-q8_0.gguf"
has "$T/out" "layers        64 + 1 MTP"

run 0 "$SWORN" gguf --json --tensors "$T/m/tiny.gguf"
has "$T/out" '"architecture": "llama"'
has "$T/out" '"name": "blk.0.attn_q.weight"'
run 0 "$SWORN" gguf "$T/m/qwen3-32b-bf16.gguf"
has "$T/out" "BF16"

# Only the header is read: a model cut after its tensor table still works,
# one cut inside it fails with the offset.
head -c 20000 "$T/m/qwen3-32b-q8_0.gguf" >"$T/cut.gguf"
run 2 "$SWORN" gguf "$T/cut.gguf"
has "$T/err" "truncated at byte"
printf 'not a model' >"$T/junk.gguf"
run 2 "$SWORN" gguf "$T/junk.gguf"
has "$T/err" "is not a GGUF file"
run 2 "$SWORN" gguf "$T/none.gguf"
has "$T/err" "cannot open"
done_testing
