# Typed options are checked before a command runs (one line, exit 2); a
# section of sworn.conf that no subsystem reads fails every command that
# loads the workspace, and `sworn doctor` reports it as a check.
. "$SW_SRC/tests/cli/lib.sh"

new_workspace
printf 'Ex. 1 text\n' >"$T/a.txt"
run 0 "$SWORN" -C "$T/ws" ingest -m m "$T/a.txt"

# Numbers out of their bounds, or not numbers, name the option and the range.
for v in 0 100001 x +3 -1 '5 '; do
	run 2 "$SWORN" -C "$T/ws" search -m m --limit "$v" text
	has "$T/err" "sworn: bad --limit '$v': give a whole number from 1 to 100000"
	lines "$T/err" 1
done
run 0 "$SWORN" -C "$T/ws" search -m m --limit 1 text
run 2 "$SWORN" -C "$T/ws" ask --temperature 9 drafter hi
has "$T/err" "sworn: bad --temperature '9': give a number from 0 to 5"
run 2 "$SWORN" plan --hardware h.ini --port 80 a.gguf
has "$T/err" "bad --port '80': give a whole number from 1024 to 65535"
run 2 "$SWORN" plan --hardware h.ini --floor 0 a.gguf
has "$T/err" "bad --floor '0'"
run 2 "$SWORN" -C "$T/ws" verify -m m --html= d.md
has "$T/err" "option --html needs a path"

# A misspelt section: every command that reads the workspace refuses it.
cp "$T/ws/sworn.conf" "$T/good.conf"
printf '[endpont "x"]\nurl = http://127.0.0.1:1\n' >>"$T/ws/sworn.conf"
at="$T/ws/sworn.conf:$(wc -l <"$T/ws/sworn.conf" | tr -d ' ')"
for c in "matter list" "search -m m text" "models" "fleet status" "ingest -m m $T/a.txt"; do
	# shellcheck disable=SC2086 # the command's words
	run 2 "$SWORN" -C "$T/ws" $c
	has "$T/err" "sworn: $at: unknown section [endpont]: did you mean [endpoint]?"
	lines "$T/err" 1
done
run 1 "$SWORN" -C "$T/ws" doctor
has "$T/out" "FAIL  sworn.conf: $at: unknown section [endpont]"
printf '[pipelines]\nx = 1\n' >"$T/ws/sworn.conf"
run 2 "$SWORN" -C "$T/ws" matter list
has "$T/err" "unknown section [pipelines]"
cp "$T/good.conf" "$T/ws/sworn.conf"
run 0 "$SWORN" -C "$T/ws" matter list

echo "options_conf: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
