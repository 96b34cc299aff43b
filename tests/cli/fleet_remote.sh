#!/bin/sh
# Hostile inventories (issue 41, items 4 and 5): a [host] name that is a
# shell command is refused before anything runs; a workspace whose path
# holds a blank and a $(...) is passed through ssh's remote shell as one
# word, so the command on the other host works and runs nothing else; an
# inventory that others may rewrite, or that another user owns, does not
# get its exec run; a llama_server others may rewrite is not started.
# "ssh" here is a stand-in that does what ssh does with its arguments:
# joins them with blanks and hands the line to a shell "there" (a folder
# of its own), with no network.
. "$(dirname "$0")/lib.sh"
mkdir -p "$T/bin" "$T/there"
cat >"$T/bin/ssh" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
	case "\$1" in
	-o) shift 2 ;;
	-*) shift ;;
	*) shift; break ;; # the destination
	esac
done
cd "$T/there" || exit 255
exec sh -c "\$*"
EOF
chmod +x "$T/bin/ssh"
ln -s "$SWORN" "$T/bin/sworn"
export PATH="$T/bin:$PATH"

HW=$SW_SRC/examples/hardware
# The workspace: a blank and a command substitution in its path.
WS="$T/office files \$(touch INJECTED)"
mkdir -p "$WS"
"$SWORN" init -q "$WS" || exit 1
sed 's/^name = box1$/name = box1\naddress = 127.0.0.1/' "$HW/v100x12.ini" >"$T/box1.ini"
sed 's/^address = .*$/address = 127.0.0.1/' "$HW/rtx3090x4-v100pcie.ini" >"$T/box2.ini"
cat >>"$WS/sworn.conf" <<EOF
[fleet]
llama_server = $T/llama-server
hardware = $T/box1.ini, $T/box2.ini
model = $SW_TEST_DATA/none.gguf
check_gpus = no
EOF

# ---- the path goes through ssh's shell as one word: box2 answers
run 1 "$SWORN" -C "$WS" fleet status
has "$T/out" "box2"
has "$T/out" "exec"
lacks "$T/out" "unreachable"
checks=$((checks + 1))
if [ -e "$T/there/INJECTED" ] || [ -e "$T/INJECTED" ]; then
	echo "FAIL: the workspace path ran as a command on the other host"
	failures=$((failures + 1))
fi
run 1 "$SWORN" -C "$WS" fleet status --json
has "$T/out" '"read": "exec"'
lacks "$T/out" 'unreachable'

# ---- a host name that is a command: refused, nothing run
cp "$T/box2.ini" "$T/box2.good"
sed 's/^name = box2$/name = box2$(touch PWNED)/' "$T/box2.good" >"$T/box2.ini"
has "$T/box2.ini" 'name = box2$(touch PWNED)'
run 2 "$SWORN" -C "$WS" fleet status
has "$T/err" "$T/box2.ini: [host] name 'box2\$(touch PWNED)' is not a host name"
eq "one line" "$(wc -l <"$T/err" | tr -d ' ')" 1
run 2 "$SWORN" -C "$WS" fleet down
has "$T/err" "never started"
checks=$((checks + 1))
if [ -e "$T/there/PWNED" ] || [ -e "$T/PWNED" ]; then
	echo "FAIL: a host name ran as a command"
	failures=$((failures + 1))
fi
sed 's/^address = .*$/address = 127.0.0.1;touch PWNED/' "$T/box2.good" >"$T/box2.ini"
run 2 "$SWORN" -C "$WS" fleet status
has "$T/err" "[host] address '127.0.0.1;touch PWNED' is neither a host name nor a numeric address"
cp "$T/box2.good" "$T/box2.ini"

# ---- an inventory others may rewrite: its exec is not run
chmod 666 "$T/box2.ini"
run 1 "$SWORN" -C "$WS" fleet status
has "$T/err" "not running host box2's exec: its inventory '$T/box2.ini' is writable by others"
has "$T/err" "chmod go-w"
chmod 664 "$T/box2.ini"
run 1 "$SWORN" -C "$WS" fleet status
has "$T/err" "is writable by its group"
chmod 644 "$T/box2.ini"
run 1 "$SWORN" -C "$WS" fleet status
lacks "$T/err" "not running"

# ---- this box's GPUs in the status of several hosts; another host's
# state read from the shared folder is not shown with this box's GPUs
: "${SW_FAKE_NVML_LIB:?set SW_FAKE_NVML_LIB to the stand-in NVML library}"
export SWORN_NVML="$SW_FAKE_NVML_LIB" SW_FAKE_NVML="$T/nvml"
: >"$T/nvml"
for i in 0 1 2 3 4 5 6 7 8 9 10; do
	printf 'gpu %d 00000000:%02X:00.0 32768 40 50 300 0x0 0 Tesla V100-SXM2-32GB\n' $i \
		$((26 + i)) >>"$T/nvml"
done
sed -i 's/^check_gpus = no$/check_gpus = yes/' "$WS/sworn.conf"
run 1 "$SWORN" -C "$WS" fleet status
has "$T/out" "box1: GPUs (NVML):"
has "$T/out" "GPU 11 (Tesla V100-SXM2-32GB) of group board-b is missing"
run 1 "$SWORN" -C "$WS" fleet status --json
has "$T/out" '"host": "box1"'
has "$T/out" '"state": "missing"'
mkdir -p "$WS/fleet"
printf '{"phase": "stopped", "supervisor_pid": -1, "host": "box2", "servers": []}\n' \
	>"$WS/fleet/state-box2.json"
run 1 "$SWORN" -C "$WS" fleet status --host box2
lacks "$T/out" "GPUs"
lacks "$T/out" "missing"
sed -i 's/^check_gpus = yes$/check_gpus = no/' "$WS/sworn.conf"
unset SWORN_NVML SW_FAKE_NVML

# ---- a llama_server others may rewrite is not started
rm -rf "$T/ws1"
"$SWORN" init -q "$T/ws1" || exit 1
printf '#!/bin/sh\nexit 1\n' >"$T/llama-server"
chmod 777 "$T/llama-server"
fleet_fixtures "$T/m"
cat >>"$T/ws1/sworn.conf" <<EOF
[fleet]
llama_server = $T/llama-server
hardware = $HW/v100x12.ini
model = $T/m/qwen3-30b-a3b-q8_0.gguf
check_gpus = no
EOF
run 1 "$SWORN" -C "$T/ws1" fleet up
has "$T/err" "not running '$T/llama-server': it is writable by others"
checks=$((checks + 1))
if [ -e "$T/ws1/fleet/state.json" ] && grep -q '"ready"' "$T/ws1/fleet/state.json"; then
	echo "FAIL: a server was started from a program others may rewrite"
	failures=$((failures + 1))
fi

done_testing
