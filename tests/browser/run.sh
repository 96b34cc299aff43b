#!/bin/sh
# The browser test of sworn serve (CTest: browser_review).  Seeds a workspace
# and two runs through the CLI with the llama-server test double, starts the
# real `sworn serve --port 0`, drives Debian's chromium headless with
# playwright-core (review.mjs; scale.mjs, a 1,000-claim draft), then checks
# through the CLI what the page stored: the approval, the override and the
# correction.
# Env: SWORN, SW_FAKE_LLAMA, SW_SRC; SW_BROWSER_OUT (screenshots; default a
# temporary folder, kept).  Fails, never skips, when chromium, node or the
# locked node packages are missing: scripts/install-deps installs them.
set -u
: "${SWORN:?set SWORN to the sworn binary}"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
: "${SW_SRC:?set SW_SRC to the source tree}"
here=$SW_SRC/tests/browser
chromium=${SW_CHROMIUM:-/usr/bin/chromium}
for need in "$chromium" "$(command -v node || echo node)"; do
	if [ ! -x "$need" ]; then
		echo "FAIL: $need is missing: run scripts/install-deps (chromium, nodejs, npm, npm ci)"
		exit 1
	fi
done
if [ ! -f "$here/node_modules/playwright-core/package.json" ]; then
	echo "FAIL: playwright-core is not installed in tests/browser: run scripts/install-deps (npm ci)"
	exit 1
fi
want=$(sed -n 's/.*"playwright-core": "\(.*\)".*/\1/p' "$here/package.json")
have=$(sed -n 's/^  "version": "\(.*\)".*/\1/p' "$here/node_modules/playwright-core/package.json")
if [ "$want" != "$have" ]; then
	echo "FAIL: tests/browser has playwright-core $have, the lock file $want: run scripts/install-deps"
	exit 1
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/sworn-browser.XXXXXX")
out=${SW_BROWSER_OUT:-$T/out}
rm -rf "$out"
mkdir -p "$out"
serve=""
trap '[ -z "$serve" ] || kill "$serve" 2>/dev/null; rm -rf "$T"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

sh "$here/seed.sh" "$SWORN" "$SW_FAKE_LLAMA" "$SW_SRC" "$T" || { echo "FAIL: seeding the workspace"; exit 1; }
ws=$T/ws
[ "$("$SWORN" -C "$ws" run show 1 -m acme --json | grep -c '"status": "blocked"')" = 1 ] ||
	fail "seed: run 1 is not blocked"

# --render-cpu 2: the hostile page's image is refused in seconds, not 30;
# --by: the page's approvals and its override are someone's
"$SWORN" -C "$ws" serve -m acme --port 0 --port-file "$T/port" --render-cpu 2 --by "Ann Lee" \
	>"$T/serve.out" 2>"$T/serve.err" &
serve=$!
i=0
while { [ ! -s "$T/port" ] || [ ! -s "$T/serve.out" ]; } && [ $i -lt 300 ]; do
	sleep 0.05
	i=$((i + 1))
done
url=$(sed -n 's/^sworn serve: \(http:[^ ]*\)$/\1/p' "$T/serve.out" | head -n 1)
case $url in
http://127.0.0.1:"$(cat "$T/port" 2>/dev/null)"/\?token=*) ;;
*)
	echo "FAIL: sworn serve printed no URL with its port and token"
	cat "$T/serve.out" "$T/serve.err"
	exit 1
	;;
esac

(cd "$here" && SW_WS=$ws SW_BOARD_SCRIPT=$T/board-fixes.ini node review.mjs "$url" "$out") ||
	fail "the browser checks (above)"
# The page at real sizes: a 1,000-claim draft, its timings printed (BENCH)
(cd "$here" && node scale.mjs "$url" "$out") || fail "the checks at real sizes (above)"

# What the page stored, read back through the CLI.
kill "$serve" 2>/dev/null
wait "$serve"
rc=$?
serve=""
# 0: stopped by the signal (under ASan, also: no error, no leak)
[ $rc -eq 0 ] || { fail "sworn serve exited $rc after SIGTERM"; tail -n 30 "$T/serve.err"; }
"$SWORN" -C "$ws" run show 1 -m acme --json >"$T/run1.json" 2>&1
grep -q '"status": "approved"' "$T/run1.json" || fail "run 1 is not approved: $(head -c 400 "$T/run1.json")"
"$SWORN" -C "$ws" run show 2 -m acme --json >"$T/run2.json" 2>&1
grep -q '"status": "approved"' "$T/run2.json" || fail "run 2 is not approved"
"$SWORN" -C "$ws" matter set -m acme corrections.export=yes >/dev/null
"$SWORN" -C "$ws" corrections export -m acme --format dpo -o "$T/dpo.jsonl" ||
	fail "sworn corrections export failed"
[ "$(wc -l <"$T/dpo.jsonl" | tr -d ' ')" = 2 ] || fail "two corrections expected: $(cat "$T/dpo.jsonl")"
# run 1's correction: the lawyer's fixes from the page; the other tab's line
# is not in it (this tab kept its own text over the conflict)
for s in 'shipped on March 31, 2021 (ACME0000004)' 'Acme sent a notice of breach (ACME0000007)' \
	'General Counsel'; do
	grep '"run":1[,}]' "$T/dpo.jsonl" | grep -qF "$s" || fail "run 1's correction lacks '$s'"
done
grep '"run":1[,}]' "$T/dpo.jsonl" | grep -qF 'Springfield' && fail "run 1's correction has the other tab's line" 
grep '"run":1[,}]' "$T/dpo.jsonl" | grep -qF 'ACME0000999' || fail "run 1's correction lacks the model's draft"
grep -qF 'ACME0000998 is in the supplemental production' "$T/run2.json" "$ws/matters/acme/matter.db" 2>/dev/null ||
	[ "$(sqlite3 "$ws/matters/acme/matter.db" "SELECT override FROM corrections WHERE run_id = 2")" = \
		'ACME0000998 is in the supplemental production' ] || fail "run 2's override reason is not stored"

echo "screenshots: $out"
ls "$out"
[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "browser review: all checks passed"
