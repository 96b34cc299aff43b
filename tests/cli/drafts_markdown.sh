#!/bin/sh
# Drafts as local models write them: Markdown (italic case names, *Id.*,
# _See_, headings, lists, block quotes, footnotes, tables), HTML with
# <em>, .docx with italic runs, read as the text they show; positions as
# line:column and offsets of the original bytes; plain text unchanged; the
# reports' audit stamp and the rendered HTML.
. "$(dirname "$0")/lib.sh"

cat >"$T/brief.md" <<'EOF'
# Memorandum in Support of Summary Judgment

## I. Legal Standard
Summary judgment is proper where there is no genuine dispute. *Celotex Corp. v. Catrett*, 477 U.S. 317, 322 (1986). *Id.* at 999. _See_ *Anderson v. Liberty Lobby, Inc.*, 477 U.S. 242, 248 (1986).[^1]

- **First**, the movant points to the record. *Bell Atl. Corp. v. Twombly*, 550 U.S. 544, 556 (2007).
- Second, the nonmovant responds.

> "The mere existence of a scintilla of evidence in support of the
> plaintiff's position will be insufficient." *Anderson*, 477 U.S. at 252.

| Case | Cite |
|------|------|
| *Hollis v. Coastal Carriers, Inc.* | 550 U.S. 544, 560 (2007) |

[^1]: *See also* *Matsushita Elec. Indus. Co. v. Zenith Radio Corp.*, 475 U.S. 574, 586 (1986).
EOF

# Every claim's text as read, its source bytes, line and column.
claims_py() {
	python3 - "$1" "$2" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
src = open(sys.argv[2], "rb").read()
lines = src.split(b"\n")
for c in doc["claims"]:
    word = re.match(r"[\w.\"]+", c["text"]).group(0).encode()
    at = src[c["start"]:]
    line = src[:c["start"]].count(b"\n") + 1
    col = len(src[src.rfind(b"\n", 0, c["start"]) + 1:c["start"]].decode()) + 1
    ok = at.startswith(word) and c["line"] == line and c["column"] == col \
        and c["end"] <= len(src) and c["start"] < c["end"]
    print(c["kind"], c["form"], "%d:%d" % (c["line"], c["column"]), "ok" if ok else "BAD", c["text"],
          "|", "pin=" + c["fields"].get("pin", ""), "name=" + c["fields"].get("name", ""))
PY
}

run 0 "$SWORN" claims --json "$T/brief.md"
claims_py "$T/out" "$T/brief.md" >"$T/check" 2>&1
has "$T/check" "case full 4:64 ok Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986) | pin=322 name=Celotex Corp. v. Catrett"
has "$T/check" "case id 4:118 ok Id. at 999 | pin=at 999"
has "$T/check" "ok Anderson v. Liberty Lobby, Inc., 477 U.S. 242, 248 (1986) | pin=248 name=Anderson v. Liberty Lobby, Inc."
has "$T/check" "ok Bell Atl. Corp. v. Twombly, 550 U.S. 544, 556 (2007)"
has "$T/check" "ok Matsushita Elec. Indus. Co. v. Zenith Radio Corp., 475 U.S. 574, 586 (1986) | pin=586" # in a footnote
has "$T/check" "case short 10:48 ok Anderson, 477 U.S. at 252"
lacks "$T/check" "BAD"
lacks "$T/check" "*"
lacks "$T/check" "[^"
has "$T/out" '"format": "markdown"'
has "$T/out" "\"draft_sha256\": \"$(sha256sum "$T/brief.md" | cut -d' ' -f1)\""
# the heading is a sentence of its own: not glued to the first sentence
python3 - "$T/out" >"$T/first" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print("first claim in sentence", doc["claims"][0]["sentence"])
PY
has "$T/first" "first claim in sentence 3"
# the text table gives line:column
run 0 "$SWORN" claims --kind case "$T/brief.md"
has "$T/out" "4:64"
has "$T/out" "Celotex Corp. v. Catrett, 477 U.S. 317"

# The same bytes on standard input: sniffed as Markdown; --format=text
# reads them as they are (the old way, with the stars).
run 0 "$SWORN" claims --json - <"$T/brief.md"
has "$T/out" '"name": "Celotex Corp. v. Catrett"'
run 0 "$SWORN" claims --json --format=text - <"$T/brief.md"
has "$T/out" '"format": "text"'
lacks "$T/out" '"name": "Celotex Corp. v. Catrett"'
run 2 "$SWORN" claims --format=docx "$T/brief.md"
has "$T/err" "unknown --format 'docx'"

# Plain text keeps working exactly as before: every claim's text is the
# file's bytes between its offsets, and a .txt with stars is not Markdown.
cp "$SW_TEST_DATA/acme-mini-drafts/acme-planted.md" "$T/plain.txt"
printf 'Multiply 5 * 3 and see *Celotex Corp. v. Catrett*, 477 U.S. 317 (1986).\n' >>"$T/plain.txt"
run 0 "$SWORN" claims --json "$T/plain.txt"
cp "$T/out" "$T/plain.json"
python3 - "$T/plain.json" "$T/plain.txt" >"$T/check" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
data = open(sys.argv[2], "rb").read()
bad = [c["id"] for c in doc["claims"] if data[c["start"]:c["end"]].decode() != c["text"]]
print("claims", len(doc["claims"]), "bad", bad, doc["audit"]["format"])
PY
has "$T/check" "bad [] text"
run 0 "$SWORN" claims --json --format=text - <"$T/plain.txt"
python3 - "$T/plain.json" "$T/out" >"$T/check" 2>&1 <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
strip = lambda d: [{k: v for k, v in c.items()} for c in d["claims"]]
print("same" if strip(a) == strip(b) else "different")
PY
has "$T/check" "same"

# HTML: <em> and <i> like Markdown's emphasis, entities decoded, script
# and comments skipped.
cat >"$T/brief.html" <<'EOF'
<!DOCTYPE html>
<html><head><title>Brief</title><script>var x = "<em>1 U.S. 1</em>";</script></head>
<body><h2>Argument</h2>
<p>Summary judgment is proper. <em>Celotex Corp. v.
Catrett</em>, 477&nbsp;U.S. 317, 322 (1986); <i>see also</i> <i>Anderson v. Liberty Lobby,
Inc.</i>, 477 U.S. 242, 248 (1986).<!-- <em>Fake v. Case</em>, 1 U.S. 2 (1801) --></p>
</body></html>
EOF
run 0 "$SWORN" claims --json "$T/brief.html"
claims_py "$T/out" "$T/brief.html" >"$T/check" 2>&1
has "$T/check" "case full 4:36 ok Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986) | pin=322 name=Celotex Corp. v. Catrett"
has "$T/check" "ok Anderson v. Liberty Lobby, Inc., 477 U.S. 242, 248 (1986)"
lacks "$T/check" "BAD"
lacks "$T/check" "1 U.S."
has "$T/out" '"format": "html"'

# .docx: italic runs (w:i) give the name whole.
python3 - "$T/italic.docx" <<'PY'
import sys, zipfile
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
def run(text, italic=False):
    rpr = "<w:rPr><w:i/><w:iCs/></w:rPr>" if italic else ""
    return '<w:r>%s<w:t xml:space="preserve">%s</w:t></w:r>' % (rpr, text)
body = ("<w:p>" + run("Summary judgment is proper. ") + run("Celotex", True) +
        run(" Corp. v. Catrett", True) + run(", 477 U.S. 317, 322 (1986). ") + run("Id.", True) +
        run(" at 999.") + "</w:p>")
doc = '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="%s"><w:body>%s</w:body></w:document>' % (W, body)
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
    z.writestr("word/document.xml", doc)
PY
run 0 "$SWORN" claims --json "$T/italic.docx"
has "$T/out" '"name": "Celotex Corp. v. Catrett"'
has "$T/out" '"pin": "at 999"'

# verify: the italic Markdown twin of the clean draft gets the verdicts
# the plain text gets; the report's positions, audit stamp and HTML.
new_workspace
cd "$T/ws" || exit 1
cp -r "$SW_TEST_DATA/acme-mini" acme
run 0 "$SWORN" ingest -m m --labels acme/labels.csv acme
run 0 "$SWORN" authorities import "$SW_SRC/examples/authorities/cases.csv" "$SW_SRC/examples/authorities/codes.csv"
cp "$SW_TEST_DATA/acme-mini-drafts/acme-clean.md" "$T/clean.txt"
sed -e 's/Celotex Corp. v. Catrett/*Celotex Corp. v. Catrett*/' \
    -e 's/Anderson v. Liberty Lobby, Inc./_Anderson v. Liberty Lobby, Inc._/' \
    -e 's/see also Bell Atl. Corp. v. Twombly/*see also* *Bell Atl. Corp. v. Twombly*/' \
    -e 's/Twombly, 550 U.S. at 570/*Twombly*, 550 U.S. at 570/' \
    -e 's/^Acme and Brightline/**Acme** and Brightline/' "$T/clean.txt" >"$T/clean.md"
verdicts() {
	python3 - "$1" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["claims"]:
    print(c["kind"], c["verdict"], c["text"])
PY
}
run 0 "$SWORN" verify -m m --json "$T/clean.txt"
verdicts "$T/out" >"$T/clean.txt.verdicts"
run 0 "$SWORN" verify -m m --json "$T/clean.md"
verdicts "$T/out" >"$T/clean.md.verdicts"
eq "italic twin verdicts" "$(cat "$T/clean.md.verdicts")" "$(cat "$T/clean.txt.verdicts")"
has "$T/clean.md.verdicts" "case supported Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986)"

run 1 "$SWORN" verify -m m --json --html "$T/r.html" "$T/brief.md"
cp "$T/out" "$T/verify.json"
verdicts "$T/verify.json" >"$T/check"
has "$T/check" "case supported Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986)"
lacks "$T/check" "case supported Id. at 999"                    # the pin is kept and checked
lacks "$T/check" "case supported Hollis v. Coastal Carriers"     # the name is read whole
has "$T/check" "case contradicted Hollis v. Coastal Carriers, Inc., 550 U.S. 544, 560 (2007)"
has "$T/check" "case supported Matsushita Elec. Indus. Co. v. Zenith Radio Corp."
claims_py "$T/verify.json" "$T/brief.md" >"$T/check" 2>&1
lacks "$T/check" "BAD"
python3 - "$T/verify.json" >"$T/audit" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["audit"]
for k in sorted(a):
    print(k, a[k])
PY
has "$T/audit" "matter m"
has "$T/audit" "draft_sha256 $(sha256sum "$T/brief.md" | cut -d' ' -f1)"
has "$T/audit" "record_documents $(sql m 'SELECT count(*) FROM documents')"
has "$T/audit" "record_last_import $(sql m 'SELECT max(imported_at) FROM documents')"
has "$T/audit" "sworn_version "
has "$T/audit" "commit "
has "$T/audit" "authorities_updated 20"
has "$T/audit" "format markdown"
grep -q '^time [0-9-]*T[0-9:]*Z$' "$T/audit" || { echo "FAIL: no UTC time in the audit stamp"; cat "$T/audit"; failures=$((failures + 1)); }

# The HTML renders the Markdown: structure, emphasis, footnotes, the
# claims marked (a mark closed and reopened around <em>), print styles.
has "$T/r.html" "<h1>Memorandum in Support of Summary Judgment</h1>"
has "$T/r.html" "<h2>I. Legal Standard</h2>"
has "$T/r.html" "<blockquote>"
has "$T/r.html" "<table>"
has "$T/r.html" "<li><strong>First</strong>"
has "$T/r.html" '<em><a class="c supported" href="#c1"'
has "$T/r.html" '</a></em><a class="c supported" href="#c1"'
has "$T/r.html" 'class="c contradicted"'
has "$T/r.html" '<sup class="fnref">1</sup>'
has "$T/r.html" '<div class="fn"><sup>1</sup>'
has "$T/r.html" "@media print"
has "$T/r.html" "draft SHA-256"
lacks "$T/r.html" "*Celotex"
lacks "$T/r.html" "[^1]"
# text output: line:column of each claim
run 1 "$SWORN" verify -m m "$T/brief.md"
has "$T/out" "4:64"
has "$T/out" "550 U.S. 544 is Bell Atlantic Corp. v. Twombly"

# The HTML is well formed: tags nest and close, and no text stands in a
# table outside its cells (the view's ", " between cells is not content).
html_check() {
	python3 - "$1" <<'PY'
import sys
from html.parser import HTMLParser
VOID = {"br", "hr", "meta", "link", "img", "input"}
class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.bad = [], []
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.bad.append("</%s> closes %s" % (tag, self.stack[-1:] or "nothing"))
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
    def handle_data(self, data):
        if self.stack and self.stack[-1] in ("table", "thead", "tbody", "tr") and data.strip():
            self.bad.append("text %r directly inside <%s>" % (data, self.stack[-1]))
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
p.close()
for b in p.bad + (["unclosed " + " ".join(p.stack)] if p.stack else []):
    print("BAD", b)
PY
}
html_check "$T/r.html" >"$T/check" 2>&1
lacks "$T/check" "BAD"
lacks "$T/check" "Traceback"
lacks "$T/r.html" "</td>, <td>"
has "$T/r.html" "<td><em>"

# Quotations as lawyers alter them, over the record; evidence named once
# when a document's name is its Bates number.
cat >"$T/quotes.md" <<'EOF'
Smith wrote: "We will . . . make the March 10 date for PO 4471." (ACME0000003.)

Smith wrote: "[w]e will not make the March 10 date for PO 4471." (ACME0000003.)

He admitted "I know this [was] past the thirty days." (ACME0000003.)

He wrote that "[t]he earliest we [guarantee] is March 31, 2021." (ACME0000003.)

He wrote "[w]e will not make the March 10 date . . . [t]he earliest we can ship is March 31, 2021." (ACME0000003.)
EOF
run 1 "$SWORN" verify -m m --json --html "$T/q.html" "$T/quotes.md"
verdicts "$T/out" >"$T/check"
has "$T/check" 'quote contradicted "We will . . . make'   # the ellipsis drops "not"
has "$T/check" 'quote unsupported "[t]he earliest we [guarantee]'
has "$T/check" 'quote supported "[w]e will not make the March 10 date for PO 4471."'
has "$T/check" 'quote supported "I know this [was] past the thirty days."'
has "$T/check" 'quote supported "[w]e will not make the March 10 date . . . [t]he earliest'
run 1 "$SWORN" verify -m m "$T/quotes.md"
has "$T/out" 'the ellipsis omits "not"'
has "$T/out" '"[guarantee]" in the draft, "can ship" on the page'
has "$T/out" "        ACME0000003 p. 1: "
lacks "$T/out" "ACME0000003 ACME0000003"
lacks "$T/out" "        ACME0000003 (ACME0000003"
has "$T/q.html" 'class="ev">ACME0000003 p. 1'
lacks "$T/q.html" "ACME0000003 ACME0000003"

echo "drafts_markdown: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
