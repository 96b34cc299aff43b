/* cmd_gguf.c - `sworn gguf FILE`: what a GGUF model file holds. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "fleet/fleet.h"

struct gguf_opts {
	bool json, tensors, chat_template;
};

#define AT(f) offsetof(struct gguf_opts, f)
static const struct cli_opt opts[] = {
	{ "json", 0, NULL, "print the summary as JSON", CLI_FLAG, AT(json) },
	{ "tensors", 't', NULL, "also list every tensor with its type and shape", CLI_FLAG,
	  AT(tensors) },
	{ "chat-template", 0, NULL,
	  "print only the file's chat template (tokenizer.chat_template), "
	  "as it is",
	  CLI_FLAG, AT(chat_template) },
};

struct shown {
	const struct sw_fleet_model *m;
	const struct sw_gguf *g;
	bool tensors;
};

static void print_text(FILE *f, const void *ud)
{
	const struct shown *s = ud;
	const struct sw_fleet_model *m = s->m;
	char size[32];
	cli_human_bytes(size, sizeof(size), m->file_bytes ? m->file_bytes : m->weight_bytes);
	sw_term_printf(f, "file          %s (GGUF v%u, %u shard%s, %s)\n", m->path, m->gguf_version, m->shards,
	               m->shards == 1 ? "" : "s", size);
	sw_term_printf(f, "name          %s\n", m->name);
	sw_term_printf(f, "architecture  %s\n", m->arch);
	sw_term_printf(f, "file type     %s\n", m->file_type);
	sw_term_printf(f, "parameters    %.2fB total, %.2fB active per token\n", (double)m->params_total / 1e9,
	               (double)m->params_active / 1e9);
	if (m->n_expert > 1)
		sw_term_printf(f, "experts       %u, %u used per token, %u shared, expert FFN %llu, shared FFN %llu\n",
		               m->n_expert, m->n_expert_used, m->n_expert_shared, (unsigned long long)m->expert_ff,
		               (unsigned long long)m->expert_shared_ff);
	else if (m->n_ff)
		sw_term_printf(f, "feed-forward  %llu (dense)\n", (unsigned long long)m->n_ff);
	sw_term_printf(f, "layers        %u", m->n_layer);
	if (m->n_mtp)
		sw_term_printf(f, " + %u MTP", m->n_mtp);
	sw_term_printf(f, ": %u with KV cache (%u sliding-window), %u recurrent\n", m->n_kv_layers, m->n_swa_layers,
	               m->n_recurrent_layers);
	if (m->n_swa_layers)
		sw_term_printf(f, "window        %u tokens\n", m->swa_window);
	sw_term_printf(f, "heads         %u query, %u KV, head dim %u (K) / %u (V)\n", m->n_head, m->n_head_kv,
	               m->key_len, m->value_len);
	sw_term_printf(f, "context       %llu tokens trained\n", (unsigned long long)m->n_ctx_train);
	sw_term_printf(f, "vocabulary    %llu, embedding %llu%s\n", (unsigned long long)m->n_vocab,
	               (unsigned long long)m->n_embd, m->output_tied ? ", output tied to the embedding" : "");
	sw_term_printf(f, "header sha256 %s\n", m->header_sha256);
	sw_term_printf(f, "bytes by tensor type:\n");
	for (uint32_t t = 0; t < SW_GGML_TYPE_COUNT; t++)
		if (m->bytes_by_type[t]) {
			cli_human_bytes(size, sizeof(size), m->bytes_by_type[t]);
			sw_term_printf(f, "  %-8s %12s  %5.1f%%\n", sw_ggml_type_name(t), size,
			               100.0 * (double)m->bytes_by_type[t] / (double)m->weight_bytes);
		}
	if (m->has_bf16)
		sw_term_printf(f, "note: BF16 tensors: GPUs before Ampere (SM 8.0) have no BF16\n");
	if (!s->tensors)
		return;
	sw_term_printf(f, "tensors:\n");
	for (size_t i = 0; i < sw_gguf_tensor_count(s->g); i++) {
		const struct sw_gguf_tensor *t = sw_gguf_tensor(s->g, i);
		sw_term_printf(f, "  %-40s %-8s [", t->name, sw_ggml_type_name(t->type));
		for (uint32_t d = 0; d < t->n_dims; d++)
			sw_term_printf(f, "%s%llu", d ? ", " : "", (unsigned long long)t->ne[d]);
		sw_term_printf(f, "]\n");
	}
}

static json_t *to_json(const struct sw_fleet_model *m, const struct sw_gguf *g, bool tensors)
{
	json_t *by_type = json_object();
	for (uint32_t t = 0; t < SW_GGML_TYPE_COUNT; t++)
		if (m->bytes_by_type[t])
			json_object_set_new(by_type, sw_ggml_type_name(t), json_integer((json_int_t)m->bytes_by_type[t]));
	json_t *o = json_pack("{s:o, s:o, s:s, s:s, s:i, s:i, s:I, s:I, s:I, s:{s:i, s:i, s:i, s:I, s:I}, "
			      "s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:I, s:I, s:I, s:b, s:s, s:o}",
		"file", sw_json_str(m->path), "name", sw_json_str(m->name),
		"architecture", m->arch, "file_type", m->file_type,
		"gguf_version", (int)m->gguf_version, "shards", (int)m->shards,
		"file_bytes", (json_int_t)m->file_bytes,
		"params_total", (json_int_t)m->params_total, "params_active", (json_int_t)m->params_active,
		"experts", "count", (int)m->n_expert, "used", (int)m->n_expert_used,
		"shared", (int)m->n_expert_shared, "ffn", (json_int_t)m->expert_ff,
		"shared_ffn", (json_int_t)m->expert_shared_ff,
		"layers", (int)m->n_layer, "mtp_layers", (int)m->n_mtp,
		"kv_layers", (int)m->n_kv_layers, "sliding_window_layers", (int)m->n_swa_layers,
		"sliding_window", (int)m->swa_window, "recurrent_layers", (int)m->n_recurrent_layers,
		"heads", (int)m->n_head, "kv_heads", (int)m->n_head_kv, "head_dim_k", (int)m->key_len,
		"head_dim_v", (json_int_t)m->value_len, "context_trained", (json_int_t)m->n_ctx_train,
		"vocab", (json_int_t)m->n_vocab, "output_tied", m->output_tied,
		"header_sha256", m->header_sha256, "bytes_by_type", by_type);
	json_object_set_new(o, "embedding", json_integer((json_int_t)m->n_embd));
	json_object_set_new(o, "weight_bytes", json_integer((json_int_t)m->weight_bytes));
	if (tensors) {
		json_t *arr = json_array();
		for (size_t i = 0; i < sw_gguf_tensor_count(g); i++) {
			const struct sw_gguf_tensor *t = sw_gguf_tensor(g, i);
			json_t *shape = json_array();
			for (uint32_t d = 0; d < t->n_dims; d++)
				json_array_append_new(shape, json_integer((json_int_t)t->ne[d]));
			json_array_append_new(arr, json_pack("{s:o, s:s, s:o, s:I}", "name", sw_json_str(t->name),
				"type", sw_ggml_type_name(t->type), "shape", shape, "bytes", (json_int_t)t->bytes));
		}
		json_object_set_new(o, "tensors", arr);
	}
	return o;
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	const struct gguf_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_gguf *g = NULL;
	struct sw_fleet_model m = { 0 };
	int rc = CLI_OK;
	(void)ctx;
	(void)cmd;

	if (sw_gguf_open(&g, a->pos[0], &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	/* The template alone: what a trainer or a test renders the model's
	 * chats with, whatever the file's shapes are. */
	if (o->chat_template) {
		const char *t = sw_gguf_get_str(g, "tokenizer.chat_template");
		if (o->json || o->tensors) {
			cli_error("--chat-template prints the template alone: no --json or "
				  "--tensors");
			rc = CLI_USAGE;
		} else if (!t) {
			cli_error("'%s' has no tokenizer.chat_template", a->pos[0]);
			rc = CLI_NO;
		} else if (fputs(t, stdout) == EOF || fflush(stdout) != 0) {
			cli_error("cannot write the chat template to standard output");
			rc = CLI_USAGE;
		}
		goto cleanup;
	}
	if (sw_fleet_model_from_gguf(&m, g, a->pos[0], &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	struct shown s = { &m, g, o->tensors };
	rc = cli_emit(o->json, o->json ? to_json(&m, g, o->tensors) : NULL, print_text, &s, CLI_OK);
cleanup:
	sw_fleet_model_release(&m);
	sw_gguf_close(g);
	return rc;
}

const struct cli_command cli_cmd_gguf = {
	.name = "gguf",
	.usage = "[--json] [--tensors] [--chat-template] FILE.gguf",
	.summary = "what a GGUF model file holds: architecture, parameters, layers, types",
	.description =
		"Reads only the header and the tensor table, so the first megabytes of a\n"
		"model file are enough.  For a split model give the first shard\n"
		"(NAME-00001-of-0000N.gguf); the other shards are read from its folder.\n"
		"--chat-template prints the template the file carries for its chats\n"
		"(Jinja, as written by the converter), and nothing else.\n\n"
		"Exit status: 0 ok, 1 when --chat-template finds none, 2 when the file\n"
		"is not a readable GGUF.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct gguf_opts),
	.min_pos = 1,
	.max_pos = 1,
	.flags = 0,
	.run = run,
};
