/*
 * remote.c - running sworn on another host through its exec, safely.
 * ssh does not pass its arguments as arguments: it joins them with blanks
 * and hands the line to the remote user's shell, which expands $(...),
 * backquotes, globs and splits at every blank again.  So a command sent
 * through an exec whose program is ssh has each word quoted for a POSIX
 * shell ('...' with each ' written '\''); any other exec (env, ip netns
 * exec, a wrapper) gets the words as arguments, as they are.  And what an
 * inventory says about a host is held to what a host can be: its name is
 * a host name, its address a host name or a numeric address.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fleet/fleet_int.h"

void sw_fleet_shell_quote(struct sw_buf *out, const char *word)
{
	sw_buf_addc(out, '\'');
	for (const char *p = word; *p; p++) {
		if (*p == '\'')
			sw_buf_adds(out, "'\\''");
		else
			sw_buf_addc(out, *p);
	}
	sw_buf_addc(out, '\'');
}

/* The exec's program is ssh (or an ssh by another path or name, such as
 * /usr/bin/ssh or autossh): its command line goes through a shell. */
static bool through_shell(const char *program)
{
	const char *base = strrchr(program, '/');
	base = base ? base + 1 : program;
	size_t n = strlen(base);
	return n >= 3 && strcmp(base + n - 3, "ssh") == 0;
}

int sw_fleet_exec_argv(char ***out, size_t *n, const char *exec, const char *const *cmd,
		       struct sw_err *err)
{
	char **words = NULL;
	size_t nw = 0, nc = 0;
	int rc = sw_fleet_split_words(&words, &nw, exec, err);

	*out = NULL;
	*n = 0;
	if (rc != 0)
		return rc;
	if (nw == 0) {
		free(words);
		return sw_err_set(err, SW_EINPUT, "exec is empty");
	}
	while (cmd[nc])
		nc++;
	bool quote = through_shell(words[0]);
	words = sw_xrealloc(words, (nw + nc + 1) * sizeof(char *));
	for (size_t i = 0; i < nc; i++) {
		if (quote) {
			struct sw_buf b = SW_BUF_INIT;
			sw_fleet_shell_quote(&b, cmd[i]);
			words[nw++] = sw_buf_detach(&b, NULL);
		} else {
			words[nw++] = sw_xstrdup(cmd[i]);
		}
	}
	words[nw] = NULL;
	*out = words;
	*n = nw;
	return 0;
}

/* RFC 1123: labels of letters, digits and '-', not starting or ending
 * with '-', joined by single dots; at most 253 bytes. */
bool sw_fleet_host_name_ok(const char *s)
{
	size_t n = strlen(s), label = 0;
	if (n == 0 || n > 253)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '.') {
			if (label == 0 || s[i - 1] == '-')
				return false;
			label = 0;
			continue;
		}
		bool alnum =
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		if (!alnum && !(c == '-' && label > 0))
			return false;
		if (++label > 63)
			return false;
	}
	return s[n - 1] != '-' && s[n - 1] != '.';
}

bool sw_fleet_host_address_ok(const char *s)
{
	bool local;
	if (sw_fleet_host_name_ok(s))
		return true;
	/* A numeric IPv6 address (IPv4 ones are host names above). */
	return sw_llm_address_class(s, &local) != NULL;
}

/* What may be wrong with a file that says what runs: sw_path_distrust's
 * rule (sworn.conf's), or, for a program, the same with root's own files
 * allowed (/usr/bin). */
static const char *distrust(const char *path, bool program, int *errnum)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		*errnum = errno;
		return NULL;
	}
	*errnum = 0;
	if (program && st.st_uid == 0 && !(st.st_mode & (S_IWGRP | S_IWOTH)))
		return NULL;
	return sw_path_distrust((unsigned long)st.st_uid, (unsigned)st.st_mode,
				(unsigned long)geteuid());
}

int sw_fleet_hw_check_trust(const struct sw_fleet_hw *hw, struct sw_err *err)
{
	for (size_t h = 0; h < hw->nhosts; h++) {
		const struct sw_fleet_host *host = &hw->hosts[h];
		int e;
		if (!host->exec || !host->source || strcmp(host->source, "nvidia-smi") == 0)
			continue;
		const char *why = distrust(host->source, false, &e);
		if (why)
			return sw_err_set(
				err, SW_EPOLICY,
				"not running host %s's exec: its inventory '%s' is %s, so what"
				" it runs may not be yours to trust; %s",
				host->name, host->source, why,
				why[0] == 'o'
					? "use an inventory of your own (copy it, then chmod go-w)"
					: "take that write access away (chmod go-w)");
	}
	return 0;
}

int sw_fleet_program_check_trust(const char *path, struct sw_err *err)
{
	int e;
	const char *why = distrust(path, true, &e);
	if (why)
		return sw_err_set(err, SW_EPOLICY,
				  "not running '%s': it is %s, so it may not be what you installed;"
				  " %s", path, why, why[0] == 'o'
				  ? "install it as yourself or as root"
				  : "take that write access away (chmod go-w)");
	return 0;
}
