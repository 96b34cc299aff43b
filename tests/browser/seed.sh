#!/bin/sh
# Seeds a workspace for the browser test: the mini Acme matter, a document
# whose text is hostile HTML, and two runs drafted through the CLI against
# the llama-server test double (a scripted stand-in, not a model):
#   run 1  blocked: the reasoner never fixes the invented Bates number and date
#   run 2  verified: the reasoner fixes them
# and a PDF, after the runs.  review.mjs drafts run 3 itself (slowly, to see
# it live) with DIR/board-fixes.ini.
# Usage: seed.sh SWORN FAKE_LLAMA SRC DIR   (the workspace is DIR/ws)
set -eu
sworn=$1 fake=$2 src=$3 dir=$4
D=$src/tests/data/pipeline
ws=$dir/ws
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null' EXIT

"$sworn" init -q "$ws"
cd "$ws"
"$sworn" matter new acme >/dev/null
"$sworn" ingest -m acme "$src/tests/data/acme-mini" >/dev/null 2>&1
# Document text that would run as script if the page ever used it as HTML.
cat >"$dir/hostile-note.txt" <<'TXT'
Note to file about PO 4471.
<script>window.__sworn_xss = 1</script>
"><img src=x onerror="window.__sworn_xss = 2">
<b onmouseover="window.__sworn_xss = 3">bold?</b>
TXT
"$sworn" ingest -m acme "$dir/hostile-note.txt" >/dev/null 2>&1

# board: fake SCRIPT: one test double for every role.
board() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; fi
	rm -f "$dir/port"
	"$fake" --port 0 --fake-port-file "$dir/port" --fake-script "$1" -a fake-model-35b \
		2>"$dir/fake.err" &
	pid=$!
	i=0
	while [ ! -s "$dir/port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -s "$dir/port" ] || { echo "seed: the test double did not start" >&2; exit 1; }
	sed -i "/^\[endpoint \"board\"\]/{n;s|^url = .*|url = http://127.0.0.1:$(cat "$dir/port")|}" \
		sworn.conf
}
cat >>sworn.conf <<'CONF'
[endpoint "board"]
url = http://127.0.0.1:1
[role "drafter"]
endpoint = board
[role "reviewer"]
endpoint = board
[role "reasoner"]
endpoint = board
CONF
cp "$D/brief.md" brief.md
# The first prompt is the drafter's (it matches no other answer).
for fix in never fixes; do
	if [ $fix = never ]; then revised=$D/draft-invented.md; else revised=$D/draft-fixed.md; fi
	cat >"$dir/board-$fix.ini" <<INI
[answer "review"]
match = opposing counsel's most careful associate
file = $D/review.json
[answer "revise"]
match = Revise the declaration
file = $revised
[answer "draft"]
file = $D/draft-invented.md
INI
	board "$dir/board-$fix.ini"
	"$sworn" draft -m acme --task declaration --brief brief.md >"$dir/draft-$fix.out" 2>&1 || true
done
# A server's timings are not trusted: run 1's review step reported 1e300
# tokens a second (the page prints it in three digits).
sqlite3 matters/acme/matter.db \
	"UPDATE run_steps SET predicted_per_s = 1e300 WHERE run_id = 1 AND key = 'review'"
# A PDF original, whose pages the page shows as images too.
"$sworn" ingest -m acme "$src/examples/acme/pdf/purchase-order-4471.pdf" >/dev/null 2>&1
# And one whose page draws without end: its text shows, its image is refused.
mkdir "$dir/hostile"
python3 "$src/tests/cli/hostile_pdf.py" "$dir/hostile/exhibit-7.pdf"
"$sworn" ingest -m acme "$dir/hostile" >/dev/null 2>&1
