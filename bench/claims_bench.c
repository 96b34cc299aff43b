/* claims_bench.c - throughput of sw_claims_scan() for bench/claims.
 *
 * Usage: claims_bench EYECITE-CASES.jsonl [MB] [RUNS] [SEED]
 *        claims_bench --write brief|at|supra BYTES SEED FILE
 *
 * --write makes one document of at least BYTES bytes for bench/claims's
 * whole-CLI figures: "brief" is the generated prose below as one draft,
 * "at" has "at N" outside citations in every sentence among full cites
 * with distinct party names, "supra" has a supra cite in most sentences.
 *
 * Assembles a corpus of court-opinion-like documents of about 87 KB each
 * (the size of eyecite's opinion fixture), at least MB megabytes (10^6
 * bytes) in all (default 6): every text of the eyecite conformance cases,
 * then generated legal prose with citations at least as dense as in a real
 * opinion or more: full, short, id. and supra case cites,
 * parallel cites, statutes, rules, record cites, Bates ranges, dates and
 * quotations, with curly quotes, en dashes and section signs (about seven
 * claims per KB, denser than a real opinion, so the figures are if anything
 * pessimistic for the scan and heavy on the claim handling).  Then it
 * scans every document RUNS times (default 5) on one thread and prints the
 * best and median run: MB/s and claims/s.  Only sw_claims_scan() and
 * sw_claims_release() are timed; generation is not.
 *
 * The output depends only on MB and SEED.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "claims/claims.h"

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33) % n;
}

#define PICK(a) (a[rnd(SW_ARRAY_LEN(a))])

static const char *const parties[] = {
	"Smith", "Johnson", "Acme Corp.", "United States", "State", "Garcia", "Nguyen",
	"Bell Atl. Corp.", "Twombly", "Iqbal", "Ashcroft", "Celotex Corp.", "Catrett",
	"Anderson", "Liberty Lobby, Inc.", "Daubert", "Merrell Dow Pharms., Inc.",
	"Matsushita Elec. Indus. Co.", "Zenith Radio Corp.", "Chevron U.S.A. Inc.",
	"Natural Res. Def. Council, Inc.", "Doe", "Roe", "Brown", "Board of Educ.",
	"Miranda", "Arizona", "Marbury", "Madison", "Holmes", "City of Chicago",
};
static const char *const reporters[] = {
	"U.S.", "S. Ct.", "L. Ed. 2d", "F.3d", "F.4th", "F.2d", "F. Supp. 2d",
	"F. Supp. 3d", "A.2d", "A.3d", "N.E.2d", "N.E.3d", "So. 3d", "P.3d",
	"Cal. App. 4th", "Cal. Rptr. 3d", "N.W.2d", "S.W.3d", "B.R.", "F. App'x",
};
static const char *const courts[] = {
	"", "1st Cir.", "2d Cir.", "9th Cir.", "D.C. Cir.", "Fed. Cir.", "S.D.N.Y.",
	"N.D. Cal.", "D. Mass.", "E.D. Pa.", "Cal. Ct. App.", "Tex. Crim. App.", "Ill.",
};
static const char *const words[] = {
	"the", "court", "held", "that", "plaintiff", "defendant", "motion", "summary",
	"judgment", "must", "be", "granted", "because", "no", "genuine", "dispute",
	"of", "material", "fact", "exists", "and", "evidence", "shows", "contract",
	"was", "breached", "when", "parties", "agreed", "to", "terms", "record",
	"reflects", "testimony", "witness", "stated", "claim", "fails", "as", "a",
	"matter", "law", "in", "light", "standard", "review", "district", "appeal",
	"jurisdiction", "under", "statute", "provides", "relief", "damages", "not",
	"reasonable", "jury", "could", "find", "for", "nonmoving", "party", "therefore",
};
static const char *const months[] = {
	"January", "Feb.", "March", "Apr.", "May", "June", "July", "Aug.", "Sept.",
	"October", "Nov.", "December",
};

static void words_n(struct sw_buf *b, int n)
{
	for (int i = 0; i < n; i++) {
		sw_buf_adds(b, i ? " " : "");
		sw_buf_adds(b, PICK(words));
	}
}

static void sentence(struct sw_buf *b)
{
	sw_buf_adds(b, "The ");
	words_n(b, 8 + (int)rnd(14));
	switch (rnd(16)) {
	case 0:
	case 1:
	case 2: {
		const char *court = PICK(courts);
		sw_buf_addf(b, ". See %s v. %s, %u %s %u, %u%s (%s%s%u)", PICK(parties), PICK(parties),
			    1 + rnd(600), PICK(reporters), 1 + rnd(1500), 1 + rnd(1500),
			    rnd(4) ? "" : "\xE2\x80\x93" "12", court, *court ? " " : "", 1950 + rnd(75));
		if (!rnd(3))
			sw_buf_addf(b, " (quoting %s, %u U.S. %u, %u (%u))", PICK(parties), 300 + rnd(300),
				    1 + rnd(900), 1 + rnd(900), 1960 + rnd(60));
		break;
	}
	case 3:
		sw_buf_addf(b, ". %s, %u %s at %u", PICK(parties), 1 + rnd(600), PICK(reporters), 1 + rnd(1500));
		break;
	case 4:
		sw_buf_addf(b, ". Id. at %u", 1 + rnd(900));
		break;
	case 5:
		sw_buf_addf(b, ". %s, supra, at %u", PICK(parties), 1 + rnd(900));
		break;
	case 6:
		sw_buf_addf(b, ". See %u U.S.C. \xC2\xA7 %u(%c)(%u); Fed. R. Civ. P. %u(%c)", 1 + rnd(50),
			    1 + rnd(9000), 'a' + rnd(6), 1 + rnd(5), 1 + rnd(86), 'a' + rnd(4));
		break;
	case 7:
		sw_buf_addf(b, " (%s Dep. %u:%u\xE2\x80\x93%u; Ex. %u at %u)", PICK(parties), 1 + rnd(300),
			    1 + rnd(25), 1 + rnd(25), 1 + rnd(120), 1 + rnd(40));
		break;
	case 8:
		sw_buf_addf(b, " (ACME%07u\xE2\x80\x93%02u; ECF No. %u at %u)", rnd(900000), rnd(100),
			    1 + rnd(400), 1 + rnd(60));
		break;
	case 9:
		sw_buf_addf(b, " on %s %u, %u", PICK(months), 1 + rnd(28), 1990 + rnd(35));
		break;
	case 10:
		sw_buf_addf(b, " \xE2\x80\x9C[t]he ");
		words_n(b, 6 + (int)rnd(10));
		sw_buf_addf(b, " . . . %s\xE2\x80\x9D %s, %u F.3d at %u", PICK(words), PICK(parties),
			    1 + rnd(999), 1 + rnd(1500));
		break;
	case 11:
		sw_buf_addf(b, " in %u WL %u, at *%u (%s %u/%u/%u)", 2000 + rnd(25), 100000 + rnd(9000000),
			    1 + rnd(20), PICK(courts), 1 + rnd(12), 1 + rnd(28), 2000 + rnd(25));
		break;
	default:
		break;
	}
	sw_buf_adds(b, ".  ");
}

/* One opinion-sized document of about 87 KB of generated prose. */
static void document(struct sw_buf *b)
{
	while (b->len < 87000) {
		int n = 3 + (int)rnd(6);
		for (int i = 0; i < n; i++)
			sentence(b);
		sw_buf_adds(b, "\n\n");
	}
}

/* ---- single-document corpora for the whole-CLI figures (--write) */

/* A name no other claim of the corpus shares: Name123 */
static void uniq_name(struct sw_buf *b, const char *stem, uint32_t n)
{
	static const char *const tail[] = { "", " Corp.", " Inc.", " LLC", " Co." };
	sw_buf_addf(b, "%s%c%c%u%s", stem, 'a' + (int)(n % 26), 'a' + (int)(n / 26 % 26), n,
		    tail[n % 5]);
}

/* "at"-rich prose: "at N" outside citations in every sentence, and many
 * full cites whose party names the words before "at" do not match. */
static void at_paragraph(struct sw_buf *b, uint32_t *cites)
{
	for (int i = 0; i < 4; i++) {
		sw_buf_addf(b, "The hearing at %u and the meeting at %u were ", 1 + rnd(12), 1 + rnd(12));
		words_n(b, 6 + (int)rnd(8));
		sw_buf_addf(b, ", and the witness arrived at %u", 1 + rnd(12));
		if (rnd(3) == 0) {
			uint32_t n = (*cites)++;
			sw_buf_adds(b, ". See ");
			uniq_name(b, "Plaintiff", n);
			sw_buf_adds(b, " v. ");
			uniq_name(b, "Defendant", n);
			sw_buf_addf(b, ", %u F.3d %u, %u (9th Cir. %u)", 1 + rnd(999), 1 + rnd(1500),
				    1 + rnd(1500), 1990 + rnd(30));
			if (n && rnd(2)) {
				sw_buf_adds(b, ". ");
				uniq_name(b, "Plaintiff", rnd(n));
				sw_buf_addf(b, " at %u", 1 + rnd(1500));
			}
		}
		sw_buf_adds(b, ".  ");
	}
	sw_buf_adds(b, "\n\n");
}

/* supra-heavy prose: a full cite now and then, supra cites to earlier ones
 * (and to names never cited in full) in most sentences. */
static void supra_paragraph(struct sw_buf *b, uint32_t *cites)
{
	for (int i = 0; i < 4; i++) {
		sw_buf_adds(b, "The ");
		words_n(b, 5 + (int)rnd(6));
		if (*cites == 0 || rnd(4) == 0) {
			uint32_t n = (*cites)++;
			sw_buf_adds(b, ". ");
			uniq_name(b, "Appellant", n);
			sw_buf_adds(b, " v. ");
			uniq_name(b, "Appellee", n);
			sw_buf_addf(b, ", %u F.4th %u (2d Cir. %u)", 1 + rnd(99), 1 + rnd(1500), 2000 + rnd(24));
		} else {
			sw_buf_adds(b, ". ");
			uniq_name(b, rnd(8) ? "Appellant" : "Stranger", rnd(*cites));
			sw_buf_addf(b, ", supra, at %u", 1 + rnd(1500));
		}
		sw_buf_adds(b, ".  ");
	}
	sw_buf_adds(b, "\n\n");
}

/* claims_bench --write brief|at|supra BYTES SEED FILE */
static int write_corpus(const char *kind, size_t bytes, const char *path)
{
	struct sw_buf b = SW_BUF_INIT;
	uint32_t cites = 0;
	while (b.len < bytes) {
		if (!strcmp(kind, "brief")) {
			int n = 3 + (int)rnd(6);
			for (int i = 0; i < n; i++)
				sentence(&b);
			sw_buf_adds(&b, "\n\n");
		} else if (!strcmp(kind, "at")) {
			at_paragraph(&b, &cites);
		} else if (!strcmp(kind, "supra")) {
			supra_paragraph(&b, &cites);
		} else {
			fprintf(stderr, "claims_bench: no corpus '%s' (brief, at or supra)\n", kind);
			return 2;
		}
	}
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b.data, 1, b.len, f) != b.len || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	printf("%zu bytes\n", b.len);
	sw_buf_release(&b);
	return 0;
}

struct doc {
	char *text;
	size_t len;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "--write")) {
		rng_state = strtoull(argv[4], NULL, 10);
		return write_corpus(argv[2], (size_t)strtoull(argv[3], NULL, 10), argv[5]);
	}
	if (argc < 2) {
		fprintf(stderr, "usage: claims_bench EYECITE-CASES.jsonl [MB] [RUNS] [SEED]\n");
		return 2;
	}
	double mb = argc > 2 ? strtod(argv[2], NULL) : 6;
	int runs = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 5;
	rng_state = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
	if (mb <= 0 || runs <= 0 || runs > 100) {
		fprintf(stderr, "claims_bench: bad MB or RUNS\n");
		return 2;
	}

	struct doc *docs = NULL;
	size_t ndocs = 0, cap = 0, total = 0;
	/* the conformance texts, joined into one document */
	struct sw_buf b = SW_BUF_INIT;
	FILE *f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	char *line = NULL;
	size_t lcap = 0;
	while (getline(&line, &lcap, f) > 0) {
		json_t *c = json_loads(line, 0, NULL);
		const char *t = json_string_value(json_object_get(c, "text"));
		if (t) {
			sw_buf_adds(&b, t);
			sw_buf_adds(&b, "\n\n");
		}
		json_decref(c);
	}
	free(line);
	fclose(f);
	while (total < mb * 1e6) {
		docs = sw_xgrow(docs, &cap, ndocs + 1, sizeof(*docs));
		if (ndocs)
			document(&b);
		docs[ndocs].text = sw_buf_detach(&b, &docs[ndocs].len);
		total += docs[ndocs].len;
		ndocs++;
	}

	double *secs = sw_xcalloc((size_t)runs, sizeof(*secs));
	size_t claims = 0;
	size_t kinds[SW_CLAIM_PROPOSITION + 1] = { 0 };
	for (int r = 0; r < runs; r++) {
		size_t n = 0;
		double t0 = now();
		for (size_t d = 0; d < ndocs; d++) {
			struct sw_claims c;
			if (sw_claims_scan(&c, docs[d].text, docs[d].len, NULL) != 0)
				return 1;
			n += c.n;
			if (r == 0)
				for (size_t i = 0; i < c.n; i++)
					if ((size_t)c.v[i].kind < sizeof(kinds) / sizeof(kinds[0]))
						kinds[c.v[i].kind]++;
			sw_claims_release(&c);
		}
		secs[r] = now() - t0;
		claims = n;
	}
	qsort(secs, (size_t)runs, sizeof(*secs), bench_cmp_double);
	double best = secs[0], median = secs[runs / 2];
	printf("corpus: %zu documents, %zu bytes (%.2f MB), %zu claims:", ndocs, total, total / 1e6, claims);
	for (int k = 0; k <= SW_CLAIM_PROPOSITION; k++)
		printf(" %s %zu", sw_claim_kind_name(k), kinds[k]);
	printf("\nruns: %d, one thread\n", runs);
	printf("best:   %.3f s  %.1f MB/s  %.0f claims/s\n", best, total / 1e6 / best, claims / best);
	printf("median: %.3f s  %.1f MB/s  %.0f claims/s\n", median, total / 1e6 / median, claims / median);
	for (size_t d = 0; d < ndocs; d++)
		free(docs[d].text);
	free(docs);
	free(secs);
	return 0;
}
