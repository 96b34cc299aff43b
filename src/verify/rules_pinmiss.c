/*
 * rules_pinmiss.c - testimony pinned to the wrong lines.  A sentence that
 * cites a transcript's page and lines ("Smith Dep. 4:15-16") says what
 * the witness said there.  When the cited lines share none of the
 * sentence's content words (three or more, names aside) and other lines
 * of the same transcript plainly say them (three or more shared), the
 * citation points at the wrong place: unsupported, naming where the
 * words are.  A sentence whose words are nowhere in the transcript is
 * left to the other rules (a paraphrase the rules cannot place).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "verify/rules_int.h"

#define PIN_PAGES 80  /* transcript pages searched for the words */
#define PIN_WINDOW 3  /* lines read together */
#define PIN_QUOTE 140 /* bytes of the passage quoted */

/* The best window of PIN_WINDOW lines of transcript page p for stems st:
 * how many it shares, its bytes in [*ws, *we). */
static size_t best_window(const char *p, size_t len, const struct sw__verify_stems *st,
			  struct sw__verify_reading *rd, size_t *ws, size_t *we)
{
	size_t best = 0;
	for (size_t i = 0; i < len;) {
		size_t e = i;
		for (int l = 0; l < PIN_WINDOW && e < len; l++) {
			while (e < len && p[e] != '\n')
				e++;
			if (l + 1 < PIN_WINDOW && e < len)
				e++;
		}
		size_t n = sw__verify_shared(st, p, i, e, rd);
		if (n > best) {
			best = n;
			*ws = i;
			*we = e;
		}
		while (i < len && p[i] != '\n')
			i++;
		i++;
	}
	return best;
}

char *sw__verify_pin_elsewhere(struct sw__verify_run *u, const struct sw_claim *c,
			       const int64_t *pages, size_t np,
			       const struct sw__verify_sentence *sn)
{
	const struct sw__verify_reading *sent = &sn->rd;
	struct sw__verify_reading *rd = sw_xcalloc(1, sizeof(*rd));
	struct sw__verify_stems *plain = sw_xcalloc(1, sizeof(*plain));
	char *why = NULL;
	for (size_t k = 0; k < sent->st.n; k++)
		if (!sw__verify_has_stem(&sent->named, sent->st.w[k]))
			memcpy(plain->w[plain->n++], sent->st.w[k], sizeof(plain->w[0]));
	for (size_t q = 0; q < np && !why && plain->n >= 3 && !u->err.code; q++) {
		long l0, l1;
		char witness[48];
		size_t s, e;
		struct sw_err err = { 0 };
		if (np > 1 || !sw__verify_pin_of(u, c, pages[q], &l0, &l1) || l1 < l0 ||
		    !sw__verify_witness(u, pages[q], witness, sizeof(witness)) ||
		    !sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &err),
				      &err) ||
		    !sw__verify_lines_of(u->page.data, u->page.len, l0, l1, &s, &e) ||
		    sw__verify_shared(plain, u->page.data, s, e, rd) > 0)
			continue;
		/* the cited lines say none of it: where does the transcript? */
		struct sw_record_page pg = { 0 };
		if (!sw__verify_found(u, sw_record_page_by_id(&pg, u->m, pages[q], &err), &err))
			continue;
		int64_t doc = pg.doc_id;
		uint32_t count = pg.page_count;
		sw_record_page_release(&pg);
		size_t best = 0;
		int64_t at = -1;
		char *said = NULL;
		for (uint32_t n = 1; n <= count && n <= PIN_PAGES && !u->err.code; n++) {
			struct sw_record_page x = { 0 };
			size_t ws = 0, we = 0, got;
			bool ok = sw__verify_found(u, sw_record_doc_page(&x, u->m, doc, n, &err),
						   &err) &&
				  sw__verify_found(
					  u, sw_record_page_text(&u->page, u->m, x.id, &err), &err);
			if (ok && (got = best_window(u->page.data, u->page.len, plain, rd, &ws,
						     &we)) > best) {
				best = got;
				at = x.id;
				free(said);
				size_t qn = we - ws < PIN_QUOTE ? we - ws : PIN_QUOTE;
				said = sw_xstrndup(u->page.data + ws, qn);
			}
			sw_record_page_release(&x);
		}
		/* plainly: three shared, or two that are most of its words */
		if ((best >= 3 || (best >= 2 && best * 2 >= plain->n)) && at >= 0) {
			char *pn = sw__verify_page_name(u, pages[q]),
			     *an = sw__verify_page_name(u, at);
			/* the quotation on one line */
			for (char *z = said; *z; z++)
				if (*z == '\n' || *z == '\r')
					*z = ' ';
			why = sw_xasprintf("the cited lines of %s say none of it; %s does: \"%s\"",
					   pn, an, said);
			free(pn);
			free(an);
		}
		free(said);
	}
	free(plain);
	free(rd);
	return why;
}
