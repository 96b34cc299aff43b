# A PDF far larger than a file sworn reads whole (512 MiB) imports: a PDF is
# mapped, hashed, scanned and kept a window at a time, so its size is not
# its memory.  One page of text and, unreferenced, a 640 MiB stream that is
# a hole of the file (sparse: nothing is written to disk for it, and the
# matter's copy of the original stays sparse too).  Its page text is found,
# the original is kept at its full length, and the import's peak resident
# memory (a count the kernel keeps, not a time) stays far below the file.
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1
HOLE=$((640 << 20))
LC_ALL=C awk -v hole=$HOLE '
function out(s) { printf "%s", s; pos += length(s) }
function obj(n, body) { off[n] = pos; out(n " 0 obj\n" body "\nendobj\n") }
BEGIN {
	out("%PDF-1.4\n")
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(2, "<< /Type /Pages /Count 1 /Kids [4 0 R] >>")
	obj(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	obj(4, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>")
	s = "BT /F1 12 Tf 72 700 Td (The oversized exhibit bigmarker of the shipment.) Tj ET"
	obj(5, "<< /Length " length(s) " >>\nstream\n" s "\nendstream")
	off[6] = pos
	out("6 0 obj\n<< /Length " hole " >>\nstream\n")
	# the bytes of the stream: the hole left after this head
	pos += hole
	out_tail = "\nendstream\nendobj\n"
	xref = pos + length(out_tail)
	tail = out_tail "xref\n0 7\n0000000000 65535 f \n"
	for (i = 1; i <= 6; i++) tail = tail sprintf("%010d 00000 n \n", off[i])
	tail = tail "trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n" xref "\n%%EOF\n"
	print pos > "big.size"
	printf "%s", tail > "big.tail"
}' >big.pdf || exit 1
truncate -s "$(cat big.size)" big.pdf && cat big.tail >>big.pdf || exit 1
size=$(stat -c %s big.pdf)
[ "$size" -gt $((600 << 20)) ] || { echo "FAIL: big.pdf is only $size bytes"; exit 1; }

# Imported, its peak memory measured as the kernel counts it (maximum
# resident set of the finished child).
python3 - "$SWORN" "$T/out" "$T/rss" <<'PY' || { echo "FAIL: cannot run sworn ingest"; exit 1; }
import resource, subprocess, sys
with open(sys.argv[2], "w") as out:
    rc = subprocess.run([sys.argv[1], "ingest", "-m", "m", "--no-ocr", "big.pdf"],
                        stdout=out, stderr=subprocess.STDOUT).returncode
open(sys.argv[3], "w").write("%d %d\n" % (rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
PY
read -r rc rss <"$T/rss"
eq "ingest of a $size-byte PDF" "$rc" 0
has "$T/out" "imported 1, skipped 0, failed 0 (1 page"
# The file is 671 MiB; the import holds a few windows of it.  The bound
# leaves room for ASan's own memory; reading the file whole would be over it.
checks=$((checks + 1))
if [ "$rss" -ge $((256 << 10)) ]; then
	echo "FAIL: ingest of a $size-byte PDF peaked at $rss KiB (bound 256 MiB)"
	failures=$((failures + 1))
fi
echo "peak resident memory: $((rss >> 10)) MiB for a $((size >> 20)) MiB PDF"

run 0 "$SWORN" search -m m bigmarker
has "$T/out" "big.pdf"
eq "bytes" "$(sql m 'SELECT bytes FROM documents')" "$size"
# The original, kept whole in length and sparse as the file was.
kept=$(find "$T/ws/matters/m/files" -type f)
eq "kept original's length" "$(stat -c %s "$kept")" "$size"
checks=$((checks + 1))
if [ "$(du -k "$kept" | cut -f1)" -ge 4096 ]; then
	echo "FAIL: the kept original takes $(du -k "$kept" | cut -f1) KiB of disk: the hole was written"
	failures=$((failures + 1))
fi
eq "kept original's tail" "$(tail -c 200 "$kept" | od -c | head -3)" "$(tail -c 200 big.pdf | od -c | head -3)"
eq "kept original's head" "$(head -c 600 "$kept" | od -c)" "$(head -c 600 big.pdf | od -c)"

# A text file over 512 MiB is still refused: it would be read whole.
truncate -s $((513 << 20)) big.txt
run 2 "$SWORN" ingest -m m big.txt
has "$T/err" "bytes is over the limit of 536870912"
done_testing
