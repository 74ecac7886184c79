# A second implementation of PeerLink protocol 2's handshake, sealing, canonical values and
# delta layout, written from docs/PROTOCOL.md with Python's `cryptography` package (none of
# PeerLink's code): it prints the inputs and outputs of the vectors of § 13, which must equal
# the document's (and the Swift tests check the Swift code against the document).
#
#   python3 docs/protocol-vectors.py
import hashlib, hmac, struct
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

NAME = b"Noise_NNpsk0_25519_AESGCM_SHA256"
PROLOGUE = b"PeerLink protocol 2"
PSK = bytes(range(0, 32)); EW = bytes(range(32, 64)); EP = bytes(range(64, 96))

def sha(b): return hashlib.sha256(b).digest()
def hkdf(ck, ikm, n):
    tk = hmac.new(ck, ikm, hashlib.sha256).digest(); out = []; prev = b""
    for i in range(1, n + 1):
        prev = hmac.new(tk, prev + bytes([i]), hashlib.sha256).digest(); out.append(prev)
    return out
def nonce(n): return b"\0" * 4 + struct.pack(">Q", n)
def enc(k, n, ad, p): return AESGCM(k).encrypt(nonce(n), p, ad)
def dec(k, n, ad, c): return AESGCM(k).decrypt(nonce(n), c, ad)
def pub(k): return X25519PrivateKey.from_private_bytes(k).public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
def dh(k, p): return X25519PrivateKey.from_private_bytes(k).exchange(X25519PublicKey.from_public_bytes(p))

class Sym:
    def __init__(s):
        s.h = NAME.ljust(32, b"\0") if len(NAME) <= 32 else sha(NAME)
        s.ck = s.h; s.k = None; s.n = 0
    def mix_hash(s, d): s.h = sha(s.h + d)
    def mix_key(s, ikm): s.ck, s.k = hkdf(s.ck, ikm, 2); s.n = 0
    def mix_key_and_hash(s, ikm):
        s.ck, th, s.k = hkdf(s.ck, ikm, 3); s.mix_hash(th); s.n = 0
    def encrypt_and_hash(s, p):
        c = enc(s.k, s.n, s.h, p) if s.k else p; s.n += 1 if s.k else 0; s.mix_hash(c); return c
    def decrypt_and_hash(s, c):
        p = dec(s.k, s.n, s.h, c) if s.k else c; s.n += 1 if s.k else 0; s.mix_hash(c); return p

def record(t, body): return b"PL" + bytes([2, t]) + struct.pack(">H", len(body)) + body

# Handshake
w = Sym(); p = Sym()
for s in (w, p): s.mix_hash(PROLOGUE)
ew, ep = pub(EW), pub(EP)
w.mix_key_and_hash(PSK); w.mix_hash(ew); w.mix_key(ew); m1 = ew + w.encrypt_and_hash(b"")
p.mix_key_and_hash(PSK); p.mix_hash(m1[:32]); p.mix_key(m1[:32]); assert p.decrypt_and_hash(m1[32:]) == b""
p.mix_hash(ep); p.mix_key(ep); p.mix_key(dh(EP, ew)); m2 = ep + p.encrypt_and_hash(b"")
w.mix_hash(m2[:32]); w.mix_key(m2[:32]); w.mix_key(dh(EW, m2[:32])); assert w.decrypt_and_hash(m2[32:]) == b""
assert w.h == p.h and w.ck == p.ck
k_wp, k_pw = hkdf(w.ck, b"", 2)
print("handshake")
print("psk:", PSK.hex()); print("watch-ephemeral-private:", EW.hex()); print("phone-ephemeral-private:", EP.hex())
print("prologue:", PROLOGUE.hex())
print("watch-ephemeral-public:", ew.hex()); print("phone-ephemeral-public:", ep.hex())
print("hello-record:", record(0x01, m1).hex()); print("hello-reply-record:", record(0x02, m2).hex())
print("key-watch-to-phone:", k_wp.hex()); print("key-phone-to-watch:", k_pw.hex()); print("handshake-hash:", w.h.hex())

def varint(v):
    out = b""
    while True:
        b = v & 0x7F; v >>= 7
        if v: out += bytes([b | 0x80])
        else: return out + bytes([b])
def zigzag(i): return (i << 1) ^ (i >> 63) if i < 0 else i << 1

# Sealed frames: the watch's auth (record 0), a userInfo (record 1); the phone's ready (record 0).
def session_info(inc, known, ld, lc, cv, lf, flags):
    return struct.pack(">QQ", inc, known) + varint(ld) + varint(lc) + varint(cv) + varint(lf) + bytes([flags])
auth = session_info(0x0102030405060708, 0, 0, 0, 0, 0, 0x03)
rec_auth = record(0x80, enc(k_wp, 0, b"", auth + bytes([0x03])))
ready = session_info(0x1112131415161718, 0, 0, 0, 0, 0, 0x01)
rec_ready = record(0x80, enc(k_pw, 0, b"", ready + bytes([0x04])))
print("sealed")
print("auth-body:", auth.hex()); print("auth-record:", rec_auth.hex())
print("ready-body:", ready.hex()); print("ready-record:", rec_ready.hex())

# Canonical value
def canon(v):
    if isinstance(v, bool): return b"\x05" if v else b"\x04"
    if isinstance(v, int): return b"\x02" + varint(zigzag(v))
    if isinstance(v, float): return b"\x03" + struct.pack(">d", v)
    if isinstance(v, str): b = v.encode(); return b"\x01" + varint(len(b)) + b
    if isinstance(v, bytes): return b"\x07" + varint(len(v)) + v
    if isinstance(v, tuple) and v[0] == "date": return b"\x06" + struct.pack(">d", v[1])
    if isinstance(v, list): return b"\x08" + varint(len(v)) + b"".join(canon(x) for x in v)
    if isinstance(v, dict):
        items = sorted(v.items(), key=lambda kv: kv[0].encode())
        return b"\x09" + varint(len(items)) + b"".join(varint(len(k.encode())) + k.encode() + canon(x) for k, x in items)
value = {"title": "マラソン", "days": -3, "pace": 5.25, "done": False, "shared": True,
         "at": ("date", 1780000000.5), "blob": b"\x00\xff", "laps": [1, "two", [3]], "goal": {"steps": 10000, "Z": 300}}
cv = canon(value)
print("canonical"); print("value-hex:", cv.hex())

# User info frame body with that payload: varint seq 7, varint prev 6, flags 0
ui = varint(7) + varint(6) + b"\x00" + cv
print("userinfo-body:", ui.hex())
rec_ui = record(0x80, enc(k_wp, 1, b"", ui + bytes([0x10])))
print("userinfo-record:", rec_ui.hex())

# Replica delta, format 2
def svarint(i): return varint(zigzag(i) if i >= 0 else ((i << 1) ^ -1) & ((1 << 64) - 1))
def string(s): b = s.encode(); return varint(len(b)) + b
def delta(origin, inc, base, upto, ackinc, ackseq, part, parts, reset, coverage, records):
    out = bytes([2]) + varint(origin) + struct.pack(">Q", inc) + varint(base) + svarint(upto - base)
    out += struct.pack(">Q", ackinc) + varint(ackseq)
    multi = parts != 1 or part != 0
    out += bytes([(1 if reset else 0) | (2 if multi else 0) | (4 if coverage else 0)])
    if multi: out += varint(part) + varint(parts)
    if coverage:
        for bound in coverage:
            out += (b"\x01" + string(bound[0]) + string(bound[1])) if bound else b"\x00"
    stamps = []; names = []; writers = []
    for (coll, rid, fields, tomb) in records:
        if tomb: stamps.append(tomb)
        for (n, v, st) in fields:
            stamps.append(st)
            if n not in names: names.append(n)
    for st in stamps:
        if st[2] not in writers: writers.append(st[2])
    # writers in first-seen order of stamps (tombstone, then fields, record by record)
    base_wall = min(st[0] for st in stamps) if stamps else 0
    out += svarint(base_wall) + varint(len(writers)) + b"".join(varint(w) for w in writers)
    out += varint(len(names)) + b"".join(string(n) for n in names)
    def stamp(st): return varint(st[0] - base_wall) + varint(st[1] * len(writers) + writers.index(st[2]))
    def val(v): return bytes([0x80 | v]) if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 128 else canon(v)
    groups = []
    for r in records:
        if groups and groups[-1][0] == r[0]: groups[-1][1].append(r)
        else: groups.append((r[0], [r]))
    out += varint(len(groups))
    for coll, rs in groups:
        out += string(coll) + varint(len(rs))
        prev = b""
        for (_, rid, fields, tomb) in rs:
            idb = rid.encode(); shared = 0
            while shared < len(idb) and shared < len(prev) and idb[shared] == prev[shared]: shared += 1
            suffix = len(idb) - shared
            out += varint(shared << 4 | min(suffix, 15)) + (varint(suffix) if suffix >= 15 else b"") + idb[shared:]
            prev = idb
            out += varint(len(fields) << 1 | (1 if tomb else 0))
            if tomb: out += stamp(tomb)
            for (n, v, st) in fields: out += varint(names.index(n)) + stamp(st) + val(v)
    return out
recs = [("goal", "g10", [("title", "Marathon", (1780000000000, 0, 2)), ("target", 42, (1780000000500, 1, 2))], None),
        ("goal", "g11", [], (1780000001000, 0, 1)),
        ("workout", "w1", [("kcal", 130, (1780000000000, 2, 2)), ("title", "朝ラン", (1780000002000, 0, 1))], None)]
d = delta(2, 0x0A0B0C0D0E0F1011, 4, 9, 0x1112131415161718, 3, 1, 2, False, (("goal", "g1"), None), recs)
print("delta"); print("delta-hex:", d.hex())
