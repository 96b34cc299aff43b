#!/bin/sh
# sworn plan: placement on the example 12x V100 box, commands, conf
# sections, JSON, SVG, --detect through a stand-in nvidia-smi, errors.
. "$(dirname "$0")/lib.sh"
fleet_fixtures "$T/m"
HW=$SW_SRC/examples/hardware
M=$T/m

run 0 "$SWORN" plan --hardware "$HW/v100x12.ini" \
	"$M/qwen3.5-122b-a10b-q8_0.gguf:ctx=16k,role=reasoner" \
	"$M/qwen3.6-35b-a3b-q8_0.gguf:ctx=32k,role=drafter" \
	"$M/gemma-4-26b-a4b-q8_0.gguf:role=reviewer" \
	"$M/qwen3-32b-q8_0.gguf"
has "$T/out" "group    board-"
has "$T/out" "group    pair-01"
has "$T/out" "BELOW FLOOR"
has "$T/out" "CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0,1 llama-server -m $M/qwen3.6-35b-a3b-q8_0.gguf --host 127.0.0.1 --port"
has "$T/out" "[role \"drafter\"]"
has "$T/out" "planned 4 of 4 models"
# Each model opens with one plain sentence; a GPU past 97% is a risk.
has "$T/out" "  Qwen3.5-122B-A10B answers at about 49 tokens/s on board-a, using 97% of its four GPUs' memory."
has "$T/out" "  Qwen3.6-35B-A3B answers at about 82 tokens/s on pair-01, using 57% of its two GPUs' memory."
has "$T/out" ", below the 40 tokens/s floor."
has "$T/out" "  risk     GPU9 is 100% full"
lacks "$T/out" "risk     GPU0 "
# Prefill by the prompt's length: 1k, 16k and the full context (a 32k
# context has no 64k line), and how long the full one takes to read.
has "$T/out" "  prefill  "
has "$T/out" " tok/s @1k, "
has "$T/out" " tok/s @16k, "
has "$T/out" " tok/s @32768 (full: "
has "$T/out" " s to read)"
lacks "$T/out" "@64k"

run 0 "$SWORN" plan -H "$HW/v100x12.ini" --commands --server /opt/llama/llama-server --port 9001 "$M/gemma-4-26b-a4b-q8_0.gguf:kv=q4_0,np=2"
lines "$T/out" 1
has "$T/out" "/opt/llama/llama-server -m"
has "$T/out" "--port 9001"
has "$T/out" "-ctk q4_0 -ctv q4_0 -c 32768 -np 2 --fit off"

# The commands fit the llama-server build: its --help says which flags it
# knows.  A recent build (the fake prints a recent --help) ...
run 0 "$SWORN" plan -H "$HW/v100x12.ini" --server "$SW_FAKE_LLAMA" "$M/gemma-4-26b-a4b-q8_0.gguf"
has "$T/out" "server   $SW_FAKE_LLAMA version: 0 (fake): -fa on, --fit off"
has "$T/out" " -fa on -ctk q8_0 -ctv q8_0 -c 32768 -np 1 --fit off"
# ... one from before -fa took a value and before --fit ...
cat >"$T/old-llama-server" <<'EOF'
#!/bin/sh
case $1 in
--version) echo "version: 4000 (0123abc)" >&2 ;;
--help) cat >&2 <<'HELP'
-c,    --ctx-size N                     size of the prompt context (default: 4096)
-fa,   --flash-attn                     enable Flash Attention (default: disabled)
-ctk,  --cache-type-k TYPE              KV cache data type for K (default: f16)
--fit-target N                          not this one
HELP
;;
esac
EOF
chmod +x "$T/old-llama-server"
run 0 "$SWORN" plan -H "$HW/v100x12.ini" --server "$T/old-llama-server" --json "$M/gemma-4-26b-a4b-q8_0.gguf"
has "$T/out" '"build": 4000'
has "$T/out" '"flash_attn": "-fa"'
has "$T/out" '"fit_off": false'
run 0 "$SWORN" plan -H "$HW/v100x12.ini" --server "$T/old-llama-server" --commands "$M/gemma-4-26b-a4b-q8_0.gguf"
has "$T/out" " -fa -ctk q8_0"
lacks "$T/out" "--fit"
lacks "$T/out" "-fa on"
# ... and none to read: the plan names the builds its flags need.
run 0 "$SWORN" plan -H "$HW/v100x12.ini" --server "$T/no-such-server" "$M/gemma-4-26b-a4b-q8_0.gguf"
has "$T/out" "server   $T/no-such-server was not read"
has "$T/out" "b6327 (August 2025) or newer for '-fa on'"
has "$T/out" " -fa on -ctk q8_0 -ctv q8_0 -c 32768 -np 1 --fit off"

run 0 "$SWORN" plan -H "$HW/v100x12.ini" --conf "$M/gemma-4-26b-a4b-q8_0.gguf:role=drafter"
has "$T/out" "[endpoint \"pair-"
has "$T/out" "url = http://127.0.0.1:8081"

run 0 "$SWORN" plan -H "$HW/v100x12.ini" --json --svg "$T/plan.svg" "$M/qwen3-30b-a3b-q8_0.gguf"
has "$T/out" '"fits": true'
has "$T/out" '"decode_tps":'
has "$T/out" '"command": "CUDA_DEVICE_ORDER=PCI_BUS_ID'
has "$T/plan.svg" "<svg "
has "$T/plan.svg" "GPU11"
# The picture as a PNG too, and the terms explained in words.
run 0 "$SWORN" plan -H "$HW/v100x12.ini" --explain --png "$T/plan.png" "$M/qwen3-30b-a3b-q8_0.gguf:role=drafter"
eq "PNG signature" "$(head -c 4 "$T/plan.png" | od -An -c | tr -d ' ')" '211PNG'
has "$T/out" "What the terms mean:"
has "$T/out" "  KV cache      the model's working memory"
has "$T/out" "  kv=q8_0       the KV cache's quantisation"
has "$T/out" "  slots         how many requests a server answers at the same time"
has "$T/out" "\"@1k\" and \"@16k\""
has "$T/out" "  tensor split  how the model's layers are divided among the GPUs"
run 0 "$SWORN" plan -H "$HW/v100x12.ini" "$M/qwen3-30b-a3b-q8_0.gguf"
lacks "$T/out" "What the terms mean:"
run 2 "$SWORN" plan -H "$HW/v100x12.ini" --png "$T/no/such/dir/plan.png" "$M/qwen3-30b-a3b-q8_0.gguf"
has "$T/err" "cannot write"

# Strict floor: the dense 32B meets 40 tok/s nowhere.
run 1 "$SWORN" plan -H "$HW/v100x12.ini" --strict-floor "$M/qwen3-32b-q8_0.gguf"
has "$T/err" "not placed"
has "$T/err" "--strict-floor"
run 0 "$SWORN" plan -H "$HW/v100x12.ini" --floor 15 --strict-floor "$M/qwen3-32b-q8_0.gguf"
# The 128B dense at Q8_0 fits no group, and says what would.
run 1 "$SWORN" plan -H "$HW/v100x12.ini" --json "$M/mistral-medium-3.5-128b-q8_0.gguf"
has "$T/out" '"fits": false'
has "$T/out" "bits/weight"
has "$T/out" '"predicted": null'
has "$T/out" '"risk": false'
# An unplaced model prints no speed as if it ran.
run 1 "$SWORN" plan -H "$HW/v100x12.ini" "$M/mistral-medium-3.5-128b-q8_0.gguf"
has "$T/out" "Mistral-Medium-3.5-128B is not placed"
has "$T/out" "no speed is predicted"
lacks "$T/out" "tok/s @"
lacks "$T/out" "answers at about"

# --detect reads nvidia-smi (a stand-in printing captured output).
PATH="$SW_TEST_DATA/fleet/bin:$PATH" SW_FAKE_SMI="$SW_TEST_DATA/fleet/v100x12" \
	run 0 "$SWORN" plan --detect "$M/qwen3-30b-a3b-q8_0.gguf"
has "$T/out" "hardware: nvidia-smi (12 GPUs, 4 groups)"
PATH="$SW_TEST_DATA/fleet/bin:$PATH" SW_FAKE_SMI="$SW_TEST_DATA/fleet/box2" \
	run 0 "$SWORN" plan --detect "$M/qwen3-30b-a3b-q8_0.gguf"
has "$T/out" "GPU0 16.4/24.0 GiB"

# Usage errors.
run 2 "$SWORN" plan "$M/tiny.gguf"
has "$T/err" "--hardware FILE or --detect"
run 2 "$SWORN" plan -H "$HW/v100x12.ini" "$M/tiny.gguf:ctx=lots"
has "$T/err" "bad option 'ctx=lots'"
run 2 "$SWORN" plan -H "$HW/v100x12.ini" "$M/tiny.gguf:group=board-z"
has "$T/err" "no group called 'board-z'"
run 2 "$SWORN" plan -H "$T/nothing.ini" "$M/tiny.gguf"
has "$T/err" "nothing.ini"
# A misspelt key in an inventory is an error with its line, never the
# built-in value.
sed 's/bandwidth_gbs/bandwith_gbs/' "$HW/v100x12.ini" >"$T/typo.ini"
line=$(grep -n bandwith_gbs "$T/typo.ini" | head -1 | cut -d: -f1)
run 2 "$SWORN" plan -H "$T/typo.ini" "$M/tiny.gguf"
has "$T/err" "typo.ini:$line: unknown key 'bandwith_gbs' in [gpu \"0\"]: did you mean bandwidth_gbs?"
done_testing
