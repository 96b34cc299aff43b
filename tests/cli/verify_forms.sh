# The gate on shapes a new user's trial found (issue 10 follow-up), through
# the CLI over the example matter (examples/acme) and its authority table:
# short forms after a case cited wrongly and then rightly, dates with a
# month and day and no year, a date in the sentence that introduces a
# block quotation and inside one, citations inside a quotation, a bare
# "Rule 56(c)", and an id. with its own pin after a wrong pin.
# Each check: a draft, a claim (its kind and a text it holds, the nth
# such claim), the verdicts allowed, and a substring of its reason.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
"$SWORN" ingest -m m --labels "$SW_SRC/examples/acme/labels.csv" "$SW_SRC/examples/acme" \
	>"$T/ingest" 2>&1
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv" \
	"$SW_SRC/examples/authorities/codes.csv" "$SW_SRC/examples/authorities/opinions"

n=0
# draft NAME: the Markdown on stdin becomes $T/NAME.md, verified to $T/NAME.json
draft() {
	cat >"$T/$1.md"
	"$SWORN" verify -m m --json "$T/$1.md" >"$T/$1.json" 2>"$T/err"
	rc=$?
	checks=$((checks + 1))
	if [ "$rc" -gt 1 ]; then
		echo "FAIL: verify $1 exited $rc: $(cat "$T/err")"
		failures=$((failures + 1))
	fi
}

# claim NAME KIND TEXT NTH VERDICTS REASON: the NTH claim of KIND whose text
# holds TEXT has one of VERDICTS (a|b) and REASON in its reason ("" for
# any); VERDICTS "none" says there are fewer than NTH such claims.
claim() {
	checks=$((checks + 1))
	if ! python3 - "$T/$1.json" "$2" "$3" "$4" "$5" "$6" <<'EOF'; then
import json, sys
path, kind, text, nth, want, reason = sys.argv[1:]
claims = [c for c in json.load(open(path))["claims"]
          if c["kind"] == kind and text in c["text"]]
nth = int(nth)
if want == "none":
    if len(claims) >= nth:
        c = claims[nth - 1]
        print("FAIL: %s has a %s claim '%s' (#%d): %s" % (path, kind, c["text"], nth,
                                                         c["reason"]))
        sys.exit(1)
    sys.exit(0)
if len(claims) < nth:
    print("FAIL: %s has no %s claim holding '%s' (#%d)" % (path, kind, text, nth))
    for c in json.load(open(path))["claims"]:
        print("   %s %s: %s" % (c["kind"], c["text"], c["verdict"]))
    sys.exit(1)
c = claims[nth - 1]
if c["verdict"] not in want.split("|") or reason not in c["reason"]:
    print("FAIL: %s: %s '%s' is %s (%s); want %s with '%s'" % (
        path, kind, c["text"], c["verdict"], c["reason"], want, reason))
    sys.exit(1)
EOF
		failures=$((failures + 1))
	fi
}
BLOCKED="unsupported|contradicted|unverifiable"

# --- 5. an id. with its own pin after a wrong pin --------------------------
draft idpin <<'EOF'
The nonmovant bears the burden. *Celotex Corp. v. Catrett*, 477 U.S. 317, 341 (1986).

The rule exists "to isolate and dispose of factually supported claims or defenses." *Id.* at 323.

The rule exists "to isolate and dispose of factually unsupported claims or defenses." *Id.* at 323-24.

The rule is old. *Id.* at 999.
EOF
claim idpin case "477 U.S. 317" 1 contradicted "past the last page"
claim idpin case "Id. at 323" 1 supported "refers to Celotex Corp. v. Catrett"
claim idpin quote "factually supported" 1 unsupported "\"supported\" in the draft, \"unsupported\" on the page"
claim idpin quote "factually unsupported" 1 supported "on page 323"
claim idpin case "Id. at 999" 1 contradicted "999"

done_testing
