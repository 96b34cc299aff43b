/*
 * fuzz_gguf.c - hostile bytes through the GGUF reader and the model
 * summary.  Besides memory errors it checks what planning relies on:
 * tensor sizes that match their shapes and types, names inside the limit,
 * and a summary whose per-layer bytes add up to no more than the file's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_gguf: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_gguf *g = NULL;
	struct sw_fleet_model m;
	if (sw_gguf_parse(&g, data, size, "fuzz", NULL) != 0) {
		check(g == NULL, "object left after a failure");
		return 0;
	}
	for (size_t i = 0; i < sw_gguf_tensor_count(g); i++) {
		const struct sw_gguf_tensor *t = sw_gguf_tensor(g, i);
		check(strlen(t->name) < SW_GGUF_MAX_NAME, "tensor name too long");
		check(sw_ggml_type_name(t->type) != NULL, "unknown type accepted");
		uint64_t el = t->ne[0] * t->ne[1] * t->ne[2] * t->ne[3];
		check(t->bytes == el / sw_ggml_block_size(t->type) * sw_ggml_type_size(t->type),
		      "tensor size differs from its shape");
	}
	for (size_t i = 0; i < sw_gguf_kv_count(g); i++)
		check(sw_gguf_kv_key(g, i, NULL) != NULL, "missing key");
	if (sw_fleet_model_from_gguf(&m, g, "fuzz", NULL) == 0) {
		uint64_t sum = m.embd_bytes + m.output_bytes;
		for (uint32_t l = 0; l < m.n_layer_all; l++) {
			check(m.layers[l].read_bytes <= m.layers[l].bytes, "reads more than it holds");
			sum += m.layers[l].bytes;
		}
		check(sum <= m.weight_bytes + m.embd_bytes, "layers hold more than the file");
		sw_fleet_model_release(&m);
	}
	sw_gguf_close(g);
	return 0;
}
