/*
 * config_schema.c - configuration files checked against a table of their
 * sections and keys.
 *
 * Each loader used to keep an if-chain of key names and a hand-written
 * "known: ..." list, and two of them dropped what they did not know, so a
 * misspelt key silently became the default.  Here one table per file says
 * everything once: the checks, the messages and the reference come from
 * it.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* Two keys further apart than this are not a typo of each other. */
#define SUGGEST_MAX 2

size_t sw_edit_distance(const char *a, const char *b, size_t max)
{
	size_t na = strlen(a), nb = strlen(b);
	if ((na > nb ? na - nb : nb - na) > max)
		return max + 1;
	if (na > 64 || nb > 64)
		return strcmp(a, b) == 0 ? 0 : max + 1;
	/* Three rows of the optimal-string-alignment matrix. */
	size_t r0[65], r1[65], r2[65];
	size_t *prev2 = r0, *prev = r1, *cur = r2;
	for (size_t j = 0; j <= nb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= na; i++) {
		cur[0] = i;
		size_t best = cur[0];
		for (size_t j = 1; j <= nb; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t v = prev[j - 1] + cost;
			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
			if (v < best)
				best = v;
		}
		if (best > max)
			return max + 1;
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[nb] > max ? max + 1 : prev[nb];
}

static const char *where(const struct sw_config *cfg)
{
	return cfg->path ? cfg->path : "configuration";
}

static const struct sw_config_section *find_section(const struct sw_config_schema *s,
						    const char *name)
{
	for (size_t i = 0; i < s->nsections; i++)
		if (strcmp(s->sections[i].name, name) == 0)
			return &s->sections[i];
	return NULL;
}

static const struct sw_config_key *find_key(const struct sw_config_schema *s,
					    const char *section, const char *key)
{
	for (size_t i = 0; i < s->nkeys; i++)
		if (strcmp(s->keys[i].section, section) == 0 && strcmp(s->keys[i].key, key) == 0)
			return &s->keys[i];
	return NULL;
}

void sw_config_known(struct sw_buf *out, const struct sw_config_schema *s, const char *section)
{
	bool first = true;
	for (size_t i = 0; i < s->nkeys; i++) {
		if (strcmp(s->keys[i].section, section) != 0)
			continue;
		sw_buf_addf(out, "%s%s", first ? "" : ", ", s->keys[i].key);
		first = false;
	}
}

/* "[name]" or "[name \"sub\"]" as the entry's header was written. */
static void header(struct sw_buf *out, const struct sw_config_entry *e)
{
	if (e->subsection)
		sw_buf_addf(out, "[%s \"%s\"]", e->section, e->subsection);
	else
		sw_buf_addf(out, "[%s]", e->section);
}

/* The closest of the candidates to word, or NULL when none is close. */
static const char *closest(const char *word, const char *const *cand, size_t n)
{
	const char *best = NULL;
	size_t best_d = SUGGEST_MAX + 1;
	size_t max = strlen(word) < 6 ? 1 : SUGGEST_MAX; /* "zone" is no typo of "mode" */
	for (size_t i = 0; i < n; i++) {
		size_t d = sw_edit_distance(word, cand[i], max);
		if (d <= max && d < best_d) {
			best = cand[i];
			best_d = d;
		}
	}
	return best;
}

static int unknown_key(const struct sw_config_schema *s, const struct sw_config *cfg,
		       const struct sw_config_entry *e, struct sw_err *err)
{
	struct sw_buf m = SW_BUF_INIT;
	const char **cand = sw_xcalloc(s->nkeys + 1, sizeof(char *));
	size_t n = 0;
	for (size_t i = 0; i < s->nkeys; i++)
		if (strcmp(s->keys[i].section, e->section) == 0)
			cand[n++] = s->keys[i].key;
	const char *near = closest(e->key, cand, n);
	sw_buf_addf(&m, "unknown key '%s' in ", e->key);
	header(&m, e);
	if (near) {
		sw_buf_addf(&m, ": did you mean %s?", near);
	} else {
		sw_buf_adds(&m, " (known: ");
		sw_config_known(&m, s, e->section);
		sw_buf_adds(&m, ")");
	}
	int rc = sw_err_set(err, SW_EINPUT, "%s:%d: %s", where(cfg), e->line, m.data);
	free(cand);
	sw_buf_release(&m);
	return rc;
}

static int unknown_section(const struct sw_config_schema *const *schemas, size_t nschemas,
			   const struct sw_config *cfg, const struct sw_config_entry *e,
			   struct sw_err *err)
{
	size_t total = 0;
	for (size_t k = 0; k < nschemas; k++)
		total += schemas[k]->nsections;
	const char **cand = sw_xcalloc(total + 1, sizeof(char *));
	struct sw_buf known = SW_BUF_INIT;
	size_t n = 0;
	for (size_t k = 0; k < nschemas; k++)
		for (size_t i = 0; i < schemas[k]->nsections; i++) {
			cand[n] = schemas[k]->sections[i].name;
			sw_buf_addf(&known, "%s[%s]", n ? ", " : "", cand[n]);
			n++;
		}
	const char *near = closest(e->section, cand, n);
	int rc = near ? sw_err_set(err, SW_EINPUT, "%s:%d: unknown section [%s]: did you mean [%s]?",
				   where(cfg), e->line, e->section, near)
		      : sw_err_set(err, SW_EINPUT, "%s:%d: unknown section [%s] (known: %s)",
				   where(cfg), e->line, e->section, known.data);
	free(cand);
	sw_buf_release(&known);
	return rc;
}

int sw_config_check_sections(const struct sw_config *cfg,
			     const struct sw_config_schema *const *schemas, size_t n,
			     struct sw_err *err)
{
	for (size_t i = 0; i < cfg->n; i++) {
		const struct sw_config_entry *e = &cfg->entries[i];
		bool found = false;
		for (size_t k = 0; k < n && !found; k++)
			found = find_section(schemas[k], e->section) != NULL;
		if (!found)
			return unknown_section(schemas, n, cfg, e, err);
	}
	return 0;
}

int sw_config_check(const struct sw_config_key **out, const struct sw_config_schema *s,
		    const struct sw_config *cfg, const struct sw_config_entry *e,
		    struct sw_err *err)
{
	*out = NULL;
	const struct sw_config_section *sec = find_section(s, e->section);
	if (!sec)
		return s->closed ? unknown_section(&s, 1, cfg, e, err) : 0;
	if (!sec->named && e->subsection)
		return sw_err_set(err, SW_EINPUT, "%s:%d: [%s] takes no name", where(cfg), e->line,
				  e->section);
	if (sec->named && !e->subsection)
		return sw_err_set(err, SW_EINPUT, "%s:%d: [%s] needs a name: [%s \"NAME\"]",
				  where(cfg), e->line, e->section, e->section);
	const struct sw_config_key *k = find_key(s, e->section, e->key);
	if (!k)
		return unknown_key(s, cfg, e, err);
	*out = k;
	return 0;
}

/* A bound for messages: integers without a fraction, others as %g. */
static void add_num(struct sw_buf *b, double v)
{
	if (v > -1e15 && v < 1e15 && v == (double)(long long)v)
		sw_buf_addf(b, "%.0f", v);
	else
		sw_buf_addf(b, "%g", v);
}

/* What a good value of k looks like, after "expected". */
static void expectation(struct sw_buf *b, const struct sw_config_key *k)
{
	if (k->expect) {
		sw_buf_adds(b, k->expect);
		return;
	}
	switch (k->type) {
	case SW_CONFIG_INT:
	case SW_CONFIG_DOUBLE:
	case SW_CONFIG_MS:
		if (k->type == SW_CONFIG_MS)
			sw_buf_adds(b, "seconds ");
		if (k->max >= 9.2e18) {
			sw_buf_adds(b, "a number ");
			add_num(b, k->min);
			sw_buf_adds(b, " or more");
		} else if (k->flags & SW_CONFIG_ABOVE_MIN) {
			sw_buf_adds(b, "more than ");
			add_num(b, k->min);
			sw_buf_adds(b, ", at most ");
			add_num(b, k->max);
		} else {
			if (k->type == SW_CONFIG_MS)
				sw_buf_adds(b, "from ");
			add_num(b, k->min);
			if (k->type == SW_CONFIG_MS && k->min == 0)
				sw_buf_adds(b, " (no limit)");
			sw_buf_adds(b, " to ");
			add_num(b, k->max);
		}
		if (k->type == SW_CONFIG_INT && k->min != (double)(long long)k->min)
			SW_BUG("key %s: integer bounds", k->key);
		break;
	case SW_CONFIG_BOOL:
		sw_buf_adds(b, "yes or no");
		break;
	case SW_CONFIG_ENUM:
		for (size_t i = 0; k->choices[i]; i++)
			sw_buf_addf(b, "%s%s", i == 0 ? "" : k->choices[i + 1] ? ", " : " or ",
				    k->choices[i]);
		break;
	case SW_CONFIG_STRING:
		sw_buf_adds(b, "a value");
		break;
	case SW_CONFIG_CUSTOM:
		sw_buf_adds(b, "a valid value");
		break;
	}
}

static int bad_value(const struct sw_config_key *k, const struct sw_config *cfg,
		     const struct sw_config_entry *e, struct sw_err *err)
{
	struct sw_buf b = SW_BUF_INIT;
	expectation(&b, k);
	int rc = sw_err_set(err, SW_EINPUT, "%s:%d: bad %s '%s': expected %s", where(cfg), e->line,
			    e->key, e->value, b.data);
	sw_buf_release(&b);
	return rc;
}

static void store_int(void *at, size_t size, bool is_signed, long long v)
{
	if (is_signed) {
		int8_t i8 = (int8_t)v;
		int16_t i16 = (int16_t)v;
		int32_t i32 = (int32_t)v;
		int64_t i64 = (int64_t)v;
		memcpy(at, size == 1 ? (void *)&i8 : size == 2 ? (void *)&i16
			   : size == 4 ? (void *)&i32 : (void *)&i64, size);
	} else {
		uint8_t u8 = (uint8_t)v;
		uint16_t u16 = (uint16_t)v;
		uint32_t u32 = (uint32_t)v;
		uint64_t u64 = (uint64_t)v;
		memcpy(at, size == 1 ? (void *)&u8 : size == 2 ? (void *)&u16
			   : size == 4 ? (void *)&u32 : (void *)&u64, size);
	}
}

/* The bounds of an integer key must fit where it is stored: a table
 * mistake, caught on first use. */
static void check_int_fits(const struct sw_config_key *k)
{
	if (k->size != 1 && k->size != 2 && k->size != 4 && k->size != 8)
		SW_BUG("key %s: an integer of %zu bytes", k->key, k->size);
	unsigned bits = (unsigned)(k->size * 8) - (k->min < 0 ? 1 : 0);
	double room = 1.0;
	for (unsigned i = 0; i < bits; i++)
		room *= 2;
	if (k->max > room || k->min < -room)
		SW_BUG("key %s: bounds do not fit %zu bytes", k->key, k->size);
}

/* The size a type stores, or 0 when the key gives it (INT) or needs none
 * (CUSTOM). */
static size_t stored_size(enum sw_config_type t)
{
	switch (t) {
	case SW_CONFIG_STRING: return sizeof(char *);
	case SW_CONFIG_DOUBLE: return sizeof(double);
	case SW_CONFIG_MS: return sizeof(unsigned);
	case SW_CONFIG_BOOL: return sizeof(bool);
	case SW_CONFIG_ENUM: return sizeof(int);
	case SW_CONFIG_INT:
	case SW_CONFIG_CUSTOM: return 0;
	}
	return 0;
}

int sw_config_store(void *obj, const struct sw_config_key *k, const struct sw_config *cfg,
		    const struct sw_config_entry *e, void *user, struct sw_err *err)
{
	char *at = (char *)obj + k->offset;
	const char *v = e->value;
	long long n;
	double d;

	/* A table that points a key at a member of another type is a bug. */
	if (stored_size(k->type) && k->size != stored_size(k->type))
		SW_BUG("key %s: a member of %zu bytes for its type", k->key, k->size);

	switch (k->type) {
	case SW_CONFIG_STRING: {
		char *copy = sw_xstrdup(v);
		char *old;
		memcpy(&old, at, sizeof(old));
		free(old);
		memcpy(at, &copy, sizeof(copy));
		return 0;
	}
	case SW_CONFIG_INT: {
		check_int_fits(k);
		long long lo = (long long)k->min;
		long long hi = k->max >= 9.2e18 ? INT64_MAX : (long long)k->max;
		if (!sw_parse_int(v, lo, hi, &n))
			return bad_value(k, cfg, e, err);
		store_int(at, k->size, k->min < 0, n);
		return 0;
	}
	case SW_CONFIG_DOUBLE:
	case SW_CONFIG_MS:
		if (!sw_parse_double(v, k->min, k->max, &d) ||
		    ((k->flags & SW_CONFIG_ABOVE_MIN) && d <= k->min))
			return bad_value(k, cfg, e, err);
		if (k->type == SW_CONFIG_DOUBLE) {
			memcpy(at, &d, sizeof(d));
		} else {
			unsigned ms = (unsigned)(d * 1000.0 + 0.5);
			if (d > 0 && ms == 0)
				ms = 1;
			memcpy(at, &ms, sizeof(ms));
		}
		return 0;
	case SW_CONFIG_BOOL: {
		bool b;
		if (strcmp(v, "yes") == 0 || strcmp(v, "true") == 0)
			b = true;
		else if (strcmp(v, "no") == 0 || strcmp(v, "false") == 0)
			b = false;
		else
			return bad_value(k, cfg, e, err);
		memcpy(at, &b, sizeof(b));
		return 0;
	}
	case SW_CONFIG_ENUM:
		for (int i = 0; k->choices[i]; i++)
			if (strcmp(v, k->choices[i]) == 0) {
				memcpy(at, &i, sizeof(i));
				return 0;
			}
		return bad_value(k, cfg, e, err);
	case SW_CONFIG_CUSTOM: {
		int rc = k->set(obj, e, user, err);
		if (rc != 0)
			sw_err_wrap(err, rc, "%s:%d", where(cfg), e->line);
		return rc;
	}
	}
	SW_BUG("key %s: type %d", k->key, (int)k->type);
}

void *sw_config_target_user(void *user, const struct sw_config_entry *e, struct sw_err *err)
{
	(void)e;
	(void)err;
	return user;
}

int sw_config_apply(const struct sw_config_schema *s, const struct sw_config *cfg,
		    void *(*target)(void *user, const struct sw_config_entry *e,
				    struct sw_err *err),
		    void *user, struct sw_err *err)
{
	for (size_t i = 0; i < cfg->n; i++) {
		const struct sw_config_entry *e = &cfg->entries[i];
		const struct sw_config_key *k;
		struct sw_err local = { 0 };
		int rc = sw_config_check(&k, s, cfg, e, err);
		if (rc != 0)
			return rc;
		if (!k)
			continue;
		void *obj = target(user, e, err ? err : &local);
		if (!obj) {
			rc = err ? err->code : local.code;
			if (rc == 0)
				SW_BUG("config target for [%s] failed without an error", e->section);
			return sw_err_wrap(err, rc, "%s:%d", where(cfg), e->line);
		}
		rc = sw_config_store(obj, k, cfg, e, user, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

void sw_config_schema_doc(struct sw_buf *out, const struct sw_config_schema *s)
{
	for (size_t i = 0; i < s->nsections; i++) {
		const struct sw_config_section *sec = &s->sections[i];
		sw_buf_addf(out, "[%s%s]  %s\n", sec->name, sec->named ? " \"NAME\"" : "",
			    sec->help ? sec->help : "");
		for (size_t j = 0; j < s->nkeys; j++) {
			const struct sw_config_key *k = &s->keys[j];
			struct sw_buf what = SW_BUF_INIT;
			if (strcmp(k->section, sec->name) != 0)
				continue;
			if (k->type != SW_CONFIG_STRING && k->type != SW_CONFIG_CUSTOM) {
				if (k->type == SW_CONFIG_INT)
					sw_buf_adds(&what, "integer ");
				else if (k->type == SW_CONFIG_DOUBLE)
					sw_buf_adds(&what, "number ");
				expectation(&what, k);
			} else if (k->expect) {
				sw_buf_adds(&what, k->expect);
			}
			const char *help = k->help ? k->help : "";
			sw_buf_addf(out, "  %-20s %s%s%s%s%s\n", k->key, help,
				    *help && what.len ? " " : "", what.len ? "(" : "", what.data,
				    what.len ? ")" : "");
			sw_buf_release(&what);
		}
	}
}
