/* gen_production.c - write a synthetic Concordance production for bench/ingest.
 *
 * Usage: gen_production OUTDIR [PAGES] [SEED]
 *
 * Writes, under OUTDIR:
 *   VOL001/ACME.DAT                      the load file: þ-quoted fields, 0x14
 *                                        separators, CRLF line ends; columns
 *                                        BEGBATES ENDBATES CUSTODIAN DATESENT
 *                                        AUTHOR TITLE TEXTPATH
 *   VOL001/TEXT/0001/ACME0000001.txt     one text file per document, pages
 *                                        separated by form feeds, 1000 files
 *                                        per folder (0001, 0002, ...)
 *   pages.csv                            bates,text: every page's text, byte
 *                                        for byte as it sits in the text files
 *                                        (RFC 4180 quoting, CRLF records)
 *
 * PAGES pages in all (default 50000) in documents of 1 to 30 pages; page i of
 * a document is numbered BEGBATES + i.  Each page holds 1,800-2,500 bytes of
 * English-like legal prose with dates, names, dollar amounts, the odd
 * "§ 1983", curly quotes and en dashes, and ends with its Bates number as the
 * last line.  The output depends only on PAGES and SEED.
 *
 * Stand-alone on purpose: no sworn code, no dependencies, built by the bench
 * script with `cc -O2`. */
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PAGE_MIN 1800
#define PAGE_MAX 2500
#define DOC_MAX_PAGES 30
#define FILES_PER_FOLDER 1000
#define LINE_WIDTH 76
#define PAGES_LIMIT 100000000L /* ACME + 7 digits */

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* UTF-8 bytes the generated text uses. */
#define LDQUO "\xe2\x80\x9c" /* “ */
#define RDQUO "\xe2\x80\x9d" /* ” */
#define RSQUO "\xe2\x80\x99" /* ’ */
#define NDASH "\xe2\x80\x93" /* – */
#define SECT "\xc2\xa7"      /* § */
#define THORN "\xc3\xbe"     /* þ, the .DAT quote */
#define DAT_SEP "\x14"

static uint64_t rng_state;

/* splitmix64: small, fast and the same everywhere. */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [lo, hi]. */
static unsigned rnd_in(unsigned lo, unsigned hi)
{
	return lo + (unsigned)(rnd() % (uint64_t)(hi - lo + 1));
}

#define PICK(a) ((a)[rnd() % ARRAY_LEN(a)])

static const char *const words[] = {
	"the", "the", "the", "of", "of", "and", "and", "to", "to", "in", "a", "that",
	"for", "with", "by", "on", "as", "under", "from", "any", "such", "its", "all",
	"agreement", "party", "parties", "plaintiff", "defendant", "court", "counsel",
	"contract", "breach", "damages", "discovery", "document", "documents",
	"production", "privilege", "deposition", "witness", "testimony", "exhibit",
	"motion", "order", "judgment", "claim", "claims", "liability", "indemnity",
	"obligation", "obligations", "notice", "payment", "invoice", "shipment",
	"delivery", "warranty", "termination", "amendment", "schedule", "section",
	"clause", "provision", "representation", "consent", "approval", "review",
	"meeting", "memorandum", "correspondence", "email", "attachment", "draft",
	"revised", "final", "executed", "signed", "pursuant", "thereto", "herein",
	"hereby", "therein", "whereas", "notwithstanding", "including", "without",
	"limitation", "reasonable", "material", "adverse", "effect", "subsidiary",
	"affiliate", "officer", "director", "employee", "agent", "vendor", "supplier",
	"customer", "board", "committee", "report", "audit", "financial", "statement",
	"revenue", "forecast", "budget", "quarter", "fiscal", "year", "account",
	"accounts", "receivable", "payable", "balance", "transfer", "wire", "bank",
	"loan", "credit", "security", "interest", "collateral", "default", "cure",
	"period", "days", "business", "prior", "written", "confidential", "proprietary",
	"information", "trade", "secret", "disclosure", "compliance", "regulatory",
	"federal", "state", "statute", "regulation", "policy", "procedure", "manual",
	"training", "safety", "quality", "inspection", "defect", "product", "plant",
	"facility", "equipment", "contractor", "subcontractor", "project", "phase",
	"milestone", "deadline", "extension", "request", "response", "objection",
	"interrogatory", "subpoena", "hearing", "trial", "settlement", "mediation",
	"arbitration", "award", "costs", "fees", "expenses", "reimbursement",
	"allegedly", "promptly", "immediately", "substantially", "fully", "jointly",
	"severally", "expressly", "reasonably", "properly", "timely", "not", "no",
	"was", "were", "is", "are", "be", "been", "has", "have", "had", "will", "shall",
	"may", "should", "would", "could", "did", "does", "discussed", "confirmed",
	"requested", "received", "sent", "reviewed", "approved", "rejected",
	"disputed", "acknowledged", "agreed", "failed", "refused", "delayed",
	"terminated", "notified", "informed", "advised", "instructed", "authorized",
};

static const char *const first_names[] = {
	"James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda",
	"David", "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph",
	"Jessica", "Thomas", "Sarah", "Charles", "Karen", "Daniel", "Nancy", "Matthew",
	"Lisa", "Anthony", "Margaret", "Mark", "Sandra", "Steven", "Ashley", "Renée",
	"José", "Zoë", "François", "Siobhán",
};

static const char *const last_names[] = {
	"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis",
	"Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson",
	"Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson",
	"White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "O" RSQUO
	"Brien", "Müller", "Nguyen", "Kowalski",
};

static const char *const companies[] = {
	"Acme Corporation", "Acme Logistics LLC", "Globex Inc.", "Initech Holdings",
	"Umbrella Partners LP", "Stark Industrial Supply", "Wayne Freight Co.",
	"Hooli Capital", "Vandelay Imports", "Cyberdyne Systems", "Soylent Foods Inc.",
};

static const char *const months[] = {
	"January", "February", "March", "April", "May", "June", "July", "August",
	"September", "October", "November", "December",
};

static const char *const headers[] = {
	"CONFIDENTIAL " NDASH " SUBJECT TO PROTECTIVE ORDER",
	"HIGHLY CONFIDENTIAL " NDASH " ATTORNEYS" RSQUO " EYES ONLY",
	"PRIVILEGED & CONFIDENTIAL",
	"DRAFT " NDASH " FOR DISCUSSION PURPOSES ONLY",
};

static const char *const title_words[] = {
	"Supply", "Agreement", "Amendment", "Invoice", "Board", "Minutes", "Memo",
	"Re:", "Quarterly", "Report", "Shipment", "Schedule", "Audit", "Findings",
	"Letter", "Notice", "Default", "Forecast", "Budget", "Plant", "Inspection",
	"Settlement", "Proposal", "Draft", "Final", "Contract", "Review",
};

/* A growable byte buffer. */
struct buf {
	char *data;
	size_t len, cap;
};

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("gen_production: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->data = realloc(b->data, cap);
		if (!b->data)
			die("out of memory");
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void buf_printf(struct buf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		die("internal: formatted piece too long");
	buf_add(b, tmp, (size_t)n);
}

static void add_name(struct buf *b)
{
	buf_printf(b, "%s %s", PICK(first_names), PICK(last_names));
}

static void add_date(struct buf *b)
{
	unsigned y = rnd_in(2014, 2022), m = rnd_in(1, 12), d = rnd_in(1, 28);
	switch (rnd() % 3) {
	case 0: buf_printf(b, "%s %u, %u", months[m - 1], d, y); break;
	case 1: buf_printf(b, "%02u/%02u/%u", m, d, y); break;
	default: buf_printf(b, "%u-%02u-%02u", y, m, d); break;
	}
}

static void add_amount(struct buf *b)
{
	unsigned long dollars = (unsigned long)(rnd() % 9999999) + 1;
	char digits[32], grouped[48];
	int n = snprintf(digits, sizeof(digits), "%lu", dollars);
	size_t k = 0;
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			grouped[k++] = ',';
		grouped[k++] = digits[i];
	}
	grouped[k] = '\0';
	buf_printf(b, "$%s.%02u", grouped, rnd_in(0, 99));
}

/* Some plain words, the first capitalised when cap is set. */
static void add_words(struct buf *b, unsigned n, int cap)
{
	for (unsigned i = 0; i < n; i++) {
		const char *w = PICK(words);
		if (i)
			buf_puts(b, " ");
		if (cap && i == 0) {
			char c = w[0];
			if (c >= 'a' && c <= 'z')
				c = (char)(c - 'a' + 'A');
			buf_add(b, &c, 1);
			buf_puts(b, w + 1);
		} else {
			buf_puts(b, w);
		}
	}
}

/* One sentence, built from a handful of shapes. */
static void add_sentence(struct buf *b)
{
	switch (rnd() % 10) {
	case 0:
		buf_puts(b, "On ");
		add_date(b);
		buf_puts(b, ", ");
		add_name(b);
		buf_puts(b, " ");
		add_words(b, rnd_in(6, 14), 0);
		break;
	case 1:
		add_words(b, rnd_in(5, 10), 1);
		buf_puts(b, " in the amount of ");
		add_amount(b);
		buf_puts(b, " ");
		add_words(b, rnd_in(3, 8), 0);
		break;
	case 2:
		add_name(b);
		buf_puts(b, " wrote: " LDQUO);
		add_words(b, rnd_in(6, 16), 1);
		buf_puts(b, "." RDQUO);
		return;
	case 3:
		add_words(b, rnd_in(5, 12), 1);
		buf_printf(b, " between %s and %s ", PICK(companies), PICK(companies));
		add_words(b, rnd_in(3, 8), 0);
		break;
	case 4:
		add_words(b, rnd_in(4, 9), 1);
		buf_printf(b, " for the period %u" NDASH "%u ", rnd_in(2014, 2017), rnd_in(2018, 2022));
		add_words(b, rnd_in(3, 8), 0);
		break;
	case 5:
		if (rnd() % 4 == 0) {
			buf_puts(b, "Plaintiff" RSQUO "s claims under 42 U.S.C. " SECT " 1983 ");
			add_words(b, rnd_in(5, 12), 0);
		} else {
			add_words(b, rnd_in(5, 10), 1);
			buf_printf(b, " under Section %u.%u of the Agreement", rnd_in(1, 14), rnd_in(1, 9));
		}
		break;
	case 6:
		add_words(b, rnd_in(4, 8), 1);
		buf_printf(b, " (see Exhibit %u, %s" RSQUO "s deposition at %u:%u" NDASH "%u)",
			   rnd_in(1, 250), PICK(last_names), rnd_in(10, 300), rnd_in(1, 12),
			   rnd_in(13, 25));
		break;
	default:
		add_words(b, rnd_in(8, 22), 1);
		break;
	}
	buf_puts(b, ".");
}

/* Append text to page with words wrapped at LINE_WIDTH bytes. */
static void wrap_into(struct buf *page, size_t *col, const char *text, size_t len)
{
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && text[j] != ' ')
			j++;
		size_t w = j - i;
		if (*col && *col + 1 + w > LINE_WIDTH) {
			buf_puts(page, "\n");
			*col = 0;
		} else if (*col) {
			buf_puts(page, " ");
			(*col)++;
		}
		buf_add(page, text + i, w);
		*col += w;
		i = j < len ? j + 1 : j;
	}
}

/* One page: an optional header, paragraphs of sentences to a size drawn from
 * [PAGE_MIN, PAGE_MAX], and the Bates number as the last line. */
static void make_page(struct buf *page, const char *bates, unsigned page_no,
		      unsigned npages)
{
	struct buf sent = { 0 };
	/* Padding stops at most one word short of the target. */
	size_t target = rnd_in(PAGE_MIN + 16, PAGE_MAX);
	size_t col = 0;
	char footer[64];
	if (npages > 1)
		snprintf(footer, sizeof(footer), "\nPage %u of %u\n%s", page_no + 1, npages, bates);
	else
		snprintf(footer, sizeof(footer), "\n%s", bates);
	size_t tail = strlen(footer) + 2; /* the footer, a newline, a period */

	page->len = 0;
	if (page_no == 0 || rnd() % 3 == 0) {
		buf_puts(page, PICK(headers));
		buf_puts(page, "\n\n");
	}
	if (page_no == 0 && rnd() % 2 == 0) {
		buf_puts(page, "From: ");
		add_name(page);
		buf_puts(page, "\nTo: ");
		add_name(page);
		buf_puts(page, "\nDate: ");
		add_date(page);
		buf_puts(page, "\nSubject: ");
		add_words(page, rnd_in(3, 7), 1);
		buf_puts(page, "\n\n");
	}
	unsigned in_para = 0, para_len = rnd_in(3, 7);
	for (;;) {
		sent.len = 0;
		add_sentence(&sent);
		if (page->len + 1 + sent.len + tail > target)
			break;
		wrap_into(page, &col, sent.data, sent.len);
		if (++in_para == para_len) {
			buf_puts(page, "\n\n");
			col = 0;
			in_para = 0;
			para_len = rnd_in(3, 7);
		}
	}
	/* Pad the short remainder with words, so sizes follow the target. */
	bool padded = false;
	while (page->len + tail < target) {
		const char *w = PICK(words);
		if (page->len + tail + strlen(w) + 1 > target)
			break;
		wrap_into(page, &col, w, strlen(w));
		padded = true;
	}
	if (padded)
		buf_puts(page, ".");
	if (col)
		buf_puts(page, "\n");
	buf_puts(page, footer);
	free(sent.data);
}

static void mkdir_or_die(const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		die("cannot create '%s': %s", path, strerror(errno));
}

static FILE *open_or_die(const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		die("cannot create '%s': %s", path, strerror(errno));
	return f;
}

static void write_or_die(FILE *f, const void *data, size_t len, const char *path)
{
	if (len && fwrite(data, 1, len, f) != len)
		die("cannot write '%s': %s", path, strerror(errno));
}

static void close_or_die(FILE *f, const char *path)
{
	if (fclose(f) != 0)
		die("cannot write '%s': %s", path, strerror(errno));
}

/* One .DAT row: each field wrapped in þ, separated by 0x14, CRLF at the end. */
static void dat_row(struct buf *row, const char *const *fields, size_t n)
{
	row->len = 0;
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_puts(row, DAT_SEP);
		buf_puts(row, THORN);
		buf_puts(row, fields[i]);
		buf_puts(row, THORN);
	}
	buf_puts(row, "\r\n");
}

/* The text as one RFC 4180 field: quoted, inner quotes doubled. */
static void csv_field(struct buf *out, const char *s, size_t len)
{
	buf_puts(out, "\"");
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			buf_puts(out, "\"\"");
		else
			buf_add(out, &s[i], 1);
	}
	buf_puts(out, "\"");
}

static long parse_long(const char *s, const char *what, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		die("bad %s '%s': use a number from %ld to %ld", what, s, lo, hi);
	return v;
}

static char *path_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *path_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = malloc((size_t)n + 1);
	if (!p)
		die("out of memory");
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fputs("usage: gen_production OUTDIR [PAGES] [SEED]\n", stderr);
		return 2;
	}
	const char *out = argv[1];
	long total = argc > 2 ? parse_long(argv[2], "page count", 1, PAGES_LIMIT - 1) : 50000;
	long seed = argc > 3 ? parse_long(argv[3], "seed", 0, 2147483647L) : 1;
	rng_state = (uint64_t)seed * 0x2545f4914f6cdd1dULL + 1;

	char *vol = path_printf("%s/VOL001", out);
	char *textdir = path_printf("%s/TEXT", vol);
	char *dat_path = path_printf("%s/ACME.DAT", vol);
	char *csv_path = path_printf("%s/pages.csv", out);
	mkdir_or_die(out);
	mkdir_or_die(vol);
	mkdir_or_die(textdir);
	FILE *dat = open_or_die(dat_path);
	FILE *csv = open_or_die(csv_path);

	static const char *const cols[] = { "BEGBATES", "ENDBATES", "CUSTODIAN", "DATESENT",
					    "AUTHOR", "TITLE", "TEXTPATH" };
	struct buf row = { 0 }, page = { 0 }, doc = { 0 }, csvbuf = { 0 };
	struct buf custodian = { 0 }, date = { 0 }, author = { 0 }, title = { 0 };
	dat_row(&row, cols, ARRAY_LEN(cols));
	write_or_die(dat, row.data, row.len, dat_path);
	buf_puts(&csvbuf, "bates,text\r\n");

	long next = 1, ndocs = 0, folder = 0;
	unsigned long long text_bytes = 0;
	while (next <= total) {
		/* Mostly short documents (emails, letters), some long ones. */
		unsigned npages = rnd() % 2 ? rnd_in(1, 4) : rnd_in(1, DOC_MAX_PAGES);
		if ((long)npages > total - next + 1)
			npages = (unsigned)(total - next + 1);
		char beg[32], end[32], stamp[32];
		snprintf(beg, sizeof(beg), "ACME%07ld", next);
		snprintf(end, sizeof(end), "ACME%07ld", next + (long)npages - 1);
		if (ndocs % FILES_PER_FOLDER == 0) {
			folder++;
			char *sub = path_printf("%s/%04ld", textdir, folder);
			mkdir_or_die(sub);
			free(sub);
		}
		char *txt_path = path_printf("%s/%04ld/%s.txt", textdir, folder, beg);
		char textpath[64];
		snprintf(textpath, sizeof(textpath), "TEXT\\%04ld\\%s.txt", folder, beg);

		doc.len = 0;
		for (unsigned i = 0; i < npages; i++) {
			snprintf(stamp, sizeof(stamp), "ACME%07ld", next + (long)i);
			make_page(&page, stamp, i, npages);
			if (i)
				buf_puts(&doc, "\f");
			buf_add(&doc, page.data, page.len);
			buf_puts(&csvbuf, stamp);
			buf_puts(&csvbuf, ",");
			csv_field(&csvbuf, page.data, page.len);
			buf_puts(&csvbuf, "\r\n");
			text_bytes += page.len;
		}
		FILE *tf = open_or_die(txt_path);
		write_or_die(tf, doc.data, doc.len, txt_path);
		close_or_die(tf, txt_path);
		free(txt_path);
		write_or_die(csv, csvbuf.data, csvbuf.len, csv_path);
		csvbuf.len = 0;

		custodian.len = date.len = author.len = title.len = 0;
		add_name(&custodian);
		unsigned m = rnd_in(1, 12), d = rnd_in(1, 28), y = rnd_in(2014, 2022);
		buf_printf(&date, "%02u/%02u/%u", m, d, y);
		add_name(&author);
		unsigned nt = rnd_in(2, 6);
		for (unsigned i = 0; i < nt; i++) {
			if (i)
				buf_puts(&title, " ");
			buf_puts(&title, PICK(title_words));
		}
		if (rnd() % 5 == 0)
			buf_printf(&title, " " NDASH " %s", PICK(companies));
		const char *fields[] = { beg, end, custodian.data, date.data, author.data,
					 title.data, textpath };
		dat_row(&row, fields, ARRAY_LEN(fields));
		write_or_die(dat, row.data, row.len, dat_path);

		next += npages;
		ndocs++;
	}
	close_or_die(dat, dat_path);
	close_or_die(csv, csv_path);
	printf("%ld pages in %ld documents, %llu bytes of page text\n", total, ndocs,
	       text_bytes);
	free(row.data);
	free(page.data);
	free(doc.data);
	free(csvbuf.data);
	free(custodian.data);
	free(date.data);
	free(author.data);
	free(title.data);
	free(vol);
	free(textdir);
	free(dat_path);
	free(csv_path);
	return 0;
}
