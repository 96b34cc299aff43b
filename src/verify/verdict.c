/* verdict.c - what every rule calls down into to give claim i its verdict:
 * the verdict's name and reason, evidence from the authority table or the
 * record, the claim as written, the record look-up's outcome, the quotation
 * that holds a claim, and the pages a citation resolved to.  A leaf: it
 * calls nothing else in verify/, so the rules and the driver (verify.c) both
 * stand above it. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "verify/verify_int.h"

const char *sw_verdict_name(enum sw_verdict v)
{
	switch (v) {
	case SW_VERDICT_SUPPORTED: return "supported";
	case SW_VERDICT_UNSUPPORTED: return "unsupported";
	case SW_VERDICT_CONTRADICTED: return "contradicted";
	case SW_VERDICT_UNVERIFIABLE: return "unverifiable";
	}
	return "unknown";
}

void sw__verify_set(struct sw__verify_run *u, size_t i, enum sw_verdict v, const char *fmt, ...)
{
	struct sw_claim_verdict *cv = &u->r->verdicts[i];
	struct sw_buf b = SW_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sw_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(cv->reason);
	cv->verdict = v;
	/* a report keeps one a claim: without the buffer's slack */
	size_t n;
	char *reason = sw_buf_detach(&b, &n);
	cv->reason = sw_xrealloc(reason, n + 1);
}

struct sw_evidence *sw__verify_add_evidence(struct sw__verify_run *u, size_t i)
{
	struct sw_claim_verdict *cv = &u->r->verdicts[i];
	cv->evidence = sw_xrealloc(cv->evidence, (cv->nevidence + 1) * sizeof(*cv->evidence));
	struct sw_evidence *e = &cv->evidence[cv->nevidence++];
	memset(e, 0, sizeof(*e));
	return e;
}

void sw__verify_add_case_evidence(struct sw__verify_run *u, size_t i,
				  const struct sw_authority_case *c)
{
	struct sw_evidence *e = sw__verify_add_evidence(u, i);
	e->source = "authority";
	e->cite = sw_xasprintf("%s %s %s", c->volume, c->reporter, c->page);
	e->name = c->name ? sw_xstrdup(c->name) : NULL;
}

void sw__verify_add_page_evidence(struct sw__verify_run *u, size_t i,
				  const struct sw_record_page *p, const char *excerpt)
{
	struct sw_evidence *e = sw__verify_add_evidence(u, i);
	e->source = "record";
	e->document = sw_xstrdup(p->document ? p->document : "");
	e->bates = p->bates ? sw_xstrdup(p->bates) : NULL;
	e->page = p->page_no;
	e->excerpt = excerpt ? sw_xstrdup(excerpt) : NULL;
}

/* The claim as written, for reasons. */
char *sw__verify_claim_text(const struct sw__verify_run *u, const struct sw_claim *c)
{
	return sw_xstrndup(u->r->text + c->cite_start, c->cite_end - c->cite_start);
}

bool sw__verify_found(struct sw__verify_run *u, int rc, const struct sw_err *e)
{
	if (rc == 0)
		return true;
	if (rc != SW_ENOTFOUND && !u->err.code) {
		u->err = *e;
		if (!u->err.code)
			sw_err_set(&u->err, rc, "cannot read the record");
	}
	return false;
}

bool sw__verify_num(const char *s, uint64_t *out)
{
	if (!s)
		return false;
	while (*s && !isdigit((unsigned char)*s))
		s++;
	size_t n = 0;
	while (isdigit((unsigned char)s[n]))
		n++;
	return n > 0 && n <= 18 && sw_parse_u64(s, n, out);
}

long sw__verify_quote_of(const struct sw__verify_run *u, size_t i)
{
	const struct sw_claims *cl = &u->r->claims;
	const struct sw_claim *c = &cl->v[i];
	if (!sw_claim_get(c, "in_quote"))
		return -1;
	/* claims are sorted by start, a quotation before what it holds */
	for (size_t k = i, n = 0; k > 0 && n < 1024; k--, n++) {
		const struct sw_claim *q = &cl->v[k - 1];
		if (q->kind == SW_CLAIM_QUOTE && q->cite_start <= c->start && c->end <= q->cite_end)
			return (long)(k - 1);
	}
	return -1;
}

void sw__verify_remember_page(struct sw__verify_resolved *res, int64_t id)
{
	for (size_t k = 0; k < res->npages; k++)
		if (res->pages[k] == id)
			return;
	if (res->npages < SW_VERIFY_MAX_PAGES) {
		res->pages = sw_xgrow(res->pages, &res->cap, res->npages + 1, sizeof(*res->pages));
		res->pages[res->npages++] = id;
	}
}

void sw__verify_same_pages(struct sw__verify_resolved *to, const struct sw__verify_resolved *from)
{
	to->npages = 0;
	for (size_t k = 0; k < from->npages && k < SW_VERIFY_MAX_PAGES; k++) {
		to->pages = sw_xgrow(to->pages, &to->cap, to->npages + 1, sizeof(*to->pages));
		to->pages[to->npages++] = from->pages[k];
	}
}
