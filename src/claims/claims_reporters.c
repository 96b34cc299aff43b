/* claims_reporters.c - the reporter table: the generated forms of
 * reporters-db and the English reports it lacks, with the quick test that
 * skips the lookup.  Calls nothing else in claims/ but the generated table
 * and the byte helpers. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "claims/claims_int.h"

/* English reports that American briefs cite and reporters-db (American
 * reporters only) lacks.  Without them "Hadley v. Baxendale, 9 Ex. 341
 * (1854)" read as exhibit 341 of the record: a volume before one of these
 * makes a case cite.  Keys are written as the generated table writes them
 * (no spaces); looked up only when the table has no such key. */
static const struct sw__claims_reporter extra_reporters[] = {
	{ "A.C.", "A.C.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1891, 0 },
	{ "App.Cas.", "App. Cas.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1875, 1890 },
	{ "Ch.D.", "Ch. D.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1875, 1890 },
	{ "E.R.", "Eng. Rep.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, SW__CLAIMS_REP_VARIATION,
	  0, 0 },
	{ "Eng.Rep.", "Eng. Rep.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 0, 0 },
	{ "Ex.", "Ex.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1847, 1856 },
	{ "Ex.D.", "Ex. D.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1875, 1880 },
	{ "Exch.", "Ex.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, SW__CLAIMS_REP_VARIATION, 1847,
	  1856 },
	{ "H.&N.", "H. & N.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1856, 1862 },
	{ "H.L.Cas.", "H.L. Cas.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1847, 1866 },
	{ "K.B.", "K.B.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1901, 1952 },
	{ "L.R.Ex.", "L.R. Ex.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1865, 1875 },
	{ "M.&W.", "M. & W.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1836, 1847 },
	{ "Q.B.", "Q.B.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1841, 0 },
	{ "Q.B.D.", "Q.B.D.", SW__CLAIMS_SRC_CASE, SW__CLAIMS_SHAPE_STD, 0, 1875, 1890 },
};

const struct sw__claims_reporter *sw__claims_rep(size_t i)
{
	if (i < sw__claims_nreporters)
		return &sw__claims_reporters[i];
	i -= sw__claims_nreporters;
	if (i >= SW_ARRAY_LEN(extra_reporters))
		SW_BUG("reporter form %zu out of range", i);
	return &extra_reporters[i];
}

/* The first two bytes of every reporter form's key (a bit each), and the
 * bytes of one-byte keys: most numbers are followed by words no reporter
 * starts with, and skip the lookup.  Made once per process (each scan made
 * them again: 15% of a fuzzed draft's time). */
static uint8_t rep_pair[65536 / 8];
static bool rep_single[256];
static pthread_once_t rep_once = PTHREAD_ONCE_INIT;

static void rep_pair_add(const char *key)
{
	unsigned a = (unsigned char)key[0], b = (unsigned char)key[1];
	if (!b)
		rep_single[a] = true;
	else
		rep_pair[(a << 8 | b) >> 3] |= (uint8_t)(1u << (b & 7));
}

static void rep_make(void)
{
	for (size_t i = 0; i < sw__claims_nreporters; i++)
		rep_pair_add(sw__claims_reporters[i].key);
	for (size_t i = 0; i < SW_ARRAY_LEN(extra_reporters); i++)
		rep_pair_add(extra_reporters[i].key);
}

void sw__claims_rep_first(void)
{
	pthread_once(&rep_once, rep_make);
}

bool sw__claims_rep_maybe(const struct sw__claims_scan *sc, size_t i)
{
	unsigned a = (unsigned)sw__claims_at(sc, i), b;
	if (rep_single[a])
		return true;
	size_t k = i + 1;
	if (sw__claims_space_len(sc, k))
		k = sw__claims_ws(sc, k);
	b = (unsigned)sw__claims_at(sc, k);
	if (b == 0xE2 && sw__claims_at(sc, k + 1) == 0x80 && sw__claims_at(sc, k + 2) == 0x99)
		b = '\'';
	return (rep_pair[(a << 8 | b) >> 3] >> (b & 7)) & 1;
}

bool sw__claims_reporter_lookup(const char *key, size_t len, size_t *first, size_t *count)
{
	uint32_t h = sw__claims_hash(key, len) & sw__claims_rep_mask;
	for (;;) {
		uint32_t s = sw__claims_rep_slots[h];
		if (!s)
			break;
		const char *k = sw__claims_reporters[s - 1].key;
		if (strlen(k) == len && memcmp(k, key, len) == 0) {
			size_t i = s - 1, c = 0;
			while (i + c < sw__claims_nreporters &&
			       strcmp(sw__claims_reporters[i + c].key, k) == 0)
				c++;
			*first = i;
			*count = c;
			return true;
		}
		h = (h + 1) & sw__claims_rep_mask;
	}
	/* every key of the extra table is 3 to 8 bytes and ends with '.' */
	if (len < 3 || len > 8 || key[len - 1] != '.')
		return false;
	for (size_t i = 0; i < SW_ARRAY_LEN(extra_reporters); i++) {
		const char *k = extra_reporters[i].key;
		if (k[0] == key[0] && strlen(k) == len && memcmp(k, key, len) == 0) {
			*first = sw__claims_nreporters + i;
			*count = 1;
			return true;
		}
	}
	return false;
}
