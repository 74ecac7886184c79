#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/core_names.h>

/* HMAC-SHA256 through EVP_MAC, without a provider fetch per call: each thread fetches HMAC
   and sets its digest once, in a template context, and every MAC starts from a copy of it
   (HMAC(), OpenSSL 3's one-shot, fetches both each time, which cost more than the hashing
   for the short inputs of a Noise handshake). The template is never freed: one per thread. */
static inline EVP_MAC_CTX *peerlink_hmac_sha256_template(void) {
    static _Thread_local EVP_MAC_CTX *template_ctx = NULL;
    if (template_ctx == NULL) {
        EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
        if (mac == NULL) return NULL;
        EVP_MAC_CTX *t = EVP_MAC_CTX_new(mac);
        EVP_MAC_free(mac);
        if (t == NULL) return NULL;
        OSSL_PARAM params[2];
        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
        params[1] = OSSL_PARAM_construct_end();
        if (EVP_MAC_CTX_set_params(t, params) != 1) { EVP_MAC_CTX_free(t); return NULL; }
        template_ctx = t;
    }
    return template_ctx;
}

/* HMAC-SHA256 of `msg` under `key` into `out` (32 bytes); 1 on success. An empty key is
   allowed (HKDF with an empty salt). */
static inline int peerlink_hmac_sha256(const unsigned char *key, size_t keylen,
                                       const unsigned char *msg, size_t msglen, unsigned char *out) {
    static const unsigned char empty = 0;
    EVP_MAC_CTX *t = peerlink_hmac_sha256_template();
    if (t == NULL) return 0;
    EVP_MAC_CTX *c = EVP_MAC_CTX_dup(t);
    if (c == NULL) return 0;
    size_t outl = 0;
    int ok = EVP_MAC_init(c, keylen ? key : &empty, keylen, NULL) == 1
        && EVP_MAC_update(c, msglen ? msg : &empty, msglen) == 1
        && EVP_MAC_final(c, out, &outl, 32) == 1 && outl == 32;
    EVP_MAC_CTX_free(c);
    return ok;
}
/* HKDF-SHA256 as the Noise framework uses it (RFC 5869 with an empty info; ck the salt):
   temp_key = HMAC(salt, ikm), out = T(1) ‖ … ‖ T(count) with T(i) = HMAC(temp_key, T(i-1) ‖ i),
   32 bytes each, into `out` (32 × count bytes); 1 on success. Each T(i) starts from a copy of
   one context keyed with temp_key, so the key is set up once, not once per output; that
   context and temp_key are freed and cleansed before returning. */
static inline int peerlink_hkdf_sha256(const unsigned char *salt, size_t saltlen,
                                       const unsigned char *ikm, size_t ikmlen, int count, unsigned char *out) {
    unsigned char temp[32];
    if (count < 1 || count > 3 || peerlink_hmac_sha256(salt, saltlen, ikm, ikmlen, temp) != 1) return 0;
    EVP_MAC_CTX *t = peerlink_hmac_sha256_template();
    EVP_MAC_CTX *keyed = t == NULL ? NULL : EVP_MAC_CTX_dup(t);
    int ok = keyed != NULL && EVP_MAC_init(keyed, temp, sizeof temp, NULL) == 1;
    for (int i = 1; ok && i <= count; i++) {
        unsigned char n = (unsigned char)i;
        size_t outl = 0;
        EVP_MAC_CTX *c = EVP_MAC_CTX_dup(keyed);
        ok = c != NULL
            && (i == 1 || EVP_MAC_update(c, out + 32 * (i - 2), 32) == 1)
            && EVP_MAC_update(c, &n, 1) == 1
            && EVP_MAC_final(c, out + 32 * (i - 1), &outl, 32) == 1 && outl == 32;
        EVP_MAC_CTX_free(c);
    }
    EVP_MAC_CTX_free(keyed);
    OPENSSL_cleanse(temp, sizeof temp);
    return ok;
}
#endif
