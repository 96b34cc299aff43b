/* fuzz_authority.c - the authority importer on hostile CSV: any bytes as a
 * file (simple, codes or CourtListener, by whatever header they carry) into
 * a table, then name matching on the same bytes.
 *
 * Fast enough for depth: the table is one in-memory database opened once
 * and emptied after each input, and the input file is one scratch file
 * rewritten in place (fuzz_scratch.h; a database and a folder per input ran
 * at 187 inputs a second). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "authority/authority_int.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *csv;
static struct sw_authority *table;
static bool tried;

static void cleanup(void)
{
	sw_authority_close(table);
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
		if (sqlite3_exec(table->db,
				 "DELETE FROM texts; DELETE FROM codes; DELETE FROM cl_dockets;"
				 " DELETE FROM cl_clusters; DELETE FROM cases;",
				 NULL, NULL, NULL) != SQLITE_OK)
			SW_BUG("fuzz_authority: cannot empty the table: %s",
			       sqlite3_errmsg(table->db));
	}
	char *text = sw_xstrndup((const char *)data, size);
	char *key = sw_authority_name_key(text);
	(void)sw_authority_names_match(text, "Bell Atlantic Corp. v. Twombly");
	(void)sw_authority_courts_match(text, "ca11");
	free(key);
	free(text);
	return 0;
}
