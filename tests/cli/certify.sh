#!/bin/sh
# Sign-off of a run end to end against the fake llama-servers of draft.sh
# (scripted stand-ins, not language models): a final with two claims that
# block, one waived by a lawyer and one overridden on approval; both, and
# the person, visible in run show (text and --json), run list, and the
# certificate in Markdown, HTML and PDF; certify --check valid on each and
# failing on an edited final.
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
D="$SW_TEST_DATA/pipeline"
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
HOME="$T/home"
XDG_CONFIG_HOME="$T/xdg"
export HOME XDG_CONFIG_HOME
mkdir -p "$T/xdg/sworn"
printf '[user]\nname = Ann Lee\nemail = ann@firm.example\nbar_number = CA 123456\n' \
	>"$T/xdg/sworn/user.conf"

pipeline_ws
fakes "$T/a.ini" "$T/b-fixes.ini"
run 0 "$SWORN" draft -m acme --task declaration --brief brief.md
has "$T/out" "run 1: verified"

run 2 "$SWORN" certify 1 -m acme
has "$T/err" "run 1 is verified, not approved"
has "$T/err" "sworn run approve 1"

# the lawyer's final adds two claims that block
"$SWORN" run show 1 -m acme --draft >final.md
printf '\n4. The carrier confirmed it (ACME0000997).\n\n5. Brightline admitted fault (ACME0000998).\n' \
	>>final.md
run 1 "$SWORN" run approve 1 -m acme --final final.md
has "$T/err" "ACME0000997"
has "$T/err" "ACME0000998"
has "$T/err" "bates"
n=$("$SWORN" verify -m acme final.md | awk '/unsupported +bates .*ACME0000997/ { print $1; exit }')
[ -n "$n" ] || { echo "FAIL: ACME0000997 not listed as blocked"; exit 1; }
run 0 "$SWORN" run waive 1 "$n" -m acme --final final.md --reason "ACME0000997 is in the supplemental volume"
has "$T/out" "waived"
run 1 "$SWORN" run approve 1 -m acme --final final.md
lacks "$T/err" "ACME0000997"
has "$T/err" "ACME0000998"
run 0 "$SWORN" run approve 1 -m acme --final final.md -o "$T/final-out.md" \
	--override "ACME0000998 is in the supplemental production"
has "$T/out" "approved with override"
eq "approver" "$(sql acme 'SELECT by_name FROM corrections WHERE run_id = 1')" "Ann Lee"

# ------------------------------------------ visible where a run is shown
run 0 "$SWORN" run show 1 -m acme
has "$T/out" "approved by Ann Lee"
has "$T/out" "override: ACME0000998 is in the supplemental production"
has "$T/out" "waived"
has "$T/out" "ACME0000997 is in the supplemental volume"
run 0 "$SWORN" run show 1 -m acme --json
python3 - "$T/out" <<'PY' || failures=$((failures + 1))
import json, sys
d = json.load(open(sys.argv[1]))
a = d["approval"]
assert a["by"] == "Ann Lee" and a["override"].startswith("ACME0000998"), a
assert [w["reason"] for w in d["waivers"]] == ["ACME0000997 is in the supplemental volume"], d
PY
run 0 "$SWORN" run list -m acme
has "$T/out" "approved (override, 1 waiver)"

run 0 "$SWORN" matter audit -m acme
has "$T/out" "sign-off decisions (1 approvals, 1 waivers)"
has "$T/out" "run 1 by Ann Lee with override: ACME0000998 is in the supplemental production"
has "$T/out" "waived      bates ACME0000997 (was unsupported) by Ann Lee"
run 0 "$SWORN" matter audit -m acme --json
python3 - "$T/out" <<'PY' || failures=$((failures + 1))
import json, sys
d = json.load(open(sys.argv[1]))["signoff"]
assert d["approvals"][0]["by"] == "Ann Lee" and d["approvals"][0]["override"], d
assert d["waivers"][0]["run"] == 1 and d["waivers"][0]["claim"] == "ACME0000997", d
PY
# the correction's metadata carries the decisions
run 0 "$SWORN" matter set -m acme corrections.export=yes
run 0 "$SWORN" corrections export -m acme --kind sft -o sft.jsonl
python3 - sft.jsonl <<'PY' || failures=$((failures + 1))
import json, sys
m = json.loads(open(sys.argv[1]).readline())["metadata"]
assert m["approved_by"] == "Ann Lee" and m["override"].startswith("ACME0000998"), m
assert len(m["waivers"]) == 1, m
PY

# --------------------------------------------------------- the certificate
run 0 "$SWORN" certify 1 -m acme
cp "$T/out" cert.md
sha=$(sha256sum "$T/final-out.md" | cut -d' ' -f1)
has cert.md "# Verification certificate"
has cert.md "Matter acme, run 1"
has cert.md "SHA-256 $sha"
has cert.md "Approved at "
has cert.md "by Ann Lee"
has cert.md "ann@firm.example"
has cert.md "Bar number: CA 123456"
has cert.md "Override: approved despite 1 blocked claims"
has cert.md "ACME0000997 is in the supplemental volume"
has cert.md "fake-drafter-35b"
has cert.md "Every step ran on this office's own machines"
has cert.md "No text that is not evidence was presented"
has cert.md "Disclosure"
has cert.md "final-sha256=$sha"
has cert.md "journal-sha256="
run 0 "$SWORN" certify 1 -m acme --json
python3 - "$T/out" <<'PY' || failures=$((failures + 1))
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verification"]
assert v["waived"] == 1 and v["by_kind"]["bates"]["waived"] == 1, v
assert d["context_audit"]["violations"] == 0, d["context_audit"]
assert all(s["verdict"] == "local" for s in d["steps"]), d["steps"]
assert len(d["waivers"]) == 1 and d["waivers"][0]["by"] == "Ann Lee"
PY
run 0 "$SWORN" certify 1 -m acme --format html -o cert.html
has cert.html "<h1>Verification certificate</h1>"
has cert.html 'contenteditable="true"'
has cert.html "final-sha256=$sha"
run 0 "$SWORN" certify 1 -m acme --format pdf -o cert.pdf
eq "a PDF" "$(head -c 5 cert.pdf)" "%PDF-"
eq "one or two pages" "$(python3 -c 'import re, sys
n = len(re.findall(rb"/Type\s*/Page(?![s\w])", open(sys.argv[1], "rb").read()))
print(1 <= n <= 2)' cert.pdf)" True
run 2 "$SWORN" certify 1 -m acme --format pdf
has "$T/err" "needs -o FILE"
run 2 "$SWORN" certify 1 -m acme --format docx
has "$T/err" "give md, html or pdf"

# ------------------------------------------------------------- the check
for c in cert.md cert.html cert.pdf; do
	run 0 "$SWORN" certify --check "$c" "$T/final-out.md"
	has "$T/out" "certificate: valid"
done
sed 's/Brightline admitted fault/Brightline admitted nothing/' "$T/final-out.md" >edited.md
run 1 "$SWORN" certify --check cert.md edited.md
has "$T/out" "NOT the certified final"
has "$T/out" "certificate: does not match"
run 1 "$SWORN" certify --check cert.pdf edited.md --json
has "$T/out" '"valid": false'
# a journal changed after the certificate: its facts differ
sqlite3 matters/acme/matter.db "UPDATE corrections SET by_name = 'Mallory' WHERE run_id = 1"
run 1 "$SWORN" certify --check cert.md "$T/final-out.md"
has "$T/out" "journal: DIFFERS"
run 2 "$SWORN" certify --check brief.md "$T/final-out.md"
has "$T/err" "no 'sworn-certificate:' stamp"

# a waiver holds in a run's verify rounds too: the invented Bates number of
# the first draft, waived, no longer blocks verify#0
m=$("$SWORN" verify -m acme "$D/draft-invented.md" | awk '/unsupported +bates .*ACME0000999/ { print $1; exit }')
[ -n "$m" ] || { echo "FAIL: ACME0000999 not blocked in the first draft"; exit 1; }
before=$(sql acme "SELECT json_extract(detail, '$.blocked') FROM run_steps WHERE run_id = 1 AND key = 'verify#0'")
run 1 "$SWORN" verify -m acme "$D/draft-invented.md" --waive "$m" --reason "checked by hand"
has "$T/out" "waived claims (1):"
fakes "$T/a.ini" "$T/b-fixes.ini"
run 0 "$SWORN" draft -m acme --task declaration --brief brief.md
eq "one fewer blocked" "$(sql acme "SELECT json_extract(detail, '$.blocked') FROM run_steps
	WHERE run_id = 2 AND key = 'verify#0'")" "$((before - 1))"
eq "waived in the round" "$(sql acme "SELECT json_extract(detail, '$.counts.waived') FROM run_steps
	WHERE run_id = 2 AND key = 'verify#0'")" 1

# an approved run is frozen; editing it again is a new version of it
run 2 "$SWORN" run version 2 -m acme
has "$T/err" "run 2 is not approved"
run 0 "$SWORN" run version 1 -m acme
has "$T/out" "run 3: a new version of approved run 1"
run 0 "$SWORN" run show 3 -m acme --draft
cmp -s "$T/out" "$T/final-out.md"
eq "its draft is the approved final" "$?" 0
run 0 "$SWORN" run show 3 -m acme
has "$T/out" "a new version of approved run 1"
run 0 "$SWORN" run show 3 -m acme --json
has "$T/out" '"version_of": 1'
sed 's/Brightline admitted fault (ACME0000998)/Brightline admitted fault/' "$T/final-out.md" >v3.md
run 0 "$SWORN" run approve 3 -m acme --final v3.md -o "$T/v3-out.md"
has "$T/out" "approved"
run 0 "$SWORN" certify 3 -m acme
has "$T/out" "Matter acme, run 3"
run 0 "$SWORN" corrections export -m acme --kind sft -o sft3.jsonl
has "$T/err" "1 left out"
python3 - sft3.jsonl <<'PY' || failures=$((failures + 1))
import json, sys
runs = [json.loads(l)["metadata"]["run"] for l in open(sys.argv[1])]
assert 3 not in runs, runs  # the lawyer's own version teaches a model nothing
PY
eq "run 1 untouched" "$(sql acme 'SELECT status || count(*) FROM corrections c JOIN runs r ON r.id = c.run_id WHERE r.id = 1')" "approved1"

# sworn serve names who it runs for, on its start and in the page's session
rm -f "$T/port"
"$SWORN" serve -m acme --port 0 --port-file "$T/port" >"$T/serve.out" 2>"$T/serve.err" &
spid=$!
pids="$pids $spid"
i=0
while { [ ! -s "$T/port" ] || ! grep -q 'sworn serve: for' "$T/serve.err"; } && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
has "$T/serve.err" "sworn serve: for Ann Lee <ann@firm.example>, bar no. CA 123456 (from $T/xdg/sworn/user.conf)"
curl -s -H "Authorization: Bearer $(cat serve.token)" "http://127.0.0.1:$(cat "$T/port")/api/session" \
	>"$T/session.json"
eq "the page's user" "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["user"])' \
	"$T/session.json")" "Ann Lee <ann@firm.example>, bar no. CA 123456"
# a waiver given in the page: the claim by fingerprint, by the server's person
printf 'The carrier confirmed it (ACME0000996).\n' >w.md
fp=$("$SWORN" verify -m acme --json w.md | python3 -c 'import json, sys
print([c["fingerprint"] for c in json.load(sys.stdin)["claims"] if c["text"] == "ACME0000996"][0])')
csrf=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["csrf"])' "$T/session.json")
waive() {
	printf '{"text": "The carrier confirmed it (ACME0000996).\\n", "claim": "%s", "reason": "%s"}' \
		"$fp" "$1" >"$T/waive.json"
	code=$(curl -s -o "$T/waive.out" -w '%{http_code}' -H "Authorization: Bearer $(cat serve.token)" \
		-H "X-CSRF-Token: $csrf" -H 'Content-Type: application/json' --data-binary "@$T/waive.json" \
		"http://127.0.0.1:$(cat "$T/port")/api/m/acme/waive")
}
waive ""
eq "no reason" "$code" 409
has "$T/waive.out" "needs its reason"
waive "checked in the page"
eq "waived in the page" "$code" 200
eq "the page's waiver" "$(sql acme "SELECT by_name || '|' || reason FROM waivers WHERE claim = 'ACME0000996'")" \
	"Ann Lee|checked in the page"
run 0 "$SWORN" verify -m acme w.md
has "$T/out" "waived by Ann Lee"
# the page's Print of an approved run's draft: its certificate first
code=$(curl -s -o "$T/cert.json" -w '%{http_code}' -H "Authorization: Bearer $(cat serve.token)" \
	"http://127.0.0.1:$(cat "$T/port")/api/m/acme/runs/1/certificate")
eq "certificate in the page" "$code" 200
has "$T/cert.json" "# Verification certificate"
has "$T/cert.json" "final-sha256=$sha"
code=$(curl -s -o "$T/cert.json" -w '%{http_code}' -H "Authorization: Bearer $(cat serve.token)" \
	"http://127.0.0.1:$(cat "$T/port")/api/m/acme/runs/2/certificate")
eq "no certificate before approval" "$code" 409
# the page's "Edit a new version" of the frozen run
code=$(curl -s -o "$T/version.json" -w '%{http_code}' -H "Authorization: Bearer $(cat serve.token)" \
	-H "X-CSRF-Token: $csrf" -H 'Content-Type: application/json' --data-binary '{}' \
	"http://127.0.0.1:$(cat "$T/port")/api/m/acme/runs/1/version")
eq "a new version in the page" "$code" 200
has "$T/version.json" '"version_of":1'
eq "its parent" "$(sql acme 'SELECT parent_run_id FROM runs ORDER BY id DESC LIMIT 1')" 1
kill $spid
wait $spid 2>/dev/null

done_testing
