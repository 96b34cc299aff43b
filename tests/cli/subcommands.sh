# Subcommands are a table (cli.h): each has its own options, --help and
# completion from the same rows, and refuses an option it does not take
# with one line that names the ones it does.  The walk reads the table
# through the binary: every command `sworn help` lists, every subcommand
# its --help lists.
. "$SW_SRC/tests/cli/lib.sh"

comp=$(dirname "$SWORN")/man/sworn.bash
[ -s "$comp" ] || { echo "FAIL: no $comp (the man target did not run)"; exit 1; }

# complete WORDS...: what the script offers for the last word, sorted, on
# one line.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _sworn
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$@" 2>"$T/cerr" | sed '/^$/d' | sort |
		tr '\n' ' '
}

# The spellings of the options a --help in $1 shows, sorted, on one line.
help_opts() {
	sed -n '/^options:/,/^$/{
		s/^  \(-[a-zA-Z]\), \(--[a-z-]*\).*/\1 \2/p
		s/^      \(--[a-z-]*\).*/\1/p
	}' "$1" | tr ' ' '\n' | sort | tr '\n' ' '
}

# Check one (sub)command: its help shows its usage; no option is shown
# twice; completing '-' offers exactly the options its help shows.
walk() {
	what=$*
	run 0 "$SWORN" "$@" --help
	cp "$T/out" "$T/help"
	has "$T/help" "usage: sworn $what"
	has "$T/help" "-h, --help"
	shown=$(help_opts "$T/help")
	eq "sworn $what: each option once" \
		"$(echo "$shown" | tr ' ' '\n' | sed '/^$/d' | uniq -d | tr '\n' ' ')" ""
	eq "sworn $what -<TAB> offers its options and only those" "$(complete_words sworn "$@" -)" \
		"$shown"
	lines "$T/cerr" 0
}

run 0 "$SWORN" help
commands=$(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$T/out")
nsubs=0
for c in $commands; do
	walk "$c"
	cp "$T/help" "$T/cmdhelp"
	subs=$(sed -n '/^subcommands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p' "$T/cmdhelp")
	[ -n "$subs" ] || continue
	eq "sworn $c <TAB> offers its subcommands" "$(complete_words sworn "$c" '')" \
		"$(echo $subs | tr ' ' '\n' | sort | tr '\n' ' ')"
	for s in $subs; do
		nsubs=$((nsubs + 1))
		has "$T/cmdhelp" "sworn $c $s"
		walk "$c" "$s"
		# sworn help CMD SUB is the same page
		"$SWORN" help "$c" "$s" >"$T/help2" 2>&1
		eq "sworn help $c $s" "$(cat "$T/help2")" "$(cat "$T/help")"
	done
done
# The commands with subcommands: a table of each (not read from usage).
eq "subcommands walked" "$([ $nsubs -ge 25 ] && echo enough)" enough

# Per-subcommand help: show's options, not approve's.
run 0 "$SWORN" run show --help
has "$T/out" "usage: sworn run show RUN"
has "$T/out" "--draft"
has "$T/out" "--reasoning"
lacks "$T/out" "--final"
lacks "$T/out" "--override"
run 0 "$SWORN" run approve --help
has "$T/out" "--final FILE"
has "$T/out" "--override REASON"
lacks "$T/out" "--draft"
# The command's help lists each subcommand's usage and summary.
run 0 "$SWORN" run --help
has "$T/out" "sworn run approve RUN --final FILE"
has "$T/out" "subcommands:"
lacks "$T/out" "--draft  "

# Completion: a subcommand's options, and the values of one of them.
eq "sworn run show --<TAB>" "$(complete_words sworn run show --)" \
	"--draft --help --json --matter --reasoning "
eq "sworn run -m acme show --d<TAB> (an option before the subcommand)" \
	"$(complete_words sworn run -m acme show --d)" "--draft "
eq "sworn run stats --by<TAB>: no values listed, a word" "$(complete_words sworn run stats --by '')" ""
eq "sworn run approve --format m<TAB>" "$(complete_words sworn run approve --format m)" \
	"markdown "
eq "sworn fleet down --<TAB>" "$(complete_words sworn fleet down --)" "--help --host "
eq "sworn help run sh<TAB>" "$(complete_words sworn help run sh)" "show "
eq "sworn help fleet <TAB>" "$(complete_words sworn help fleet '')" "down history status up "
eq "sworn help run show <TAB>: nothing more" "$(complete_words sworn help run show '')" ""
eq "sworn help verify <TAB>: no subcommands" "$(complete_words sworn help verify '')" ""

# Refusal: an option the subcommand does not take, one line naming the
# ones it does and the subcommand it belongs to; nothing runs.
run 2 "$SWORN" run approve 1 --draft
lines "$T/err" 1
has "$T/err" "unknown option '--draft' for 'sworn run approve'"
has "$T/err" "--final"
has "$T/err" "--override"
has "$T/err" "--draft belongs to show"
run 2 "$SWORN" matter new acme -m other
lines "$T/err" 1
has "$T/err" "unknown option '-m' for 'sworn matter new': it takes --json, -h/--help"
run 2 "$SWORN" fleet down --json
lines "$T/err" 1
has "$T/err" "'sworn fleet down' prints no JSON"
run 2 "$SWORN" task list --force=yes
has "$T/err" "unknown option '--force' for 'sworn task list'"
has "$T/err" "--force belongs to init"
# No subcommand, or one that is not there.
run 2 "$SWORN" run
lines "$T/err" 1
has "$T/err" "'sworn run' needs a subcommand: list, show,"
run 2 "$SWORN" run frobnicate 1
lines "$T/err" 1
has "$T/err" "'frobnicate' is not a subcommand of 'sworn run'"
run 2 "$SWORN" help run frobnicate
has "$T/err" "'frobnicate' is not a subcommand of 'sworn run'"
# Its own argument count.
run 2 "$SWORN" run show
has "$T/err" "too few arguments: usage: sworn run show RUN"
run 2 "$SWORN" run list 3
has "$T/err" "too many arguments: usage: sworn run list"

# Valid command lines run as before, options before or after the
# subcommand.
new_workspace
cd "$T/ws" || exit 1
run 0 "$SWORN" matter new acme
run 0 "$SWORN" run -m acme list
has "$T/out" "no runs yet"
run 0 "$SWORN" run list -m acme --json
eq "runs" "$(jq -c .runs "$T/out")" "[]"
run 0 "$SWORN" matter --json use acme
eq "use, --json before the subcommand" "$(jq -r .matter "$T/out")" acme

done_testing
