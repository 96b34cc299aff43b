#!/bin/sh
# sworn authorities import --texts: the texts of code sections and rules, from
# a CSV (as a code's publisher exports one: quoted multi-line texts, an em
# dash, a BOM) or JSON Lines, let a quotation of a statute or rule be
# checked: supported when the section says it, unsupported (with the
# closest passage) when it does not.  Without a text the quotation is
# unverifiable and the reason says how to add one.
. "$(dirname "$0")/lib.sh"
new_workspace
cd "$T/ws" || exit 1
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/codes.csv"
cat >"$T/brief.md" <<'MD'
Diversity jurisdiction lies where "the matter in controversy exceeds the sum or value of $75,000, exclusive of interest and costs." 28 U.S.C. § 1332(a).

Summary judgment is proper where "there is no genuine dispute as to any material fact." Fed. R. Civ. P. 56(a).
MD

# No text stored: unverifiable, and the reason says what to do.
run 1 "$SWORN" verify -m m "$T/brief.md"
has "$T/out" "no text of 28 U.S.C. § 1332(a) is stored: add the section's text with \`sworn authorities import --texts FILE\`"
has "$T/out" "no text of Fed. R. Civ. P. 56(a) is stored: add"
run 0 "$SWORN" verify -m m --lenient "$T/brief.md"

# A CSV of cite,text with a BOM, CRLF rows and multi-line quoted texts.
printf '\357\273\277cite,text\r\n' >"$T/sections.csv"
printf '"28 U.S.C. \302\247 1332","(a) The district courts shall have original jurisdiction of all civil actions where the matter in controversy exceeds the sum or value of $75,000, exclusive of interest and costs, and is between\342\200\224\n(1) citizens of different States;\n(2) citizens of a State and citizens or subjects of a foreign state."\r\n' >>"$T/sections.csv"
printf '"Fed. R. Civ. P. 56","(a) Motion for Summary Judgment or Partial Summary Judgment. A party may move for summary judgment, identifying each claim or defense\342\200\224or the part of each claim or defense\342\200\224on which summary judgment is sought. The court shall grant summary judgment if the movant shows that there is no genuine dispute as to any material fact and the movant is entitled to judgment as a matter of law."\r\n' >>"$T/sections.csv"
printf '"not a citation","text"\r\n"Cal. Civ. Code \302\247 1542",""\r\n' >>"$T/sections.csv"
run 0 "$SWORN" authorities import --texts "$T/sections.csv"
has "$T/out" "code-texts: 4 rows, 2 stored, 2 skipped"
run 0 "$SWORN" verify -m m "$T/brief.md"
has "$T/out" "in the text of 28 U.S.C. § 1332(a)"
has "$T/out" "in the text of Fed. R. Civ. P. 56(a)"
has "$T/out" "gate: pass"

# A misquotation: unsupported, with the section's closest words.
printf 'The rule asks whether "there is a genuine dispute as to every fact." Fed. R. Civ. P. 56(a).\n' >"$T/bad.md"
run 1 "$SWORN" verify -m m --json "$T/bad.md"
python3 - "$T/out" <<'PY' >"$T/verdict"
import json, sys
for c in json.load(open(sys.argv[1]))["claims"]:
    if c["kind"] == "quote":
        print(c["verdict"], c["reason"])
PY
has "$T/verdict" "unsupported not found verbatim in the text of Fed. R. Civ. P. 56(a); closest: "
has "$T/verdict" "no genuine dispute as to any material fact"

# JSON Lines; a section imported again replaces its text, never duplicates.
cat >"$T/fre.jsonl" <<'JL'
{"cite": "Fed. R. Evid. 801", "text": "(c) Hearsay. \"Hearsay\" means a statement that: (1) the declarant does not make while testifying at the current trial or hearing; and (2) a party offers in evidence to prove the truth of the matter asserted in the statement."}
{"cite": 801}
not json at all
JL
run 0 "$SWORN" authorities import --json --texts "$T/fre.jsonl"
eq "jsonl counts" "$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["imported"][0]; print(f["format"], f["rows"], f["stored"], f["skipped"])' "$T/out")" "code-texts 3 1 2"
printf 'Hearsay is a statement "a party offers in evidence to prove the truth of the matter asserted." Fed. R. Evid. 801(c).\n' >"$T/fre.md"
run 0 "$SWORN" verify -m m "$T/fre.md"
has "$T/out" "in the text of Fed. R. Evid. 801(c)"
run 0 "$SWORN" authorities import --texts "$T/fre.jsonl"
eq "one row per section" "$(sqlite3 authorities.db 'SELECT count(*) FROM code_texts')" 3

# Bad input: one line, exit 2, what to give instead.
run 2 "$SWORN" authorities import --texts "$T/missing.csv"
lines "$T/err" 1
run 2 "$SWORN" authorities import --texts "$SW_SRC/examples/authorities/cases.csv"
has "$T/err" "a texts file is a CSV with the columns cite and text, or JSON Lines"
lines "$T/err" 1
run 2 "$SWORN" authorities lookup --texts "$T/fre.jsonl" 550 U.S. 544
has "$T/err" "--texts belongs to import"
done_testing
