/*
 * claims_tables.h - the shape of the reporter tables that
 * tools/gen_reporters.c writes into the build folder from data/reporters-db/.
 * Shared by the generator and the scanner, so it includes nothing of sworn.
 *
 * A form is one way a reporter is written (the edition's own abbreviation or
 * one of its variations).  Its lookup key is the form with every space
 * removed and the curly apostrophe written as ', so "U. S." and "U.S." meet.
 * Forms are sorted by key; forms with the same key (an ambiguous
 * abbreviation) are neighbours, and the hash slot points at the first.
 */
#ifndef SW_CLAIMS_TABLES_H
#define SW_CLAIMS_TABLES_H

#include <stddef.h>
#include <stdint.h>

enum sw__claims_src { SW__CLAIMS_SRC_CASE = 0, SW__CLAIMS_SRC_LAW = 1, SW__CLAIMS_SRC_JOURNAL = 2 };

/* How a citation to the reporter is laid out, from its regexes in the data. */
enum sw__claims_shape {
	SW__CLAIMS_SHAPE_STD = 0,      /* 550 U.S. 544 */
	SW__CLAIMS_SHAPE_DASH = 1,     /* 2006-Ohio-2095 */
	SW__CLAIMS_SHAPE_YEARPAGE = 2, /* T.C. Memo. 2019-233 */
	SW__CLAIMS_SHAPE_PARA = 3,     /* Bankr. L. Rep. (CCH) P12,345 */
	SW__CLAIMS_SHAPE_NOVOL = 4,    /* Reporter 123 without a volume */
	SW__CLAIMS_SHAPE_LAW_TITLE = 5,   /* 28 U.S.C. § 1332 */
	SW__CLAIMS_SHAPE_LAW_SECTION = 6, /* Fla. Stat. § 120.68, Mass. Gen. Laws ch. 1, § 2 */
	SW__CLAIMS_SHAPE_LAW_VOLPAGE = 7, /* 1 Stat. 2, 85 Fed. Reg. 1234 */
};

enum sw__claims_rep_flags {
	SW__CLAIMS_REP_SCOTUS = 1 << 0,    /* a Supreme Court reporter: court is implied */
	SW__CLAIMS_REP_VARIATION = 1 << 1, /* the form is a variation, not the edition */
};

struct sw__claims_reporter {
	const char *key;       /* the form without spaces */
	const char *canonical; /* the edition's abbreviation ("U.S.") */
	uint8_t src;           /* enum sw__claims_src */
	uint8_t shape;         /* enum sw__claims_shape */
	uint8_t flags;         /* enum sw__claims_rep_flags */
	int16_t start_year;    /* 0 when open */
	int16_t end_year;      /* 0 when open */
};

extern const struct sw__claims_reporter sw__claims_reporters[];
extern const size_t sw__claims_nreporters;
/* Open addressing by sw__claims_hash(key): 0 = empty, else index + 1 of the
 * first form with that key.  The size is a power of two. */
extern const uint32_t sw__claims_rep_slots[];
extern const uint32_t sw__claims_rep_mask;
/* The first word (up to its first space) of every form that a citation
 * starts with (laws and reporters cited without a volume in front), hashed
 * the same way: a cheap test before a longer lookup. */
extern const uint32_t sw__claims_lead_hashes[];
extern const uint32_t sw__claims_lead_mask;

/* FNV-1a over the key bytes, skipping spaces so callers can hash raw text. */
static inline uint32_t sw__claims_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == ' ')
			continue;
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

#endif /* SW_CLAIMS_TABLES_H */
