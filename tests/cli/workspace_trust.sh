# The workspace walk-up trusts only a sworn.conf (and its folder) that the
# user owns and that no one else may write, as git's safe.directory does;
# the refusal says how to trust it (issue 17, item 12).
. "$SW_SRC/tests/cli/lib.sh"

# sworn init leaves a workspace it will open, whatever the umask.
(umask 000 && "$SWORN" init -q "$T/ws") || exit 1
run 0 "$SWORN" -C "$T/ws" matter list
eq "folder mode" "$(stat -c %a "$T/ws")" "755"
eq "sworn.conf mode" "$(stat -c %a "$T/ws/sworn.conf")" "644"

# A sworn.conf others may write, found by walking up from below it.
mkdir -p "$T/ws/deep/er"
chmod o+w "$T/ws/sworn.conf"
cd "$T/ws/deep/er" || exit 1
run 1 "$SWORN" matter list
has "$T/err" "not using the workspace '$T/ws': its sworn.conf is writable by others"
has "$T/err" "chmod go-w"
has "$T/err" "set SWORN_SAFE_DIRECTORY=$T/ws"
SWORN_SAFE_DIRECTORY="/elsewhere:$T/ws/" run 0 "$SWORN" matter list
SWORN_SAFE_DIRECTORY='*' run 0 "$SWORN" matter list
SWORN_SAFE_DIRECTORY="$T/ws/deep" run 1 "$SWORN" matter list
chmod 644 "$T/ws/sworn.conf"

# A group-writable workspace folder.
chmod g+w "$T/ws"
run 1 "$SWORN" -C "$T/ws" matter list
has "$T/err" "the folder is writable by its group"
chmod 755 "$T/ws"
run 0 "$SWORN" matter list

# One planted by another user (needs root to make: the owner rule has a unit
# test, base_term_test, everywhere).
if [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$T/shared/work"
	cat > "$T/shared/sworn.conf" <<'EOF'
[policy]
mode = allow-remote
EOF
	chown 65534 "$T/shared/sworn.conf"
	cd "$T/shared/work" || exit 1
	run 1 "$SWORN" matter list
	has "$T/err" "its sworn.conf is owned by another user"
	has "$T/err" "work in a workspace of your own"
else
	echo "note: not root, the other-owner case is left to base_term_test"
fi

done_testing
