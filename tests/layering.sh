#!/bin/sh
# Fails when a file includes another subsystem's internal header, or
# includes a subsystem it may not (DESIGN.md, "Subsystems and their
# direction").  With a build folder, also fails when the files of one folder
# call each other in a circle (tests/circles.sh reads the object files).
# Usage: layering.sh SRC-DIR [BUILD-DIR]
set -u
src=${1:?usage: layering.sh SRC-DIR [BUILD-DIR]}
build=${2:-}

# What each subsystem may include besides itself.
allowed() {
	case $1 in
	base) echo "" ;;
	extract) echo "base" ;;
	record) echo "extract base" ;;
	ingest) echo "record extract base" ;;
	claims) echo "base" ;;
	authority) echo "base" ;;
	llm) echo "base" ;;
	markup) echo "base" ;;
	verify) echo "claims authority record markup base" ;;
	fleet) echo "llm base" ;;
	pipeline) echo "verify llm record claims authority markup base" ;;
	web) echo "pipeline verify llm record extract claims authority markup fleet base" ;;
	cli) echo "web pipeline verify llm ingest record extract claims authority fleet markup base" ;;
	*) echo "?" ;;
	esac
}

bad=0
for dir in "$src"/*/; do
	sub=$(basename "$dir")
	may=$(allowed "$sub")
	if [ "$may" = "?" ]; then
		echo "layering: src/$sub/ is not a subsystem of DESIGN.md; add it to tests/layering.sh"
		bad=1
		continue
	fi
	for f in "$dir"*.c "$dir"*.cc "$dir"*.h "$dir"*.re; do
		[ -f "$f" ] || continue
		rel=${f#"$src"/}
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed 's/^\([0-9]*\):.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1 \2/' |
		while read -r line inc; do
			case $inc in
			*/*) ;;
			*) echo "src/$rel:$line: include \"$inc\" without its folder (write \"$sub/$inc\")"; echo x >&3; continue ;;
			esac
			target=${inc%%/*}
			header=${inc#*/}
			[ "$target" = "$sub" ] && continue
			if [ "$header" != "$target.h" ]; then
				echo "src/$rel:$line: includes $inc, an internal header of $target/ (use $target/$target.h)"
				echo x >&3
				continue
			fi
			ok=0
			for a in $may; do [ "$a" = "$target" ] && ok=1; done
			if [ $ok -eq 0 ]; then
				echo "src/$rel:$line: $sub/ may not include $target/ (DESIGN.md: $sub/ sees only: ${may:-nothing})"
				echo x >&3
			fi
		done
	done
done 3>"${TMPDIR:-/tmp}/layering.$$"
[ -s "${TMPDIR:-/tmp}/layering.$$" ] && bad=1
rm -f "${TMPDIR:-/tmp}/layering.$$"
if [ -n "$build" ]; then
	sh "$(dirname "$0")/circles.sh" "$src" "$build" || bad=1
fi
if [ $bad -ne 0 ]; then
	echo "layering: FAILED"
	exit 1
fi
echo "layering: every include follows DESIGN.md${build:+, and no folder outside the allow-list has a circle}"
