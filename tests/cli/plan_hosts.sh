#!/bin/sh
# sworn plan over two boxes (examples/hardware: box1, the 12x V100 server;
# box2, 4x RTX 3090 + 2x V100-PCIe at 10.0.0.12): no group spans hosts,
# each entry names its host, commands and sworn.conf use its address;
# --allow-rpc spans a model too large for any group across both through
# llama.cpp's rpc-server, slower than the same GPUs in one box; without it
# the model is refused with the reason; --detect --write-inventory.
. "$(dirname "$0")/lib.sh"
fleet_fixtures "$T/m"
HW=$SW_SRC/examples/hardware
M=$T/m
B1=$HW/v100x12.ini
B2=$HW/rtx3090x4-v100pcie.ini

run 0 "$SWORN" plan -H "$B1" -H "$B2" \
	"$M/qwen3.5-122b-a10b-q8_0.gguf:ctx=16k,role=reasoner" \
	"$M/qwen3.6-35b-a3b-q8_0.gguf:ctx=32k,role=drafter" \
	"$M/gemma-4-26b-a4b-q8_0.gguf:role=reviewer" \
	"$M/qwen3-32b-q8_0.gguf" "$M/gemma-4-31b-q8_0.gguf" "$M/qwen3-30b-a3b-q8_0.gguf"
has "$T/out" "(18 GPUs, 7 groups)"
has "$T/out" "host box1: 12 GPUs, this machine"
has "$T/out" "host box2: 6 GPUs, 10.0.0.12 (a private address: local under the local-only policy)"
has "$T/out" "planned 6 of 6 models"
has "$T/out" "on box2, through ssh -o BatchMode=yes sworn@10.0.0.12:"
has "$T/out" "--host 10.0.0.12 --port"
has "$T/out" "url = http://10.0.0.12:"
has "$T/out" "--host 127.0.0.1 --port"
has "$T/out" "url = http://127.0.0.1:"
lacks "$T/out" "rpc-server"

# fail WHAT: one failed check.
fail() {
	echo "FAIL: $1"
	failures=$((failures + 1))
}

# Every placement names its host, and all its GPUs are on that host: the
# JSON's GPUs are checked against each inventory's groups.
run 0 "$SWORN" plan --json -H "$B1" -H "$B2" \
	"$M/qwen3.5-122b-a10b-q8_0.gguf:ctx=16k" "$M/qwen3.6-35b-a3b-q8_0.gguf" \
	"$M/gemma-4-26b-a4b-q8_0.gguf" "$M/qwen3-32b-q8_0.gguf" "$M/gemma-4-31b-q8_0.gguf" \
	"$M/qwen3-30b-a3b-q8_0.gguf"
python3 - "$T/out" <<'EOF' || fail "a placement spans hosts or lacks its host"
import json, sys
d = json.load(open(sys.argv[1]))
groups = {"box1": {"board-a": [4, 5, 8, 9], "board-b": [6, 7, 10, 11], "pair-01": [0, 1], "pair-23": [2, 3]},
          "box2": {"ampere-01": [0, 1], "ampere-23": [2, 3], "volta-pcie": [4, 5]}}
hosts = set()
for m in d["models"]:
    assert m["host"] in groups, m
    assert sorted(m["gpus"]) == sorted(groups[m["host"]][m["group"]]), m
    hosts.add(m["host"])
assert hosts == {"box1", "box2"}, hosts
EOF

# Too large for any group: refused with the reason, which names the
# two-host span --allow-rpc would give.
run 1 "$SWORN" plan -H "$B1" -H "$B2" "$M/mistral-medium-3.5-128b-q8_0.gguf:ctx=16k"
has "$T/err" "fits no group"
has "$T/err" "with --allow-rpc it could span board-a on box1"
lacks "$T/out" "rpc-server"
run 0 "$SWORN" plan --allow-rpc -H "$B1" -H "$B2" "$M/mistral-medium-3.5-128b-q8_0.gguf:ctx=16k,role=reasoner"
has "$T/out" "over RPC (GPUs"
has "$T/out" "through llama.cpp's RPC (--allow-rpc) over the box1-box2 link (1.25 GB/s, 50 us)"
has "$T/out" "rpc      CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES="
has "$T/out" "rpc-server -H 10.0.0.12 -p 50052"
has "$T/out" "--rpc 10.0.0.12:50052,10.0.0.12:50053"
has "$T/out" "rpc-server has no authentication"
has "$T/out" "box2/GPU"
run 0 "$SWORN" plan --allow-rpc --json -H "$B1" -H "$B2" "$M/mistral-medium-3.5-128b-q8_0.gguf:ctx=16k"
python3 - "$T/out" <<'EOF' || fail "the RPC span's prediction"
import json, sys
m = json.load(open(sys.argv[1]))["models"][0]
assert m["host"] == "box1" and m["rpc"]["host"] == "box2", m
# The network makes it slower than the same split in one box.
assert 0 < m["predicted"]["decode_tps"] < m["rpc"]["decode_tps_without_network"], m
assert 0 < m["predicted"]["prompt_tps"] < m["rpc"]["prompt_tps_without_network"], m
assert len(m["gpus"]) == sum(1 for x in m["memory"]) and len(m["gpus"]) > 4, m
EOF
# A slower link costs more.
sed 's/bandwidth_gbs = 1.25/bandwidth_gbs = 0.01/; s/latency_us = 50/latency_us = 20000/' "$B2" >"$T/slow.ini"
run 0 "$SWORN" plan --allow-rpc --json -H "$B1" -H "$T/slow.ini" "$M/mistral-medium-3.5-128b-q8_0.gguf:ctx=16k"
slow=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["models"][0]["predicted"]["decode_tps"])' "$T/out")
run 0 "$SWORN" plan --allow-rpc --json -H "$B1" -H "$B2" "$M/mistral-medium-3.5-128b-q8_0.gguf:ctx=16k"
fast=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["models"][0]["predicted"]["decode_tps"])' "$T/out")
python3 -c "import sys; sys.exit(0 if float('$slow') < float('$fast') else 1)" || fail "slow link $slow not below $fast"
# No link between the hosts: no span, and the reason says why.
grep -v -e '^\[link' -e '^bandwidth_gbs = 1.25' -e '^latency_us' "$B2" >"$T/nolink.ini"
run 1 "$SWORN" plan --allow-rpc -H "$B1" -H "$T/nolink.ini" "$M/mistral-medium-3.5-128b-q8_0.gguf:ctx=16k"
has "$T/err" "no [link \"A-B\"] in the inventories"

# One host, no [host] section: plans as before, named after its file.
run 0 "$SWORN" plan -H "$B1" "$M/qwen3-30b-a3b-q8_0.gguf"
lacks "$T/out" "host box1"
# Two inventories of one host, a bad [host] key, a link without figures.
run 2 "$SWORN" plan -H "$B1" -H "$B1" "$M/tiny.gguf"
has "$T/err" "both describe host 'box1'"
sed 's/^address = /adress = /' "$B2" >"$T/typo.ini"
run 2 "$SWORN" plan -H "$B1" -H "$T/typo.ini" "$M/tiny.gguf"
has "$T/err" "adress"
grep -v '^latency_us' "$B2" >"$T/half.ini"
run 2 "$SWORN" plan -H "$B1" -H "$T/half.ini" "$M/tiny.gguf"
has "$T/err" "needs bandwidth_gbs and latency_us"
run 2 "$SWORN" plan -H "$B1" -H "$B1" -H "$B1" -H "$B1" -H "$B1" -H "$B1" -H "$B1" -H "$B1" -H "$B1" "$M/tiny.gguf"
has "$T/err" "more than 8 times"

# Each box writes its own inventory from nvidia-smi.
PATH="$SW_TEST_DATA/fleet/bin:$PATH" SW_FAKE_SMI="$SW_TEST_DATA/fleet/box2" \
	run 0 "$SWORN" plan --detect --write-inventory "$T/box2.ini"
has "$T/err" "wrote the inventory of 6 GPUs"
has "$T/box2.ini" "[host]"
has "$T/box2.ini" "[gpu \"5\"]"
sed 's/^name = local$/name = box2\naddress = 10.0.0.12/' "$T/box2.ini" >"$T/box2b.ini"
run 0 "$SWORN" plan -H "$B1" -H "$T/box2b.ini" "$M/qwen3-30b-a3b-q8_0.gguf" "$M/gemma-4-26b-a4b-q8_0.gguf"
has "$T/out" "host box2: 6 GPUs, 10.0.0.12"
run 2 "$SWORN" plan -H "$B1" --write-inventory "$T/x.ini" "$M/tiny.gguf"
has "$T/err" "--write-inventory writes what --detect reads"

done_testing
