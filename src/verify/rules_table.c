/*
 * rules_table.c - a cited page's text tables read as rows under headers:
 * columns set by a rule of dashes under the header (pdftotext's layout,
 * fixed-width registers), by pipes, or by tabs.  A sentence that names a
 * date of some rows (its own date claims) is read against those rows
 * alone: "Crew 1 logs 8.0 hours with six men" on 06/06/2022 is judged by
 * the row of 06/06/2022, where Hrs says 4.0, not by the 8.0 of every other
 * row; a label of the sentence ("Crew 3") that those rows do not hold while
 * other rows of the table do is another row's.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define TABLE_COLS 16
#define TABLE_ROWS 256
#define TABLE_DATES 8

struct cell {
	size_t s, e;
};

struct row {
	size_t s, e;                  /* the line */
	struct cell c[TABLE_COLS];
	size_t nc;
};

struct table {
	const char *p;
	struct cell head[TABLE_COLS];
	size_t nh;
	struct row *rows;
	size_t nr;
};

static size_t line_end(const char *p, size_t len, size_t i)
{
	while (i < len && p[i] != '\n' && p[i] != '\f')
		i++;
	return i;
}

static void trim(const char *p, struct cell *c)
{
	while (c->s < c->e && (p[c->s] == ' ' || p[c->s] == '\t' || p[c->s] == '\r'))
		c->s++;
	while (c->e > c->s && (p[c->e - 1] == ' ' || p[c->e - 1] == '\t' || p[c->e - 1] == '\r'))
		c->e--;
}

/* A rule of dashes: at least two runs of '-' and nothing but blanks
 * between; the runs into cols. */
static size_t dash_rule(const char *p, size_t s, size_t e, struct cell *cols)
{
	size_t n = 0;
	for (size_t i = s; i < e; i++) {
		if (p[i] == ' ' || p[i] == '\r')
			continue;
		if (p[i] != '-' && p[i] != '=')
			return 0;
		size_t k = i;
		while (k < e && (p[k] == '-' || p[k] == '='))
			k++;
		if (n < TABLE_COLS)
			cols[n++] = (struct cell){ i - s, k - s };
		i = k - 1;
	}
	return n >= 2 ? n : 0;
}

/* Fields of a line aligned by runs of two blanks or more: their starts
 * (relative to s) into cols; how many. */
static size_t aligned_fields(const char *p, size_t s, size_t e, struct cell *cols)
{
	size_t n = 0, i = s;
	while (i < e && n < TABLE_COLS) {
		while (i < e && (p[i] == ' ' || p[i] == '\r'))
			i++;
		if (i >= e)
			break;
		size_t b = i;
		while (i < e && !(p[i] == ' ' && i + 1 < e && p[i + 1] == ' ') && p[i] != '\r')
			i++;
		if (i - b > 40)
			return 0; /* prose, not a cell */
		cols[n++] = (struct cell){ b - s, i - s };
	}
	return n;
}

/* A header of a table aligned by blanks: three fields or more, the next
 * line two or more, its fields starting where the header's do. */
static size_t aligned_header(const char *p, size_t i, size_t e, size_t n2, size_t e2,
			     struct cell *cols)
{
	struct cell next[TABLE_COLS];
	size_t nc = aligned_fields(p, i, e, cols);
	if (nc < 3 || cols[0].s != 0)
		return 0;
	/* a transcript's line number and its Q. or A. are no columns */
	bool number = cols[0].e - cols[0].s <= 2;
	for (size_t k = cols[0].s; k < cols[0].e && number; k++)
		number = isdigit((unsigned char)p[i + k]) != 0;
	if (number)
		return 0;
	size_t nn = aligned_fields(p, n2, e2, next);
	if (nn < 2 || next[0].s != 0)
		return 0;
	size_t hits = 0;
	for (size_t k = 0; k < nn; k++)
		for (size_t c = 0; c < nc; c++)
			hits += next[k].s == cols[c].s;
	return hits >= 2 ? nc : 0;
}

/* Split [s, e) into cells at separator sep ('|' or '\t'). */
static size_t split(const char *p, size_t s, size_t e, char sep, struct cell *out)
{
	size_t n = 0, b = s;
	while (b < e && (p[b] == ' ' || p[b] == '\t') && sep == '|')
		b++;
	if (sep == '|' && b < e && p[b] == '|')
		b++;
	for (size_t i = b; i <= e && n < TABLE_COLS; i++)
		if (i == e || p[i] == sep) {
			struct cell c = { b, i };
			trim(p, &c);
			if (!(i == e && c.s == c.e && sep == '|'))
				out[n++] = c;
			b = i + 1;
		}
	return n;
}

/* Whether line [s, e) is a sentence of prose: eight words or more,
 * ending with a stop. */
static bool prose_line(const char *p, size_t s, size_t e)
{
	size_t words = 0, z = e;
	while (z > s && (p[z - 1] == ' ' || p[z - 1] == '\r'))
		z--;
	for (size_t i = s; i < z; i++)
		words += isalpha((unsigned char)p[i]) && (i == s || p[i - 1] == ' ');
	return words >= 8 && z > s && (p[z - 1] == '.' || p[z - 1] == ';' || p[z - 1] == ':');
}

static size_t count_of(const char *p, size_t s, size_t e, char ch)
{
	size_t n = 0;
	for (size_t i = s; i < e; i++)
		n += p[i] == ch;
	return n;
}

/* The tables of page p, each a header and its rows, into ts[0..max). */
static size_t read_tables(const char *p, size_t len, struct table *ts, size_t max)
{
	size_t nt = 0;
	for (size_t i = 0; i < len && nt < max;) {
		size_t e = line_end(p, len, i), n2 = e < len ? e + 1 : len,
		       e2 = line_end(p, len, n2);
		struct cell cols[TABLE_COLS];
		size_t nc = n2 < len ? dash_rule(p, n2, e2, cols) : 0;
		bool aligned = false;
		if (!nc && n2 < len && (nc = aligned_header(p, i, e, n2, e2, cols)) > 0)
			aligned = true;
		char sep = 0;
		if (!nc && count_of(p, i, e, '|') >= 2)
			sep = '|';
		else if (!nc && count_of(p, i, e, '\t') >= 2)
			sep = '\t';
		if (!nc && !sep) {
			i = n2 > i ? n2 : len;
			continue;
		}
		struct table *t = &ts[nt];
		memset(t, 0, sizeof(*t));
		t->p = p;
		if (nc) {
			for (size_t k = 0; k < nc; k++) {
				struct cell h = { i + cols[k].s,
						  k + 1 < nc ? i + cols[k + 1].s : e };
				if (h.s > e)
					h.s = e;
				if (h.e > e)
					h.e = e;
				trim(p, &h);
				t->head[k] = h;
			}
			t->nh = nc;
		} else {
			t->nh = split(p, i, e, sep, t->head);
		}
		t->rows = sw_xcalloc(TABLE_ROWS, sizeof(*t->rows));
		size_t r = nc && !aligned ? (e2 < len ? e2 + 1 : len) : n2;
		while (r < len && t->nr < TABLE_ROWS) {
			size_t re = line_end(p, len, r);
			if (re == r || p[r] == '\f')
				break;
			struct cell f[TABLE_COLS];
			if (aligned && aligned_fields(p, r, re, f) < 2)
				break; /* "Total 212": the table has ended */
			if (prose_line(p, r, re))
				break; /* a sentence under the table, no row of it */
			struct row *w = &t->rows[t->nr];
			w->s = r;
			w->e = re;
			if (nc) {
				for (size_t k = 0; k < nc; k++) {
					size_t cs = r + cols[k].s,
					       ce = k + 1 < nc ? r + cols[k + 1].s : re;
					struct cell c = { cs < re ? cs : re, ce < re ? ce : re };
					trim(p, &c);
					w->c[k] = c;
				}
				w->nc = nc;
			} else {
				if (count_of(p, r, re, sep) < 1)
					break;
				if (sep == '|' &&
				    dash_rule(p, r, re, (struct cell[TABLE_COLS]){ 0 }) == 0 &&
				    strspn(p + r, " |-:") >= re - r) {
					r = re + 1;
					continue; /* |---|---| */
				}
				w->nc = split(p, r, re, sep, w->c);
			}
			t->nr++;
			r = re < len ? re + 1 : len;
		}
		if (t->nr)
			nt++;
		else
			free(t->rows);
		i = r > i ? r : n2;
	}
	return nt;
}


static bool header_names(const char *p, const struct cell *h, const char *u);
static bool header_holds(const char *p, const struct cell *h, const char *u);

/* A label of a sentence: "Crew 3" (a capitalised word, a number). */
struct label {
	char w[24];
	long n;      /* the number, or -1 for a letter */
	char letter; /* "Crew A": 'A' */
};

static size_t labels_of(const char *t, size_t s, size_t e, struct label *out, size_t max)
{
	size_t n = 0;
	for (size_t i = s; i < e && n < max; i++) {
		if (!isupper((unsigned char)t[i]) || (i > s && isalpha((unsigned char)t[i - 1])))
			continue;
		size_t k = i;
		while (k < e && isalpha((unsigned char)t[k]))
			k++;
		/* "Crew A": a capitalised word and a letter standing alone */
		if (k - i >= 3 && k - i < sizeof(out->w) && k + 2 <= e && t[k] == ' ' &&
		    isupper((unsigned char)t[k + 1]) &&
		    (k + 2 == e || !(isalnum((unsigned char)t[k + 2]) || t[k + 2] == '/' ||
				     t[k + 2] == '.' || t[k + 2] == '\''))) {
			struct label l = { { 0 }, -1, t[k + 1] };
			for (size_t q = 0; q < k - i; q++)
				l.w[q] = (char)tolower((unsigned char)t[i + q]);
			out[n++] = l;
			i = k;
			continue;
		}
		if (k - i < 3 || k - i >= sizeof(out->w) || k + 1 >= e || t[k] != ' ' ||
		    !isdigit((unsigned char)t[k + 1])) {
			i = k;
			continue;
		}
		static const char *const months[] = { "jan", "feb", "mar", "apr", "may", "jun",
						      "jul", "aug", "sep", "oct", "nov", "dec" };
		bool month = false;
		for (size_t m = 0; m < SW_ARRAY_LEN(months) && !month; m++)
			month = strncasecmp(t + i, months[m], 3) == 0;
		if (month) {
			i = k;
			continue; /* "June 21" is a date, no label */
		}
		struct label l = { { 0 }, 0, 0 };
		size_t wl = k - i;
		if (t[k - 1] == 's' && wl > 3)
			wl--; /* "Crews 3 and 4" */
		for (size_t q = 0; q < wl; q++)
			l.w[q] = (char)tolower((unsigned char)t[i + q]);
		/* "Crew 3", "Crews 3 and 4", "Crews 3, 4" */
		size_t q = k + 1;
		while (q < e && n < max) {
			long v = 0;
			size_t d = q;
			while (d < e && isdigit((unsigned char)t[d]) && d - q < 6)
				v = v * 10 + (t[d++] - '0');
			if (d == q || (d < e && (isalnum((unsigned char)t[d]) || t[d] == '/' ||
						 t[d] == '.' || t[d] == '-')))
				break;
			l.n = v;
			out[n++] = l;
			if (d + 5 < e && strncmp(t + d, " and ", 5) == 0 &&
			    isdigit((unsigned char)t[d + 5]))
				q = d + 5;
			else if (d + 2 < e && t[d] == ',' && t[d + 1] == ' ' &&
				 isdigit((unsigned char)t[d + 2]))
				q = d + 2;
			else
				break;
		}
		i = k;
	}
	return n;
}

/* Whether row text [s, e) of p holds label l ("Crew 3"); *word whether
 * it holds l's word before any number. */
static bool row_label(const char *p, size_t s, size_t e, const struct label *l, bool *word)
{
	size_t wl = strlen(l->w);
	for (size_t i = s; i + wl < e; i++) {
		if (strncasecmp(p + i, l->w, wl) != 0 ||
		    (i > s && isalpha((unsigned char)p[i - 1])))
			continue;
		size_t k = i + wl;
		if (k < e && p[k] == 's')
			k++;
		if (k >= e || p[k] != ' ' || k + 1 >= e)
			continue;
		if (l->n < 0) {
			/* "Crew A" */
			if (!isupper((unsigned char)p[k + 1]) ||
			    (k + 2 < e && isalnum((unsigned char)p[k + 2])))
				continue;
			*word = true;
			if (p[k + 1] == l->letter)
				return true;
			continue;
		}
		if (!isdigit((unsigned char)p[k + 1]))
			continue;
		*word = true;
		long v = 0;
		size_t d = k + 1;
		while (d < e && isdigit((unsigned char)p[d]))
			v = v * 10 + (p[d++] - '0');
		if (v == l->n)
			return true;
	}
	return false;
}

/* Whether header h names unit u: the same word, or its abbreviation
 * ("Hrs" for hours, "Pcs" for pieces, "Qty" for quantity). */
static bool header_names(const char *p, const struct cell *h, const char *u)
{
	size_t hl = h->e - h->s, ul = strlen(u);
	if (!hl || !ul || tolower((unsigned char)p[h->s]) != u[0])
		return false;
	if (hl >= 3 && strncasecmp(p + h->s, u, hl) == 0)
		return true;
	if ((hl == ul || hl == ul + 1) && strncasecmp(p + h->s, u, ul) == 0)
		return true;
	size_t k = 0;
	for (size_t i = 0; i < hl; i++) {
		int ch = tolower((unsigned char)p[h->s + i]);
		if (!isalpha(ch))
			return false;
		while (k < ul && u[k] != ch)
			k++;
		if (k == ul)
			return false;
		k++;
	}
	return hl >= 2;
}

/* Whether header h holds word u (or u plus 's') as a whole word: "Delay
 * (days)" for day, "Days late". */
static bool header_holds(const char *p, const struct cell *h, const char *u)
{
	size_t ul = strlen(u);
	for (size_t i = h->s; i + ul <= h->e; i++) {
		if (strncasecmp(p + i, u, ul) != 0 ||
		    (i > h->s && isalpha((unsigned char)p[i - 1])))
			continue;
		size_t k = i + ul;
		if (k < h->e && (p[k] == 's' || p[k] == 'S'))
			k++;
		if (k == h->e || !isalpha((unsigned char)p[k]))
			return true;
	}
	return false;
}

bool sw__verify_table_cell(const char *p, size_t len, const char *word, int64_t value,
			   size_t *at, size_t *end)
{
	struct table ts[4];
	size_t nt = read_tables(p, len, ts, 4);
	bool found = false;
	char plural[32];
	snprintf(plural, sizeof(plural), "%ss", word);
	for (size_t k = 0; k < nt; k++) {
		for (size_t c = 0; c < ts[k].nh && !found; c++) {
			const struct cell *h = &ts[k].head[c];
			if (!(header_names(p, h, word) || header_names(p, h, plural) ||
			      header_holds(p, h, word)))
				continue;
			for (size_t r = 0; r < ts[k].nr && !found; r++) {
				const struct cell *x = &ts[k].rows[r].c[c];
				if (c < ts[k].rows[r].nc && x->e > x->s &&
				    sw__verify_numeral_on(p + x->s, x->e - x->s, value, at, end)) {
					*at += x->s;
					*end += x->s;
					found = true;
				}
			}
		}
	}
	for (size_t k = 0; k < nt; k++)
		free(ts[k].rows);
	return found;
}

void sw__verify_rows_release(struct sw__verify_rows *rs)
{
	free(rs->what);
	free(rs->label_bad);
	free(rs->cells);
	free(rs->rows_text);
	free(rs->table_text);
	memset(rs, 0, sizeof(*rs));
}

static void add_row(struct sw__verify_rows *rs, const struct table *t, const struct row *w)
{
	for (size_t k = 0; k < w->nc && k < t->nh; k++) {
		rs->cells = sw_xrealloc(rs->cells, (rs->ncells + 1) * sizeof(*rs->cells));
		rs->cells[rs->ncells++] = (struct sw__verify_cell){ t->head[k].s, t->head[k].e,
								    w->c[k].s, w->c[k].e };
	}
}

/* Whether row w of table tb holds label l: "Crew 3" in its text, or 3 in
 * the cell under a column its word names ("Lot"); *info whether the row
 * says anything of l's kind. */
static bool row_has(const char *p, const struct table *tb, const struct row *w,
		    const struct label *l, bool *info)
{
	bool word = false;
	if (row_label(p, w->s, w->e, l, &word)) {
		*info = true;
		return true;
	}
	for (size_t h = 0; h < tb->nh && h < w->nc; h++) {
		if (!header_names(p, &tb->head[h], l->w) && !header_holds(p, &tb->head[h], l->w))
			continue;
		size_t a, z;
		word = true;
		bool letter_cell = l->n < 0 && w->c[h].e == w->c[h].s + 1 &&
				   p[w->c[h].s] == l->letter;
		if (letter_cell || (l->n >= 0 && w->c[h].e > w->c[h].s &&
				    sw__verify_numeral_on(p + w->c[h].s, w->c[h].e - w->c[h].s,
							  l->n * 100, &a, &z))) {
			*info = true;
			return true;
		}
	}
	*info |= word;
	return false;
}

bool sw__verify_rows(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		     size_t np, struct sw__verify_rows *rs)
{
	memset(rs, 0, sizeof(*rs));
	const char *t = u->r->text;
	struct sw__verify_day want[TABLE_DATES];
	size_t nw =
		sw__verify_text_days(t + c->start, c->end - c->start, want, 0, TABLE_DATES, true);
	struct label lab[8];
	size_t nl = labels_of(t, c->start, c->end, lab, 8);
	if (!nw && !nl)
		return false;
	for (size_t q = 0; q < np && !rs->set && !u->err.code; q++) {
		struct sw_err e = { 0 };
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			continue;
		const char *p = u->page.data;
		struct table ts[4];
		size_t nt = read_tables(p, u->page.len, ts, 4);
		for (size_t k = 0; k < nt && !rs->set; k++) {
			const struct table *tb = &ts[k];
			bool *dhit = sw_xcalloc(tb->nr + 1, sizeof(bool)),
			     *lhit = sw_xcalloc(tb->nr + 1, sizeof(bool));
			bool any_date = false, any_dhit = false, any_info = false;
			for (size_t r = 0; r < tb->nr; r++) {
				const struct row *w = &tb->rows[r];
				struct sw__verify_day d[2];
				size_t nd =
					sw__verify_text_days(p + w->s, w->e - w->s, d, 0, 2, true);
				any_date |= nd > 0;
				for (size_t a = 0; a < nd && !dhit[r]; a++)
					for (size_t b = 0; b < nw && !dhit[r]; b++)
						dhit[r] = d[a].y == want[b].y &&
							  d[a].m == want[b].m &&
							  d[a].d == want[b].d;
				any_dhit |= dhit[r];
				for (size_t l = 0; l < nl; l++)
					lhit[r] |= row_has(p, tb, w, &lab[l], &any_info);
			}
			/* the keys this table answers to: the sentence's dates when
			 * the table has rows of them, its labels when the table
			 * names such labels */
			bool use_d = nw && any_date && any_dhit, use_l = nl && any_info;
			struct sw_buf what = SW_BUF_INIT, all = SW_BUF_INIT, rows = SW_BUF_INIT;
			bool got = false;
			for (size_t r = 0; r < tb->nr && (use_d || use_l); r++) {
				const struct row *w = &tb->rows[r];
				sw_buf_addf(&all, "%.*s\n", (int)(w->e - w->s), p + w->s);
				if ((use_d && !dhit[r]) || (use_l && !lhit[r]))
					continue;
				got = true;
				add_row(rs, tb, w);
				sw_buf_addf(&rows, "%.*s\n", (int)(w->e - w->s), p + w->s);
				sw_buf_addf(&what, "%s%.*s", what.len ? " / " : "",
					    (int)(w->e - w->s) > 120 ? 120 : (int)(w->e - w->s),
					    p + w->s);
			}
			/* rows of the sentence, or a date whose rows are all another
			 * label's (label_bad) */
			if (got || (use_d && use_l)) {
				rs->set = true;
				rs->page = pages[q];
				rs->what = what.len ? sw_buf_detach(&what, NULL) : NULL;
				rs->rows_text =
					rows.len ? sw_buf_detach(&rows, NULL) : sw_xstrdup("");
				rs->table_text =
					all.len ? sw_buf_detach(&all, NULL) : sw_xstrdup("");
				if (!got && nl)
					rs->label_bad = lab[0].n < 0 ?
						sw_xasprintf("%s %c", lab[0].w, lab[0].letter) :
						sw_xasprintf("%s %ld", lab[0].w, lab[0].n);
			}
			sw_buf_release(&what);
			sw_buf_release(&all);
			sw_buf_release(&rows);
			free(dhit);
			free(lhit);
		}
		for (size_t k = 0; k < nt; k++)
			free(ts[k].rows);
	}
	return rs->set;
}

int sw__verify_row_fact(struct sw__verify_run *u, const struct sw__verify_rows *rs,
			const struct sw_claim_fact *f, char **says)
{
	*says = NULL;
	bool hours = f->unit[0] == 'h';
	if (!rs->set || !rs->ncells || (sw__verify_is_duration(f) && !hours) ||
	    (f->kind != SW_FACT_QUANTITY && f->kind != SW_FACT_MONEY))
		return 0;
	struct sw_err e = { 0 };
	if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, rs->page, &e), &e))
		return 0;
	const char *p = u->page.data;
	size_t at, end;
	bool column = false;
	int64_t sum = 0;
	size_t summed = 0;
	for (size_t k = 0; k < rs->ncells; k++) {
		const struct sw__verify_cell *x = &rs->cells[k];
		struct cell h = { x->hs, x->he };
		char plural[SW_FACT_UNIT_MAX + 2];
		snprintf(plural, sizeof(plural), "%ss", f->unit);
		if (f->kind != SW_FACT_QUANTITY || !f->unit[0] ||
		    !(header_names(p, &h, f->unit) || header_names(p, &h, plural) ||
		      header_holds(p, &h, f->unit)))
			continue;
		column = true;
		if (sw__verify_numeral_on(p + x->cs, x->ce - x->cs, f->value, &at, &end))
			return 1;
		/* the column's figures over the sentence's rows, for a total
		 * ("Lots 20 and 21 together held 92 panels") */
		int64_t v = 0;
		size_t d = x->cs;
		while (d < x->ce && !isdigit((unsigned char)p[d]))
			d++;
		bool num = d < x->ce;
		while (d < x->ce && isdigit((unsigned char)p[d]) && v < INT64_MAX / 1000)
			v = v * 10 + (p[d++] - '0');
		v *= 100;
		if (d < x->ce && p[d] == '.' && d + 1 < x->ce && isdigit((unsigned char)p[d + 1]))
			v += (p[d + 1] - '0') * 10 +
			     (d + 2 < x->ce && isdigit((unsigned char)p[d + 2]) ? p[d + 2] - '0'
										: 0);
		if (num && sum < INT64_MAX / 2) {
			sum += v;
			summed++;
		}
		if (!*says)
			*says = sw_xasprintf("%.*s %.*s", (int)(x->he - x->hs), p + x->hs,
					     (int)(x->ce - x->cs), p + x->cs);
	}
	if (column && summed > 1 && sum == f->value) {
		free(*says);
		*says = NULL;
		return 1;
	}
	if (column)
		return -1;
	for (size_t k = 0; k < rs->ncells; k++) {
		const struct sw__verify_cell *x = &rs->cells[k];
		if (sw__verify_numeral_on(p + x->cs, x->ce - x->cs, f->value, &at, &end))
			return 1;
		struct sw_fact_token tok;
		size_t pos = 0;
		while (sw_claims_next_fact(&tok, p + x->cs, x->ce - x->cs, &pos))
			if ((tok.kind == SW_FACT_MONEY || tok.kind == SW_FACT_QUANTITY) &&
			    tok.value == f->value)
				return 1;
	}
	/* no column for it: another row's figure is the wrong row's; one the
	 * table does not hold at all is for the page, not the rows, to say */
	if (rs->table_text &&
	    sw__verify_numeral_on(rs->table_text, strlen(rs->table_text), f->value, &at, &end))
		return -1;
	return 0;
}


/* Distinct values of column c of table tb (cells compared as written). */
static size_t distinct(const char *p, const struct table *tb, size_t c)
{
	size_t n = 0;
	for (size_t r = 0; r < tb->nr; r++) {
		const struct cell *x = c < tb->rows[r].nc ? &tb->rows[r].c[c] : NULL;
		if (!x || x->e == x->s)
			continue;
		bool seen = false;
		for (size_t q = 0; q < r && !seen; q++) {
			const struct cell *y = c < tb->rows[q].nc ? &tb->rows[q].c[c] : NULL;
			seen = y && y->e - y->s == x->e - x->s &&
			       strncasecmp(p + y->s, p + x->s, x->e - x->s) == 0;
		}
		n += !seen;
	}
	return n;
}

bool sw__verify_table_count(const char *p, size_t len, const char *word, const char *must,
			    size_t *all, size_t *named, size_t *distinct_n)
{
	struct table ts[4];
	size_t nt = read_tables(p, len, ts, 4);
	bool found = false;
	char plural[32];
	snprintf(plural, sizeof(plural), "%ss", word);
	*all = *named = *distinct_n = 0;
	for (size_t k = 0; k < nt && !found; k++)
		for (size_t c = 0; c < ts[k].nh && !found; c++) {
			const struct cell *h = &ts[k].head[c];
			if (!(header_names(p, h, word) || header_names(p, h, plural) ||
			      header_holds(p, h, word)))
				continue;
			found = true;
			*distinct_n = distinct(p, &ts[k], c);
			for (size_t r = 0; r < ts[k].nr; r++) {
				const struct row *w = &ts[k].rows[r];
				if (c >= w->nc || w->c[c].e == w->c[c].s)
					continue;
				(*all)++;
				size_t ml = must ? strlen(must) : 0;
				for (size_t i = w->s; ml && i + ml <= w->e; i++)
					if (strncasecmp(p + i, must, ml) == 0) {
						(*named)++;
						break;
					}
			}
		}
	for (size_t k = 0; k < nt; k++)
		free(ts[k].rows);
	return found;
}

bool sw__verify_table_days(const char *p, size_t len, const char *t, size_t s, size_t e,
			   size_t *all, size_t *labelled)
{
	struct table ts[4];
	size_t nt = read_tables(p, len, ts, 4);
	struct label lab[8];
	size_t nl = labels_of(t, s, e, lab, 8);
	struct sw__verify_day seen_all[TABLE_ROWS], seen_lab[TABLE_ROWS];
	size_t na = 0, nb = 0;
	bool any = false;
	for (size_t k = 0; k < nt; k++)
		for (size_t r = 0; r < ts[k].nr; r++) {
			const struct row *w = &ts[k].rows[r];
			struct sw__verify_day d[1];
			if (sw__verify_text_days(p + w->s, w->e - w->s, d, 0, 1, true) != 1)
				continue;
			any = true;
			bool info = false, mine = false;
			for (size_t l = 0; l < nl; l++)
				mine |= row_has(p, &ts[k], w, &lab[l], &info);
			bool dup = false;
			for (size_t q = 0; q < na && !dup; q++)
				dup = seen_all[q].y == d[0].y && seen_all[q].m == d[0].m &&
				      seen_all[q].d == d[0].d;
			if (!dup && na < TABLE_ROWS)
				seen_all[na++] = d[0];
			dup = false;
			for (size_t q = 0; q < nb && !dup; q++)
				dup = seen_lab[q].y == d[0].y && seen_lab[q].m == d[0].m &&
				      seen_lab[q].d == d[0].d;
			if (mine && !dup && nb < TABLE_ROWS)
				seen_lab[nb++] = d[0];
		}
	for (size_t k = 0; k < nt; k++)
		free(ts[k].rows);
	*all = na;
	*labelled = nl ? nb : 0;
	return any;
}

size_t sw__verify_table_rows(const char *p, size_t len)
{
	struct table ts[4];
	size_t nt = read_tables(p, len, ts, 4), rows = nt ? ts[0].nr : 0;
	for (size_t k = 0; k < nt; k++)
		free(ts[k].rows);
	return rows;
}
