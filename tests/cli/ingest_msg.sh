# Outlook .msg e-mail (MAPI properties in an OLE2 compound file, written by
# tests/fakes/msg_gen with libgsf as Outlook lays one out) imports as an
# .eml does: sender, recipients, date and subject at the head of the text,
# the body, and each attachment a document of its own linked to the message.
. "$SW_SRC/tests/cli/lib.sh"
: "${SW_MSG_GEN:?set SW_MSG_GEN to the .msg writer}"
new_workspace
cd "$T/ws" || exit 1

mkdir -p mail
printf 'Credit note CN-77 for the damaged crates.\n' > credit.txt
printf 'Pallet count: 40, not 44.\n' > count.txt
"$SW_MSG_GEN" mail/credit.msg "the crédit note" "Tom Vale" tom@vale.example "Renée Roe" \
	"The credit note is attached, with the pallet count." credit.txt=credit.txt \
	"pallet count.txt=count.txt" || exit 1
printf 'not an OLE2 file at all\n' > mail/broken.msg

run 2 "$SWORN" ingest -m m mail
has "$T/out" "imported 3, skipped 0, failed 1"
has "$T/err" "broken.msg: not an Outlook message"

run 0 "$SWORN" show -m m credit.msg
has "$T/out" "From: Tom Vale <tom@vale.example>"
has "$T/out" "To: Renée Roe"
has "$T/out" "Date: 2021-03-03T21:02:11Z"
has "$T/out" "Subject: the crédit note"
has "$T/out" "The credit note is attached, with the pallet count."
has "$T/out" "Attachments: credit.txt, pallet count.txt"

run 0 "$SWORN" matter docs -m m --json
msg_id=$(jq -r '.documents[] | select(.name == "credit.msg") | .id' "$T/out")
eq "credit.txt in the message" "$(jq -r '.documents[] | select(.name == "credit.txt") | .parent_id' "$T/out")" "$msg_id"
eq "count in the message" "$(jq -r '.documents[] | select(.name == "pallet count.txt") | .parent_id' "$T/out")" "$msg_id"
eq "subject kept" "$(sql m "SELECT json_extract(meta, '$.subject') FROM documents WHERE name = 'credit.msg'")" "the crédit note"

run 0 "$SWORN" search -m m CN-77
has "$T/out" "credit.txt"
run 0 "$SWORN" search -m m "Tom Vale"
has "$T/out" "credit.msg"

# Again: the same content is a no-op.
run 2 "$SWORN" ingest -m m mail
has "$T/out" "imported 0, skipped 1"

done_testing
