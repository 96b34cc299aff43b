/* person.c - who signs off: [user] name, email, bar_number in the workspace's
 * sworn.conf or the user's own $XDG_CONFIG_HOME/sworn/user.conf, or --by
 * NAME on a command (pipeline.h, "the person"). */
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

/* A name, an address or a bar number is one short line. */
#define PERSON_MAX 200

struct user_conf {
	char *name, *email, *bar_number;
};

#define CONF(m) SW_CONFIG_AT(struct user_conf, m)
static const struct sw_config_section sections[] = {
	{ .name = "user", .named = false,
	  .help = "the person who approves, overrides and waives: recorded with each decision" },
};
static const struct sw_config_key keys[] = {
	{ .section = "user", .key = "name", .type = SW_CONFIG_STRING, CONF(name),
	  .help = "your name as it should stand on the record and the certificate" },
	{ .section = "user", .key = "email", .type = SW_CONFIG_STRING, CONF(email),
	  .help = "your e-mail address (optional)" },
	{ .section = "user", .key = "bar_number", .type = SW_CONFIG_STRING, CONF(bar_number),
	  .help = "your bar number, with its state if you like: \"CA 123456\" (optional)" },
};

const struct sw_config_schema sw_person_conf_schema = {
	.file = "sworn.conf",
	.sections = sections,
	.nsections = SW_ARRAY_LEN(sections),
	.keys = keys,
	.nkeys = SW_ARRAY_LEN(keys),
	.closed = false,
};

/* user.conf holds [user] alone. */
static const struct sw_config_schema user_file_schema = {
	.file = "user.conf",
	.sections = sections,
	.nsections = SW_ARRAY_LEN(sections),
	.keys = keys,
	.nkeys = SW_ARRAY_LEN(keys),
	.closed = true,
};

void sw_person_release(struct sw_person *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->email);
	free(p->bar_number);
	free(p->source);
	memset(p, 0, sizeof(*p));
}

static void conf_release(struct user_conf *c)
{
	free(c->name);
	free(c->email);
	free(c->bar_number);
	memset(c, 0, sizeof(*c));
}

char *sw_person_user_conf_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && *xdg == '/')
		return sw_xasprintf("%s/sworn/user.conf", xdg);
	const char *home = getenv("HOME");
	if (home && *home == '/')
		return sw_xasprintf("%s/.config/sworn/user.conf", home);
	return NULL;
}

/* One line of at most PERSON_MAX bytes of valid UTF-8, not empty. */
static int check_field(const char *what, const char *v, const char *where, struct sw_err *err)
{
	size_t n = strlen(v);
	if (n == 0 || n > PERSON_MAX || strpbrk(v, "\r\n\t") || !sw_utf8_valid(v, n))
		return sw_err_set(err, SW_EINPUT,
				  "%s: bad %s '%.40s': give one line of at most %d bytes", where,
				  what, v, PERSON_MAX);
	return 0;
}

int sw_person_resolve(struct sw_person *out, const struct sw_config *ws_cfg, const char *by,
		      struct sw_err *err)
{
	struct user_conf ws = { 0 }, own = { 0 };
	struct sw_config file = { 0 };
	char *path = sw_person_user_conf_path();
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (ws_cfg &&
	    (rc = sw_config_apply(&sw_person_conf_schema, ws_cfg, sw_config_target_user, &ws,
				  err)) != 0)
		goto cleanup;
	if (path && sw_path_is_file(path)) {
		if ((rc = sw_config_load(&file, path, err)) != 0 ||
		    (rc = sw_config_apply(&user_file_schema, &file, sw_config_target_user, &own,
					  err)) != 0)
			goto cleanup;
	}
	/* The workspace's [user] speaks before the user's own file, as a
	 * repository's configuration does before the global one; --by before
	 * both, with the address and bar number of whichever names the same
	 * person. */
	const struct user_conf *c = ws.name ? &ws : own.name ? &own : NULL;
	if (by) {
		if ((rc = check_field("--by", by, "--by", err)) != 0)
			goto cleanup;
		out->name = sw_xstrdup(by);
		out->source = sw_xstrdup("--by");
		if (ws.name && strcmp(ws.name, by) == 0)
			c = &ws;
		else if (own.name && strcmp(own.name, by) == 0)
			c = &own;
		else
			c = NULL;
	} else if (c) {
		const char *where = c == &ws ? ws_cfg->path : path;
		if ((rc = check_field("name", c->name, where, err)) != 0)
			goto cleanup;
		out->name = sw_xstrdup(c->name);
		out->source = sw_xstrdup(where);
	} else {
		rc = sw_err_set(err, SW_ENOTFOUND,
				"this needs the name of the person who decides: give --by NAME, or "
				"put [user] name = ... in %s or in the workspace's sworn.conf",
				path ? path : "$XDG_CONFIG_HOME/sworn/user.conf");
		goto cleanup;
	}
	if (c && c->email && *c->email) {
		if ((rc = check_field("email", c->email, out->source, err)) != 0)
			goto cleanup;
		out->email = sw_xstrdup(c->email);
	}
	if (c && c->bar_number && *c->bar_number) {
		if ((rc = check_field("bar_number", c->bar_number, out->source, err)) != 0)
			goto cleanup;
		out->bar_number = sw_xstrdup(c->bar_number);
	}
cleanup:
	if (rc)
		sw_person_release(out);
	conf_release(&ws);
	conf_release(&own);
	sw_config_release(&file);
	free(path);
	return rc;
}

char *sw_person_label(const struct sw_person *p)
{
	struct sw_buf b = SW_BUF_INIT;
	sw_buf_adds(&b, p->name ? p->name : "");
	if (p->email)
		sw_buf_addf(&b, " <%s>", p->email);
	if (p->bar_number)
		sw_buf_addf(&b, ", bar no. %s", p->bar_number);
	return sw_buf_detach(&b, NULL);
}
