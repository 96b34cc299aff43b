/*
 * gguf.c - the GGUF header and tensor table reader.
 *
 * The reader streams: values it does not keep (vocabularies, merges) are
 * read through and dropped, so memory stays proportional to what planning
 * needs.  Every length is checked twice before an allocation: against its
 * named limit, and against the bytes actually left in the input, so a
 * 100-byte file cannot make the reader allocate 16 MiB.  Every byte read
 * also goes into a SHA-256, which names the file by its header.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fleet/fleet_int.h"

/* Numeric arrays longer than this are counted but not kept: per-layer
 * arrays are at most block_count long. */
#define KEEP_ARRAY SW_GGUF_MAX_LAYERS
/* Strings longer than this are read through but not kept. */
#define KEEP_STRING (1u << 20)

struct ggml_type {
	const char *name;
	uint32_t blck, size;
};

static const struct ggml_type types[SW_GGML_TYPE_COUNT] = {
	[0] = { "F32", 1, 4 },       [1] = { "F16", 1, 2 },
	[2] = { "Q4_0", 32, 18 },    [3] = { "Q4_1", 32, 20 },
	[6] = { "Q5_0", 32, 22 },    [7] = { "Q5_1", 32, 24 },
	[8] = { "Q8_0", 32, 34 },    [9] = { "Q8_1", 32, 36 },
	[10] = { "Q2_K", 256, 84 },  [11] = { "Q3_K", 256, 110 },
	[12] = { "Q4_K", 256, 144 }, [13] = { "Q5_K", 256, 176 },
	[14] = { "Q6_K", 256, 210 }, [15] = { "Q8_K", 256, 292 },
	[16] = { "IQ2_XXS", 256, 66 }, [17] = { "IQ2_XS", 256, 74 },
	[18] = { "IQ3_XXS", 256, 98 }, [19] = { "IQ1_S", 256, 50 },
	[20] = { "IQ4_NL", 32, 18 },   [21] = { "IQ3_S", 256, 110 },
	[22] = { "IQ2_S", 256, 82 },   [23] = { "IQ4_XS", 256, 136 },
	[24] = { "I8", 1, 1 },   [25] = { "I16", 1, 2 }, [26] = { "I32", 1, 4 },
	[27] = { "I64", 1, 8 },  [28] = { "F64", 1, 8 },
	[29] = { "IQ1_M", 256, 56 }, [30] = { "BF16", 1, 2 },
	[34] = { "TQ1_0", 256, 54 }, [35] = { "TQ2_0", 256, 66 },
	[39] = { "MXFP4", 32, 17 },  [40] = { "NVFP4", 64, 36 },
	[41] = { "Q1_0", 128, 18 },  [42] = { "Q2_0", 64, 18 },
};

const char *sw_ggml_type_name(uint32_t type)
{
	return type < SW_GGML_TYPE_COUNT ? types[type].name : NULL;
}

uint32_t sw_ggml_block_size(uint32_t type)
{
	return type < SW_GGML_TYPE_COUNT ? types[type].blck : 0;
}

uint32_t sw_ggml_type_size(uint32_t type)
{
	return type < SW_GGML_TYPE_COUNT ? types[type].size : 0;
}

const char *sw_gguf_file_type_name(uint64_t ftype)
{
	static const char *const names[] = {
		[0] = "F32", [1] = "F16", [2] = "Q4_0", [3] = "Q4_1", [7] = "Q8_0",
		[8] = "Q5_0", [9] = "Q5_1", [10] = "Q2_K", [11] = "Q3_K_S",
		[12] = "Q3_K_M", [13] = "Q3_K_L", [14] = "Q4_K_S", [15] = "Q4_K_M",
		[16] = "Q5_K_S", [17] = "Q5_K_M", [18] = "Q6_K", [19] = "IQ2_XXS",
		[20] = "IQ2_XS", [21] = "Q2_K_S", [22] = "IQ3_XS", [23] = "IQ3_XXS",
		[24] = "IQ1_S", [25] = "IQ4_NL", [26] = "IQ3_S", [27] = "IQ3_M",
		[28] = "IQ2_S", [29] = "IQ2_M", [30] = "IQ4_XS", [31] = "IQ1_M",
		[32] = "BF16", [36] = "TQ1_0", [37] = "TQ2_0", [38] = "MXFP4_MOE",
		[39] = "NVFP4", [40] = "Q1_0",
	};
	if (ftype == 1024)
		return "guessed";
	return ftype < SW_ARRAY_LEN(names) ? names[ftype] : NULL;
}

union val {
	uint64_t u;
	int64_t i;
	double f;
};

struct kv {
	const char *key;
	enum sw_gguf_type type;
	enum sw_gguf_type elem;   /* arrays */
	uint64_t count;           /* arrays */
	union val v;              /* scalars */
	const char *str;          /* strings kept (NULL when too long) */
	union val *arr;           /* numeric arrays kept (NULL when too long) */
};

struct sw_gguf {
	struct sw_arena arena;
	uint32_t version, shards;
	uint64_t alignment;
	uint64_t file_bytes;
	struct kv *kvs;
	size_t nkv;
	size_t *index;            /* open addressing over kvs: i + 1, 0 = empty */
	size_t index_cap;
	struct sw_gguf_tensor *tensors;
	size_t ntensors, tcap;
	char sha[SW_SHA256_HEX_LEN + 1];
};

/* One input: a stdio stream or a memory block.  `left` is what remains, so
 * that lengths can be checked against it before allocating. */
struct rd {
	FILE *f;
	const unsigned char *mem;
	uint64_t pos, size;
	const char *name;
	struct sw_sha256 *hash;
	struct sw_err *err;
};

static int short_read(struct rd *r, const char *what)
{
	return sw_err_set(r->err, SW_EINPUT,
			  "'%s': truncated at byte %llu while reading %s", r->name,
			  (unsigned long long)r->pos, what);
}

static int get(struct rd *r, void *dst, size_t n, const char *what)
{
	if (r->pos > r->size || n > r->size - r->pos)
		return short_read(r, what);
	if (r->mem) {
		memcpy(dst, r->mem + r->pos, n);
	} else if (n && fread(dst, 1, n, r->f) != n) {
		if (ferror(r->f))
			return sw_err_set(r->err, SW_EIO, "cannot read '%s': %s", r->name,
					  strerror(errno));
		return short_read(r, what);
	}
	if (r->pos + n > SW_GGUF_MAX_HEADER)
		return sw_err_set(r->err, SW_ELIMIT,
				  "'%s': header larger than %llu MiB", r->name,
				  (unsigned long long)(SW_GGUF_MAX_HEADER >> 20));
	if (r->hash)
		sw_sha256_update(r->hash, dst, n);
	r->pos += n;
	return 0;
}

/* Read and drop n bytes. */
static int skip(struct rd *r, uint64_t n, const char *what)
{
	unsigned char buf[4096];
	while (n) {
		size_t k = n < sizeof(buf) ? (size_t)n : sizeof(buf);
		int rc = get(r, buf, k, what);
		if (rc)
			return rc;
		n -= k;
	}
	return 0;
}

static uint64_t le(const unsigned char *b, size_t n)
{
	uint64_t v = 0;
	for (size_t i = n; i-- > 0;)
		v = v << 8 | b[i];
	return v;
}

static int get_u32(struct rd *r, uint32_t *out, const char *what)
{
	unsigned char b[4];
	int rc = get(r, b, 4, what);
	if (rc == 0)
		*out = (uint32_t)le(b, 4);
	return rc;
}

static int get_u64(struct rd *r, uint64_t *out, const char *what)
{
	unsigned char b[8];
	int rc = get(r, b, 8, what);
	if (rc == 0)
		*out = le(b, 8);
	return rc;
}

/* A gguf_string: u64 length and bytes.  *out is NULL when keep is 0 or the
 * string is longer than keep (then it is read through). */
static int get_string(struct rd *r, struct sw_arena *a, const char **out,
		      uint64_t *len_out, uint64_t limit, uint64_t keep, const char *what)
{
	uint64_t len, at = r->pos;
	int rc = get_u64(r, &len, what);
	*out = NULL;
	if (rc)
		return rc;
	if (len > limit)
		return sw_err_set(r->err, SW_ELIMIT,
				  "'%s': %s at byte %llu is %llu bytes long (limit %llu)",
				  r->name, what, (unsigned long long)at,
				  (unsigned long long)len, (unsigned long long)limit);
	if (len > r->size - r->pos)
		return short_read(r, what);
	if (len_out)
		*len_out = len;
	if (len > keep)
		return skip(r, len, what);
	char *s = sw_arena_alloc(a, (size_t)len + 1);
	rc = get(r, s, (size_t)len, what);
	*out = s;
	return rc;
}

static size_t scalar_size(uint32_t t)
{
	switch (t) {
	case SW_GGUF_U8: case SW_GGUF_I8: case SW_GGUF_BOOL: return 1;
	case SW_GGUF_U16: case SW_GGUF_I16: return 2;
	case SW_GGUF_U32: case SW_GGUF_I32: case SW_GGUF_F32: return 4;
	case SW_GGUF_U64: case SW_GGUF_I64: case SW_GGUF_F64: return 8;
	default: return 0;
	}
}

static union val decode_scalar(uint32_t t, const unsigned char *b)
{
	union val v = { 0 };
	uint64_t raw = le(b, scalar_size(t));
	switch (t) {
	case SW_GGUF_I8: v.i = (int8_t)raw; break;
	case SW_GGUF_I16: v.i = (int16_t)raw; break;
	case SW_GGUF_I32: v.i = (int32_t)raw; break;
	case SW_GGUF_I64: v.i = (int64_t)raw; break;
	case SW_GGUF_F32: {
		uint32_t w = (uint32_t)raw;
		float f;
		memcpy(&f, &w, sizeof(f));
		v.f = f;
		break;
	}
	case SW_GGUF_F64: memcpy(&v.f, &raw, sizeof(v.f)); break;
	default: v.u = raw; break;
	}
	return v;
}

static int read_value(struct rd *r, struct sw_gguf *g, struct kv *kv, uint32_t type,
		      unsigned depth);

/* An array: elem type, count, elements.  Numeric arrays short enough are
 * kept for per-layer lookups; everything else is read through. */
static int read_array(struct rd *r, struct sw_gguf *g, struct kv *kv, unsigned depth)
{
	uint32_t elem;
	uint64_t count;
	int rc;
	if (depth >= SW_GGUF_MAX_ARRAY_DEPTH)
		return sw_err_set(r->err, SW_ELIMIT, "'%s': arrays nested deeper than %u at byte %llu",
				  r->name, SW_GGUF_MAX_ARRAY_DEPTH, (unsigned long long)r->pos);
	if ((rc = get_u32(r, &elem, "array type")) || (rc = get_u64(r, &count, "array length")))
		return rc;
	if (elem > SW_GGUF_F64)
		return sw_err_set(r->err, SW_EINPUT, "'%s': unknown array element type %u at byte %llu",
				  r->name, elem, (unsigned long long)r->pos);
	if (count > SW_GGUF_MAX_ARRAY)
		return sw_err_set(r->err, SW_ELIMIT, "'%s': array of %llu elements (limit %u)",
				  r->name, (unsigned long long)count, SW_GGUF_MAX_ARRAY);
	size_t es = scalar_size(elem);
	/* Each element takes at least one byte (strings at least eight). */
	uint64_t min_each = es ? es : elem == SW_GGUF_STRING ? 8 : 12;
	if (count > (r->size - r->pos) / min_each)
		return short_read(r, "array");
	if (depth == 0 && kv) {
		kv->elem = elem;
		kv->count = count;
	}
	if (es) {
		bool keep = depth == 0 && kv && count <= KEEP_ARRAY;
		if (keep)
			kv->arr = sw_arena_alloc(&g->arena, (size_t)(count ? count : 1) * sizeof(union val));
		for (uint64_t i = 0; i < count; i++) {
			unsigned char b[8];
			if ((rc = get(r, b, es, "array element")))
				return rc;
			if (keep)
				kv->arr[i] = decode_scalar(elem, b);
		}
		return 0;
	}
	for (uint64_t i = 0; i < count; i++)
		if ((rc = read_value(r, g, NULL, elem, depth + 1)))
			return rc;
	return 0;
}

static int read_value(struct rd *r, struct sw_gguf *g, struct kv *kv, uint32_t type,
		      unsigned depth)
{
	size_t es = scalar_size(type);
	if (es) {
		unsigned char b[8];
		int rc = get(r, b, es, "value");
		if (rc == 0 && kv)
			kv->v = decode_scalar(type, b);
		return rc;
	}
	if (type == SW_GGUF_STRING) {
		const char *s;
		int rc = get_string(r, &g->arena, &s, NULL, SW_GGUF_MAX_STRING,
				    kv ? KEEP_STRING : 0, "string value");
		if (rc == 0 && kv)
			kv->str = s;
		return rc;
	}
	if (type == SW_GGUF_ARRAY)
		return read_array(r, g, kv, depth);
	return sw_err_set(r->err, SW_EINPUT, "'%s': unknown value type %u at byte %llu",
			  r->name, type, (unsigned long long)r->pos);
}

static bool is_int(enum sw_gguf_type t)
{
	return t <= SW_GGUF_I32 || t == SW_GGUF_BOOL || t == SW_GGUF_U64 || t == SW_GGUF_I64;
}

static bool is_signed(enum sw_gguf_type t)
{
	return t == SW_GGUF_I8 || t == SW_GGUF_I16 || t == SW_GGUF_I32 || t == SW_GGUF_I64;
}

static uint64_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Keys are looked up per layer by the model summary: a hash index keeps a
 * hostile file with 65,536 keys and 4,096 layers from taking minutes.  A
 * repeated key: the last one wins, as in the old linear search. */
static void build_index(struct sw_gguf *g)
{
	size_t cap = 16;
	while (cap < 2 * g->nkv)
		cap <<= 1;
	g->index = sw_xcalloc(cap, sizeof(*g->index));
	g->index_cap = cap;
	for (size_t i = 0; i < g->nkv; i++) {
		size_t k = (size_t)hash_name(g->kvs[i].key) & (cap - 1);
		while (g->index[k] && strcmp(g->kvs[g->index[k] - 1].key, g->kvs[i].key) != 0)
			k = (k + 1) & (cap - 1);
		g->index[k] = i + 1;
	}
}

static struct kv *find(const struct sw_gguf *g, const char *key)
{
	if (!g->index)
		return NULL;
	size_t k = (size_t)hash_name(key) & (g->index_cap - 1);
	while (g->index[k]) {
		struct kv *kv = &g->kvs[g->index[k] - 1];
		if (strcmp(kv->key, key) == 0)
			return kv;
		k = (k + 1) & (g->index_cap - 1);
	}
	return NULL;
}

/* Tensor names must be unique across all shards.  A hash table keeps this
 * linear: a hostile table of 65,536 names would take seconds pairwise. */
static int check_unique(const struct sw_gguf *g, struct rd *r)
{
	size_t cap = 16, n = g->ntensors;
	while (cap < 2 * n)
		cap <<= 1;
	size_t *slot = sw_xcalloc(cap, sizeof(*slot)); /* index + 1; 0 = empty */
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t k = (size_t)hash_name(g->tensors[i].name) & (cap - 1);
		while (slot[k]) {
			if (strcmp(g->tensors[slot[k] - 1].name, g->tensors[i].name) == 0) {
				rc = sw_err_set(r->err, SW_EINPUT, "'%s': tensor '%s' appears twice",
						r->name, g->tensors[i].name);
				break;
			}
			k = (k + 1) & (cap - 1);
		}
		slot[k] = i + 1;
	}
	free(slot);
	return rc;
}

/* Parse one shard's header and tensor table.  A first shard (g->nkv == 0)
 * keeps its metadata; later shards add only their tensors. */
static int parse_shard(struct sw_gguf *g, struct rd *r, uint32_t shard)
{
	unsigned char magic[4];
	uint32_t version;
	uint64_t nt, nkv;
	int rc;

	if ((rc = get(r, magic, 4, "magic")))
		return rc;
	if (memcmp(magic, "GGUF", 4) != 0)
		return sw_err_set(r->err, SW_EINPUT, "'%s' is not a GGUF file (bad magic)", r->name);
	if ((rc = get_u32(r, &version, "version")))
		return rc;
	if ((version & 0xffff) == 0)
		return sw_err_set(r->err, SW_EINPUT, "'%s': big-endian GGUF is not supported", r->name);
	if (version == 1)
		return sw_err_set(r->err, SW_EINPUT, "'%s': GGUF version 1 is no longer supported (convert it again)",
				  r->name);
	if (version != 2 && version != 3)
		return sw_err_set(r->err, SW_EINPUT, "'%s': unknown GGUF version %u", r->name, version);
	if ((rc = get_u64(r, &nt, "tensor count")) || (rc = get_u64(r, &nkv, "metadata count")))
		return rc;
	if (nt > SW_GGUF_MAX_TENSORS)
		return sw_err_set(r->err, SW_ELIMIT, "'%s': %llu tensors (limit %u)", r->name,
				  (unsigned long long)nt, SW_GGUF_MAX_TENSORS);
	if (nkv > SW_GGUF_MAX_KV)
		return sw_err_set(r->err, SW_ELIMIT, "'%s': %llu metadata entries (limit %u)",
				  r->name, (unsigned long long)nkv, SW_GGUF_MAX_KV);
	/* A key-value pair takes at least 13 bytes, a tensor info at least 28. */
	if (nkv > (r->size - r->pos) / 13 || nt > (r->size - r->pos) / 28)
		return short_read(r, "metadata");
	if (shard == 0)
		g->version = version;

	struct kv *kvs = shard == 0 ? sw_arena_alloc(&g->arena, (size_t)(nkv ? nkv : 1) * sizeof(*kvs))
				    : NULL;
	uint64_t alignment = 32;
	for (uint64_t i = 0; i < nkv; i++) {
		struct kv tmp = { 0 }, *kv = kvs ? &kvs[i] : &tmp;
		uint32_t type;
		if ((rc = get_string(r, &g->arena, &kv->key, NULL, SW_GGUF_MAX_KEY, SW_GGUF_MAX_KEY,
				     "metadata key")))
			return rc;
		if ((rc = get_u32(r, &type, "value type")))
			return rc;
		if (type > SW_GGUF_F64)
			return sw_err_set(r->err, SW_EINPUT, "'%s': key '%s' has unknown type %u",
					  r->name, kv->key, type);
		kv->type = type;
		if ((rc = read_value(r, g, kv, type, 0)))
			return rc;
		if (strcmp(kv->key, "general.alignment") == 0) {
			if (type != SW_GGUF_U32 || kv->v.u == 0 || (kv->v.u & (kv->v.u - 1)))
				return sw_err_set(r->err, SW_EINPUT,
						  "'%s': general.alignment must be a power of two (u32)",
						  r->name);
			alignment = kv->v.u;
		}
	}
	if (shard == 0) {
		g->kvs = kvs;
		g->nkv = (size_t)nkv;
		g->alignment = alignment;
		build_index(g);
	}

	g->tensors = sw_xgrow(g->tensors, &g->tcap, g->ntensors + (size_t)nt + 1, sizeof(*g->tensors));
	uint64_t expect_offset = 0;
	for (uint64_t i = 0; i < nt; i++) {
		struct sw_gguf_tensor *t = &g->tensors[g->ntensors];
		uint64_t name_len;
		memset(t, 0, sizeof(*t));
		if ((rc = get_string(r, &g->arena, &t->name, &name_len, SW_GGUF_MAX_NAME - 1,
				     SW_GGUF_MAX_NAME, "tensor name")))
			return rc;
		if ((rc = get_u32(r, &t->n_dims, "tensor dimensions")))
			return rc;
		if (t->n_dims == 0 || t->n_dims > SW_GGUF_MAX_DIMS)
			return sw_err_set(r->err, SW_EINPUT, "'%s': tensor '%s' has %u dimensions",
					  r->name, t->name, t->n_dims);
		uint64_t elems = 1;
		for (uint32_t d = 0; d < SW_GGUF_MAX_DIMS; d++) {
			t->ne[d] = 1;
			if (d < t->n_dims && (rc = get_u64(r, &t->ne[d], "tensor shape")))
				return rc;
			if (t->ne[d] == 0 || t->ne[d] > (UINT64_C(1) << 40) ||
			    elems > (UINT64_C(1) << 62) / t->ne[d])
				return sw_err_set(r->err, SW_EINPUT, "'%s': tensor '%s' has a bad shape",
						  r->name, t->name);
			elems *= t->ne[d];
		}
		if ((rc = get_u32(r, &t->type, "tensor type")) || (rc = get_u64(r, &t->offset, "tensor offset")))
			return rc;
		const char *tn = sw_ggml_type_name(t->type);
		if (!tn)
			return sw_err_set(r->err, SW_EINPUT, "'%s': tensor '%s' has unknown type %u",
					  r->name, t->name, t->type);
		if (t->ne[0] % types[t->type].blck)
			return sw_err_set(r->err, SW_EINPUT,
					  "'%s': tensor '%s' row of %llu is not a multiple of the %s block",
					  r->name, t->name, (unsigned long long)t->ne[0], tn);
		t->bytes = elems / types[t->type].blck * types[t->type].size;
		if (t->offset != expect_offset)
			return sw_err_set(r->err, SW_EINPUT,
					  "'%s': tensor '%s' at offset %llu, expected %llu",
					  r->name, t->name, (unsigned long long)t->offset,
					  (unsigned long long)expect_offset);
		expect_offset += (t->bytes + alignment - 1) / alignment * alignment;
		t->shard = shard;
		g->ntensors++;
	}
	return check_unique(g, r);
}

static struct sw_gguf *new_gguf(void)
{
	struct sw_gguf *g = sw_xcalloc(1, sizeof(*g));
	sw_arena_init(&g->arena, 64 * 1024);
	g->shards = 1;
	g->alignment = 32;
	return g;
}

int sw_gguf_parse(struct sw_gguf **out, const void *data, size_t len, const char *name,
		  struct sw_err *err)
{
	struct sw_gguf *g = new_gguf();
	struct sw_sha256 h;
	struct rd r = { .mem = data, .size = len, .name = name ? name : "gguf", .hash = &h, .err = err };
	sw_sha256_init(&h);
	int rc = parse_shard(g, &r, 0);
	sw_sha256_final_hex(&h, g->sha);
	if (rc) {
		sw_gguf_close(g);
		g = NULL;
	}
	*out = g;
	return rc;
}

static int open_one(struct sw_gguf *g, const char *path, uint32_t shard,
		    struct sw_sha256 *h, struct sw_err *err)
{
	struct stat st;
	FILE *f = fopen(path, "rb");
	int rc;
	if (!f)
		return sw_err_set(err, errno == ENOENT ? SW_ENOTFOUND : SW_EIO,
				  "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = sw_err_set(err, SW_EINPUT, "'%s' is not a regular file", path);
		goto cleanup;
	}
	struct rd r = { .f = f, .size = (uint64_t)st.st_size, .name = path, .hash = h, .err = err };
	g->file_bytes += (uint64_t)st.st_size;
	rc = parse_shard(g, &r, shard);
cleanup:
	fclose(f);
	return rc;
}

/* "dir/NAME-00001-of-00003.gguf" -> the prefix length and N, or false. */
static bool split_name(const char *path, size_t *prefix, unsigned *no, unsigned *count)
{
	size_t len = strlen(path);
	const char *tail = "-00001-of-00000.gguf";
	size_t tl = strlen(tail);
	if (len < tl)
		return false;
	const char *s = path + len - tl;
	unsigned a, b;
	char dot[6];
	if (s[0] != '-' || sscanf(s, "-%5u-of-%5u%5s", &a, &b, dot) != 3 || strcmp(dot, ".gguf") != 0)
		return false;
	for (int i = 1; i <= 5; i++)
		if (s[i] < '0' || s[i] > '9' || s[i + 9] < '0' || s[i + 9] > '9')
			return false;
	*prefix = len - tl;
	*no = a;
	*count = b;
	return true;
}

int sw_gguf_open(struct sw_gguf **out, const char *path, struct sw_err *err)
{
	struct sw_gguf *g = new_gguf();
	struct sw_sha256 h;
	size_t prefix = 0;
	unsigned no = 0, count = 0;
	char *shard_path = NULL;
	int rc;

	sw_sha256_init(&h);
	bool split = split_name(path, &prefix, &no, &count);
	if (split && count > 1 && no != 1) {
		rc = sw_err_set(err, SW_EUSAGE, "'%s' is shard %u of a split model: give the first shard (-00001-of-%05u)",
				path, no, count);
		goto cleanup;
	}
	if (split && count > SW_GGUF_MAX_SHARDS) {
		rc = sw_err_set(err, SW_ELIMIT, "'%s': %u shards (limit %u)", path, count, SW_GGUF_MAX_SHARDS);
		goto cleanup;
	}
	if ((rc = open_one(g, path, 0, &h, err)))
		goto cleanup;
	uint64_t declared = 1;
	if (sw_gguf_get_u64(g, "split.count", &declared) && declared > 1) {
		if (!split || declared != count) {
			rc = sw_err_set(err, SW_EINPUT, "'%s' says it is one of %llu shards but is not named NAME-00001-of-%05llu.gguf",
					path, (unsigned long long)declared, (unsigned long long)declared);
			goto cleanup;
		}
		for (unsigned i = 2; i <= count; i++) {
			free(shard_path);
			shard_path = sw_xasprintf("%.*s-%05u-of-%05u.gguf", (int)prefix, path, i, count);
			if ((rc = open_one(g, shard_path, i - 1, &h, err)))
				goto cleanup;
		}
		g->shards = count;
	}
cleanup:
	sw_sha256_final_hex(&h, g->sha);
	free(shard_path);
	if (rc) {
		sw_gguf_close(g);
		g = NULL;
	}
	*out = g;
	return rc;
}

void sw_gguf_close(struct sw_gguf *g)
{
	if (!g)
		return;
	sw_arena_release(&g->arena);
	free(g->tensors);
	free(g->index);
	free(g);
}

uint32_t sw_gguf_version(const struct sw_gguf *g) { return g->version; }
uint32_t sw_gguf_shards(const struct sw_gguf *g) { return g->shards; }
uint64_t sw_gguf_alignment(const struct sw_gguf *g) { return g->alignment; }
uint64_t sw_gguf_file_bytes(const struct sw_gguf *g) { return g->file_bytes; }
const char *sw_gguf_header_sha256(const struct sw_gguf *g) { return g->sha; }
size_t sw_gguf_kv_count(const struct sw_gguf *g) { return g->nkv; }
size_t sw_gguf_tensor_count(const struct sw_gguf *g) { return g->ntensors; }

const char *sw_gguf_kv_key(const struct sw_gguf *g, size_t i, enum sw_gguf_type *type)
{
	if (i >= g->nkv)
		return NULL;
	if (type)
		*type = g->kvs[i].type;
	return g->kvs[i].key;
}

const struct sw_gguf_tensor *sw_gguf_tensor(const struct sw_gguf *g, size_t i)
{
	return i < g->ntensors ? &g->tensors[i] : NULL;
}

const char *sw_gguf_get_str(const struct sw_gguf *g, const char *key)
{
	const struct kv *kv = find(g, key);
	return kv && kv->type == SW_GGUF_STRING ? kv->str : NULL;
}

static bool val_u64(enum sw_gguf_type t, union val v, uint64_t *out)
{
	if (!is_int(t) || (is_signed(t) && v.i < 0))
		return false;
	*out = v.u;
	return true;
}

bool sw_gguf_get_u64(const struct sw_gguf *g, const char *key, uint64_t *out)
{
	const struct kv *kv = find(g, key);
	return kv && val_u64(kv->type, kv->v, out);
}

bool sw_gguf_get_f64(const struct sw_gguf *g, const char *key, double *out)
{
	const struct kv *kv = find(g, key);
	if (!kv)
		return false;
	if (kv->type == SW_GGUF_F32 || kv->type == SW_GGUF_F64) {
		*out = kv->v.f;
		return true;
	}
	if (!is_int(kv->type))
		return false;
	*out = is_signed(kv->type) ? (double)kv->v.i : (double)kv->v.u;
	return true;
}

bool sw_gguf_get_array(const struct sw_gguf *g, const char *key,
		       enum sw_gguf_type *elem_type, uint64_t *count)
{
	const struct kv *kv = find(g, key);
	if (!kv || kv->type != SW_GGUF_ARRAY)
		return false;
	if (elem_type)
		*elem_type = kv->elem;
	if (count)
		*count = kv->count;
	return true;
}

bool sw_gguf_get_array_u64(const struct sw_gguf *g, const char *key, uint64_t i,
			   uint64_t *out)
{
	const struct kv *kv = find(g, key);
	if (!kv || kv->type != SW_GGUF_ARRAY || !kv->arr || i >= kv->count)
		return false;
	return val_u64(kv->elem, kv->arr[i], out);
}
