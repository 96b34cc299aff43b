/* probe.c - one endpoint's policy verdict, health and self-description,
 * for the commands that report on endpoints. */
#include <stdlib.h>
#include <string.h>

#include "llm/llm_int.h"

void sw_llm_probe(struct sw_llm_probe *out, const struct sw_llm_config *cfg,
		  const char *endpoint, unsigned timeout_ms)
{
	struct sw_llm_client *c = NULL;
	struct sw_err err = { 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	out->health = SW_LLM_DOWN;
	if (sw_llm_client_new(&c, cfg, endpoint, &err) != 0) {
		out->error = sw_xstrdup(err.msg);
		return;
	}
	rc = sw_llm_health(&out->health, c, timeout_ms, &err);
	if (rc == SW_EPOLICY) {
		out->refused = true;
		out->policy = sw_xstrdup(err.msg);
		goto cleanup;
	}
	if (sw_llm_client_address(c)) {
		out->address = sw_xstrdup(sw_llm_client_address(c));
		out->policy = sw_xstrdup(sw_llm_client_policy_reason(c));
	}
	if (rc != 0 || out->health != SW_LLM_READY) {
		out->error = sw_xstrdup(err.msg[0] ? err.msg : sw_llm_health_name(out->health));
		goto cleanup;
	}
	sw_err_clear(&err);
	if (sw_llm_server_info(&out->info, c, timeout_ms, &err) == 0) {
		out->have_info = true;
	} else {
		out->error = sw_xstrdup(err.msg);
		/* /health is public even when the server wants a key; a refusal
		 * of /props means no completion can work either. */
		if (err.code == SW_EPOLICY)
			out->health = SW_LLM_BROKEN;
	}
cleanup:
	sw_llm_client_free(c);
}

void sw_llm_probe_release(struct sw_llm_probe *p)
{
	if (!p)
		return;
	free(p->address);
	free(p->policy);
	free(p->error);
	sw_llm_server_info_release(&p->info);
	memset(p, 0, sizeof(*p));
}
