/* fuzz_authority.c - the authority importer on hostile CSV: any bytes as a
 * file (simple, codes or CourtListener, by whatever header they carry) into
 * a table, then name matching on the same bytes.
 *
 * Fast enough for depth: the table is one in-memory database opened once
 * and emptied after each input by statements prepared once, and the input
 * file is one scratch file rewritten in place (fuzz_scratch.h; a database
 * and a folder per input ran at 187 inputs a second). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "authority/authority_int.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *csv;
static struct sw_authority *table;
static bool tried;

/* Emptying the table after each input: statements prepared once (parsing
 * them for every input was an eighth of the time). */
static const char *const empty_sql[] = {
	"DELETE FROM texts", "DELETE FROM codes", "DELETE FROM cl_dockets",
	"DELETE FROM cl_clusters", "DELETE FROM cases",
};
static sqlite3_stmt *empty[SW_ARRAY_LEN(empty_sql)];

static void cleanup(void)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(empty); i++)
		sqlite3_finalize(empty[i]);
	sw_authority_close(table);
}

static void empty_table(void)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(empty); i++) {
		if (!empty[i] && sqlite3_prepare_v2(table->db, empty_sql[i], -1, &empty[i], NULL) !=
					 SQLITE_OK)
			SW_BUG("fuzz_authority: cannot prepare '%s': %s", empty_sql[i],
			       sqlite3_errmsg(table->db));
		if (sqlite3_step(empty[i]) != SQLITE_DONE)
			SW_BUG("fuzz_authority: cannot empty the table: %s",
			       sqlite3_errmsg(table->db));
		sqlite3_reset(empty[i]);
	}
}

static bool setup(void)
{
	if (tried)
		return table != NULL && csv != NULL;
	tried = true;
	csv = fuzz_scratch_path("in.csv");
	if (sw_authority_open(&table, ":memory:", true, NULL) != 0)
		table = NULL;
	else
		atexit(cleanup);
	return table != NULL && csv != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!setup())
		return 0;
	if (fuzz_scratch_write(data, size)) {
		struct sw_authority_import_summary s;
		if (sw_authority_import(&s, table, csv, false, NULL) != 0)
			s.rows = 0; /* a bad file is an answer, not a crash */
		struct sw_authority_lookup l;
		if (sw_authority_lookup_cite(&l, table, "1 U.S. 1", NULL) == 0)
			sw_authority_lookup_release(&l);
		empty_table();
	}
	char *text = sw_xstrndup((const char *)data, size);
	char *key = sw_authority_name_key(text);
	(void)sw_authority_names_match(text, "Bell Atlantic Corp. v. Twombly");
	(void)sw_authority_courts_match(text, "ca11");
	free(key);
	free(text);
	return 0;
}
