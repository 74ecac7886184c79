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
#endif
