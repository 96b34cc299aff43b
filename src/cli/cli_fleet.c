/* cli_fleet.c - what the CLI adds to a fleet of several hosts (fleet/'s
 * office.c): whether every host runs this very build. */
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "cli/cli_fleet.h"
#include "fleet/fleet.h"

int cli_fleet_check_version(struct sw_fleet_office *f, size_t h, struct sw_err *err)
{
	static const char *const args[] = { "version", "--json", NULL };
	struct sw_buf out = SW_BUF_INIT;
	int code = 0;
	int rc = sw_fleet_office_exec(&out, &code, f, h, args, 10000, err);
	if (rc == 0) {
		json_t *js = json_loadb(out.data, out.len, 0, NULL);
		const char *v = json_string_value(json_object_get(js, "version"));
		const char *c = json_string_value(json_object_get(js, "commit"));
		if (code != 0 || !v || !c)
			rc = sw_err_set(err, SW_EIO, "host %s: 'sworn version --json' through its exec "
						     "did not answer (exit %d%s%s)", f->hw.hosts[h].name, code,
					f->last_error[0] ? ": " : "", f->last_error);
		else if (strcmp(v, SW_VERSION) != 0 || strcmp(c, cli_build_commit) != 0)
			rc = sw_err_set(err, SW_EINPUT, "host %s runs sworn %s (%s), this box %s (%s): "
							"install the same build on every box",
					f->hw.hosts[h].name, v, c, SW_VERSION, cli_build_commit);
		json_decref(js);
	}
	sw_buf_release(&out);
	return rc;
}
