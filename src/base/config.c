/*
 * config.c - git-config style INI files through inih.
 *
 * inih does the line syntax; this file feeds it lines through its own
 * reader, which counts lines (inih 55's handler has no line number), refuses
 * lines longer than inih's buffer (inih would silently split them), and strips
 * leading blanks.  The last is deliberate: inih treats an indented line as a
 * continuation of the previous value (Python's configparser), so the common
 *
 *	[endpoint "a"]
 *	    url = ...
 *	    slots = 4
 *
 * would give url the value "slots = 4".  git-config has no continuation
 * lines, so none are offered.
 */
#include <ini.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* A configuration file is written by a person; anything bigger is a mistake
 * or not a configuration file. */
#define SW_CONFIG_MAX_BYTES (1u << 20)

struct parse {
	struct sw_config *cfg;
	const char *text;   /* the whole file */
	const char *next;   /* the first byte not yet handed to inih */
	const char *end;
	int line;           /* lines handed to inih so far */
	int section_line;   /* line of the last section header */
	int err_line;       /* first error found, 0 when none */
	int err_code;
	char err_msg[SW_ERR_MSG_MAX];
};

/* Keep the error on the earliest line: inih goes on after an error, and the
 * handler sees the lines in order but reports section errors on the header's
 * line. */
SW_PRINTF(4, 5)
static void parse_error(struct parse *ps, int line, int code, const char *fmt, ...)
{
	va_list ap;

	if (ps->err_line != 0 && ps->err_line <= line)
		return;
	ps->err_line = line;
	ps->err_code = code;
	va_start(ap, fmt);
	vsnprintf(ps->err_msg, sizeof(ps->err_msg), fmt, ap);
	va_end(ap);
}

static char *read_line(char *str, int num, void *stream)
{
	struct parse *ps = stream;

	if (ps->err_line != 0 || ps->next >= ps->end)
		return NULL;
	const char *start = ps->next;
	const char *nl = memchr(start, '\n', (size_t)(ps->end - start));
	const char *stop = nl ? nl : ps->end;
	ps->next = nl ? nl + 1 : ps->end;
	ps->line++;

	while (start < stop && (*start == ' ' || *start == '\t' || *start == '\v' ||
				*start == '\f'))
		start++;
	size_t n = (size_t)(stop - start);
	if (memchr(start, '\0', n)) {
		parse_error(ps, ps->line, SW_EINPUT, "NUL byte in the line");
		return NULL;
	}
	/* Room for the line, the '\n' that tells inih the line is complete,
	 * and the NUL. */
	if (num < 2 || n > (size_t)num - 2) {
		parse_error(ps, ps->line, SW_ELIMIT, "line is longer than %d bytes", num - 2);
		return NULL;
	}
	if (start < stop && *start == '[')
		ps->section_line = ps->line;
	memcpy(str, start, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	return str;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

static char *lower_dup(const char *s, size_t n)
{
	char *d = sw_xstrndup(s, n);
	for (char *p = d; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p + ('a' - 'A'));
	return d;
}

/* Split inih's raw section text, `name` or `name "sub"`, the way git does:
 * the name is case-insensitive, the subsection is kept as written with \"
 * and \\ as escapes.  Returns false on anything else. */
static bool split_section(const char *raw, char **out_name, char **out_sub)
{
	const char *p = raw;
	struct sw_buf sub = SW_BUF_INIT;
	bool ok = false;

	*out_name = NULL;
	*out_sub = NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	const char *name = p;
	while (name_char(*p))
		p++;
	if (p == name)
		goto cleanup;
	size_t name_len = (size_t)(p - name);
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '"') {
		for (p++; *p != '"'; p++) {
			if (*p == '\0')
				goto cleanup;
			if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
				p++;
			sw_buf_addc(&sub, *p);
		}
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '\0')
			goto cleanup;
		*out_sub = sw_buf_detach(&sub, NULL);
	} else if (*p != '\0') {
		goto cleanup;
	}
	*out_name = lower_dup(name, name_len);
	ok = true;
cleanup:
	sw_buf_release(&sub);
	return ok;
}

/* inih strips " ;" comments only when built with inline comments, and never
 * "#" ones; git-config allows both, so both go here. */
static char *clean_value(const char *raw)
{
	char *v = sw_xstrdup(raw);
	for (char *p = v; *p; p++) {
		if ((*p == ';' || *p == '#') &&
		    (p == v || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			break;
		}
	}
	return sw_trim(v);
}

static int on_entry(void *user, const char *section, const char *name, const char *value)
{
	struct parse *ps = user;
	struct sw_config *cfg = ps->cfg;
	char *sec = NULL, *sub = NULL;

	if (ps->err_line != 0)
		return 1;
	if (section[0] == '\0') {
		parse_error(ps, ps->line, SW_EINPUT, "'%s' is outside any section", name);
		return 0;
	}
	if (!split_section(section, &sec, &sub)) {
		parse_error(ps, ps->section_line, SW_EINPUT,
			    "bad section header '[%s]': expected [name] or [name \"sub\"]",
			    section);
		return 0;
	}
	size_t klen = strlen(name);
	bool key_ok = klen > 0;
	for (size_t i = 0; i < klen; i++)
		key_ok = key_ok && name_char(name[i]);
	if (!key_ok) {
		if (klen == 0)
			parse_error(ps, ps->line, SW_EINPUT, "expected 'key = value'");
		else
			parse_error(ps, ps->line, SW_EINPUT,
				    "bad key '%s': use letters, digits, '-', '_' and '.'", name);
		free(sec);
		free(sub);
		return 0;
	}

	cfg->entries = sw_xgrow(cfg->entries, &cfg->cap, cfg->n + 1, sizeof(*cfg->entries));
	struct sw_config_entry *e = &cfg->entries[cfg->n++];
	e->section = sec;
	e->subsection = sub;
	e->key = lower_dup(name, klen);
	e->value = clean_value(value);
	e->line = ps->line;
	return 1;
}

/* inih reports only a line number for the lines it rejects itself. */
static const char *syntax_reason(const struct parse *ps, int line)
{
	const char *p = ps->text;
	for (int i = 1; i < line && p < ps->end; i++) {
		const char *nl = memchr(p, '\n', (size_t)(ps->end - p));
		p = nl ? nl + 1 : ps->end;
	}
	while (p < ps->end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < ps->end && *p == '[')
		return "expected ']' to close the section header";
	return "expected 'key = value'";
}

int sw_config_parse(struct sw_config *out, const char *text, size_t len, const char *name,
		    struct sw_err *err)
{
	struct parse ps;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&ps, 0, sizeof(ps));
	if (len > SW_CONFIG_MAX_BYTES)
		return sw_err_set(err, SW_ELIMIT, "'%s' is larger than %u bytes", name,
				  SW_CONFIG_MAX_BYTES);
	out->path = sw_xstrdup(name);
	ps.cfg = out;
	ps.text = text;
	ps.next = text;
	ps.end = text + len;

	int bad = ini_parse_stream(read_line, &ps, on_entry, &ps);
	if (bad > 0)
		parse_error(&ps, bad, SW_EINPUT, "%s", syntax_reason(&ps, bad));
	else if (bad < 0 && ps.err_line == 0)
		SW_BUG("ini_parse_stream returned %d", bad);
	if (ps.err_line != 0)
		rc = sw_err_set(err, ps.err_code, "%s:%d: %s", name, ps.err_line, ps.err_msg);
	if (rc != 0)
		sw_config_release(out);
	return rc;
}

int sw_config_load(struct sw_config *out, const char *path, struct sw_err *err)
{
	struct sw_buf text = SW_BUF_INIT;

	memset(out, 0, sizeof(*out));
	int rc = sw_file_read(&text, path, SW_CONFIG_MAX_BYTES, err);
	if (rc == 0)
		rc = sw_config_parse(out, text.data, text.len, path, err);
	sw_buf_release(&text);
	return rc;
}

void sw_config_release(struct sw_config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->entries[i].section);
		free(c->entries[i].subsection);
		free(c->entries[i].key);
		free(c->entries[i].value);
	}
	free(c->entries);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

const struct sw_config_entry *sw_config_find(const struct sw_config *c,
					     const char *section,
					     const char *subsection,
					     const char *key)
{
	for (size_t i = c->n; i-- > 0;) {
		const struct sw_config_entry *e = &c->entries[i];
		if (!sw_streq_ci(e->section, section) || !sw_streq_ci(e->key, key))
			continue;
		if (subsection ? (e->subsection && strcmp(e->subsection, subsection) == 0)
			       : e->subsection == NULL)
			return e;
	}
	return NULL;
}

const char *sw_config_get(const struct sw_config *c, const char *section,
			  const char *subsection, const char *key)
{
	const struct sw_config_entry *e = sw_config_find(c, section, subsection, key);
	return e ? e->value : NULL;
}
