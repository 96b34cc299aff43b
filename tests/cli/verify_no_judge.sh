#!/bin/sh
# sworn verify --no-judge reads no model configuration and asks no host:
# with a fleet of two hosts in sworn.conf, box2's exec (a script that
# leaves a mark) is run when verify resolves the models for its judge,
# and never with --no-judge, whose verdicts are the same.
. "$(dirname "$0")/lib.sh"
HW=$SW_SRC/examples/hardware
cat >"$T/exec-box2" <<EOF2
#!/bin/sh
echo run >>"$T/box2-asked"
exit 1
EOF2
chmod +x "$T/exec-box2"
sed 's/^name = box1$/name = box1\naddress = 127.0.0.1/' "$HW/v100x12.ini" >"$T/box1.ini"
sed -e 's/^address = .*$/address = 127.0.0.1/' "$HW/rtx3090x4-v100pcie.ini" >"$T/box2.ini"
awk -v e="exec = $T/exec-box2" '{ print } /^\[host\]/ { print e }' "$T/box2.ini" >"$T/b" &&
	mv "$T/b" "$T/box2.ini"
has "$T/box2.ini" "exec = $T/exec-box2"

"$SWORN" init -q "$T/ws" || exit 1
cat >>"$T/ws/sworn.conf" <<EOF2
[fleet]
llama_server = llama-server
hardware = $T/box1.ini, $T/box2.ini
model = $SW_TEST_DATA/none.gguf
check_gpus = no
EOF2
cd "$T/ws" || exit 1
"$SWORN" matter new m >/dev/null || exit 1
printf 'The meeting on 3 March 2021 was recorded.\n' >"$T/memo.txt"
"$SWORN" ingest -m m "$T/memo.txt" >/dev/null 2>&1 || exit 1
printf 'The parties met on 3 March 2021.\n' >"$T/draft.md"

run 0 "$SWORN" verify -m m --no-judge "$T/draft.md"
cp "$T/out" "$T/out-no-judge"
checks=$((checks + 1))
if [ -e "$T/box2-asked" ]; then
	echo "FAIL: verify --no-judge ran box2's exec"
	failures=$((failures + 1))
fi
# Without it, the models are resolved, every host of the fleet asked.
run 0 "$SWORN" verify -m m "$T/draft.md"
has "$T/box2-asked" "run"
eq "the same verdicts" "$(cat "$T/out")" "$(cat "$T/out-no-judge")"
# A sworn.conf whose judge cannot be read does not stop --no-judge.
printf '[role "judge"]\nendpoint = nowhere\n' >>sworn.conf
run 2 "$SWORN" verify -m m "$T/draft.md"
run 0 "$SWORN" verify -m m --no-judge "$T/draft.md"

done_testing
