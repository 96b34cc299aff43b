/* cli_judge.c - the judge a command that verifies uses (sworn verify, sworn
 * run approve): [verify] judge and [role "judge"] of sworn.conf or the
 * running fleet. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "llm/llm.h"
#include "pipeline/pipeline.h"

/* Whether sworn.conf has a [role "judge"] section at all. */
static bool judge_configured(const struct sw_config *cfg)
{
	for (size_t i = 0; i < cfg->n; i++)
		if (strcmp(cfg->entries[i].section, "role") == 0 && cfg->entries[i].subsection &&
		    strcmp(cfg->entries[i].subsection, "judge") == 0)
			return true;
	return false;
}

/* The judge for this run into *j, or none (*on false): [verify] judge and
 * [role "judge"] (of sworn.conf or the running fleet), unless --no-judge,
 * which reads nothing (llm stays empty).  A sworn.conf that llm/ refuses
 * matters only when it names a judge. */
int cli_judge_setup(struct sw_judge *j, bool *on, struct sw_llm_config *llm,
		    const struct cli_ctx *ctx, bool no_judge, struct sw_err *err)
{
	enum sw_judge_mode mode = SW_JUDGE_OFF;
	struct sw_err lerr = { 0 };
	*on = false;
	/* --no-judge: no model configuration is read and no host is asked
	 * (several hosts would each be run through their exec). */
	if (no_judge)
		return 0;
	int lrc = cli_llm_config_load(ctx, llm, &lerr);
	if (lrc != 0 && judge_configured(&ctx->ws.config)) {
		*err = lerr;
		return lrc;
	}
	if (sw_judge_conf_load(&mode, &ctx->ws.config, lrc == 0 ? llm : NULL, err) != 0)
		return err->code;
	if (mode == SW_JUDGE_OFF)
		return 0;
	if (sw_judge_init(j, llm, mode, NULL, err) != 0)
		return err->code;
	const struct sw_llm_role *r = sw_llm_role_find(llm, "judge");
	if (!cli_globals.quiet)
		fprintf(stderr, "judge: [role \"judge\"] on endpoint %s, judge = %s, %u at a time\n",
		r->endpoint, sw_judge_mode_name(mode), j->vj.parallel);
	*on = true;
	return 0;
}
