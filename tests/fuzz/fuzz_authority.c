/* fuzz_authority.c - the authority importer on hostile CSV: any bytes as a
 * file (simple, codes or CourtListener, by whatever header they carry) into
 * a table in memory-backed temporary storage, then name matching on the
 * same bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "authority/authority.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/sw-fuzz-auth-XXXXXX";
	if (!mkdtemp(dir))
		return 0;
	char *csv = sw_xasprintf("%s/in.csv", dir);
	char *db = sw_xasprintf("%s/a.db", dir);
	FILE *f = fopen(csv, "wb");
	if (f) {
		fwrite(data, 1, size, f);
		fclose(f);
		struct sw_authority *a = NULL;
		struct sw_authority_import_summary s;
		if (sw_authority_open(&a, db, true, NULL) == 0) {
			if (sw_authority_import(&s, a, csv, false, NULL) != 0)
				s.rows = 0; /* a bad file is an answer, not a crash */
			struct sw_authority_lookup l;
			if (sw_authority_lookup_cite(&l, a, "1 U.S. 1", NULL) == 0)
				sw_authority_lookup_release(&l);
			sw_authority_close(a);
		}
	}
	char *text = sw_xstrndup((const char *)data, size);
	char *key = sw_authority_name_key(text);
	(void)sw_authority_names_match(text, "Bell Atlantic Corp. v. Twombly");
	(void)sw_authority_courts_match(text, "ca11");
	free(key);
	free(text);
	unlink(csv);
	unlink(db);
	char *wal = sw_xasprintf("%s-wal", db), *shm = sw_xasprintf("%s-shm", db);
	unlink(wal);
	unlink(shm);
	free(wal);
	free(shm);
	rmdir(dir);
	free(csv);
	free(db);
	return 0;
}
