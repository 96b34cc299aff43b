/*
 * record_labels_test.c - record-citation labels: one normalisation for the
 * labels CSV and the draft, every spelling of one exhibit giving one label,
 * party prefixes kept apart; and the labels CSV as spreadsheets save it
 * (UTF-8 BOM, CRLF, capitalised header, quotes, ';', UTF-16, Windows-1252).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/ingest.h"
#include "record/record_int.h"

#define TMPDIR_TAG "labels"
#include "tmpdir.h"

static void check_same(const char *const *spellings, size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++) {
		char *got = sw_label_normalize(spellings[i]);
		if (strcmp(got, want) != 0)
			fail_msg("'%s' gave '%s', expected '%s'", spellings[i], got, want);
		free(got);
	}
}

static void test_one_exhibit_many_spellings(void **state)
{
	(void)state;
	static const char *const def3[] = {
		"DX-3", "DX 3", "dx3", "DX3", "DX \xe2\x80\x93 3", "Def. Ex. 3", "Def Ex 3",
		"Def.'s Ex. 3", "Defendant's Exhibit 3", "Defendants\xe2\x80\x99 Exhibit No. 3",
		"Defs.' Ex. 3", "DEF. EX. 3", "Def. Ex. 03", "Def. Ex. #3", "Def.  Ex.  3", "Dft. Ex. 3",
		"Deft.'s Exh. 3",
	};
	check_same(def3, SW_ARRAY_LEN(def3), "def ex 3");
	static const char *const pl3[] = {
		"Pl. Ex. 3", "PX 3", "PX-3", "Pls.' Ex. 3", "Plaintiff's Exhibit 3",
		"Plaintiffs' Ex. 3", "Pltf. Ex. 3", "pl ex 3",
	};
	check_same(pl3, SW_ARRAY_LEN(pl3), "pl ex 3");
	static const char *const ex3[] = {
		"Ex. 3", "Exhibit 3", "EX-3", "Ex 3", "Exh. 3", "Exhibit No. 3", "Ex. No. 3", "ex.3",
		"Ex. 003",
	};
	check_same(ex3, SW_ARRAY_LEN(ex3), "ex 3");
	static const char *const gov7[] = { "Gov't Ex. 7", "Govt. Ex. 7", "Government Exhibit 7",
					    "GX 7", "Gov\xe2\x80\x99t Ex. 7" };
	check_same(gov7, SW_ARRAY_LEN(gov7), "gov ex 7");
	static const char *const joint2[] = { "Joint Ex. 2", "JX-2", "Jt. Ex. 2", "JX 2" };
	check_same(joint2, SW_ARRAY_LEN(joint2), "joint ex 2");
	static const char *const resp[] = { "Resp. Ex. 4", "Respondent's Exhibit 4" };
	check_same(resp, SW_ARRAY_LEN(resp), "resp ex 4");
	static const char *const pet[] = { "Pet. Ex. 4", "Petitioner's Ex. 4" };
	check_same(pet, SW_ARRAY_LEN(pet), "pet ex 4");
	static const char *const ecf[] = { "ECF No. 45", "ECF 45", "Dkt. 45", "Dkt. No. 45",
					   "Docket No. 45", "Doc. 45" };
	check_same(ecf, SW_ARRAY_LEN(ecf), "ecf 45");
	static const char *const sub[] = { "Ex. 12-A", "Ex. 12A", "Ex. 12 A", "Exhibit 12(a)" };
	check_same(sub, SW_ARRAY_LEN(sub), "ex 12 a");
	static const char *const dep[] = { "Smith Dep.", "Smith Deposition", "SMITH DEP", "Smith Depo." };
	check_same(dep, SW_ARRAY_LEN(dep), "smith dep");
}

/* Different parties' exhibits, and different numbers, never meet. */
static void test_distinct(void **state)
{
	(void)state;
	static const char *const all[] = {
		"Ex. 3", "Def. Ex. 3", "Pl. Ex. 3", "Joint Ex. 3", "Gov't Ex. 3", "Resp. Ex. 3",
		"Pet. Ex. 3", "Ex. 30", "Ex. 3-A", "Def. Ex. 4", "ECF No. 3", "Smith Dep. Ex. 3",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(all); i++) {
		char *a = sw_label_normalize(all[i]);
		for (size_t j = i + 1; j < SW_ARRAY_LEN(all); j++) {
			char *b = sw_label_normalize(all[j]);
			if (strcmp(a, b) == 0)
				fail_msg("'%s' and '%s' both gave '%s'", all[i], all[j], a);
			free(b);
		}
		free(a);
	}
	/* Hostile input: long words are cut, odd bytes are kept, nothing
	 * loops. */
	char big[5000];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	char *g = sw_label_normalize(big);
	assert_true(strlen(g) < 64);
	free(g);
	g = sw_label_normalize("\xe2\x80\x93\xe2\x80\x99''..--\xc2\xa0");
	assert_string_equal(g, "");
	free(g);
	g = sw_label_normalize("\xe2\x80");
	assert_non_null(g);
	free(g);
}

/* A matter with three documents, and the labels CSV in many shapes. */
struct fx {
	char *dir;
	struct sw_workspace ws;
	struct sw_matter *m;
};

static void report(void *user, enum sw_ingest_event ev, const char *what, const char *msg)
{
	(void)user;
	if (ev == SW_INGEST_FAILED)
		fprintf(stderr, "failed %s: %s\n", what, msg);
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void fx_open(struct fx *x)
{
	struct sw_err err = { 0 };
	x->dir = sw_path_join(dir, "ws");
	assert_int_equal(sw_workspace_create(x->dir, &err), 0);
	assert_int_equal(sw_workspace_open(&x->ws, x->dir, &err), 0);
	assert_int_equal(sw_matter_create(&x->ws, "m", &err), 0);
	assert_int_equal(sw_matter_open(&x->m, &x->ws, "m", &err), 0);
	char *vol = sw_path_join(x->dir, "vol");
	char *text = sw_path_join(vol, "TEXT");
	assert_int_equal(sw_mkdir_p(text, 0700, &err), 0);
	char *dat = sw_path_join(vol, "VOL.DAT");
	static const char rows[] =
		"\xc3\xbe" "BEGBATES\xc3\xbe\x14\xc3\xbe" "ENDBATES\xc3\xbe\x14\xc3\xbe" "TEXTPATH\xc3\xbe\r\n"
		"\xc3\xbe" "BLT-000001\xc3\xbe\x14\xc3\xbe" "BLT-000001\xc3\xbe\x14\xc3\xbe" "TEXT\\1.txt\xc3\xbe\r\n"
		"\xc3\xbe" "BLT-000002\xc3\xbe\x14\xc3\xbe" "BLT-000002\xc3\xbe\x14\xc3\xbe" "TEXT\\2.txt\xc3\xbe\r\n"
		"\xc3\xbe" "BLT-000003\xc3\xbe\x14\xc3\xbe" "BLT-000003\xc3\xbe\x14\xc3\xbe" "TEXT\\3.txt\xc3\xbe\r\n";
	write_file(dat, rows, sizeof(rows) - 1);
	for (int i = 1; i <= 3; i++) {
		char name[16], body[32];
		snprintf(name, sizeof(name), "%d.txt", i);
		snprintf(body, sizeof(body), "document %d\n", i);
		char *p = sw_path_join(text, name);
		write_file(p, body, strlen(body));
		free(p);
	}
	struct sw_ingest_summary sum;
	struct sw_ingest_opts o = { .origin = SW_ORIGIN_EVIDENCE, .report = report };
	const char *paths[] = { vol };
	assert_int_equal(sw_ingest(&sum, x->m, paths, 1, &o, &err), 0);
	assert_int_equal(sum.imported, 3);
	free(dat);
	free(text);
	free(vol);
}

static void fx_close(struct fx *x)
{
	sw_matter_close(x->m);
	sw_workspace_release(&x->ws);
	free(x->dir);
}

/* Import a labels file; returns the labels stored, *failed the bad lines. */
static uint64_t import_labels(struct fx *x, const char *data, size_t len, uint64_t *failed)
{
	struct sw_err err = { 0 };
	struct sw_ingest_summary sum;
	char *path = sw_path_join(x->dir, "labels.csv");
	write_file(path, data, len);
	struct sw_ingest_opts o = { .origin = SW_ORIGIN_EVIDENCE, .labels_path = path,
				    .report = report };
	assert_int_equal(sw_ingest(&sum, x->m, NULL, 0, &o, &err), 0);
	free(path);
	*failed = sum.failed;
	return sum.labels;
}

/* The first page's Bates of the document a label names, or "-". */
static void check_label(struct fx *x, const char *label, const char *want)
{
	struct sw_record_page p;
	struct sw_err err = { 0 };
	int rc = sw_record_doc_by_label(&p, x->m, label, &err);
	const char *got = rc == 0 && p.bates ? p.bates : "-";
	if (strcmp(got, want) != 0)
		fail_msg("label '%s' names %s, expected %s", label, got, want);
	sw_record_page_release(&p);
}

static void test_csv_shapes(void **state)
{
	(void)state;
	struct fx x;
	uint64_t failed = 0;
	fx_open(&x);

	/* Excel "CSV UTF-8": BOM, CRLF, a capitalised header, quotes, a
	 * description column, targets in another Bates spelling, empty rows. */
	static const char excel[] =
		"\xef\xbb\xbfLabel,Target,Description\r\n"
		"\"Def. Ex. 1\",BLT-000001,\"the agreement, signed\"\r\n"
		"DX-2,\"BLT 000002\",\r\n"
		"\"Pl. Ex. 3\",blt000003,\r\n"
		",,\r\n"
		"\r\n";
	assert_int_equal(import_labels(&x, excel, sizeof(excel) - 1, &failed), 3);
	assert_int_equal(failed, 0);
	check_label(&x, "Def. Ex. 1", "BLT-000001");
	check_label(&x, "DX 1", "BLT-000001");
	check_label(&x, "Defendant's Exhibit 2", "BLT-000002");
	check_label(&x, "PX-3", "BLT-000003");
	check_label(&x, "Ex. 3", "-");      /* not the plaintiff's */
	check_label(&x, "Def. Ex. 3", "-");

	/* European Excel: semicolons. */
	static const char euro[] = "\xef\xbb\xbfLABEL;TARGET\r\nEx. 7;BLT-000002\r\n;\r\n";
	assert_int_equal(import_labels(&x, euro, sizeof(euro) - 1, &failed), 1);
	assert_int_equal(failed, 0);
	check_label(&x, "Exhibit 7", "BLT-000002");

	/* "Unicode text": UTF-16 LE with a BOM, tab-separated. */
	static const char u16[] = "\xff\xfe" "E\0x\0.\0 \0" "9\0\t\0B\0L\0T\0-\0" "0\0" "0\0" "0\0"
				  "0\0" "0\0" "3\0\r\0\n\0";
	assert_int_equal(import_labels(&x, u16, sizeof(u16) - 1, &failed), 1);
	check_label(&x, "Ex. 9", "BLT-000003");

	/* Windows-1252 ("CSV" on Windows), no header. */
	static const char cp1252[] = "\x93" "Ex. 11\x94,BLT-000001\r\n";
	assert_int_equal(import_labels(&x, cp1252, sizeof(cp1252) - 1, &failed), 1);
	check_label(&x, "Ex. 11", "BLT-000001");

	/* Bad lines fail one by one, naming the line. */
	static const char bad[] = "Label,Target\r\nEx. 20\r\nEx. 21,NOPE-000001\r\nEx. 22,BLT-000001\r\n";
	assert_int_equal(import_labels(&x, bad, sizeof(bad) - 1, &failed), 1);
	assert_int_equal(failed, 2);
	check_label(&x, "Ex. 22", "BLT-000001");
	fx_close(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_exhibit_many_spellings),
		cmocka_unit_test(test_distinct),
		cmocka_unit_test(test_csv_shapes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
