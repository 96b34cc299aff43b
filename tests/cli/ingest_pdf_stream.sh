# A PDF longer than one extraction chunk (64 pages) is stored page by page:
# every page in order with its footer stamp, and a kill inside its
# transaction leaves no half-stored document.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
# 150 pages of base-14 Helvetica, each with its number and a Bates footer,
# cross-reference offsets counted as the file is written.
LC_ALL=C awk -v pages=150 '
function out(s) { printf "%s", s; pos += length(s) }
function obj(n, body) { off[n] = pos; out(n " 0 obj\n" body "\nendobj\n") }
BEGIN {
	out("%PDF-1.4\n")
	for (p = 0; p < pages; p++) kids = kids (4 + 2 * p) " 0 R "
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(2, "<< /Type /Pages /Count " pages " /Kids [" kids "] >>")
	obj(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for (p = 0; p < pages; p++) {
		s = sprintf("BT /F1 10 Tf 12 TL 50 750 Td (Exhibit page marker%d of the shipment letter.) Tj 0 -600 Td (CONFIDENTIAL   PDFS%07d) Tj ET", p + 1, p + 1)
		obj(4 + 2 * p, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents " (5 + 2 * p) " 0 R >>")
		obj(5 + 2 * p, "<< /Length " length(s) " >>\nstream\n" s "\nendstream")
	}
	n = 4 + 2 * pages; xref = pos
	out("xref\n0 " n "\n0000000000 65535 f \n")
	for (i = 1; i < n; i++) out(sprintf("%010d 00000 n \n", off[i]))
	out("trailer\n<< /Size " n " /Root 1 0 R >>\nstartxref\n" xref "\n%%EOF\n")
}' > long.pdf

# Killed inside the document's transaction: nothing of it is visible.
SWORN_FAULT=store-doc:1:crash "$SWORN" ingest -m m --no-ocr long.pdf >"$T/out" 2>"$T/err"
eq "killed" "$?" 137
eq "integrity after crash" "$(sql m 'PRAGMA integrity_check')" "ok"
eq "no half document" "$(sql m 'SELECT count(*) FROM documents')" 0
eq "no pages" "$(sql m 'SELECT count(*) FROM pages')" 0

run 0 "$SWORN" ingest -m m --no-ocr long.pdf
has "$T/out" "imported 1, skipped 0, failed 0 (150 pages"
eq "page count" "$(sql m 'SELECT page_count FROM documents')" 150
eq "pages" "$(sql m 'SELECT count(*) FROM pages')" 150
eq "stamps" "$(sql m 'SELECT count(bates) FROM pages')" 150
eq "order" "$(sql m "SELECT count(*) FROM pages WHERE text LIKE '%marker' || page_no || ' %'")" 150
eq "page 100" "$(sql m 'SELECT bates FROM pages WHERE page_no = 100')" "PDFS0000100"
eq "meta" "$(sql m "SELECT json_extract(meta, '\$.pdf_pages') || json_extract(meta, '\$.file_name') FROM documents")" "150long.pdf"
run 0 "$SWORN" search -m m marker130
has "$T/out" "PDFS0000130"

# A PDF over 1 MiB is mapped, not read into memory (hashed and kept from
# the file), and its text is read ahead on threads with page walks of their
# own; with a model output registered, every page is fingerprinted too.
# The pages come out in order, each with its own text, and the original
# is kept byte for byte under the file's own hash.
LC_ALL=C awk -v pages=400 '
function out(s) { printf "%s", s; pos += length(s) }
function obj(n, body) { off[n] = pos; out(n " 0 obj\n" body "\nendobj\n") }
BEGIN {
	split("the plaintiff agreed shipment contract payment invoice delivered warehouse notice breach damages court witness stated", w, " ")
	nw = length(w); seed = 7
	out("%PDF-1.4\n")
	for (p = 0; p < pages; p++) kids = kids (4 + 2 * p) " 0 R "
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(2, "<< /Type /Pages /Count " pages " /Kids [" kids "] >>")
	obj(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for (p = 0; p < pages; p++) {
		s = sprintf("BT /F1 10 Tf 12 TL 50 750 Td (Long exhibit marker%d begins.) '\''\n", p + 1)
		for (l = 0; l < 45; l++) {
			line = ""
			for (k = 0; k < 14; k++) {
				seed = (seed * 1103515245 + 12345) % 2147483648
				line = line (k ? " " : "") w[1 + int(seed / 65536) % nw]
			}
			s = s "(" line ".) '\''\n"
		}
		s = s sprintf("0 -24 Td (CONFIDENTIAL   BIGP%07d) '\''\nET", p + 1)
		obj(4 + 2 * p, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents " (5 + 2 * p) " 0 R >>")
		obj(5 + 2 * p, "<< /Length " length(s) " >>\nstream\n" s "\nendstream")
	}
	n = 4 + 2 * pages; xref = pos
	out("xref\n0 " n "\n0000000000 65535 f \n")
	for (i = 1; i < n; i++) out(sprintf("%010d 00000 n \n", off[i]))
	out("trailer\n<< /Size " n " /Root 1 0 R >>\nstartxref\n" xref "\n%%EOF\n")
}' > big.pdf
eq "big.pdf is over 1 MiB" "$([ "$(wc -c <big.pdf)" -gt 1048576 ] && echo yes)" yes
"$SWORN" matter new drafts >/dev/null
echo "An unrelated draft about a lease of office space and its renewal terms for the tenant." > draft.txt
run 0 "$SWORN" ingest -m drafts --origin model draft.txt
run 0 "$SWORN" ingest -m m --no-ocr big.pdf
has "$T/out" "imported 1, skipped 0, failed 0 (400 pages"
big="SELECT id FROM documents WHERE name = 'big.pdf'"
eq "big pages" "$(sql m "SELECT count(*) FROM pages WHERE doc_id = ($big)")" 400
eq "big order" "$(sql m "SELECT count(*) FROM pages WHERE doc_id = ($big) AND text LIKE 'Long exhibit marker' || page_no || ' %' AND bates = printf('BIGP%07d', page_no)")" 400
sha=$(sha256sum big.pdf | cut -d' ' -f1)
eq "big identity" "$(sql m "SELECT sha256 FROM documents WHERE name = 'big.pdf'")" "$sha"
eq "big original kept" "$(cmp -s big.pdf "$T/ws/matters/m/files/${sha:0:2}/$sha" && echo same)" same
eq "big evidence" "$(sql m "SELECT status FROM documents WHERE name = 'big.pdf'")" active
run 0 "$SWORN" ingest -m m --no-ocr big.pdf
has "$T/out" "already imported"

# PDFs as qpdf writes them (tests/data/pdf/SOURCE.md): locked with an owner
# password only (AES-256, RC4), linearized, objects in streams.  Each opens
# as any other, every one of its 48 pages in order.
mkdir locked
for f in aes256 rc4 linearized objstm; do cp "$SW_SRC/tests/data/pdf/$f.pdf" locked/; done
run 0 "$SWORN" ingest -m m --no-ocr locked
has "$T/out" "imported 4, skipped 0, failed 0 (192 pages"
for f in aes256 rc4 linearized objstm; do
	doc="SELECT id FROM documents WHERE name = '$f.pdf'"
	eq "$f pages" "$(sql m "SELECT count(*) FROM pages WHERE doc_id = ($doc)")" 48
	eq "$f order" "$(sql m "SELECT count(*) FROM pages WHERE doc_id = ($doc) AND text LIKE '%Page ' || page_no || ' of the production%'")" 39
done
