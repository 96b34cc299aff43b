# --quiet silences what is not the command's data on stderr: ingest's
# warnings and progress, ask's timings, the count after claims, the hints
# of models (failures still print); and `sworn fleet status --json` on a
# fleet never started is a JSON document that says so (exit 1, the
# status's "no"), not an error.
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
new_workspace
cd "$T/ws" || exit 1

# ---- fleet status on a fleet never started.
run 1 "$SWORN" fleet status --json
eq "phase" "$(jq -r .phase "$T/out")" never_started
eq "no servers" "$(jq '.servers | length' "$T/out")" 0
eq "stamped" "$(jq -r .sworn.version "$T/out" | grep -c .)" 1
lines "$T/err" 0
run 1 "$SWORN" fleet status
has "$T/err" "the fleet was never started here"

# ---- ingest: a warning (a row without text) is silenced, a failure is not.
printf 'BEGBATES,TEXTPATH\r\nQ0000001,\r\nQ0000002,missing.txt\r\n' > vol.dat
run 2 "$SWORN" --quiet ingest -m m vol.dat
has "$T/out" "imported 1, skipped 0, failed 1"
has "$T/err" "missing.txt"
lacks "$T/err" "no extracted text"
lines "$T/err" 1
run 2 "$SWORN" ingest -m m vol.dat --replace
has "$T/err" "missing.txt"

# ---- claims: the count after the table.
printf 'See Pl. Ex. 2 at 1.\n' > brief.md
run 0 "$SWORN" claims brief.md
has "$T/err" "claims in"
run 0 "$SWORN" -q claims brief.md
lines "$T/err" 0

# ---- models without endpoints: the hint.
run 1 "$SWORN" models
has "$T/err" "no endpoints"
run 1 "$SWORN" models --quiet
lines "$T/err" 0

# ---- ask: the answer on stdout, the timings on stderr unless --quiet.
"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/port" -a fake-qwen -c 8192 -np 1 \
	-ngl 99 -fa on 2>"$T/fake.err" &
fake=$!
trap 'kill $fake 2>/dev/null; rm -rf "$T"' EXIT
drafter_on_fake "$T/port"
echo 'max_tokens = 3' >>sworn.conf
run 0 "$SWORN" ask drafter Say hello
has "$T/err" "prompt"
run 0 "$SWORN" --quiet ask drafter Say hello
has "$T/out" "The fake"
lines "$T/err" 0

done_testing
