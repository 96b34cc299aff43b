#!/bin/sh
# scripts/stand-in (make stand-in): the scripted stand-in for trying sworn
# draft without a GPU starts, says it is not a language model, keeps
# running after the command that started it has gone, serves the README's
# "Draft with local models" steps (draft, run show, approve), and stops.
. "$(dirname "$0")/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the test double}"
SI="$SW_SRC/scripts/stand-in"
export SWORN_STAND_IN_DIR="$T/si"
trap '"$SI" stop >/dev/null 2>&1; rm -rf "$T"' EXIT

run 0 "$SI" start --port 0
has "$T/out" "It is NOT a language model"
has "$T/out" '[endpoint "stand-in"]'
cp "$T/out" "$T/start"
# The starting shell is gone; the stand-in still answers.
sh -c 'sleep 0.2'
run 0 "$SI" status
has "$T/out" "stand-in: running on http://127.0.0.1:"
has "$T/out" "not a language model"
run 1 "$SI" start --port 0
has "$T/err" "already running"

# The README's steps, with the sworn.conf lines it printed.
new_workspace
cd "$T/ws" || exit 1
awk '/^\[endpoint "stand-in"\]/{p=1} /^$/{p=0} p' "$T/start" >>sworn.conf
run 0 "$SWORN" ingest -m m --labels "$SW_SRC/examples/acme/labels.csv" "$SW_SRC/examples/acme"
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv" "$SW_SRC/examples/authorities/codes.csv"
run 0 "$SWORN" models
has "$T/out" "stand-in-not-a-model"
run 0 "$SWORN" draft -m m --task declaration --brief "$SW_SRC/examples/briefs/declaration-roe.md"
has "$T/out" "run 1: verified"
run 0 "$SWORN" run show 1 -m m
has "$T/out" "stand-in-not-a-model"
"$SWORN" run show 1 -m m --draft >"$T/final.md"
run 0 "$SWORN" run approve 1 -m m --final "$T/final.md"

run 0 "$SI" stop
has "$T/out" "stand-in: stopped"
# Nothing answers any more.
"$SWORN" ask drafter "Say hello." >"$T/out" 2>"$T/err"
rc=$?
checks=$((checks + 1))
if [ $rc -eq 0 ] || ! grep -q "cannot connect" "$T/err"; then
	echo "FAIL: the stand-in still answers after stop"
	cat "$T/err"
	failures=$((failures + 1))
fi
run 1 "$SI" status
has "$T/out" "stand-in: not running"
run 2 "$SI" start --port eighty
has "$T/err" "give a port number"
done_testing
