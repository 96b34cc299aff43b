/* template.c - prompt templates: literal text and {{placeholders}}. */
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "pipeline/pipeline_int.h"

static bool name_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.';
}

/* One placeholder at s[0..] (which starts "{{"): its name and the byte after
 * its "}}".  0, or SW_EINPUT with "tmpl_name:LINE: why". */
static int scan_one(const char *s, size_t avail, int line, const char *tmpl_name,
		    const char **name, size_t *len, size_t *end, struct sw_err *err)
{
	size_t i = 2;
	while (i < avail && (s[i] == ' ' || s[i] == '\t'))
		i++;
	size_t start = i;
	while (i < avail && name_byte((unsigned char)s[i]))
		i++;
	size_t stop = i;
	while (i < avail && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i + 1 < avail && s[i] == '}' && s[i + 1] == '}') {
		if (stop == start)
			return sw_err_set(err, SW_EINPUT, "%s:%d: an empty {{}}: name a "
					  "placeholder", tmpl_name, line);
		if (stop - start > SW_TMPL_MAX_NAME)
			return sw_err_set(err, SW_EINPUT,
					  "%s:%d: a placeholder name longer than %d bytes",
					  tmpl_name, line, SW_TMPL_MAX_NAME);
		*name = s + start;
		*len = stop - start;
		*end = i + 2;
		return 0;
	}
	/* Not a well-formed placeholder: unclosed on its line, or a byte a
	 * name may not hold. */
	const char *nl = memchr(s, '\n', avail);
	size_t line_len = nl ? (size_t)(nl - s) : avail;
	const char *close = NULL;
	for (size_t k = 2; k + 1 < line_len; k++)
		if (s[k] == '}' && s[k + 1] == '}') {
			close = s + k;
			break;
		}
	if (!close)
		return sw_err_set(err, SW_EINPUT, "%s:%d: '{{' without '}}' on its line", tmpl_name,
				  line);
	int shown = (int)(close - s) + 2;
	if (shown > 80)
		shown = 80;
	return sw_err_set(err, SW_EINPUT,
			  "%s:%d: bad placeholder '%.*s': a name is letters, digits, '_' and '.'",
			  tmpl_name, line, shown, s);
}

/* Walk tmpl: literal runs to lit(), placeholders to ph().  Either may stop
 * the walk with a nonzero return. */
struct walk {
	int (*lit)(void *ud, const char *s, size_t n);
	int (*ph)(void *ud, const char *name, size_t len, int line);
	void *ud;
};

static int walk(const char *tmpl, const char *tmpl_name, const struct walk *w, struct sw_err *err)
{
	size_t n = strlen(tmpl);
	if (n > SW_TASK_MAX_FILE)
		return sw_err_set(err, SW_ELIMIT, "%s: longer than %u bytes", tmpl_name,
				  SW_TASK_MAX_FILE);
	int line = 1;
	size_t i = 0, lit = 0;
	while (i < n) {
		if (tmpl[i] == '\n') {
			line++;
			i++;
			continue;
		}
		if (tmpl[i] != '{' || i + 1 >= n || tmpl[i + 1] != '{') {
			i++;
			continue;
		}
		const char *name = NULL; /* set by scan_one when it returns 0 */
		size_t len = 0, end = 0;
		int rc = scan_one(tmpl + i, n - i, line, tmpl_name, &name, &len, &end, err);
		if (rc != 0)
			return rc;
		if (w->lit && i > lit && (rc = w->lit(w->ud, tmpl + lit, i - lit)) != 0)
			return rc;
		if ((rc = w->ph(w->ud, name, len, line)) != 0)
			return rc;
		i += end;
		lit = i;
	}
	if (w->lit && n > lit)
		return w->lit(w->ud, tmpl + lit, n - lit);
	return 0;
}

struct render {
	struct sw_buf *out;
	struct sw_tmpl_span *spans;
	size_t n, cap;
	const char *tmpl_name;
	sw_tmpl_lookup lookup;
	void *ud;
	struct sw_err *err;
};

static int render_lit(void *ud, const char *s, size_t n)
{
	struct render *r = ud;
	sw_buf_add(r->out, s, n);
	return 0;
}

static int render_ph(void *ud, const char *name, size_t len, int line)
{
	struct render *r = ud;
	const char *key = NULL;
	const char *v = r->lookup(r->ud, name, len, &key);
	if (!v)
		return sw_err_set(r->err, SW_EINPUT, "%s:%d: {{%.*s}} is not a placeholder here",
				  r->tmpl_name, line, (int)len, name);
	r->spans = sw_xgrow(r->spans, &r->cap, r->n + 1, sizeof(*r->spans));
	struct sw_tmpl_span *sp = &r->spans[r->n++];
	size_t vlen = strlen(v);
	sp->name = key;
	sp->start = r->out->len;
	sp->len = vlen;
	sw_buf_add(r->out, v, vlen);
	return 0;
}

int sw_tmpl_render(struct sw_buf *out, struct sw_tmpl_span **spans, size_t *n_spans,
		   const char *tmpl, const char *tmpl_name, sw_tmpl_lookup lookup, void *ud,
		   struct sw_err *err)
{
	struct render r = { out, NULL, 0, 0, tmpl_name ? tmpl_name : "template", lookup, ud, err };
	const struct walk w = { render_lit, render_ph, &r };
	size_t at = out->len;
	int rc = walk(tmpl, r.tmpl_name, &w, err);
	if (rc != 0) {
		sw_buf_truncate(out, at);
		free(r.spans);
		r.spans = NULL;
		r.n = 0;
	}
	if (spans)
		*spans = r.spans;
	else
		free(r.spans);
	if (n_spans)
		*n_spans = r.n;
	return rc;
}

int sw_tmpl_each(const char *tmpl, int (*fn)(void *ud, const char *name, size_t len, int line),
		 void *ud)
{
	const struct walk w = { NULL, fn, ud };
	return walk(tmpl, "template", &w, NULL);
}
