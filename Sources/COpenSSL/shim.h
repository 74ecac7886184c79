#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <stdint.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/core_names.h>

/* HMAC-SHA256 through EVP_MAC, without a provider fetch, a copy or a free per call: each
   thread fetches HMAC and sets its digest once, in one context that every MAC of the thread
   then re-keys (EVP_MAC_init with a key) or restarts under the same key (EVP_MAC_init with
   NULL, which HMAC takes as "reinit"). HMAC(), OpenSSL 3's one-shot, fetches both each time,
   and a copy and free per MAC cost more than the hashing for the short inputs of a Noise
   handshake. The context is never freed: one per thread. After each use it is keyed again
   with the empty key, so no state derived from a secret stays in it. */
static inline EVP_MAC_CTX *peerlink_hmac_sha256_context(void) {
    static _Thread_local EVP_MAC_CTX *ctx = NULL;
    if (ctx == NULL) {
        EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
        if (mac == NULL) return NULL;
        EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
        EVP_MAC_free(mac);
        if (c == NULL) return NULL;
        OSSL_PARAM params[2];
        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
        params[1] = OSSL_PARAM_construct_end();
        if (EVP_MAC_CTX_set_params(c, params) != 1) { EVP_MAC_CTX_free(c); return NULL; }
        ctx = c;
    }
    return ctx;
}

static const unsigned char peerlink_empty_byte = 0;

/* Keys the thread's context with the empty key: what it held derived from a secret is gone. */
static inline void peerlink_hmac_sha256_scrub(EVP_MAC_CTX *c) {
    (void)EVP_MAC_init(c, &peerlink_empty_byte, 0, NULL);
}

/* One MAC on the thread's context: `key` NULL restarts under the key it already has. */
static inline int peerlink_hmac_sha256_run(EVP_MAC_CTX *c, const unsigned char *key, size_t keylen,
                                           const unsigned char *msg1, size_t len1,
                                           const unsigned char *msg2, size_t len2, unsigned char *out) {
    size_t outl = 0;
    return EVP_MAC_init(c, key, keylen, NULL) == 1
        && (len1 == 0 || EVP_MAC_update(c, msg1, len1) == 1)
        && (len2 == 0 || EVP_MAC_update(c, msg2, len2) == 1)
        && EVP_MAC_final(c, out, &outl, 32) == 1 && outl == 32;
}

/* HMAC-SHA256 of `msg` under `key` into `out` (32 bytes); 1 on success. An empty key is
   allowed (HKDF with an empty salt). */
static inline int peerlink_hmac_sha256(const unsigned char *key, size_t keylen,
                                       const unsigned char *msg, size_t msglen, unsigned char *out) {
    EVP_MAC_CTX *c = peerlink_hmac_sha256_context();
    if (c == NULL) return 0;
    int ok = peerlink_hmac_sha256_run(c, keylen ? key : &peerlink_empty_byte, keylen, msg, msglen, NULL, 0, out);
    peerlink_hmac_sha256_scrub(c);
    return ok;
}

/* HKDF-SHA256 as the Noise framework uses it (RFC 5869 with an empty info; ck the salt):
   temp_key = HMAC(salt, ikm), out = T(1) ‖ … ‖ T(count) with T(i) = HMAC(temp_key, T(i-1) ‖ i),
   32 bytes each, into `out` (32 × count bytes); 1 on success. The context is keyed with
   temp_key once, for T(1), and restarted under that key for the others; temp_key is cleansed
   and the context scrubbed before returning. */
static inline int peerlink_hkdf_sha256(const unsigned char *salt, size_t saltlen,
                                       const unsigned char *ikm, size_t ikmlen, int count, unsigned char *out) {
    unsigned char temp[32];
    if (count < 1 || count > 3) return 0;
    EVP_MAC_CTX *c = peerlink_hmac_sha256_context();
    if (c == NULL) return 0;
    static const unsigned char one = 1;
    int ok = peerlink_hmac_sha256_run(c, saltlen ? salt : &peerlink_empty_byte, saltlen, ikm, ikmlen, NULL, 0, temp)
        && peerlink_hmac_sha256_run(c, temp, sizeof temp, NULL, 0, &one, 1, out);
    for (int i = 2; ok && i <= count; i++) {
        unsigned char n = (unsigned char)i;
        ok = peerlink_hmac_sha256_run(c, NULL, 0, out + 32 * (i - 2), 32, &n, 1, out + 32 * (i - 1));
    }
    peerlink_hmac_sha256_scrub(c);
    OPENSSL_cleanse(temp, sizeof temp);
    return ok;
}

/* AES-GCM with Noise's counter nonces (4 zero bytes, then the 64-bit counter big-endian) through
   the provider's own nonce generation for TLS records, which lays out its 12-byte IV the same
   way (a fixed field, then an 8-byte invocation field counted up big-endian): OpenSSL 3.0 asks
   the provider for the IV's length at every EVP_*Init_ex that passes an IV, and answers a
   tag's get or set through a separate parameter call; these helpers give the provider the
   counter and the tag in one parameter call each. They use the EVP interface's controls and
   parameters for TLS (EVP_CTRL_GCM_SET_IV_FIXED, EVP_CTRL_GCM_IV_GEN,
   OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN / _SET_IV_INV); some of what they rely on is the
   provider's behaviour rather than the manual's (-1 sets the whole IV; generating starts
   GCM and counts up), so every IV the provider starts is read back whole and compared, and
   AEADCipher.providerCountsLikeNoise checks the records once per process. No cipher code of
   PeerLink's own. */

/* The counter `n` as the nonce's 8-byte invocation field (big-endian) at `out`. */
static inline void peerlink_gcm_counter_bytes(unsigned char *out, uint64_t n) {
    for (int i = 0; i < 8; i++) out[i] = (unsigned char)(n >> (56 - 8 * i));
}

/* Whether the 12 bytes at `iv` are Noise's AESGCM nonce for counter `n`. */
static inline int peerlink_gcm_is_nonce(const unsigned char *iv, uint64_t n) {
    unsigned char nonce[12] = {0};
    peerlink_gcm_counter_bytes(nonce + 4, n);
    return memcmp(iv, nonce, 12) == 0;
}

/* Sets the whole 12-byte IV `iv` (the nonce for counter `n`) and makes the provider start GCM
   with it; 1 only when it reports the IV it started as that nonce. The provider keeps the
   counter plus one for the next generation. */
static inline int peerlink_gcm_start(EVP_CIPHER_CTX *c, const unsigned char *iv, uint64_t n) {
    unsigned char started[12];
    return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_FIXED, -1, (void *)iv) == 1
        && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_IV_GEN, 12, started) == 1
        && peerlink_gcm_is_nonce(started, n);
}

/* After EVP_EncryptFinal_ex: the 16-byte tag into `tag` and, in the same call, GCM started
   again with the provider's next counter. 1: the tag is read and GCM started with the nonce
   for `next`; 0: the tag is read, GCM not started as expected; -1: the call failed (the tag
   may not be read). */
static inline int peerlink_gcm_tag_and_next(EVP_CIPHER_CTX *c, unsigned char *tag, uint64_t next) {
    unsigned char started[12] = {1};
    OSSL_PARAM p[3];
    p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, 16);
    p[1] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, started, 12);
    p[2] = OSSL_PARAM_construct_end();
    if (EVP_CIPHER_CTX_get_params(c, p) != 1) return -1;
    return peerlink_gcm_is_nonce(started, next);
}

/* An opening context: the IV's fixed field (4 zero bytes) set once, so that each record then
   needs only its counter (peerlink_gcm_expect). 1 on success. */
static inline int peerlink_gcm_open_fixed(EVP_CIPHER_CTX *c) {
    unsigned char zero[12] = {0};
    return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_FIXED, -1, zero) == 1;
}

/* Before opening a record: the tag it carries (16 bytes) and its counter `n`, in one call;
   GCM is started with the nonce. 1 on success. */
static inline int peerlink_gcm_expect(EVP_CIPHER_CTX *c, const unsigned char *tag, uint64_t n) {
    unsigned char counter[8];
    peerlink_gcm_counter_bytes(counter, n);
    OSSL_PARAM p[3];
    p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, (void *)tag, 16);
    p[1] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, counter, 8);
    p[2] = OSSL_PARAM_construct_end();
    return EVP_CIPHER_CTX_set_params(c, p) == 1;
}

#endif
