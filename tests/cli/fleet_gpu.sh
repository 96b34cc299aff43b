#!/bin/sh
# GPU offload proven by measurement, and GPU health: a server whose process
# holds far less on its GPUs than the plan puts there runs on the CPU and
# fails `fleet up` ("model on the CPU: 0.4 GiB of ..."), whatever its log
# says; one that holds it is ready.  `fleet status` and `doctor` show each
# GPU (the memory its server holds, temperature, power against the limit,
# throttle reasons, ECC errors) and a GPU the inventory names that the
# driver does not list as missing, with the fix.  The driver is the test's
# stand-in NVML library (SWORN_NVML names it, SW_FAKE_NVML its GPUs), then
# the nvidia-smi stand-in (SWORN_NVML=off).  The llama-server double runs
# on no GPU: the wrapper below writes what its process "holds" where the
# stand-ins read it, before it starts.
. "$(dirname "$0")/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
: "${SW_FAKE_NVML_LIB:?set SW_FAKE_NVML_LIB to the stand-in NVML library}"
fleet_fixtures "$T/m"
trap '"$SWORN" -C "$T/ws" fleet down >/dev/null 2>&1; rm -rf "$T"' EXIT
mkdir -p "$T/bin"
export PATH="$SW_TEST_DATA/fleet/bin:$PATH"
export SW_FAKE_SMI="$T/smi"
cp "$SW_TEST_DATA/fleet/v100x12-query.csv" "$T/smi-query.csv"
cp "$SW_TEST_DATA/fleet/v100x12-topo.txt" "$T/smi-topo.txt"
export SWORN_NVML="$SW_FAKE_NVML_LIB"
export SW_FAKE_NVML="$T/nvml"
PORT=$((20000 + ($$ * 11) % 6000))
QWEN=qwen3-30b-a3b-q8_0

# gpus [SKIP]: the twelve V100s of the inventory as both stand-ins show
# them ($T/nvml, $T/smi-health.csv), GPU SKIP left out, with what the
# server's process holds ($T/procs, from the wrapper); GPU 3 runs hot and
# throttles, GPU 2 has had uncorrected ECC errors.
gpus() {
	: >"$T/nvml"
	: >"$T/smi-health.csv"
	for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
		[ "$i" = "${1:-}" ] && continue
		temp=45 thr=1 ecc=0 mem=32768 name="Tesla V100-SXM2-32GB"
		[ $i = 3 ] && temp=88 thr=41 mem=16384 name="Tesla V100-SXM2-16GB"
		[ $i = 2 ] && ecc=2
		bus=$(printf '00000000:%02X:00.0' $((26 + i)))
		printf 'gpu %d %s %d %d 61.5 300 0x%s %s %s\n' "$i" "$bus" $mem $temp $thr $ecc \
			"$name" >>"$T/nvml"
		printf '%d, %s, %s, %d, 0, %d, 61.5, 300.00, 0x%016d, %s\n' "$i" "$bus" "$name" \
			$mem $temp $thr $ecc >>"$T/smi-health.csv"
	done
	[ -f "$T/procs" ] && cat "$T/procs" >>"$T/nvml"
	return 0
}

# The server's wrapper: its process "holds" $T/holds MiB on GPUs 0 and 1
# (pair-01) in both stand-ins' files, then becomes the double.
cat >"$T/bin/llama-server" <<EOF
#!/bin/sh
mib=\$(cat "$T/holds")
printf 'proc 0 %d %d\nproc 1 %d %d\n' \$\$ \$mib \$\$ \$mib >"$T/procs"
cat "$T/procs" >>"$T/nvml"
printf '%d, %d, 00000000:1A:00.0\n%d, %d, 00000000:1B:00.0\n' \$\$ \$mib \$\$ \$mib \
	>"$T/smi-apps.csv"
exec "$SW_FAKE_LLAMA" "\$@"
EOF
chmod +x "$T/bin/llama-server"

"$SWORN" init -q "$T/ws" || exit 1
cat >>"$T/ws/sworn.conf" <<EOF
[fleet]
llama_server = $T/bin/llama-server
hardware = $SW_SRC/examples/hardware/v100x12.ini
model = $T/m/$QWEN.gguf:group=pair-01
port = $PORT
ready_timeout = 30
probe_interval = 0.5
probe_timeout = 5
EOF

# ---- on the CPU: 0.4 GiB on each GPU of a model planned at many GiB
gpus
echo 410 >"$T/holds"
run 1 "$SWORN" -C "$T/ws" fleet up
has "$T/out" "failed"
has "$T/out" "model on the CPU: 0.4 GiB of"
has "$T/out" "(NVML: the server holds less than half of what the plan puts there)"
has "$T/ws/fleet/history.jsonl" "model on the CPU"
run 0 "$SWORN" -C "$T/ws" fleet down

# ---- on its GPUs: ready, and the status shows each GPU
gpus
echo 30000 >"$T/holds"
run 0 "$SWORN" -C "$T/ws" fleet up
has "$T/ws/fleet/supervisor.log" "on its GPUs as planned (NVML)"
run 0 "$SWORN" -C "$T/ws" fleet status
has "$T/out" "GPUs (NVML):"
has "$T/out" "pair-01-qwen3-30b-a3b"
has "$T/out" "29.3 GiB"
has "$T/out" "45 C"
has "$T/out" "62/300 W"
has "$T/out" "thermal (hardware)"
lacks "$T/out" "missing"
run 0 "$SWORN" -C "$T/ws" fleet status --json
has "$T/out" '"gpu_health": {'
has "$T/out" '"source": "NVML"'
has "$T/out" '"server_bytes": 31457280000'
has "$T/out" '"ecc_uncorrected": 2'
has "$T/out" '"throttle": "thermal (hardware)"'
run 0 "$SWORN" -C "$T/ws" doctor
has "$T/out" "ok    gpu 0: Tesla V100-SXM2-32GB, 45 C, 62 of 300 W, throttle none, 0 uncorrected ECC errors; pair-01-qwen3-30b-a3b holds 29.3 GiB"
has "$T/out" "warn  gpu 3: Tesla V100-SXM2-16GB, 88 C"
has "$T/out" "it is slowed: check its cooling and power"
has "$T/out" "warn  gpu 2: "
has "$T/out" "uncorrected memory errors: have the card checked"

# ---- a GPU lost (a warm reboot): missing, its group degraded, the fix
gpus 11
run 1 "$SWORN" -C "$T/ws" fleet status
has "$T/out" "missing"
has "$T/out" "GPU 11 (Tesla V100-SXM2-32GB) of group board-b is missing"
has "$T/out" "cold"
run 1 "$SWORN" -C "$T/ws" doctor
has "$T/out" "FAIL  gpu 11: Tesla V100-SXM2-32GB of group board-b is missing"
has "$T/out" "take it out of the inventory"
run 0 "$SWORN" -C "$T/ws" fleet down

# ---- nvidia-smi where there is no NVML: the same proof and table
export SWORN_NVML=off
rm -f "$T/procs"
gpus
echo 410 >"$T/holds"
run 1 "$SWORN" -C "$T/ws" fleet up
has "$T/out" "model on the CPU: 0.4 GiB of"
has "$T/out" "(nvidia-smi"
run 0 "$SWORN" -C "$T/ws" fleet down
echo 30000 >"$T/holds"
run 0 "$SWORN" -C "$T/ws" fleet up
run 0 "$SWORN" -C "$T/ws" fleet status
has "$T/out" "GPUs (nvidia-smi):"
has "$T/out" "29.3 GiB"
has "$T/out" "thermal (hardware)"
run 0 "$SWORN" -C "$T/ws" fleet down

# ---- no driver at all: up is not failed for what cannot be measured
rm -f "$T/smi-health.csv" "$T/smi-apps.csv"
run 0 "$SWORN" -C "$T/ws" fleet up
has "$T/ws/fleet/supervisor.log" "offload not measured"
run 0 "$SWORN" -C "$T/ws" fleet status
has "$T/out" "GPUs: not read (cannot read the GPUs: NVML is off (SWORN_NVML=off); nvidia-smi:"
run 0 "$SWORN" -C "$T/ws" fleet down

# ---- check_gpus = no: the driver is not asked, at up or at status
echo "check_gpus = no" >>"$T/ws/sworn.conf"
export SWORN_NVML="$SW_FAKE_NVML_LIB"
gpus 0
echo 410 >"$T/holds"
rm -f "$T/ws/fleet/supervisor.log"
run 0 "$SWORN" -C "$T/ws" fleet up
lacks "$T/ws/fleet/supervisor.log" "model on the CPU"
lacks "$T/ws/fleet/supervisor.log" "offload"
run 0 "$SWORN" -C "$T/ws" fleet status
lacks "$T/out" "GPUs ("
lacks "$T/out" "missing"
run 0 "$SWORN" -C "$T/ws" fleet status --json
has "$T/out" '"gpu_health": null'
has "$T/out" '"check_gpus": false'
run 0 "$SWORN" -C "$T/ws" fleet down

done_testing
