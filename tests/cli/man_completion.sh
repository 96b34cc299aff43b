# The manual pages and bash completion written from the command table at
# build time (tools/gen_man.c): one page per command, each rendering without
# a groff warning, and completion that offers commands, subcommands, options
# and files.
. "$SW_SRC/tests/cli/lib.sh"

man=$(dirname "$SWORN")/man
[ -d "$man" ] || { echo "FAIL: no $man (the man target did not run)"; exit 1; }

# Every command sworn lists has a page, and every page renders cleanly.
run 0 "$SWORN" help
commands=$(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$T/out")
[ -n "$commands" ] || { echo "FAIL: 'sworn help' lists no commands"; exit 1; }
for page in sworn $(for c in $commands; do echo "sworn-$c"; done); do
	f=$man/$page.1
	checks=$((checks + 1))
	if [ ! -s "$f" ]; then
		echo "FAIL: no manual page $page.1"
		failures=$((failures + 1))
		continue
	fi
	run 0 groff -ww -man -z "$f"
	lines "$T/err" 0
	MANWIDTH=80 run 0 man --warnings -l "$f"
	lines "$T/err" 0
done
# What a page says comes from the table: usage, options with their help,
# the description.
MANWIDTH=200 run 0 man -l "$man/sworn-verify.1"
has "$T/out" "sworn-verify - "
has "$T/out" "sworn verify -m MATTER DRAFT"
has "$T/out" "--json"
"$SWORN" verify --help >"$T/help"
json_help=$(sed -n 's/^ *--json  *//p' "$T/help" | head -1)
has "$T/out" "$json_help"
MANWIDTH=200 run 0 man -l "$man/sworn.1"
for c in $commands; do has "$T/out" "sworn-$c(1)"; done
has "$T/out" "-C DIR"

# Completion: the script registers itself and completes by the table.
comp=$man/sworn.bash
run 0 bash -c ". '$comp' && complete -p sworn"
has "$T/out" "-F _sworn sworn"
# complete WORDS...: what the script offers for the last word (one a line).
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _sworn
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$@" >"$T/out" 2>"$T/err"
	checks=$((checks + 1))
	if [ -s "$T/err" ]; then
		echo "FAIL: completing '$*' wrote to stderr"
		cat "$T/err"
		failures=$((failures + 1))
	fi
}
complete_words sworn veri
eq "sworn veri<TAB>" "$(cat "$T/out")" verify
complete_words sworn ve
eq "sworn ve<TAB>" "$(sort "$T/out" | tr '\n' ' ')" "verify version "
complete_words sworn verify --j
eq "sworn verify --j<TAB>" "$(cat "$T/out")" --json
complete_words sworn -C . veri
eq "sworn -C . veri<TAB>" "$(cat "$T/out")" verify
complete_words sworn matter ''
eq "sworn matter <TAB>" "$(sort "$T/out" | tr '\n' ' ')" "audit docs get list new qc rm set use "
complete_words sworn fleet st
eq "sworn fleet st<TAB>" "$(cat "$T/out")" status
complete_words sworn help ing
eq "sworn help ing<TAB>" "$(cat "$T/out")" ingest
complete_words sworn --ver
eq "sworn --ver<TAB>" "$(cat "$T/out")" --version
# An option that takes a path completes files; one that takes a word does
# not; -m completes the workspace's matters.
mkdir -p "$T/d" && : >"$T/d/brief-draft.md" && : >"$T/d/brief-notes.txt"
cd "$T/d" || exit 1
complete_words sworn verify --html brief-d
eq "sworn verify --html brief-d<TAB>" "$(cat "$T/out")" brief-draft.md
complete_words sworn search --limit brief
eq "sworn search --limit brief<TAB>" "$(cat "$T/out")" ""
complete_words sworn claims brief-n
eq "sworn claims brief-n<TAB>" "$(cat "$T/out")" brief-notes.txt
new_workspace
"$SWORN" -C "$T/ws" matter new acme >/dev/null || exit 1
mkdir -p "$T/ws/sub" && cd "$T/ws/sub" || exit 1
complete_words sworn search -m a
eq "sworn search -m a<TAB>" "$(cat "$T/out")" acme
complete_words sworn -C "$T/ws" verify -m ''
eq "sworn -C WS verify -m <TAB>" "$(sort "$T/out" | tr '\n' ' ')" "acme m "

# Option values: the words an option takes, before or after the command,
# also as --opt=value; tasks are the built-in ones and the workspace's.
complete_words sworn verify --format m
eq "sworn verify --format m<TAB>" "$(cat "$T/out")" markdown
complete_words sworn claims --format ''
eq "sworn claims --format <TAB>" "$(sort "$T/out" | tr '\n' ' ')" "auto html markdown text "
complete_words sworn ingest --origin ''
eq "sworn ingest --origin <TAB>" "$(sort "$T/out" | tr '\n' ' ')" "evidence human model template "
complete_words sworn corrections export --format a
eq "sworn corrections export --format a<TAB>" "$(cat "$T/out")" axolotl
complete_words sworn verify --uncited b
eq "sworn verify --uncited b<TAB>" "$(cat "$T/out")" block
complete_words sworn --color a
eq "sworn --color a<TAB>" "$(sort "$T/out" | tr '\n' ' ')" "always auto "
complete_words sworn --color = n
eq "sworn --color=n<TAB>" "$(cat "$T/out")" never
complete_words sworn --color = never veri
eq "sworn --color=never veri<TAB>" "$(cat "$T/out")" verify
complete_words sworn --color always se
eq "sworn --color always se<TAB>" "$(sort "$T/out" | tr '\n' ' ')" "search serve "
complete_words sworn search --color n
eq "sworn search --color n<TAB>" "$(cat "$T/out")" never
complete_words sworn matter qc --format c
eq "sworn matter qc --format c<TAB>" "$(cat "$T/out")" csv
complete_words sworn certify --format ''
eq "sworn certify --format <TAB>" "$(sort "$T/out" | tr '\n' ' ')" "html md pdf "
complete_words sworn plan --method q
eq "sworn plan --method q<TAB>" "$(cat "$T/out")" qlora
complete_words sworn draft --task d
eq "sworn draft --task d<TAB>" "$(sort "$T/out" | tr '\n' ' ')" "declaration demand-letter "
"$SWORN" -C "$T/ws" task init declaration >/dev/null 2>&1 || exit 1
mv "$T/ws/tasks/declaration" "$T/ws/tasks/declaration-ny"
complete_words sworn verify --task declaration
eq "sworn verify --task declaration<TAB> (the workspace's too)" "$(sort "$T/out" | tr '\n' ' ')" "declaration declaration-ny "

done_testing
