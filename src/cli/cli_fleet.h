/* cli_fleet.h - a fleet of several hosts seen from the CLI (cli_fleet.c).
 *
 * The first inventory [fleet] hardware lists is this box's (by
 * convention); every other host is reached through its exec, running
 * `sworn -C WORKSPACE ...` there: the workspace has the same path on every
 * box, and sworn is in the PATH exec gives. */
#ifndef SW_CLI_FLEET_H
#define SW_CLI_FLEET_H

#include "fleet/fleet.h"

struct cli_ctx;

struct cli_fleet {
	struct sw_fleet_conf conf;
	bool have_conf, have_hw;
	struct sw_fleet_hw hw;      /* every inventory merged */
	size_t nhosts;              /* 0: one host (today's single fleet) */
	const char *root;           /* the workspace (borrowed) */
	/* After cli_fleet_gather(): */
	struct sw_fleet_state state[SW_FLEET_MAX_HOSTS];
	bool have_state[SW_FLEET_MAX_HOSTS];
	bool reachable[SW_FLEET_MAX_HOSTS];
	/* How each host's state was read: "file" (this box's), "exec", "lan"
	 * (its servers' /health and /props, its exec failing), NULL (not). */
	const char *read[SW_FLEET_MAX_HOSTS];
	char *why[SW_FLEET_MAX_HOSTS]; /* no state: why; read over the LAN:
					  why its exec failed */
	char last_error[256];       /* the last stderr line of a failed exec */
};

/* Load [fleet] and, when it lists several inventories of several hosts,
 * their merge.  A host other than the first without exec is SW_EINPUT. */
int cli_fleet_open(struct cli_fleet *f, const struct cli_ctx *ctx, struct sw_err *err) SW_MUST_USE;
void cli_fleet_release(struct cli_fleet *f);

/* Run `EXEC sworn -C WORKSPACE ARGS...` for host h (argv split from exec
 * without a shell) within timeout_ms, stdout into out, exit status into
 * *code; its stderr goes to fleet/exec-HOST.log, whose last line is kept
 * in f->last_error when it exits non-zero. */
int cli_fleet_exec(struct sw_buf *out, int *code, struct cli_fleet *f, size_t h,
		   const char *const *args, unsigned timeout_ms, struct sw_err *err) SW_MUST_USE;

/* Host h's `sworn version --json` against this build: SW_EINPUT naming both
 * on a mismatch of version or commit, SW_EIO when it does not answer. */
int cli_fleet_check_version(struct cli_fleet *f, size_t h, struct sw_err *err) SW_MUST_USE;

/* Every host's state: this box's from its file, the others' through exec
 * (`fleet status --host NAME --json`, timeout_ms each), or when that fails
 * from their servers over the LAN (sw_fleet_state_over_lan, with the urls
 * this box's plan gives).  A host that answers neither way is left
 * unreachable with both reasons in why. */
void cli_fleet_gather(struct cli_fleet *f, unsigned timeout_ms);

/* The host the plan put server on (from this box's state), or NULL. */
const char *cli_fleet_server_host(const struct cli_fleet *f, const char *server);

/* This box's fleet state: fleet/state.json, or with several hosts the
 * first host's (fleet/state-HOST.json).  0, or an SW_E* code (none). */
int cli_fleet_state_here(const struct cli_ctx *ctx, struct sw_fleet_state *out) SW_MUST_USE;

#endif /* SW_CLI_FLEET_H */
