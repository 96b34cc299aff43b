# Fault injection that reaches the gate, SQLite's way: the Nth SQLite
# statement of a whole operation fails (SWORN_FAULT=db-step:N interrupts
# it, db-prepare:N refuses to compile it), for N = 1, 2, ... until N is past
# the operation's last statement (SWORN_FAULT_MARK tells whether the fault
# fired).  Every failure must be clean: exit status 1 or 2, one line
# "sworn: ..." on stderr (besides the import's own warnings), no crash and
# no sanitizer report.  And nothing half-written: the next run without a
# fault succeeds and leaves exactly what a run that never failed leaves.  A
# fault whose statement the operation may skip (exit 0) must leave that too.
# The loops run over ingest and authority import (db-step, db-prepare) and
# over verify (db-step, db-prepare, and file-read, the Nth read(2) of a file
# failing with EIO); tests/cli/llm_fault_loop.sh does the same over ask.
. "$SW_SRC/tests/cli/lib.sh"
MAX_N=1000

# The record an import leaves, as text to compare: every document, the page
# count, and what search finds.
matter_state() {
	sqlite3 "$1/matters/m/matter.db" \
		"SELECT name, kind, status, page_count, ifnull(beg_bates, '') FROM documents ORDER BY name;
		 SELECT count(*) FROM pages; PRAGMA integrity_check;"
	"$SWORN" -C "$1" search -m m shipment 2>&1
	"$SWORN" -C "$1" search -m m ACME0000002 2>&1
}

authority_state() {
	sqlite3 "$1/authorities.db" \
		"SELECT name, volume, reporter, page, last_page, court, year FROM cases ORDER BY id;
		 SELECT code_key, title, section, name FROM codes ORDER BY 1, 2, 3; PRAGMA integrity_check;"
	"$SWORN" -C "$1" authorities lookup 550 U.S. 560 2>&1
}

# clean_failure RC SITE N: the failed run's exit status and stderr are clean.
clean_failure() {
	checks=$((checks + 1))
	case $1 in
	1 | 2) ;;
	*)
		echo "FAIL: $2:$3: exit status $1"
		cat "$T/err"
		failures=$((failures + 1))
		return
		;;
	esac
	checks=$((checks + 1))
	if [ "$(grep -c '^sworn: ' "$T/err")" != 1 ] ||
		grep -v -e '^sworn: ' -e '^warning  ' "$T/err" | grep -q . ||
		grep -q -e 'Sanitizer' -e 'runtime error' -e 'BUG' "$T/err"; then
		echo "FAIL: $2:$3: not one clean error line:"
		cat "$T/err"
		failures=$((failures + 1))
	fi
}

# same WHAT GOT-FILE: the state equals the reference.
same() {
	checks=$((checks + 1))
	if ! cmp -s "$2" "$T/ref.state"; then
		echo "FAIL: $1: the result differs from a run that never failed:"
		diff "$T/ref.state" "$2"
		failures=$((failures + 1))
	fi
}

# loop SITE OP STATE: run OP (a shell function taking the workspace) with
# the Nth statement failing at SITE, from a copy of $T/ws0 each time.
loop() {
	site=$1 op=$2 state=$3
	n=1
	fired=0
	while [ $n -le $MAX_N ]; do
		rm -rf "$T/w" "$T/mark"
		cp -R "$T/ws0" "$T/w"
		SWORN_FAULT=$site:$n SWORN_FAULT_MARK="$T/mark" $op "$T/w" >"$T/out" 2>"$T/err"
		rc=$?
		if [ ! -e "$T/mark" ]; then
			# Past the last statement: the run is an ordinary one.
			eq "$site:$n run without a fault" "$rc" 0
			break
		fi
		fired=$((fired + 1))
		if [ $rc -ne 0 ]; then
			clean_failure $rc "$site" $n
			$op "$T/w" >"$T/out" 2>"$T/err"
			eq "$site:$n: the run after the failure" "$?" 0
		fi
		$state "$T/w" >"$T/got.state"
		same "$site:$n" "$T/got.state"
		n=$((n + 1))
	done
	[ $n -le $MAX_N ] || { echo "FAIL: $site: still failing at N=$MAX_N"; failures=$((failures + 1)); }
	# The loop reached into the operation, not only its first statement.
	checks=$((checks + 1))
	if [ $fired -lt 20 ]; then
		echo "FAIL: $site: the fault fired only $fired times"
		failures=$((failures + 1))
	fi
	echo "$site over $op: $fired statements failed in turn"
}

# --- sworn ingest of a small folder
mkdir "$T/in"
printf 'MEMO\nThe shipment left the warehouse on 3 March.\nACME0000001\fThe carrier was late.\nACME0000002\n' >"$T/in/memo.txt"
printf '# Letter\n\nWe write about the late shipment of goods.\n' >"$T/in/letter.md"
"$SWORN" init -q "$T/ws0" || exit 1
"$SWORN" -C "$T/ws0" matter new m >/dev/null || exit 1
ingest() { "$SWORN" -C "$1" ingest -m m "$T/in"; }
cp -R "$T/ws0" "$T/ref"
run 0 ingest "$T/ref"
has "$T/out" "imported 2"
matter_state "$T/ref" >"$T/ref.state"
has "$T/ref.state" "memo.txt"
loop db-step ingest matter_state
loop db-prepare ingest matter_state

# --- sworn authorities import
printf 'name,volume,reporter,page,last_page,court,year\r\nBell Atlantic Corp. v. Twombly,550,U.S.,544,570,scotus,2007\r\nAshcroft v. Iqbal,556,U.S.,662,687,scotus,2009\r\n' >"$T/cases.csv"
printf 'code,title,section,name\r\nU.S.C.,28,1332,Diversity of citizenship\r\n' >"$T/codes.csv"
rm -rf "$T/ws0" "$T/ref"
"$SWORN" init -q "$T/ws0" || exit 1
authorities() { "$SWORN" -C "$1" authorities import "$T/cases.csv" "$T/codes.csv"; }
cp -R "$T/ws0" "$T/ref"
run 0 authorities "$T/ref"
authority_state "$T/ref" >"$T/ref.state"
has "$T/ref.state" "Bell Atlantic Corp. v. Twombly"
loop db-step authorities authority_state

# --- sworn verify of a small draft on a small matter: a fault is an error
# (exit 2, one clean line, no gate line), never a pass (0) and never a
# block (1) unless the statement failed was one the check may skip (then
# the report is the reference's, byte for byte); the next run without a
# fault gives the reference's verdicts, and verify writes nothing.  A fault
# that comes out as verdicts instead of an error (a failed query read as
# "not on the cited page", "?" or "unverifiable") fails the test: every
# look-up of src/verify goes through sw__verify_found, which makes such a
# failure the run's error.
rm -rf "$T/ws0" "$T/ref"
"$SWORN" init -q "$T/ws0" || exit 1
"$SWORN" -C "$T/ws0" matter new m >/dev/null || exit 1
"$SWORN" -C "$T/ws0" ingest -m m "$T/in" >/dev/null || exit 1
"$SWORN" -C "$T/ws0" authorities import "$T/cases.csv" >/dev/null || exit 1
{
	echo '# Statement of facts'
	echo
	echo 'The memo says that "the shipment left the warehouse on 3 March." ACME0000001.'
	echo 'The carrier was late. ACME0000002. The complaint must be plausible.'
	echo '*Bell Atlantic Corp. v. Twombly*, 550 U.S. 544, 570 (2007).'
	echo 'The goods arrived on 9 April 2021. ACME0000002.'
	echo 'See *Ashcroft v. Iqbal*, 556 U.S. 662 (2010). ACME0000009.'
} >"$T/draft.md"
verify() { "$SWORN" -C "$1" verify -m m "$T/draft.md"; }
run 1 verify "$T/ws0"
cp "$T/out" "$T/ref.verdicts"
has "$T/ref.verdicts" "gate: blocked"
has "$T/ref.verdicts" "supported     quote"
has "$T/ref.verdicts" "ACME0000009 is not in the production"
has "$T/ref.verdicts" "contradicted"
db_sums() { cksum "$1/matters/m/matter.db" "$1/authorities.db" | cut -d' ' -f1,2; }
db_sums "$T/ws0" >"$T/ref.sums"
VMAX_N=200
turned=0
vloop() {
	site=$1
	n=1
	fired=0
	while [ $n -le $VMAX_N ]; do
		rm -f "$T/mark"
		SWORN_FAULT=$site:$n SWORN_FAULT_MARK="$T/mark" verify "$T/ws0" >"$T/out" 2>"$T/err"
		rc=$?
		if [ ! -e "$T/mark" ]; then
			eq "verify $site:$n run without a fault" "$rc" 1
			break
		fi
		fired=$((fired + 1))
		checks=$((checks + 1))
		case $rc in
		2)
			clean_failure $rc "verify $site" $n
			lacks "$T/out" "gate:"
			verify "$T/ws0" >"$T/out" 2>"$T/err"
			eq "verify $site:$n: the run after the failure" "$?" 1
			same_verdicts "$site:$n: the run after the failure"
			;;
		1)
			if ! cmp -s "$T/out" "$T/ref.verdicts"; then
				turned=$((turned + 1))
				echo "FAIL: verify $site:$n: the fault came out as verdicts, not an error:"
				diff "$T/ref.verdicts" "$T/out" | grep '^>' | head -2
				failures=$((failures + 1))
			fi
			eq "verify $site:$n: stderr of a block" "$(cat "$T/err")" ""
			;;
		*)
			echo "FAIL: verify $site:$n: exit status $rc"
			cat "$T/out" "$T/err"
			failures=$((failures + 1))
			;;
		esac
		n=$((n + 1))
	done
	[ $n -le $VMAX_N ] || { echo "FAIL: verify $site: still failing at N=$VMAX_N"; failures=$((failures + 1)); }
	# verify reads each file once (the draft's hash is of the bytes it
	# reads): four read(2) calls in all.
	checks=$((checks + 1))
	if [ $fired -lt 4 ]; then
		echo "FAIL: verify $site: the fault fired only $fired times"
		failures=$((failures + 1))
	fi
	echo "$site over verify: $fired failed in turn"
}
same_verdicts() {
	checks=$((checks + 1))
	if ! cmp -s "$T/out" "$T/ref.verdicts"; then
		echo "FAIL: verify $1: the verdicts differ:"
		diff "$T/ref.verdicts" "$T/out"
		failures=$((failures + 1))
	fi
}
vloop db-step
vloop db-prepare
vloop file-read
db_sums "$T/ws0" >"$T/got.sums"
eq "verify wrote nothing to the record" "$(cat "$T/got.sums")" "$(cat "$T/ref.sums")"
echo "verify: $turned faults came out as verdicts instead of errors"

done_testing
