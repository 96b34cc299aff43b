/* sha256.c - SHA-256 through OpenSSL's EVP interface (SHA-NI where the CPU
 * has it), as lowercase hex. */
#include <openssl/evp.h>

#include "base/base.h"

static void to_hex(char *out, const unsigned char *in, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

void sw_sha256_init(struct sw_sha256 *h)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		SW_BUG("OpenSSL cannot start a SHA-256 digest");
	h->ctx = ctx;
}

void sw_sha256_update(struct sw_sha256 *h, const void *data, size_t len)
{
	if (EVP_DigestUpdate(h->ctx, data, len) != 1)
		SW_BUG("OpenSSL SHA-256 update failed");
}

void sw_sha256_final_hex(struct sw_sha256 *h, char out[SW_SHA256_HEX_LEN + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	if (EVP_DigestFinal_ex(h->ctx, md, &n) != 1 || n != SW_SHA256_LEN)
		SW_BUG("OpenSSL SHA-256 final failed");
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
	to_hex(out, md, n);
}

void sw_sha256_hex(char out[SW_SHA256_HEX_LEN + 1], const void *data, size_t len)
{
	struct sw_sha256 h;
	sw_sha256_init(&h);
	sw_sha256_update(&h, data, len);
	sw_sha256_final_hex(&h, out);
}
