#!/bin/sh
# sworn verify --annotate: a brief as Word saves it comes back with a Word
# comment on each claim that did not pass, anchored on the claim's own
# characters, and nothing else changed (every other part byte for byte, the
# text and each character's formatting); the reviewer's own comment kept;
# sworn's reader ignores sworn's comments, so the annotated brief verifies
# as the original; a Markdown draft becomes a new document with comments.
. "$(dirname "$0")/lib.sh"
PY="$SW_SRC/tests/cli/word_docx.py"
new_workspace
cd "$T/ws" || exit 1
cp -r "$SW_TEST_DATA/acme-mini" acme
run 0 "$SWORN" ingest -m m --labels acme/labels.csv acme
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv" "$SW_SRC/examples/authorities/codes.csv"
python3 "$PY" brief "$T/brief.docx" || exit 1

run 1 "$SWORN" verify -m m "$T/brief.docx" --annotate "$T/out.docx"
has "$T/out" "annotated: $T/out.docx (6 comments; 1 with no place in the document's text, left out)"
run 1 "$SWORN" verify -m m --json "$T/brief.docx" --annotate "$T/out2.docx"
cp "$T/out" "$T/claims.json"
eq "--json's annotated" "$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["annotated"]; print(a["comments"], a["anchored"])' "$T/claims.json")" "6 5"
run 0 python3 "$PY" check "$T/brief.docx" "$T/out.docx" "$T/claims.json"
has "$T/out" "ok: 5 comments on 5 claims; text, formatting and 4 other parts unchanged"

# The comments: the reviewer's first, then sworn's, each with its verdict,
# the reason and the page.
run 0 python3 "$PY" comments "$T/out.docx"
has "$T/out" "Jane Roe: Shorten the title."
has "$T/out" "sworn: unsupported bates | ACME0000012 is not in the production (ACME0000001–ACME0000008)"
has "$T/out" "sworn: unsupported quote | not found verbatim on ACME0000003"
has "$T/out" "sworn: unsupported case | no case at 999 F.3d 123 in the authority table"
lacks "$T/out" "supported date | March 31, 2021"

# Read back by sworn: the same claims and verdicts; sworn's comments are not
# text of the draft, the reviewer's still are.
run 1 "$SWORN" verify -m m --json "$T/out.docx"
python3 - "$T/claims.json" "$T/out" <<'PY' >"$T/same" 2>&1
import json, sys
a, b = (json.load(open(p))["claims"] for p in sys.argv[1:3])
key = lambda cs: [(c["kind"], c["verdict"], c["text"]) for c in cs]
print("same" if key(a) == key(b) else "differ: %s\n%s" % (key(a), key(b)))
PY
has "$T/same" "same"
run 0 "$SWORN" claims "$T/out.docx"
has "$T/out" "Shorten the title."
lacks "$T/out" "not in the production"

# The annotated brief checked and annotated again: sworn's earlier comments
# are replaced, the reviewer's kept; the same as annotating the original.
run 1 "$SWORN" verify -m m "$T/out.docx" --annotate "$T/again.docx"
has "$T/out" "annotated: $T/again.docx (6 comments; 1 with no place"
run 0 python3 "$PY" check "$T/brief.docx" "$T/again.docx" "$T/claims.json"
has "$T/out" "ok: 5 comments on 5 claims"
python3 "$PY" comments "$T/out.docx" >"$T/first"
run 0 python3 "$PY" comments "$T/again.docx"
eq "comments after a second annotation" "$(cat "$T/out")" "$(cat "$T/first")"

# A brief with no comments gets the comments part, its content type and
# its relationship.
python3 "$PY" brief "$T/plain.docx" --no-comment || exit 1
run 1 "$SWORN" verify -m m --json "$T/plain.docx" --annotate "$T/plain-out.docx"
cp "$T/out" "$T/plain.json"
run 0 python3 "$PY" check "$T/plain.docx" "$T/plain-out.docx" "$T/plain.json"
has "$T/out" "ok: 5 comments on 5 claims"

# A Markdown draft: a new document of its text, one paragraph a line.
printf '# Facts\n\nBrightline shipped PO 4471 on March 31, 2021 (ACME0000004).\nThe invoice is ACME0000012 & more.\n' >"$T/draft.md"
run 1 "$SWORN" verify -m m "$T/draft.md" --annotate "$T/md.docx"
has "$T/out" "annotated: $T/md.docx (1 comment)"
run 0 python3 "$PY" comments "$T/md.docx"
has "$T/out" "sworn: unsupported bates | ACME0000012 is not in the production"
run 0 "$SWORN" claims "$T/md.docx"
has "$T/out" "The invoice is ACME0000012 & more."

# Bad input: one line, nothing written.
run 2 "$SWORN" verify -m m "$T/brief.docx" --annotate "$T/no/such/dir/out.docx"
lines "$T/err" 1
has "$T/err" "$T/no/such/dir/out.docx"
run 2 "$SWORN" verify -m m "$T/brief.docx" --annotate
lines "$T/err" 1
done_testing
