# One contract for every command (cli.h): exit 0 ok, 1 the command's own
# "no", 2 a usage or input error -- a missing input file, no workspace, a
# matter that does not exist -- with one line on stderr; --json prints one
# valid JSON document, and a command with nothing to print refuses it.
. "$SW_SRC/tests/cli/lib.sh"

# The commands `sworn help` lists, and each one this test walks: a command
# added to the table without a row here fails the test.
walked="init matter ingest search show gguf plan claims authorities verify task draft run
certify corrections serve models ask doctor fleet bench version help"
"$SWORN" help >"$T/help" 2>&1
for c in $(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$T/help"); do
	case " $(echo $walked) " in
	*" $c "*) ;;
	*) echo "FAIL: command '$c' is not walked by contract.sh"; failures=$((failures + 1)) ;;
	esac
done

# json: the last command's stdout is one valid JSON document.
json() {
	checks=$((checks + 1))
	if ! python3 -m json.tool "$T/out" >/dev/null 2>&1; then
		echo "FAIL: not JSON: $*"
		head -c 400 "$T/out"
		failures=$((failures + 1))
	fi
}

# one_line: stderr is one line that starts "sworn: ".
one_line() {
	lines "$T/err" 1
	has "$T/err" "sworn: "
}

# ---- outside a workspace: 2, and one line saying how to make one.
mkdir "$T/nows"
cd "$T/nows" || exit 1
for cmd in "matter list" "matter new x" "ingest -m m a.txt" "search -m m word" "show -m m X-1" \
	"verify -m m d.md" "draft -m m --task declaration --brief b.md" "run list -m m" \
	"corrections export -m m --format sft" "models" "ask drafter hi" "doctor" "fleet status" \
	"bench" "authorities lookup 550 U.S. 544" "serve --port 0" "certify 1 -m m"; do
	# shellcheck disable=SC2086
	run 2 "$SWORN" $cmd
	one_line
	has "$T/err" "sworn init"
done
# task, claims, gguf, plan and help need no workspace.
run 0 "$SWORN" task list
run 0 "$SWORN" help

# ---- a workspace with one matter, a draft and an authority table.
new_workspace
cd "$T/ws" || exit 1
printf 'The plaintiff signed the agreement on March 3, 2024.\n\nACME-0000001\n' >a.txt
printf 'The plaintiff signed the agreement. ACME-0000001.\n' >d.md
printf 'name,volume,reporter,page,last_page,court,year\r\nBell Atlantic Corp. v. Twombly,550,U.S.,544,570,scotus,2007\r\n' >auth.csv
printf 'Declare what the record shows.\n' >b.md

# ---- a missing input file: 2 everywhere, one line naming it.
for cmd in "ingest -m m nope.txt" "claims nope.md" "verify -m m nope.md" "gguf nope.gguf" \
	"plan --hardware nope.ini nope.gguf" "authorities import nope.csv" \
	"draft -m m --task declaration --brief nope.md" "ask --schema nope.json drafter hi" \
	"run approve 1 -m m --final nope.md" "certify --check nope.md nope.md" \
	"bench http://127.0.0.1:9 --model nope.gguf --hardware nope.ini --group g"; do
	# shellcheck disable=SC2086
	run 2 "$SWORN" $cmd
	has "$T/err" "nope"
done
run 2 "$SWORN" init /proc/nope/ws
has "$T/err" "/proc/nope"

# ---- a matter that does not exist: 2, never 1 as if nothing were found.
for cmd in "ingest nope.txt" "search word" "show X-1" "verify d.md" "matter audit" \
	"matter docs" "matter get corrections.export" "matter set corrections.export=yes" \
	"run list" "run stats" "corrections export --format sft" \
	"draft --task declaration --brief b.md" "serve --port 0" "certify 1"; do
	# shellcheck disable=SC2086
	run 2 "$SWORN" $cmd -m nope
	one_line
	has "$T/err" "no matter 'nope'"
done
run 2 "$SWORN" matter use nope
has "$T/err" "no matter 'nope'"

# ---- the default matter: SWORN_MATTER, else `sworn matter use`.
run 2 "$SWORN" search plaintiff
has "$T/err" "sworn matter use NAME"
run 0 "$SWORN" ingest -m m a.txt
SWORN_MATTER=m run 0 "$SWORN" search plaintiff
has "$T/out" "ACME-0000001"
SWORN_MATTER=nope run 2 "$SWORN" search plaintiff
has "$T/err" "(the matter named by SWORN_MATTER)"
run 0 "$SWORN" matter use
has "$T/out" "no default matter"
run 0 "$SWORN" matter new other --json
json matter new
eq "new's name" "$(jq -r .matter "$T/out")" other
run 0 "$SWORN" matter use m
run 0 "$SWORN" matter use --json
json matter use
eq "default" "$(jq -r .matter "$T/out")" m
eq "its source" "$(jq -r .from "$T/out")" "sworn matter use"
run 0 "$SWORN" search plaintiff
has "$T/out" "ACME-0000001"
run 0 "$SWORN" matter audit --json
json matter audit
SWORN_MATTER=other run 1 "$SWORN" search plaintiff   # the environment comes first
run 0 "$SWORN" search -m m plaintiff                  # and -m before both
run 1 "$SWORN" search -m other plaintiff
printf 'no/such\n' >matters/.default
run 2 "$SWORN" search plaintiff
has "$T/err" "holds no matter name"
run 0 "$SWORN" matter use m

# ---- --json on every command that takes it, for what runs without servers.
run 0 "$SWORN" ingest --json a.txt
json ingest
run 0 "$SWORN" search --json plaintiff
json search
run 1 "$SWORN" search --json nosuchword
json search without hits
eq "no hits" "$(jq '.hits | length' "$T/out")" 0
run 0 "$SWORN" show --json ACME-0000001
json show
run 0 "$SWORN" matter list --json
json matter list
run 0 "$SWORN" matter docs --json
json matter docs
run 0 "$SWORN" matter set corrections.export=yes --json
json matter set
run 0 "$SWORN" matter get corrections.export --json
json matter get
run 0 "$SWORN" authorities import --json auth.csv
json authorities import
eq "imported rows" "$(jq '.imported[0].stored' "$T/out")" 1
run 0 "$SWORN" authorities lookup --json 550 U.S. 544
json authorities lookup
run 1 "$SWORN" authorities lookup --json 999 U.S. 1
json authorities lookup without a case
run 0 "$SWORN" claims --json d.md
json claims
run 0 "$SWORN" task list --json
json task list
run 0 "$SWORN" task show declaration --json
json task show
run 0 "$SWORN" task init declaration --json
json task init
run 0 "$SWORN" run list --json
json run list
run 0 "$SWORN" run stats --json
json run stats
run 1 "$SWORN" models --json
json models
run 0 "$SWORN" doctor --json
json doctor
run 0 "$SWORN" version --json
json version
"$SWORN" verify --json d.md >"$T/out" 2>"$T/err"
json verify
# Header-only models from fleet_gguf_test of the same build (as gguf.sh).
mkdir -p "$T/models"
"$(dirname "$SWORN")/tests/fleet_gguf_test" --write "$T/models" || exit 1
run 0 "$SWORN" gguf --json "$T/models/qwen3-30b-a3b-q8_0.gguf"
json gguf
run 0 "$SWORN" plan --json --hardware "$SW_SRC/examples/hardware/v100x12.ini" \
	"$T/models/qwen3-30b-a3b-q8_0.gguf"
json plan
# A command with no document to print refuses --json.
run 2 "$SWORN" init --json x
run 2 "$SWORN" corrections export --format sft --json
run 2 "$SWORN" fleet down --json
has "$T/err" "prints no JSON"
run 2 "$SWORN" serve --json
one_line

# ---- a "no" whose output cannot be written is an error with a line, not a
# silent 1; an unwritable --html is 2 with a line.
"$SWORN" search nosuchword >/dev/full 2>"$T/err"
eq "no hits into a full disk" $? 1                    # nothing to write: still the no
"$SWORN" verify d.md >/dev/full 2>"$T/err"
got=$?
checks=$((checks + 1))
if [ "$got" = 1 ] && [ "$(grep -c '' "$T/err")" = 0 ]; then
	echo "FAIL: verify into a full disk exited 1 silently"
	failures=$((failures + 1))
fi
run 2 "$SWORN" verify --html "$T/nodir/r.html" d.md
has "$T/err" "cannot write"
"$SWORN" search plaintiff >/dev/full 2>"$T/err"
eq "hits into a full disk" $? 2
has "$T/err" "cannot write"

# ---- the global options: --color and --quiet, before or after the command.
run 2 "$SWORN" --color=sometimes matter list
has "$T/err" "give auto, always or never"
run 2 "$SWORN" --color
run 0 "$SWORN" --color=never --quiet search plaintiff
run 1 "$SWORN" -q search nosuchword
lines "$T/err" 0
run 1 "$SWORN" search nosuchword --quiet
lines "$T/err" 0
run 0 "$SWORN" --quiet matter new third
lacks "$T/out" "next:"
run 0 "$SWORN" --quiet init "$T/ws2"
lines "$T/out" 0
lines "$T/err" 0

done_testing
