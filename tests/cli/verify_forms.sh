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

# --- 1. short forms lean on the nearest full citation before them ---------
draft short1 <<'EOF'
*Celotex Corp. v. Catrett*, 477 U.S. 318, 322 (1986).

*Celotex Corp. v. Catrett*, 477 U.S. 317, 322 (1986).

Summary judgment is proper. *Celotex*, 477 U.S. at 323.
EOF
claim short1 case "477 U.S. 318" 1 contradicted "falls inside"
claim short1 case "477 U.S. 317" 1 supported ""
claim short1 case "477 U.S. at 323" 1 supported "refers to Celotex Corp. v. Catrett"

draft short2 <<'EOF'
Under *Celotex Corp. v. Catrell*, 477 U.S. 317, 322 (1986), the movant wins.

Under *Celotex Corp. v. Catrett*, 477 U.S. 317, 322 (1986), the movant need not negate the claim. *Celotex*, 477 U.S. at 323.

*Liberty Lobby, Inc. v. Anderson*, 477 U.S. 242, 248 (1986), is cited wrongly here.

*Anderson v. Liberty Lobby, Inc.*, 477 U.S. 242, 248 (1986). "[T]here must be evidence on which the jury could reasonably find for the plaintiff." *Anderson*, *supra*, at 252.

The same holds. *Anderson*, 477 U.S. at 252.
EOF
claim short2 case "Catrell" 1 contradicted "not Celotex Corp. v. Catrell"
claim short2 case "477 U.S. at 323" 1 supported "refers to Celotex Corp. v. Catrett"
claim short2 case "Liberty Lobby, Inc. v. Anderson" 1 contradicted ""
claim short2 case "supra" 1 supported "refers to Anderson v. Liberty Lobby"
claim short2 quote "here must be evidence" 1 supported "on page 252"
claim short2 case "477 U.S. at 252" 1 supported "refers to Anderson v. Liberty Lobby"

# --- 2. a month and day with no year is a date, checked where cited -------
draft monthday <<'EOF'
The die was expected by Mar. 24. (BLT-000001.) It was expected by March 24. (BLT-000001.) Expected on 3/24. (BLT-000001.)

Brightline expected the die by March 24. (BLT-000002.) It expected it by 3/24. (BLT-000002.) The order was due by Mar. 10. (ACME0000003.)

The die was expected by March 24.

The die was expected by March 23.

The plant runs 24/7. (BLT-000002.) The credit was cut by 3/4. (BLT-000002.) Section 3/24 of the plan and Rule 12/15 apply. (BLT-000002.) The team scored 3/4 on the audit. (BLT-000002.)

You May 5 go. (BLT-000002.)
EOF
claim monthday date "Mar. 24" 1 "$BLOCKED" "BLT-000001"
claim monthday date "March 24" 1 "$BLOCKED" "BLT-000001"
claim monthday date "3/24" 1 "$BLOCKED" "BLT-000001"
claim monthday date "March 24" 2 supported "on the cited page (BLT-000002)"
claim monthday date "3/24" 2 supported "on the cited page (BLT-000002)"
claim monthday date "Mar. 10" 1 supported "on the cited page (ACME0000003)"
claim monthday date "March 24" 3 supported "found elsewhere in the record, not tied"
claim monthday date "March 23" 1 unsupported "appears nowhere"
claim monthday date "3/24" 3 none ""
claim monthday date "24/7" 1 none ""
claim monthday date "3/4" 1 none ""
claim monthday date "12/15" 1 none ""
claim monthday date "May 5" 1 none ""

# --- 3. dates tied to a block quotation's citation -------------------------
draft blockdate <<'EOF'
Smith wrote to Roe on March 24, 2021:

> We will not make the March 10 date for PO 4471.

(ACME0000003.)

Smith wrote to Roe on March 3, 2021:

> We will not make the March 10 date for PO 4471. The earliest we can ship is March 31, 2021.

(ACME0000003.)

Smith then wrote:

> The earliest we can ship is March 30, 2021.

(ACME0000003.)
EOF
claim blockdate date "March 24, 2021" 1 "$BLOCKED" "ACME0000003"
claim blockdate date "March 3, 2021" 1 supported "on the cited page (ACME0000003)"
claim blockdate date "March 10" 1 supported "on the cited page (ACME0000003)"
claim blockdate date "March 31, 2021" 1 supported "on the cited page (ACME0000003)"
claim blockdate date "March 30, 2021" 1 "$BLOCKED" "ACME0000003"

# --- 4. citations inside a quotation are the quotation's -------------------
draft inquote <<'EOF'
Under *Celotex Corp. v. Catrett*, 477 U.S. 317, 322 (1986), "[t]he plain language of Rule 56(c) mandates the entry of summary judgment . . . against a party who fails to make a showing sufficient to establish the existence of an element essential to that party's case." *Celotex*, 477 U.S. at 322.

"[T]he plain language of Rule 56(c) permits the entry of summary judgment . . . against a party who fails to make a showing sufficient to establish the existence of an element essential to that party's case." *Celotex*, 477 U.S. at 322.

The motion rests on Rule 56(a).

The rule in Fed. R. Civ. P. 56(c) applies. Rule 56(c) applies, and so does Rule 56(a).
EOF
claim inquote quote "mandates the entry" 1 supported "on page 322"
claim inquote rule "Rule 56(c)" 1 supported "part of the quotation (claim 2) on page 322"
claim inquote quote "permits the entry" 1 unsupported "permits"
claim inquote rule "Rule 56(c)" 2 unsupported "part of the quotation (claim"
claim inquote rule "Rule 56(a)" 1 unverifiable "not in the imported code table"
claim inquote rule "Rule 56(c)" 3 supported "is in the code table"
claim inquote rule "Rule 56(a)" 2 supported "is in the code table"

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
