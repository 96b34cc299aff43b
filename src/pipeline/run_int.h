/* run_int.h - the engine's state, shared by run.c (instances, workers,
 * the scheduler's primitives), draft.c (the drafting steps) and rounds.c
 * (review, revise, verify; starting and resuming a run). */
#ifndef SW_PIPELINE_RUN_INT_H
#define SW_PIPELINE_RUN_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "pipeline/pipeline_int.h"

enum sw__pipeline_ikind { SW__PIPELINE_MODEL, SW__PIPELINE_JOIN, SW__PIPELINE_REVIEW, SW__PIPELINE_REVISE, SW__PIPELINE_VERIFY };

struct sw__pipeline_engine;

/* A model call in flight, owned by its instance. */
struct sw__pipeline_worker {
	struct sw__pipeline_engine *e;
	pthread_t thread;
	const char *role;
	char *system, *user, *messages_json;
	char *evidence;         /* the window's evidence (the bundle), or NULL:
				   what the output copies from it is not the
				   model's (the provenance firewall) */
	struct sw_llm_message msgs[2];
	struct sw_llm_request req;
	struct sw_llm_result res;
	struct sw_err err;
	int rc;
	bool done;              /* under e->mu */
	atomic_size_t chunks;   /* streamed pieces so far */
	double started, first_text;
};

/* One step instance ("outline", "section#2", "revise#1"). */
struct sw__pipeline_inst {
	char *key;
	const struct sw_task_step *step; /* for review/revise: the task's */
	enum sw__pipeline_ikind kind;
	int item, round;
	char *item_json;
	enum sw__pipeline_step_status status;
	bool resumed;           /* done in an earlier process */
	char *output;
	int64_t doc_id, row_id;
	char *detail;           /* JSON, set before the step's end is journaled */
	char *error;
	const char *role, *endpoint;
	const char *host;       /* its endpoint's fleet host, or NULL (borrowed
				   from the run's llm config) */
	struct sw__pipeline_worker *w;
	size_t tokens, claims, blocked;
	double tok_s, wall_s;
};

/* Token counts an endpoint gave, by the text's hash and length: the system
 * message, the brief and most pages recur in every window of a run. */
#define SW__PIPELINE_TOKEN_CACHE 1024
struct sw__pipeline_token_memo {
	uint64_t hash;
	size_t len, tokens; /* len 0: empty slot */
};

struct sw__pipeline_ep {
	struct sw__pipeline_token_memo *memo; /* SW__PIPELINE_TOKEN_CACHE slots, or NULL */
	const char *name;
	unsigned slots, used;
	struct sw_llm_client *client; /* for /tokenize, on the engine's thread */
	bool tokenize;          /* the server counts tokens */
	unsigned timeout_ms;
};

struct sw__pipeline_engine {
	struct sw_matter *m;
	const struct sw_task *t;
	const struct sw_run_opts *o;
	int64_t run_id;
	char *brief;
	struct sw__pipeline_row *rows; /* journaled before this process */
	size_t nrows;
	struct sw__pipeline_inst **v;
	size_t n, cap;
	bool *expanded;         /* per task step: fan-out instances made */
	struct sw__pipeline_ep eps[32];
	size_t neps;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;              /* start nothing more */
	char *reason;           /* why the run pauses */
	char *db_error;         /* the journal could not be written */
	char date[40];
};

void sw__pipeline_run_inst_free(struct sw__pipeline_inst *x);
struct sw__pipeline_inst *sw__pipeline_run_inst_find(struct sw__pipeline_engine *e, const char *key);
struct sw__pipeline_inst *sw__pipeline_run_inst_add(struct sw__pipeline_engine *e, const char *key,
				  const struct sw_task_step *step, enum sw__pipeline_ikind kind, int item,
				  int round);
void sw__pipeline_run_event(struct sw__pipeline_engine *e, enum sw_run_event_kind kind, const struct sw__pipeline_inst *x,
		   const char *message);
struct sw__pipeline_ep *sw__pipeline_run_endpoint(struct sw__pipeline_engine *e, const char *name);
void sw__pipeline_run_fail(struct sw__pipeline_engine *e, struct sw__pipeline_inst *x, int code, const char *why);
int sw__pipeline_run_start_inst(struct sw__pipeline_engine *e, struct sw__pipeline_inst *x, const struct sw__pipeline_fill *fill,
		       const char *const *sources, size_t nsources);
size_t sw__pipeline_run_wait(struct sw__pipeline_engine *e);
void sw__pipeline_run_wait_all(struct sw__pipeline_engine *e);
bool sw__pipeline_run_slot_free(struct sw__pipeline_engine *e, const struct sw_task_step *st);

/* draft.c: run every drafting step to the first draft; *draft gets the
 * instance whose output is it (NULL when the run stopped first). */
void sw__pipeline_run_drafting(struct sw__pipeline_engine *e, struct sw__pipeline_inst **draft);

/* run.c: the fill every step of the run shares (brief, matter, task,
 * date); draft.c and rounds.c both call down into it. */
void sw__pipeline_run_fill_base(struct sw__pipeline_engine *e, struct sw__pipeline_fill *f);

#endif /* SW_PIPELINE_RUN_INT_H */
