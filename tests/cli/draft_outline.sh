# The motion-section task's outline as a requirement: each section the
# outline names must stand in the draft as its heading ([verify] headings
# = section.title).  A drafter that leaves one section's heading out is
# blocked with the section named, the reviser is told so, and a revision
# that puts it back is verified; one that never does stays blocked.  Fake
# llama-servers: board-a drafts the sections, board-b outlines, reviews
# and revises.
. "$SW_SRC/tests/cli/lib.sh"
FAKE_A_FLAGS="-np 2" # the sections are drafted two at a time
: "${SW_FAKE_LLAMA:?set SW_FAKE_LLAMA to the fake llama-server}"
D="$SW_TEST_DATA/pipeline"
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

"$SWORN" init -q "$T/ws" || exit 1
boards_conf 2
cd "$T/ws" || exit 1
"$SWORN" matter new acme >/dev/null || exit 1
"$SWORN" ingest -m acme "$SW_TEST_DATA/acme-mini" >/dev/null 2>&1 || exit 1
cp "$D/brief.md" brief.md

cat >"$T/outline.json" <<'JSON'
{"sections": [{"title": "Statement of Facts", "kind": "facts", "topic": "the late order", "points": ["the order shipped late"]}, {"title": "No Credit Was Applied", "kind": "argument", "topic": "the credit", "points": ["the invoice applied no credit"]}]}
JSON
printf '## Statement of Facts\n\nThe order shipped on March 31, 2021 (ACME0000004).\n' >"$T/facts.md"
# the second section's drafter leaves its heading out
printf 'Invoice 8812 applied no late-delivery credit (ACME0000005).\n' >"$T/credit.md"
printf '## Statement of Facts\n\nThe order shipped on March 31, 2021 (ACME0000004).\n\n## No Credit Was Applied\n\nInvoice 8812 applied no late-delivery credit (ACME0000005).\n' >"$T/fixed.md"
printf '## Statement of Facts\n\nThe order shipped on March 31, 2021 (ACME0000004).\n\nInvoice 8812 applied no late-delivery credit (ACME0000005).\n' >"$T/unfixed.md"

cat >"$T/a.ini" <<INI
[answer "facts"]
match = Your section: "Statement of Facts"
file = $T/facts.md
[answer "credit"]
match = Your section: "No Credit Was Applied"
file = $T/credit.md
INI
cat >"$T/b-fixes.ini" <<INI
[answer "outline"]
match = You are outlining
file = $T/outline.json
[answer "review"]
match = You are opposing counsel
file = $D/review.json
[answer "revise"]
match = Revise the statement of facts
file = $T/fixed.md
INI
sed "s|$T/fixed.md|$T/unfixed.md|" "$T/b-fixes.ini" >"$T/b-never.ini"

# ------------------------- 1: a heading left out, then put back: verified
fakes "$T/a.ini" "$T/b-fixes.ini"
run 0 "$SWORN" draft -m acme --task motion-section --brief brief.md
has "$T/out" "run 1: verified after 1 revision round"
# the reviser was told which section the draft lacks
has "$T/reqb" "the outline's section"
has "$T/reqb" "No Credit Was Applied"
run 0 "$SWORN" run show 1 -m acme --draft
has "$T/out" "## No Credit Was Applied"

# ----------------------------------- 2: never put back: stays blocked
fakes "$T/a.ini" "$T/b-never.ini"
run 1 "$SWORN" draft -m acme --task motion-section --brief brief.md
has "$T/out" "run 2: blocked after"
run 0 "$SWORN" run show 2 -m acme --json
has "$T/out" "the outline's section"
done_testing
