#!/bin/sh
# The README's first steps run as written: every command of "Check a draft
# in five minutes" and "Draft with local models" (read from README.md's
# code blocks, so that a change to either fails here), in a home of their
# own, with the scripted stand-in in place of the llama-server line and
# sworn serve stopped once it has printed its address.
. "$(dirname "$0")/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the test double}"
export SWORN_STAND_IN_DIR="$T/si"
trap '"$SW_SRC/scripts/stand-in" stop >/dev/null 2>&1; rm -rf "$T"' EXIT
mkdir -p "$T/home" "$T/bin"
ln -s "$SWORN" "$T/bin/sworn"

# section TITLE KIND: the code blocks of KIND (sh, ini) under "## TITLE".
section() {
	awk -v title="## $1" -v kind="$2" '
		$0 == title { on = 1; next }
		on && /^## / { exit }
		on && $0 == "```" kind { code = 1; next }
		code && $0 == "```" { code = 0; next }
		code { print }' "$SW_SRC/README.md"
}
section "Check a draft in five minutes" sh >"$T/five.sh"
section "Draft with local models" sh >"$T/draft.sh"
section "Draft with local models" ini >"$T/conf.ini"
for f in five.sh draft.sh conf.ini; do
	checks=$((checks + 1))
	[ -s "$T/$f" ] || { echo "FAIL: README.md has no $f block"; failures=$((failures + 1)); }
done

# The first block: its export line names the checkout; here, the build.
grep -q '^export PATH="$PWD/build/dev:$PATH" EX="$PWD/examples"$' "$T/five.sh" ||
	{ echo "FAIL: the five-minute block's first line changed"; exit 1; }
{
	echo 'set -e'
	echo "export HOME='$T/home' PATH='$T/bin':\"\$PATH\" EX='$SW_SRC/examples'"
	# sworn serve until it has printed its address (on a free port).
	cat <<'SH'
serve_once() {
	sworn serve "$@" --port 0 --port-file serve.port >serve.out 2>&1 &
	p=$! i=0
	while [ ! -s serve.port ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	kill $p; wait $p || true
	grep -q "sworn serve: http" serve.out
}
SH
	sed -e '1d' -e 's/^sworn verify \(.*acme-planted.md\)\(.*\)$/! sworn verify \1\2/' \
		-e 's/^sworn serve \([^#]*\).*$/serve_once \1/' \
		"$T/five.sh"
} >"$T/run-five.sh"
run 0 sh "$T/run-five.sh"
has "$T/out" "gate: blocked"
has "$T/out" "annotated: planted.docx"
has "$T/out" "gate: pass"
has "$T/out" "code-texts: 2 rows, 2 stored, 0 skipped"
checks=$((checks + 1))
[ -s "$T/home/cases/planted.docx" ] && [ -s "$T/home/cases/report.html" ] ||
	{ echo "FAIL: no report.html or planted.docx"; failures=$((failures + 1)); }

# Drafting: the sworn.conf as shown, the stand-in on its port.
run 0 "$SW_SRC/scripts/stand-in" start --port 0
port=$(cat "$T/si/port")
sed "s|127.0.0.1:8081|127.0.0.1:$port|" "$T/conf.ini" >>"$T/home/cases/sworn.conf"
{
	echo 'set -e'
	echo "export HOME='$T/home' PATH='$T/bin':\"\$PATH\" EX='$SW_SRC/examples'"
	echo 'cd ~/cases'
	grep -v '^llama-server ' "$T/draft.sh"
} >"$T/run-draft.sh"
run 0 sh "$T/run-draft.sh"
has "$T/out" "run 1: verified"
has "$T/out" "stand-in-not-a-model"
has "$T/out" "approved: "
# The README's llama-server line is for a GPU box: the stand-in stands for
# it on 8081 by default.
grep -q -- '--port 8081' "$SW_SRC/README.md" && grep -q 'port=8081' "$SW_SRC/scripts/stand-in" ||
	{ echo "FAIL: README's server and the stand-in disagree on the port"; failures=$((failures + 1)); }
checks=$((checks + 1))
done_testing
