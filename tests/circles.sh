#!/bin/sh
# Fails when the files of one folder call each other in a circle (DESIGN.md,
# "Subsystems and their direction": a file that dispatches hosts no helper
# its callees call).  Read from the build's object files with nm: file A
# points at file B of the same src/<folder>/ when A uses a global name that
# B defines; a circle is a group of files that reach each other along those
# arrows.  Usage: circles.sh SRC-DIR BUILD-DIR
#
# Objects are CMake's: BUILD-DIR/CMakeFiles/<target>.dir/src/<folder>/<file>.o
# (C and C++ alike), and BUILD-DIR/CMakeFiles/sw_<folder>.dir/gen/<file>.o
# for code generated into a subsystem (the claims scanner).  An object whose
# source no longer exists (a file renamed since the last build) is left out,
# and of two objects of one source the newest is read.
set -u
src=${1:?usage: circles.sh SRC-DIR BUILD-DIR}
build=${2:?usage: circles.sh SRC-DIR BUILD-DIR}

# Folders allowed to have circles: none (issue 38 cut the last ones).  A
# folder named here would be let off; keep it empty.
CIRCLES_ALLOWED=""

NM=${NM:-nm}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# One line per object: LABEL PATH, LABEL being <folder>/<file>.
for o in "$build"/CMakeFiles/*.dir/src/*/* "$build"/CMakeFiles/sw_*.dir/gen/*; do
	case $o in *.o) ;; *) continue ;; esac
	[ -f "$o" ] || continue
	case $o in
	*/gen/*)
		tgt=${o%.dir/gen/*}
		sub=${tgt##*/sw_}
		name=${o##*/}
		name=${name%.o}
		[ -d "$src/$sub" ] || continue
		[ -f "$build/gen/$name" ] || continue
		# The scanner's source is claims_scan.re; name it so.
		base=${name%.*}
		if [ -f "$src/$sub/$base.re" ]; then label=$sub/$base.re; else label=$sub/gen/$name; fi
		;;
	*)
		rel=${o#*.dir/src/}
		rel=${rel%.o}
		[ -f "$src/$rel" ] || continue
		label=$rel
		;;
	esac
	echo "$label $o"
done > "$t/all"

# A source compiled into two targets (a library, then a module) has two
# objects, and one may be left from before a move: the newest is its own.
if [ -s "$t/all" ]; then
	cut -d' ' -f2 "$t/all" | xargs ls -t > "$t/bytime"
	awk 'NR == FNR { label[$2] = $1; next }
		!seen[label[$1]]++ { print label[$1], $1 }' "$t/all" "$t/bytime" > "$t/objects"
else
	: > "$t/objects"
fi

if [ ! -s "$t/objects" ]; then
	echo "circles: no object files under $build/CMakeFiles; build first (cmake --build $build)"
	exit 1
fi

# LABEL KIND NAME, KIND d (defined here) or u (used here, defined elsewhere).
# Weak definitions (C++ inline functions) tie nothing.
# One nm for all the objects (-A: each line starts "OBJECT: ").
cut -d' ' -f2 "$t/objects" | xargs "$NM" -A -P -g > "$t/nm" 2>/dev/null
awk 'NR == FNR { label[$2 ":"] = $1; next }
	!($1 in label) { next }
	$3 == "U" { print label[$1], "u", $2; next }
	$3 ~ /^[TDBRCGS]$/ { print label[$1], "d", $2 }' "$t/objects" "$t/nm" > "$t/syms"

awk -v allowed="$CIRCLES_ALLOWED" '
function folder(l) { sub(/\/.*/, "", l); return l }
function visit(v,    i, w) {
	# Tarjan: the groups of files that reach each other.
	idx[v] = low[v] = ++counter
	stack[++sp] = v; on[v] = 1
	for (i = 1; i <= nout[v]; i++) {
		w = out[v, i]
		if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
		else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
	}
	if (low[v] == idx[v]) {
		n = 0
		do { w = stack[sp--]; on[w] = 0; grp[++n] = w } while (w != v)
		if (n > 1) report(n)
	}
}
function report(n,    i, j, k, a, b, f, names, line) {
	f = folder(grp[1])
	# Sort the files for a stable message.
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (grp[j] < grp[i]) { k = grp[i]; grp[i] = grp[j]; grp[j] = k }
	line = ""
	for (i = 1; i <= n; i++) line = line (i > 1 ? " " : "") grp[i]
	ok = (" " allowed " ") ~ (" " f " ")
	circles++
	if (!ok) bad++
	printf "circles: src/%s: %d files call each other in a circle%s: %s\n", f, n,
		ok ? " (allowed for now: CIRCLES_ALLOWED in tests/circles.sh)" : "", line
	for (i = 1; i <= n; i++) for (j = 1; j <= n; j++) {
		a = grp[i]; b = grp[j]
		if ((a, b) in why) printf "  %s -> %s: %s\n", a, b, why[a, b]
	}
}
$2 == "d" { def[$3] = (($3 in def) ? def[$3] SUBSEP : "") $1; next }
{ use[++nu] = $1 SUBSEP $3 }
END {
	for (i = 1; i <= nu; i++) {
		split(use[i], p, SUBSEP); a = p[1]; s = p[2]
		if (!(s in def)) continue
		m = split(def[s], d, SUBSEP)
		for (j = 1; j <= m; j++) {
			b = d[j]
			if (b == a || folder(a) != folder(b)) continue
			if (!((a, b) in why)) { out[a, ++nout[a]] = b; why[a, b] = s; nodes[a]; nodes[b] }
			else if (length(why[a, b]) < 200) why[a, b] = why[a, b] ", " s
			else if (why[a, b] !~ /, \.\.\.$/) why[a, b] = why[a, b] ", ..."
		}
	}
	# Visit in a stable order.
	nn = 0
	for (v in nodes) order[++nn] = v
	for (i = 1; i <= nn; i++) for (j = i + 1; j <= nn; j++)
		if (order[j] < order[i]) { k = order[i]; order[i] = order[j]; order[j] = k }
	for (i = 1; i <= nn; i++) if (!(order[i] in idx)) visit(order[i])
	if (bad) {
		printf "circles: FAILED: %d circle(s) in folders not allowed to have them; move the helpers both sides call into a leaf file that only calls down (DESIGN.md)\n", bad
		exit 1
	}
	if (circles) printf "circles: no circle outside CIRCLES_ALLOWED (%d allowed: %s)\n", circles, allowed
	else print "circles: no folder has files that call each other in a circle"
}' "$t/syms"
