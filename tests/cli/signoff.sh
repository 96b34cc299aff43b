#!/bin/sh
# Sign-off: the person who decides ([user] of user.conf or sworn.conf,
# --by), and waivers of single claims with sworn verify --waive: shown as
# waived (never supported), surviving an edit elsewhere in the draft,
# lapsing when the claim changes.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
HOME="$T/home"
XDG_CONFIG_HOME="$T/xdg"
export HOME XDG_CONFIG_HOME

cp -r "$SW_TEST_DATA/acme-mini" acme
run 0 "$SWORN" ingest -m m --labels acme/labels.csv acme
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv" \
	"$SW_SRC/examples/authorities/codes.csv"
cp "$SW_TEST_DATA/acme-mini-drafts/acme-clean.md" d.md
printf '\nThe carrier confirmed it (ACME0000012).\n' >>d.md

run 1 "$SWORN" verify -m m d.md
has "$T/out" "ACME0000012 is not in the production"
# the blocked claim's number, as the table gives it
n=$(awk '/unsupported +bates/ { print $1; exit }' "$T/out")
[ -n "$n" ] || { echo "FAIL: no blocked Bates claim listed"; exit 1; }

# ------------------------------------------------ refusals lose nothing
run 2 "$SWORN" verify -m m d.md --waive "$n"
has "$T/err" "a waiver needs its reason"
run 2 "$SWORN" verify -m m d.md --reason "why"
has "$T/err" "--reason goes with --waive"
run 2 "$SWORN" verify -m m d.md --waive "$n" --reason "checked by hand"
has "$T/err" "needs the name of the person who decides"
has "$T/err" "--by NAME"
has "$T/err" "$T/xdg/sworn/user.conf"
run 2 "$SWORN" verify -m m d.md --waive 1 --reason "checked" --by "Ann Lee"
has "$T/err" "claim 1 is supported and does not block"
run 2 "$SWORN" verify -m m d.md --waive 999 --reason "checked" --by "Ann Lee"
has "$T/err" "no such claim"
run 2 "$SWORN" verify -m m d.md --waive "$n" --reason "two
lines" --by "Ann Lee"
has "$T/err" "one line"
eq "nothing stored" "$(sql m 'SELECT count(*) FROM waivers')" 0

# ------------------------------------------------------------ the person
mkdir -p "$T/xdg/sworn"
printf '[user]\nname = Ann Lee\nemail = ann@firm.example\nbar_number = CA 123456\n' \
	>"$T/xdg/sworn/user.conf"
run 0 "$SWORN" verify -m m d.md --waive "$n" --reason "checked ACME0000012 by hand"
has "$T/out" "waived claims (1):"
has "$T/out" "waived by Ann Lee on "
has "$T/out" "checked ACME0000012 by hand (was unsupported)"
has "$T/out" "1 waived"
has "$T/out" "gate: pass"
eq "by" "$(sql m 'SELECT by_name || "|" || by_email || "|" || by_bar FROM waivers')" \
	"Ann Lee|ann@firm.example|CA 123456"

# --json: waived, never supported, with the waiver
run 0 "$SWORN" verify -m m --json d.md
python3 - "$T/out" <<'PY' || failures=$((failures + 1))
import json, sys
d = json.load(open(sys.argv[1]))
w = [c for c in d["claims"] if c["verdict"] == "waived"]
assert len(w) == 1 and w[0]["text"] == "ACME0000012", w
assert w[0]["waiver"]["verdict"] == "unsupported", w[0]
assert w[0]["waiver"]["by"] == "Ann Lee", w[0]
assert len(w[0]["fingerprint"]) == 64
assert d["summary"]["waived"] == 1 and d["summary"]["unsupported"] == 0, d["summary"]
assert d["gate"] == "pass"
PY
# --html: its own colour and the reason
run 0 "$SWORN" verify -m m --html "$T/r.html" d.md
has "$T/r.html" 'class="item waived"'
has "$T/r.html" "checked ACME0000012 by hand"

# an edit elsewhere keeps it; a change to the claim ends it
sed 's/^Acme and Brightline/ACME and Brightline/' d.md >d2.md
run 0 "$SWORN" verify -m m d2.md
has "$T/out" "waived claims (1):"
sed 's/ACME0000012/ACME0000013/' d.md >d3.md
run 1 "$SWORN" verify -m m d3.md
has "$T/out" "ACME0000013 is not in the production"
lacks "$T/out" "waived"

# --by names another person; the workspace's [user] speaks before the
# user's own file; a bad key in [user] is refused with its line
run 0 "$SWORN" verify -m m d3.md --waive "$n" --reason "also checked" --by "Bo Chen"
eq "by --by" "$(sql m 'SELECT by_name || "|" || coalesce(by_email, "-") FROM waivers
	ORDER BY id DESC LIMIT 1')" "Bo Chen|-"
printf '[user]\nname = Cy Dee\n' >>sworn.conf
sed 's/ACME0000012/ACME0000014/' d.md >d4.md
run 0 "$SWORN" verify -m m d4.md --waive "$n" --reason "checked too"
has "$T/out" "waived by Cy Dee"
printf '[user]\nnmae = Cy Dee\n' >>sworn.conf
run 2 "$SWORN" verify -m m d3.md --waive "$n" --reason "checked again"
has "$T/err" "unknown key 'nmae' in [user]"

done_testing
