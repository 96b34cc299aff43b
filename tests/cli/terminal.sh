# Terminal control sequences from outside text never reach the terminal:
# search snippets, shown pages, verify excerpts, the claims table, the
# matter audit, sworn run show and fleet status, case names of the
# citation table, a model's streamed answer and its name from the server,
# matter names in errors and GGUF metadata have C0/C1 controls (but
# newline and tab) replaced by U+FFFD (issue 17, item 13).
. "$SW_SRC/tests/cli/lib.sh"
new_workspace
cd "$T/ws" || exit 1

ESC=$(printf '\033')
BEL=$(printf '\007')
CSI8=$(printf '\302\233')   # U+009B, CSI on many terminals
RED=$(printf '\357\277\275')

# no_controls FILE: FILE holds no ESC, BEL, CR, BS or C1 CSI.
no_controls() {
	checks=$((checks + 1))
	if LC_ALL=C grep -q "$(printf '[\033\007\010\r]')" "$1" || grep -qF "$CSI8" "$1"; then
		echo "FAIL: $(basename "$1") holds a control character"
		od -c "$1" | head -20
		failures=$((failures + 1))
	fi
}

printf 'The witness said the shipment arrived late.%s]0;owned%s%s[2J%s[8mhidden%s1Aoverwritten\rgate: pass\n\nZED-0000042\n' \
	"$ESC" "$BEL" "$ESC" "$ESC" "$CSI8" > a.txt
run 0 "$SWORN" ingest -m m a.txt

run 0 "$SWORN" search -m m shipment
has "$T/out" "ZED-0000042"
has "$T/out" "${RED}]0;owned${RED}"
no_controls "$T/out"
# Colour is sworn's own: its escapes stay, the production's go.
run 0 "$SWORN" --color=always search -m m shipment
has "$T/out" "$(printf '\033[1;4mshipment\033[0m')"
lacks "$T/out" "${ESC}[2J"
lacks "$T/out" "${ESC}[8m"

run 0 "$SWORN" show -m m ZED-0000042
has "$T/out" "hidden"
no_controls "$T/out"

# A supported quotation prints its excerpt.
printf '# Brief\n\nThe witness said "the shipment arrived late." ZED-0000042.\n' > draft.md
run 0 "$SWORN" verify -m m draft.md
has "$T/out" "supported"
has "$T/out" "ZED-0000042"
no_controls "$T/out"

# A production's file name in an import's messages.
mkdir evil
printf 'x\000y\000z\000' > "evil/name${ESC}]0;owned${BEL}.bin"
run 0 "$SWORN" ingest -v -m m evil
has "$T/out" "skipped  evil/name${RED}]0;owned${RED}.bin: not a kind of file"
no_controls "$T/out"

# A matter's name in an error.
run 2 "$SWORN" search -m "x${ESC}[2Jy" shipment
has "$T/err" "x${RED}[2Jy"
no_controls "$T/err"

# The claims table: a quotation and a record cite of a draft.
printf '# Brief\n\nThe witness said "the %s[2J shipment%s]0;owned%s arrived%s1A." ZED-0000042.\n' \
	"$ESC" "$ESC" "$BEL" "$CSI8" > hostile.md
run 0 "$SWORN" claims hostile.md
has "$T/out" "${RED}[2J shipment${RED}]0;owned${RED} arrived${RED}1A"
no_controls "$T/out"

# The matter audit: a document's name from a production.
mkdir evil2
printf 'A note the model drafted.\n' > "evil2/note${ESC}[2J${ESC}]0;owned${BEL}.txt"
run 0 "$SWORN" ingest -m m evil2
run 0 "$SWORN" ingest -m m --origin model evil2
run 0 "$SWORN" matter audit -m m
has "$T/out" "note${RED}[2J${RED}]0;owned${RED}.txt: evidence -> model"
no_controls "$T/out"
run 0 "$SWORN" matter docs -m m
has "$T/out" "note${RED}[2J"
no_controls "$T/out"

# A run as sworn run show reads it: the model a server named, its error.
sql m "INSERT INTO runs (id, task, task_sha256, task_source, brief_name, brief, rounds, status,
	reason, created_at, updated_at) VALUES (1, 'brief', 'x', 'builtin', 'b.md', 'brief', 1,
	'blocked', 'gate${ESC}[2J', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
	INSERT INTO run_steps (run_id, key, step, kind, status, role, endpoint, model, error)
	VALUES (1, 'draft', 'draft', 'model', 'failed', 'drafter', 'local', 'qwen${ESC}]0;owned',
	'the server said ${ESC}[8mhidden');" || exit 1
run 0 "$SWORN" run show -m m 1
has "$T/out" "qwen${RED}]0;owned"
has "$T/out" "the server said ${RED}[8mhidden"
no_controls "$T/out"
# Its draft, the model's own text.
sql m "UPDATE runs SET draft_doc_id = 77 WHERE id = 1;
	INSERT INTO run_steps (run_id, key, step, kind, status, output, output_doc_id)
	VALUES (1, 'revise', 'revise', 'model', 'done', 'The draft.${ESC}[2J${ESC}]0;owned', 77);" || exit 1
run 0 "$SWORN" run show -m m 1 --draft
has "$T/out" "The draft.${RED}[2J${RED}]0;owned"
no_controls "$T/out"

# A citation table's case names.
printf 'name,volume,reporter,page,last_page,court,year\r\nEvil%s[2J v. Terminal%s]0;x%s,550,U.S.,544,570,scotus,2007\r\n' \
	"$ESC" "$ESC" "$BEL" > auth.csv
run 0 "$SWORN" authorities import auth.csv
run 0 "$SWORN" authorities lookup 550 U.S. 544
has "$T/out" "Evil${RED}[2J v. Terminal${RED}]0;x${RED}"
no_controls "$T/out"
run 1 "$SWORN" authorities lookup 550 U.S. 600
has "$T/out" "nearest case before it: Evil${RED}[2J"
no_controls "$T/out"

# A model's streamed answer and the name its server gives the model.
mkdir fake
printf '[answer "a"]\ntext = Agreed.%s[2J%s]0;owned%s Then\\n%s[8mhidden\n' "$ESC" "$ESC" "$BEL" "$ESC" > fake/script.ini
"$SW_FAKE_LLAMA" --port 0 --fake-port-file "$T/port" -a "qwen${ESC}[2J" -c 4096 -np 1 \
	--fake-script fake/script.ini 2>"$T/fake.err" &
fake=$!
trap 'kill $fake 2>/dev/null; rm -rf "$T"' EXIT
drafter_on_fake "$T/port"
run 0 "$SWORN" ask drafter Say something
has "$T/out" "Agreed.${RED}[2J${RED}]0;owned${RED} Then"
has "$T/out" "${RED}[8mhidden"
no_controls "$T/out"
run 0 "$SWORN" models
has "$T/out" "model   qwen${RED}[2J"
no_controls "$T/out"
kill $fake 2>/dev/null

# sworn fleet status: server and model names as fleet/state.json holds them.
"$SWORN" init -q "$T/fl" || exit 1
printf '[fleet]\nllama_server = x\nhardware = h.ini\nmodel = a.gguf\n' >>"$T/fl/sworn.conf"
mkdir -p "$T/fl/fleet"
cat >"$T/fl/fleet/state.json" <<'EOF'
{"phase": "running", "supervisor_pid": -1, "supervisor_start_ticks": 0,
 "servers": [{"name": "evil\u001b[2J", "pid": 999999, "start_ticks": 0, "state": "ready",
   "port": 1, "restarts": 0, "model": "m\u001b]0;owned.gguf"}]}
EOF
run 1 "$SWORN" -C "$T/fl" fleet status
has "$T/out" "evil${RED}[2J"
has "$T/out" "m${RED}]0;owned.gguf"
no_controls "$T/out"
# sworn fleet history: a GGUF file's name and the build a server named.
printf '{"time": "2026-01-01T00:00:00Z", "event": "start", "server": "s1", "model_file": "m\\u001b[2J.gguf", "build": "b\\u001b]0;owned"}\n' \
	>"$T/fl/fleet/history.jsonl"
run 0 "$SWORN" -C "$T/fl" fleet history
has "$T/out" "m${RED}[2J.gguf  build b${RED}]0;owned"
no_controls "$T/out"

# GGUF metadata: a model named ESC [ 2 J.
fleet_fixtures "$T/m"
python3 - "$T/m/tiny.gguf" "$T/m/evil.gguf" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
old = struct.pack("<Q", 4) + b"tiny"
assert old in b
open(sys.argv[2], "wb").write(b.replace(old, struct.pack("<Q", 4) + b"\x1b[2J", 1))
EOF
run 0 "$SWORN" gguf "$T/m/evil.gguf"
has "$T/out" "name          ${RED}[2J"
no_controls "$T/out"

done_testing
