/* report_int.h - what the report writers (report.c, report_html.c) share. */
#ifndef SW_VERIFY_REPORT_INT_H
#define SW_VERIFY_REPORT_INT_H

#include "verify/verify.h"

/* Where a claim is in the draft's source: byte offsets and its 1-based
 * line and column. */
struct sw__verify_report_pos {
	size_t start, end, cite_start, cite_end;
	size_t line, col;
};

/* One per claim, in claim order, through r->view when there is one;
 * caller frees.  Linear in the draft. */
struct sw__verify_report_pos *sw__verify_report_positions(const struct sw_verify_report *r);

/* Where a piece of evidence is, for a reader: "Smith Dep. 3:12
 * (smith-dep.txt p. 3)", "BLT-000007 (BLT-000006 p. 2)", a document named
 * by its own Bates number once ("ACME0000001 p. 1"), "NAME CITE" for an
 * authority.  Caller frees. */
char *sw__verify_report_where(const struct sw_evidence *e);

/* waive.c: whether verdict v blocks the gate of r; whether claim verdict v
 * does (a waived one does not). */
bool sw__verify_report_blocks(const struct sw_verify_report *r, enum sw_verdict v);
bool sw__verify_claim_blocks(const struct sw_verify_report *r, const struct sw_claim_verdict *v);

#endif /* SW_VERIFY_REPORT_INT_H */
