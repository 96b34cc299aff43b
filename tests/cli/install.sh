#!/bin/sh
# make install and make package, on this build: cmake --install into a
# DESTDIR puts the binary, every manual page and the bash completion under
# the prefix, and the installed sworn runs; cpack makes a .deb of the same
# files whose Depends name the Debian libraries sworn links.
. "$(dirname "$0")/lib.sh"
: "${SW_BUILD:?set SW_BUILD to the build folder}"
: "${SW_CMAKE:?set SW_CMAKE to cmake}"
: "${SW_CPACK:?set SW_CPACK to cpack}"

want_version=$(sed -n 's/^project(sworn VERSION \([0-9.]*\).*/\1/p' "$SW_SRC/CMakeLists.txt")

DESTDIR="$T/stage" run 0 "$SW_CMAKE" --install "$SW_BUILD" --prefix /opt/sworn
dest="$T/stage/opt/sworn"
test -x "$dest/bin/sworn"
eq "bin/sworn installed" "$?" 0
# Nothing outside the prefix, and nothing but sworn's own files in it (no
# test double, no generator).
eq "only the prefix" "$(ls "$T/stage")" "opt"
eq "only sworn in bin/" "$(ls "$dest/bin")" "sworn"

# One page per command of the installed binary, and sworn.1.
"$dest/bin/sworn" --help | awk '/^commands:/ { on = 1; next } on && !NF { exit } on { print $1 }' >"$T/commands"
test -s "$T/commands"
eq "commands listed" "$?" 0
for c in $(cat "$T/commands"); do
	test -f "$dest/share/man/man1/sworn-$c.1"
	eq "man page sworn-$c.1" "$?" 0
done
test -f "$dest/share/man/man1/sworn.1"
eq "man page sworn.1" "$?" 0
eq "pages" "$(ls "$dest/share/man/man1" | wc -l | tr -d ' ')" "$(($(wc -l <"$T/commands") + 1))"
cmp -s "$dest/share/man/man1/sworn-verify.1" "$SW_BUILD/man/sworn-verify.1"
eq "sworn-verify.1 as built" "$?" 0
run 0 man -l "$dest/share/man/man1/sworn-version.1"
has "$T/out" "sworn version"

# The completion is where bash-completion loads it from, by the command's
# name, and completes the installed sworn's commands.
comp="$dest/share/bash-completion/completions/sworn"
test -f "$comp"
eq "completion installed" "$?" 0
run 0 bash -c '. "$1" && complete -p sworn >/dev/null && COMP_WORDS=(sworn veri) &&
	COMP_CWORD=1 && _sworn && printf "%s\n" "${COMPREPLY[@]}"' bash "$comp"
eq "completion of 'sworn veri'" "$(cat "$T/out")" "verify"

# The installed binary runs and is this build.
run 0 "$dest/bin/sworn" --version
eq "installed --version" "$(head -n1 "$T/out")" "sworn $want_version"
"$SW_BUILD/sworn" --version >"$T/built"
cmp -s "$T/out" "$T/built"
eq "installed = built" "$?" 0
run 0 "$dest/bin/sworn" init -q "$T/ws"
run 0 "$dest/bin/sworn" -C "$T/ws" matter new acme
# The installed sworn finds its modules under the prefix: the Word writer
# (sworn-verify.so) writes a draft's comments.
printf 'See Vale v. Acme Widgets, 999 F.3d 123 (9th Cir. 2020).\n' >"$T/draft.md"
run 1 "$dest/bin/sworn" -C "$T/ws" verify -m acme "$T/draft.md" --annotate "$T/draft.docx"
has "$T/out" "annotated: $T/draft.docx (1 comment)"
test -f "$dest/lib/sworn/sworn-verify.so"
eq "lib/sworn/sworn-verify.so installed" "$?" 0
# the certificate's PDF layout (sworn-pipeline.so)
test -f "$dest/lib/sworn/sworn-pipeline.so"
eq "lib/sworn/sworn-pipeline.so installed" "$?" 0

# make package: a .deb of the same files under /usr (packaged in the test's
# folder, not the build's).
run 0 "$SW_CPACK" -G DEB --config "$SW_BUILD/CPackConfig.cmake" -B "$T/pkg"
deb=$(ls "$T/pkg"/sworn_"$want_version"_*.deb 2>/dev/null)
test -n "$deb" && test -f "$deb"
eq "sworn_${want_version}_ARCH.deb" "$?" 0
dpkg-deb -f "$deb" Package Version Depends Recommends >"$T/control"
has "$T/control" "Package: sworn"
has "$T/control" "Version: $want_version"
# Depends, from the libraries linked (dpkg-shlibdeps), in Debian's names.
for p in libc6 libsqlite3-0 libpoppler-glib8 libgmime-3.0-0 libcurl4 libjansson4 \
	libzip4 libexpat1 libcairo2 libutf8proc2 libmd4c0; do
	has "$T/control" " $p"
done
# tesseract is loaded only for OCR: recommended, never a dependency.
lacks "$T/control" "Depends: libtesseract"
has "$T/control" "tesseract-ocr-eng"
dpkg-deb -c "$deb" | sed 's/.* \.\//\//' >"$T/contents"
has "$T/contents" "/usr/bin/sworn"
has "$T/contents" "/usr/share/man/man1/sworn-verify.1"
has "$T/contents" "/usr/share/bash-completion/completions/sworn"
lacks "$T/contents" "fake_llama_server"

echo "install: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
