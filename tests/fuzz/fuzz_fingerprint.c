/*
 * fuzz_fingerprint.c - hostile text through the provenance fingerprints and
 * their comparison.  The input is split at its first NUL (or halfway) into
 * a document and an output.  Checks: prints sorted and unique, a text shares
 * all its prints with itself and matches itself, shared counts symmetric
 * and bounded, scores within [0, 1]; the output's prints less what it
 * copied from the document (sw__record_fp_compute_given, the document as
 * the evidence it was shown) are a subset of its own, and a text given
 * itself keeps nothing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_fingerprint: %s", what);
}

static void check_fp(const struct sw_fp *f)
{
	for (size_t i = 1; i < f->n; i++)
		check(f->hashes[i - 1] < f->hashes[i], "prints not sorted and unique");
	check(f->n <= f->words, "more prints than words");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	const char *nul = memchr(s, '\0', size);
	size_t alen = nul ? (size_t)(nul - s) : size / 2;
	size_t boff = nul ? alen + 1 : alen;
	struct sw_fp a, b;
	struct sw_fp_score sc;

	sw__record_fp_compute(&a, s, alen);
	sw__record_fp_compute(&b, s + boff, size - boff);
	check_fp(&a);
	check_fp(&b);
	size_t ab = sw__record_fp_shared(&a, &b), ba = sw__record_fp_shared(&b, &a);
	check(ab == ba, "shared not symmetric");
	check(ab <= a.n && ab <= b.n, "shared over a count");
	check(sw__record_fp_shared(&a, &a) == a.n, "a text does not share all its prints");
	sw__record_fp_score(&sc, ab, &a, b.n, b.text_hash);
	check(sc.overlap >= 0 && sc.overlap <= 1 && sc.contained >= 0 && sc.contained <= 1,
	      "score out of range");
	if (a.words) {
		sw__record_fp_score(&sc, a.n, &a, a.n, a.text_hash);
		check(sc.match && sc.overlap == 1.0, "a text does not match itself");
	}
	struct sw_fp g, self;
	sw__record_fp_compute_given(&g, s + boff, size - boff, s, alen);
	check_fp(&g);
	check(sw__record_fp_shared(&g, &b) == g.n, "given-less prints not the output's own");
	sw__record_fp_compute_given(&self, s, alen, s, alen);
	check(self.n == 0 && self.words == 0, "a text given itself keeps prints");
	sw__record_fp_release(&g);
	sw__record_fp_release(&self);
	sw__record_fp_release(&a);
	sw__record_fp_release(&b);
	return 0;
}
