/* claims_builder.c - claim storage: the builder every reader fills and
 * pushes, notes, and the accessors of a claim.  A leaf below the readers. */
#include <stdlib.h>
#include <string.h>

#include "claims/claims_int.h"

void sw__claims_begin(struct sw__claims_builder *b, enum sw_claim_kind kind,
	      enum sw_claim_form form, size_t start, size_t end)
{
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->form = form;
	b->start = b->cite_start = start;
	b->end = b->cite_end = end;
	b->parallel_to = -1;
}

void sw__claims_field(struct sw__claims_builder *b, const char *name, const char *v, size_t len)
{
	/* names are literals: the first byte rules most out without a call */
	for (size_t i = 0; i < b->nf; i++)
		if (b->f[i].name == name ||
		    (b->f[i].name[0] == name[0] && strcmp(b->f[i].name, name) == 0)) {
			b->f[i].v = v;
			b->f[i].len = len;
			return;
		}
	if (b->nf == SW_CLAIM_MAX_FIELDS)
		SW_BUG("claim has more than %d fields", SW_CLAIM_MAX_FIELDS);
	b->f[b->nf].name = name;
	b->f[b->nf].v = v;
	b->f[b->nf].len = len;
	b->nf++;
}

void sw__claims_fieldz(struct sw__claims_builder *b, const char *name, const char *v)
{
	sw__claims_field(b, name, v, strlen(v));
}

void sw__claims_fieldi(struct sw__claims_builder *b, const char *name, long v)
{
	char *at = b->scratch + b->nscratch;
	int n = snprintf(at, sizeof(b->scratch) - b->nscratch, "%ld", v);
	if (n < 0 || (size_t)n >= sizeof(b->scratch) - b->nscratch)
		SW_BUG("claim scratch space exhausted");
	b->nscratch += (size_t)n + 1;
	sw__claims_field(b, name, at, (size_t)n);
}

long sw__claims_push(struct sw__claims_scan *sc, const struct sw__claims_builder *b)
{
	struct sw_claims *o = sc->out;
	if (o->n >= SW_CLAIMS_MAX) {
		sc->failed = SW_ELIMIT;
		return -1;
	}
	if (b->start >= b->end || b->end > sc->n)
		SW_BUG("claim [%zu, %zu) outside text of %zu bytes", b->start, b->end, sc->n);
	o->v = sw_xgrow(o->v, &o->cap, o->n + 1, sizeof(*o->v));
	struct sw_claim *c = &o->v[o->n];
	memset(c, 0, sizeof(*c));
	c->kind = b->kind;
	c->form = b->form;
	c->start = b->start;
	c->end = b->end;
	c->cite_start = b->cite_start;
	c->cite_end = b->cite_end;
	c->resolves_to = -1;
	c->parallel_to = b->parallel_to;
	c->attributed_to = -1;
	if (b->nf) {
		/* one allocation: the fields, then their values end to end */
		size_t bytes = b->nf * sizeof(struct sw_claim_field);
		for (size_t i = 0; i < b->nf; i++)
			bytes += b->f[i].len + 1;
		char *mem = sw_arena_alloc(&o->arena, bytes);
		struct sw_claim_field *f = (struct sw_claim_field *)(void *)mem;
		char *v = mem + b->nf * sizeof(*f);
		for (size_t i = 0; i < b->nf; i++) {
			f[i].name = b->f[i].name; /* static strings */
			memcpy(v, b->f[i].v, b->f[i].len);
			v[b->f[i].len] = '\0';
			f[i].value = v;
			v += b->f[i].len + 1;
		}
		c->fields = f;
		c->nfields = b->nf;
	}
	return (long)o->n++;
}

void sw__claims_note_at(struct sw__claims_scan *sc, size_t name_end, size_t at)
{
	if (sc->nats >= SW_CLAIMS_MAX)
		return;
	sc->ats = sw_xgrow(sc->ats, &sc->capats, sc->nats + 1, sizeof(*sc->ats));
	sc->ats[sc->nats].name_end = name_end;
	sc->ats[sc->nats].at = at;
	sc->nats++;
}

const char *sw_claim_get(const struct sw_claim *c, const char *name)
{
	for (size_t i = 0; i < c->nfields; i++)
		if (c->fields[i].name == name ||
		    (c->fields[i].name[0] == name[0] && strcmp(c->fields[i].name, name) == 0))
			return c->fields[i].value;
	return NULL;
}

const char *sw_claim_kind_name(enum sw_claim_kind kind)
{
	static const char *const names[] = { "case", "journal", "statute", "rule",
					     "record", "bates", "date", "quote",
					     "proposition" };
	return (size_t)kind < SW_ARRAY_LEN(names) ? names[kind] : "unknown";
}

const char *sw_claim_form_name(enum sw_claim_form form)
{
	static const char *const names[] = { "full", "short", "id", "supra",
					     "reference", "bare" };
	return (size_t)form < SW_ARRAY_LEN(names) ? names[form] : "unknown";
}
