/* fleet_gpu.h - the GPUs as the driver reports them now (NVML, nvidia-smi).
 * A part of fleet/fleet.h, which includes it: include "fleet/fleet.h", never this file. */
#ifndef SW_FLEET_GPU_H
#define SW_FLEET_GPU_H

#ifndef SW_FLEET_H
#error "include fleet/fleet.h, not fleet_gpu.h"
#endif

/* --------------------------------------------------------- GPUs right now */

/* What the driver says about each GPU now: NVML, loaded at run time
 * (dlopen of libnvidia-ml.so.1, so that sworn runs where there is no
 * driver; the environment variable SWORN_NVML names another library, or
 * "off"), else nvidia-smi's CSV.  Memory each process holds is what proves
 * a server's model is on its GPUs and not on the CPU. */
#define SW_FLEET_MAX_PROCS 4096u /* processes on all GPUs together */

struct sw_fleet_gpu_proc {
	int pid;
	uint64_t used;          /* bytes it holds on this GPU */
};

struct sw_fleet_gpu_now {
	int index;              /* the driver's index (PCI bus order) */
	char pci[32];           /* bus id, or "" */
	char name[96];
	uint64_t mem_total, mem_used; /* bytes; 0 when not reported */
	int temp_c;             /* -1: not reported */
	double power_w, power_limit_w; /* < 0: not reported */
	long long throttle;     /* NVML's clocks-event reason bits; -1: not reported */
	long long ecc_uncorrected; /* volatile uncorrected ECC errors; -1: ECC off
				      or not reported */
	struct sw_fleet_gpu_proc *procs;
	size_t nprocs;
	bool procs_known;       /* the per-process list was read */
};

struct sw_fleet_gpus_now {
	const char *source;     /* "NVML" or "nvidia-smi" (static) */
	struct sw_fleet_gpu_now *gpus;
	size_t n;
};

/* Read every GPU now.  SW_EIO with both reasons when neither NVML nor
 * nvidia-smi answers (a machine without the driver). */
int sw_fleet_gpus_read(struct sw_fleet_gpus_now *out, struct sw_err *err) SW_MUST_USE;
void sw_fleet_gpus_release(struct sw_fleet_gpus_now *g);

/* The GPU with driver index `index`, or NULL. */
const struct sw_fleet_gpu_now *sw_fleet_gpus_find(const struct sw_fleet_gpus_now *g, int index);

/* Bytes process pid holds on gpu (0 when none). */
uint64_t sw_fleet_gpu_used_by(const struct sw_fleet_gpu_now *gpu, int pid);

/* The throttle reasons of bits in words ("power cap, thermal"), "none"
 * for 0, "-" when not reported. */
void sw_fleet_throttle_text(char *out, size_t outsz, long long bits);

/* Is a server's model where the plan put it?  For each of the n GPUs of
 * its group (driver indices idx[], the plan's bytes planned[] on each:
 * weights, KV cache and compute buffers), the memory process pid holds
 * there must reach half the plan.  0 when it does; 1 when a GPU holds less,
 * with why = "model on the CPU: 0.4 GiB of 19.0 GiB on GPU 0"; -1 when the
 * driver does not say (why says so: not measured, not a failure). */
int sw_fleet_offload_check(char *why, size_t whysz, const struct sw_fleet_gpus_now *now, int pid,
			   const int *idx, const uint64_t *planned, size_t n);

struct sw_fleet_state;

/* One GPU of a running fleet, for `fleet status` and `doctor`. */
struct sw_fleet_gpu_health {
	int index;              /* the inventory's (the driver's now, once found) */
	char name[96];
	char group[64];
	bool missing;           /* the inventory names it; the driver lists it not */
	const struct sw_fleet_gpu_now *now; /* NULL when missing or not read */
	char server[96];        /* the fleet server on it, or "" */
	uint64_t server_bytes;  /* what that server holds there */
	bool server_known;      /* server_bytes was measured */
};

/* Rows for the GPUs of inventory inv (may be NULL: the driver's GPUs
 * alone) as now shows them, with the fleet servers of st (may be NULL) on
 * each.  *n rows; free *out.  A GPU of inv that now lacks is missing (by
 * PCI bus id when inv gives one, else by index and name), and its group's
 * servers are then degraded. */
void sw_fleet_gpu_health(struct sw_fleet_gpu_health **out, size_t *n,
			 const struct sw_fleet_hw *inv, const struct sw_fleet_gpus_now *now,
			 const struct sw_fleet_state *st);
/* The rows as a table (and what to do about a missing GPU), and as JSON
 * (an array). */
void sw_fleet_gpu_health_text(struct sw_buf *out, const struct sw_fleet_gpu_health *rows,
			      size_t n, const char *source);
struct json_t *sw_fleet_gpu_health_json(const struct sw_fleet_gpu_health *rows, size_t n);

/* One row as a doctor line: returns "ok", "warn" (throttled by heat or
 * power, uncorrected ECC errors, 85 C or more) or "FAIL" (missing), with
 * what it saw (and, when missing, what to do) in out. */
const char *sw_fleet_gpu_health_line(char *out, size_t outsz, const struct sw_fleet_gpu_health *h);

/* The GPU part of `fleet status` and `doctor`: the GPUs now against an
 * inventory (a file; NULL or unreadable: the driver's GPUs alone), with
 * the servers of st (may be NULL).  Never fails: a driver that cannot be
 * read leaves rows empty and says why in error. */
struct sw_fleet_gpu_report {
	struct sw_fleet_gpus_now now;
	struct sw_fleet_hw inv;
	bool have_inv;
	struct sw_fleet_gpu_health *rows;
	size_t n;
	size_t missing;
	char error[SW_ERR_MSG_MAX]; /* why the GPUs were not read, or "" */
};
void sw_fleet_gpu_report(struct sw_fleet_gpu_report *out, const char *inventory,
			 const struct sw_fleet_state *st);
void sw_fleet_gpu_report_release(struct sw_fleet_gpu_report *r);
/* The report as text (the table, or the line saying why there is none)
 * and as JSON {source, gpus, error}. */
void sw_fleet_gpu_report_text(struct sw_buf *out, const struct sw_fleet_gpu_report *r);
struct json_t *sw_fleet_gpu_report_json(const struct sw_fleet_gpu_report *r);

/* A fleet ready to start: the plan, and what each server will run. */
struct sw_fleet_sv;

/* Load the inventory, calibration and models of conf, check the GPUs
 * present (unless conf says not to) and plan.  Fails on a configuration,
 * model or nvidia-smi error; models that are not placed or sit on a
 * degraded group are kept, with their reason, and not started. */
int sw_fleet_sv_prepare(struct sw_fleet_sv **out, const struct sw_fleet_conf *conf,
			struct sw_err *err) SW_MUST_USE;
void sw_fleet_sv_free(struct sw_fleet_sv *sv);

/* Write the initial state.json (every server "pending", the supervisor
 * pid) so that a caller can wait on it. */
int sw_fleet_sv_write_state(struct sw_fleet_sv *sv, struct sw_err *err) SW_MUST_USE;

/* Supervise until *stop is set (by a signal handler), the state folder
 * disappears, or no server is left running or restarting; then stop every
 * server.  Messages go to stdout, one line each.  Returns 0 or an error. */
int sw_fleet_sv_run(struct sw_fleet_sv *sv, volatile int *stop);

/* Ask a running sw_fleet_sv_run() to stop, ending a probe in flight
 * within about 50 ms.  Safe in a signal handler. */
void sw_fleet_sv_request_stop(struct sw_fleet_sv *sv);

/* What state.json records, typed.  The supervisor rewrites the file at
 * each change; a reader gets a snapshot, with two live checks added at
 * load: whether the supervisor and each server process still run (by pid
 * and start time, so a recycled pid is not taken for them). */
struct sw_fleet_state_server {
	char *name;          /* "MODEL@GROUP" slug */
	char *state;         /* pending, starting, ready, hung, restarting,
				failed, degraded, unplaced or stopped */
	char *model;         /* the GGUF file */
	char *spec;          /* the [fleet] model line: FILE[:ctx=..,...] */
	char *group;         /* the inventory group; "" when unplaced */
	char *gpus;          /* CUDA_VISIBLE_DEVICES, or NULL */
	char *url;           /* http://127.0.0.1:PORT, or NULL */
	char *log;           /* its log file */
	char *started;       /* UTC time of the last start, or "" */
	char *detail;        /* why it is not ready, or NULL */
	char *role;          /* the model line's role=, or NULL */
	char *api_key_file;  /* the key it demands (--api-key-file), or NULL */
	unsigned context;    /* tokens per slot it was started with (0 unknown) */
	unsigned port;
	int pid;             /* 0 or -1 when none */
	unsigned long long start_ticks;
	unsigned restarts;
	char *build;         /* what it said it runs, read over the LAN, or NULL */
	bool process_running; /* live, at load */
};

/* One server of the whole plan (several hosts: each host's state names
 * every host's servers, so a box whose exec fails can be read over the
 * LAN and its roles said unavailable). */
struct sw_fleet_state_planned {
	char *name;
	char *host;
	char *role;          /* or NULL */
	char *url;
	unsigned context;    /* tokens per slot, 0 unknown */
};

struct sw_fleet_state {
	char *phase;           /* starting, running or stopped */
	int supervisor_pid;
	unsigned long long supervisor_start_ticks;
	char *started;         /* UTC time the fleet came up */
	char *hardware;        /* the inventory file it was planned on */
	char *host;            /* the host it supervises (several hosts), or NULL */
	char *missing_gpus;    /* lines of GPUs nvidia-smi lacked, or NULL */
	char *access;          /* what its servers are locked with, in words
				  (sw_fleet_server_caps_access), or NULL */
	bool gpus_unchecked;   /* [fleet] check_gpus = no: its GPUs are not
				  compared or measured */
	bool supervisor_running; /* live, at load */
	bool over_lan;         /* read from its servers' /health and /props
				  (sw_fleet_state_over_lan), not from its
				  supervisor: no supervisor is known */
	struct sw_fleet_state_server *servers;
	size_t nservers;
	struct sw_fleet_state_planned *planned; /* several hosts, else none */
	size_t nplanned;
};

/* The state as `sworn fleet status --json` prints it: state.json's
 * members, with the live checks as "supervisor_running" and each
 * server's "process_running" (live false: without them, as the file
 * keeps it).  A new reference. */
struct json_t *sw_fleet_state_json(const struct sw_fleet_state *st, bool live);

/* Read dir/state.json, or SW_ENOTFOUND when the fleet never started there,
 * SW_EINPUT when it is not a state file.  Release with
 * sw_fleet_state_release(). */
int sw_fleet_state_load(struct sw_fleet_state *out, const char *dir,
			struct sw_err *err) SW_MUST_USE;
void sw_fleet_state_release(struct sw_fleet_state *st);

/* Several hosts: each box's supervisor keeps dir/state-HOST.json (host
 * slugged), so two supervisors on one shared folder never collide; host
 * NULL is state.json, the one host's.  Caller frees. */
char *sw_fleet_state_file(const char *host);
/* "STEM-HOST.EXT" with host slugged (no '/', no '..'), or "STEM.EXT" for
 * NULL: every per-host file's name.  Caller frees. */
char *sw_fleet_host_file(const char *stem, const char *host, const char *ext);
/* sw_fleet_state_load() of host's file (NULL: state.json). */
int sw_fleet_state_load_host(struct sw_fleet_state *out, const char *dir, const char *host,
			     struct sw_err *err) SW_MUST_USE;
/* Parse state text (name in messages).  live: check here whether the
 * processes run (this machine's state); false: keep the
 * supervisor_running and process_running another box's status wrote. */
int sw_fleet_state_parse(struct sw_fleet_state *out, const char *text, size_t len,
			 const char *name, bool live, struct sw_err *err) SW_MUST_USE;

/* Host's state read over the LAN, for a status whose exec to host does
 * not answer: each server here's plan ("planned" of this box's state, with
 * its url) puts on host is asked /health and /props, timeout_ms each.
 * out->over_lan is set and no supervisor is known (supervisor_running
 * false); a server is "ready" (also with every slot busy), "loading",
 * "down", "broken" or "refused" (the policy), with the reason in detail,
 * and names the model and build it says it runs.  SW_ENOTFOUND when here
 * plans no server on host, SW_EIO with each server's reason when none
 * answers at all. */
int sw_fleet_state_over_lan(struct sw_fleet_state *out, const struct sw_fleet_state *here,
			    const char *host, unsigned timeout_ms, struct sw_err *err) SW_MUST_USE;

/* Settled: no server is pending, starting or waiting for a restart. */
bool sw_fleet_state_settled(const struct sw_fleet_state *st);

/* Print the state as a table. */
void sw_fleet_state_text(struct sw_buf *out, const struct sw_fleet_state *st);

/* True when the supervisor runs and every server is ready. */
bool sw_fleet_state_all_ready(const struct sw_fleet_state *st);

/* The server named name, or whose url is url (either may be NULL), or the
 * first ready one with a url when both are NULL; NULL when none.  Borrowed
 * from st. */
const struct sw_fleet_state_server *sw_fleet_state_find(const struct sw_fleet_state *st,
							 const char *name, const char *url);

struct sw_llm_config;

/* Make a running fleet's servers endpoints of cfg and its models' roles
 * (role=NAME in a [fleet] model line) roles of cfg, so that `sworn ask
 * drafter` works without sections pasted from `sworn plan --conf`.  Only
 * when st's supervisor runs, or st was read over the LAN (then only its
 * ready servers); servers without a url are skipped.  Each endpoint gets
 * st's host as its fleet_host (several hosts).  What cfg
 * already has wins: an endpoint of the same name or the same url is used
 * as it is (the role then points at it), and a role of the same name is
 * left alone.  A fleet role gets the server's context per slot as its
 * budget and the defaults of a [role] section otherwise.  *added (may be
 * NULL) counts the roles added.  0, or SW_ELIMIT past the config's limits,
 * or SW_EINPUT for a url state.json spells badly. */
int sw_fleet_state_llm_merge(struct sw_llm_config *cfg, const struct sw_fleet_state *st,
			     size_t *added, struct sw_err *err) SW_MUST_USE;

/* What `sworn bench [WANT]` measures and predicts.  WANT is an http(s)://
 * URL (added to cfg as an endpoint of that name), an endpoint of cfg, or a
 * server of the fleet state st (may be NULL: no fleet; added to cfg under
 * its name); without WANT the first ready fleet server, else cfg's only
 * endpoint. */
struct sw_fleet_bench_target {
	const char *endpoint;   /* the endpoint of cfg to call (borrowed from
				   cfg, st or WANT) */
	const struct sw_fleet_state_server *server; /* the fleet server it is,
						       or NULL (borrowed from st) */
	/* What the fleet planned it with, for the prediction; NULL when not a
	 * fleet server. */
	const char *spec, *hardware, *group;
};

/* Choose the target.  SW_EUSAGE with a message saying what to give when
 * WANT names nothing or nothing is given and there is no single choice;
 * a bad URL is SW_EINPUT. */
int sw_fleet_bench_target(struct sw_fleet_bench_target *out, struct sw_llm_config *cfg,
			  const struct sw_fleet_state *st, const char *want,
			  struct sw_err *err) SW_MUST_USE;

/* Stop the supervisor (SIGTERM; it stops its servers) and any recorded
 * server still running (a supervisor that died leaves them), waiting up to
 * grace_ms for each.  Lines of what was done go to report. */
int sw_fleet_down(struct sw_buf *report, const char *dir, unsigned grace_ms,
		  struct sw_err *err) SW_MUST_USE;
/* sw_fleet_down() of host's state file (NULL: state.json). */
int sw_fleet_down_host(struct sw_buf *report, const char *dir, const char *host,
		       unsigned grace_ms, struct sw_err *err) SW_MUST_USE;

#endif /* SW_FLEET_GPU_H */
