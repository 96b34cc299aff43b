/* cli_run.h - the text sworn run prints (cmd_run_text.c), called by the
 * subcommands of cmd_run.c: each writer takes the thing it shows as ud, as
 * cli_emit calls it. */
#ifndef SW_CLI_RUN_H
#define SW_CLI_RUN_H

#include <stdio.h>

#include "pipeline/pipeline.h"

/* ud of cli_run_print_list: the runs, and their matter (for sign-off). */
struct cli_run_listed {
	const struct sw_run_list *runs;
	struct sw_matter *m;
};

/* The table of runs; ud: struct cli_run_listed. */
void cli_run_print_list(FILE *f, const void *ud);
/* One run's steps, warnings and blocked claims; ud: struct sw_run_view. */
void cli_run_print_show(FILE *f, const void *ud);
/* Each step's thinking, on stdout. */
void cli_run_print_reasoning(const struct sw_run_view *run);
/* The outcome of sworn run approve; ud: struct sw_approve_result. */
void cli_run_print_approve(FILE *f, const void *ud);
/* The statistics table; ud: struct sw_run_stats. */
void cli_run_print_stats(FILE *f, const void *ud);
/* The context audit of a run's windows; ud: struct sw_run_context. */
void cli_run_print_context(FILE *f, const void *ud);

#endif /* SW_CLI_RUN_H */
