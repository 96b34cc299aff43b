#!/bin/sh
# sworn doctor's record side (tesseract and its language data, the authority
# table's age, each matter database's integrity, free disk) and the next
# step it names for an endpoint that does not answer or that the policy
# refuses.
. "$(dirname "$0")/lib.sh"
"$SWORN" init -q "$T/ws" || exit 1
cd "$T/ws" || exit 1
run 0 "$SWORN" matter new good
run 0 "$SWORN" matter new bad
printf 'The meeting on 3 March 2021 was recorded.\n' >"$T/memo.txt"
run 0 "$SWORN" ingest -m good "$T/memo.txt"
run 0 "$SWORN" ingest -m bad "$T/memo.txt"

# ---- a healthy record: every record check ok, authorities missing warns
run 0 "$SWORN" doctor
has "$T/out" "ok    tesseract: "
has "$T/out" "with English language data"
has "$T/out" "warn  authorities: no authority table"
has "$T/out" "ok    matter good: database intact (quick_check)"
has "$T/out" "ok    matter bad: database intact (quick_check)"
has "$T/out" "GiB free under $T/ws"
has "$T/out" "warn  roles: no role: 'sworn ask' has nothing to use; give a [fleet] model line role=drafter"

# ---- language data missing: a FAIL that says what to install
TESSDATA_PREFIX=$T/no-tessdata run 1 "$SWORN" doctor
has "$T/out" "FAIL  tesseract: "
has "$T/out" "has no English language data (eng.traineddata under TESSDATA_PREFIX=$T/no-tessdata): install tesseract-ocr-eng"
lacks "$T/err" "Error opening data file"

# ---- an old authority table
touch -d '400 days ago' "$T/ws/authorities.db"
run 0 "$SWORN" doctor
has "$T/out" "warn  authorities: the table was last imported"
has "$T/out" "days ago: decisions since then are missing"
touch "$T/ws/authorities.db"
run 0 "$SWORN" doctor
has "$T/out" "ok    authorities: last imported"

# ---- a damaged matter database: pages of it overwritten
db=$T/ws/matters/bad/matter.db
size=$(wc -c <"$db")
awk 'BEGIN { for (i = 0; i < 12288; i++) printf "Z" }' >"$T/junk"
dd if="$T/junk" of="$db" bs=4096 seek=1 conv=notrunc 2>/dev/null
eq "size of the damaged db" "$(wc -c <"$db")" "$size"
run 1 "$SWORN" doctor
has "$T/out" "FAIL  matter bad: "
has "$T/out" "restore it from a backup"
has "$T/out" "ok    matter good: database intact (quick_check)"
run 1 "$SWORN" doctor --json
has "$T/out" '"what": "matter bad"'
has "$T/out" '"verdict": "FAIL"'
rm -rf "$T/ws/matters/bad"

# ---- an endpoint nothing listens on: the next step names its port
cat >>"$T/ws/sworn.conf" <<EOF
[endpoint "board-a"]
url = http://127.0.0.1:9
[role "drafter"]
endpoint = board-a
EOF
run 1 "$SWORN" doctor
has "$T/out" "FAIL  endpoint board-a: "
has "$T/out" "start llama-server on port 9, or run 'sworn fleet up'"
has "$T/out" "FAIL  role drafter: endpoint board-a is not ready"

# ---- a role on an endpoint the policy refuses: said so, the local fix first
cat >>"$T/ws/sworn.conf" <<EOF
[endpoint "far"]
url = http://203.0.113.9:8081
[role "reviewer"]
endpoint = far
EOF
run 1 "$SWORN" doctor
has "$T/out" "FAIL  endpoint far: endpoint 'far' refused by the local-only policy"
has "$T/out" "a public address; sworn sends matter text only to models on this network"
has "$T/out" "FAIL  role reviewer: endpoint far is refused by the local-only policy"
lacks "$T/out" "role reviewer: endpoint far is not ready"
# The refusal never suggests trusting what it refused.
grep "endpoint far" "$T/out" >"$T/far"
lacks "$T/far" "allow_hosts"
lacks "$T/far" "mode = allow-remote"

# ---- doctor outside a workspace is a usage error
cd "$T" || exit 1
run 2 "$SWORN" -C "$T/nowhere" doctor

echo "doctor: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
