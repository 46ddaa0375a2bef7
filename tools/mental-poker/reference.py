#!/usr/bin/env python3
"""Reference implementation of herald's hidden hands (spec section 3.9,
"Hidden hands from a shared deck"), written from the spec text alone in
plain Python: hashlib, integers, and ristretto255 as RFC 9496 defines it.

    python3 tools/mental-poker/reference.py          # the test vectors
    python3 tools/mental-poker/reference.py --self-test
    python3 tools/mental-poker/reference.py --check tests/data/vectors/mental-poker.json

It checks itself against published ristretto255 values (small multiples
of the generator, an Elligator map image) before printing anything.
Slow and not constant-time: a checker, never a player's tool."""
import hashlib
import pathlib
import struct
import sys

# ------------------------------------------------------------- field

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = 37095705934669439343138083508754565189542113879843219016388785533085940283555
SQRT_M1 = 19681161376707505956807079304988542015446066515923890162744021073123829784752
SQRT_AD_MINUS_ONE = 25063068953384623474111414158702152701244531502492656460079210482610430750235
INVSQRT_A_MINUS_D = 54469307008909316920995813868745141605393597292927456921205312896311721017578
ONE_MINUS_D_SQ = 1159843021668779879193775521855586647937357759715417654439879720876111806838
D_MINUS_ONE_SQ = 40440834346308536858101042469323190826248399146238708352240133220865137265952


def is_negative(x):
    return (x % P) & 1


def ct_abs(x):
    x %= P
    return (P - x) % P if is_negative(x) else x


def sqrt_ratio_m1(u, v):
    """RFC 9496 section 4.2: (was_square, sqrt(u/v) or sqrt(i*u/v))."""
    u %= P
    v %= P
    v3 = v * v % P * v % P
    v7 = v3 * v3 % P * v % P
    r = u * v3 % P * pow(u * v7 % P, (P - 5) // 8, P) % P
    check = v * r % P * r % P
    correct = check == u
    flipped = check == (-u) % P
    flipped_i = check == (-u * SQRT_M1) % P
    if flipped or flipped_i:
        r = r * SQRT_M1 % P
    return correct or flipped, ct_abs(r)


# ------------------------------------------------- edwards25519 points
# Extended coordinates (X, Y, Z, T), a = -1.

IDENTITY = (0, 1, 1, 0)


def add(p, q):
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * 2 * D * t2 % P
    d = z1 * 2 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def neg(p):
    x, y, z, t = p
    return ((-x) % P, y, z, (-t) % P)


def mul(k, p):
    k %= L
    out = IDENTITY
    while k:
        if k & 1:
            out = add(out, p)
        p = add(p, p)
        k >>= 1
    return out


# ------------------------------------------------------- ristretto255

def decode(b):
    """RFC 9496 4.3.1; None for an invalid encoding."""
    s = int.from_bytes(b, "little")
    if len(b) != 32 or s >= P or is_negative(s):
        return None
    ss = s * s % P
    u1 = (1 - ss) % P
    u2 = (1 + ss) % P
    u2_sqr = u2 * u2 % P
    v = (-(D * u1 % P * u1) - u2_sqr) % P
    was_square, invsqrt = sqrt_ratio_m1(1, v * u2_sqr)
    den_x = invsqrt * u2 % P
    den_y = invsqrt * den_x % P * v % P
    x = ct_abs(2 * s * den_x)
    y = u1 * den_y % P
    t = x * y % P
    if not was_square or is_negative(t) or y == 0:
        return None
    return (x, y, 1, t)


def encode(p):
    """RFC 9496 4.3.2."""
    x0, y0, z0, t0 = p
    u1 = (z0 + y0) * (z0 - y0) % P
    u2 = x0 * y0 % P
    _, invsqrt = sqrt_ratio_m1(1, u1 * u2 % P * u2)
    den1 = invsqrt * u1 % P
    den2 = invsqrt * u2 % P
    z_inv = den1 * den2 % P * t0 % P
    ix0 = x0 * SQRT_M1 % P
    iy0 = y0 * SQRT_M1 % P
    enchanted = den1 * INVSQRT_A_MINUS_D % P
    rotate = is_negative(t0 * z_inv)
    x, y = (iy0, ix0) if rotate else (x0, y0)
    den_inv = enchanted if rotate else den2
    if is_negative(x * z_inv):
        y = (-y) % P
    s = ct_abs(den_inv * (z0 - y))
    return s.to_bytes(32, "little")


def elligator(t):
    """RFC 9496 4.3.4, MAP."""
    r = SQRT_M1 * t % P * t % P
    u = (r + 1) * ONE_MINUS_D_SQ % P
    v = (-1 - r * D) * (r + D) % P
    was_square, s = sqrt_ratio_m1(u, v)
    if not was_square:
        s = (-ct_abs(s * t)) % P
        c = r
    else:
        c = P - 1
    n = (c * (r - 1) % P * D_MINUS_ONE_SQ - v) % P
    w0 = 2 * s * v % P
    w1 = n * SQRT_AD_MINUS_ONE % P
    w2 = (1 - s * s) % P
    w3 = (1 + s * s) % P
    return (w0 * w3 % P, w2 * w1 % P, w1 * w3 % P, w0 * w2 % P)


def field(b):
    return (int.from_bytes(b, "little") & ((1 << 255) - 1)) % P


def from_uniform_bytes(b):
    """RFC 9496 4.3.4: the one-way map of 64 bytes."""
    return add(elligator(field(b[:32])), elligator(field(b[32:])))


BASE = decode(bytes.fromhex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76"))


def same(p, q):
    return encode(p) == encode(q)


# ------------------------------------------------------------- hashes

def sha256(*parts):
    h = hashlib.sha256()
    for part in parts:
        h.update(part)
    return h.digest()


def sha512(*parts):
    h = hashlib.sha512()
    for part in parts:
        h.update(part)
    return h.digest()


def wide(*parts):
    """SHA-512 of the parts, read little-endian, modulo the group order."""
    return int.from_bytes(sha512(*parts), "little") % L


def u32(n):
    return struct.pack(">I", n)


def lp(b):
    return u32(len(b)) + b


def sc(k):
    return (k % L).to_bytes(32, "little")


# ------------- the sampler (3.5) and the header ids (3.2, 3.7), shared
# with the fairness reference beside this folder (also plain Python,
# independent of herald's Rust code)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from fairness_reference import (  # noqa: E402
    Sampler,
    chacha20_words as chacha_words,
    chain_id,
    game_id,
    slot_commitment,
    slot_salt,
)


# ------------------------------------------------------ the protocol

def card_point(game, i):
    return from_uniform_bytes(sha512(b"herald/card/v1", game, u32(i)))


def card_secret(secret, game, side):
    return wide(b"herald/card-key/v1", game, secret, lp(side.encode()))


def key_challenge(game, side, key, r):
    return wide(b"herald/card-key-proof/v1", game, lp(side.encode()), encode(key), encode(r))


def key_proof(x, game, side):
    k = wide(b"herald/card-key-nonce/v1", sc(x), game, lp(side.encode()))
    c = key_challenge(game, side, mul(x, BASE), mul(k, BASE))
    return sc(c) + sc(k + c * x)


def key_verifies(key_bytes, proof, game, side):
    key = decode(key_bytes)
    c, s = int.from_bytes(proof[:32], "little"), int.from_bytes(proof[32:], "little")
    if key is None or same(key, IDENTITY) or c >= L or s >= L:
        return False
    r = add(mul(s, BASE), neg(mul(c, key)))
    return key_challenge(game, side, key, r) == c


def shuffle_seed(secret, game, side, generation):
    return sha256(b"herald/shuffle-seed/v1", game, secret, lp(side.encode()), u32(generation))


def mask(seed, j):
    return wide(b"herald/shuffle-mask/v1", seed, u32(j))


def a_pass(deck, seed, joint):
    perm = Sampler(seed).shuffle(len(deck))
    out = []
    for j, src in enumerate(perm):
        r = mask(seed, j)
        c1, c2 = deck[src]
        out.append((add(c1, mul(r, BASE)), add(c2, mul(r, joint))))
    return out


def deck_bytes(deck):
    return b"".join(encode(c1) + encode(c2) for c1, c2 in deck)


def share_challenge(game, side, position, key, c1, d, a1, a2):
    return wide(b"herald/card-share/v1", game, lp(side.encode()), u32(position),
                encode(key), encode(c1), encode(d), encode(a1), encode(a2))


def share(x, game, side, position, c1):
    """D and its proof enc(A1) || enc(A2) || s."""
    d = mul(x, c1)
    k = wide(b"herald/card-share-nonce/v1", sc(x), game, lp(side.encode()), u32(position),
             encode(c1))
    a1, a2 = mul(k, BASE), mul(k, c1)
    c = share_challenge(game, side, position, mul(x, BASE), c1, d, a1, a2)
    return encode(d), encode(a1) + encode(a2) + sc(k + c * x)


def share_parts(key, game, side, position, c1, d_bytes, proof):
    """(D, A1, A2, s, c) of a share's proof, or None if a part is not
    canonical."""
    d, a1, a2 = decode(d_bytes), decode(proof[:32]), decode(proof[32:64])
    s = int.from_bytes(proof[64:], "little")
    if d is None or a1 is None or a2 is None or s >= L or len(proof) != 96:
        return None
    return d, a1, a2, s, share_challenge(game, side, position, key, c1, d, a1, a2)


def share_verifies(key, game, side, position, c1, d_bytes, proof):
    parts = share_parts(key, game, side, position, c1, d_bytes, proof)
    if parts is None:
        return False
    d, a1, a2, s, c = parts
    return same(mul(s, BASE), add(a1, mul(c, key))) and same(mul(s, c1), add(a2, mul(c, d)))


def batch_seed(game, shares):
    """h of a batch: shares are (side, position, key, c1, d_bytes, proof)."""
    parts = [b"herald/card-share-batch/v1", game, u32(len(shares))]
    for side, position, key, c1, d_bytes, proof in shares:
        parts += [lp(side.encode()), u32(position), encode(key), encode(c1), d_bytes, proof]
    return sha512(*parts)


def batch_verifies(game, shares):
    """The small-exponent batch test of spec 3.9, "Checking shares in
    batches": one sum, the identity when every proof verifies."""
    h = batch_seed(game, shares)
    total = IDENTITY
    for i, (side, position, key, c1, d_bytes, proof) in enumerate(shares):
        parts = share_parts(key, game, side, position, c1, d_bytes, proof)
        if parts is None:
            return False
        d, a1, a2, s, c = parts
        z, w = wide(h, u32(i), b"\x00"), wide(h, u32(i), b"\x01")
        # z * (s B - A1 - c X) + w * (s C1 - A2 - c D)
        one = add(mul(s, BASE), neg(add(a1, mul(c, key))))
        two = add(mul(s, c1), neg(add(a2, mul(c, d))))
        total = add(total, add(mul(z, one), mul(w, two)))
    return same(total, IDENTITY)


# ------------------------------------------------------- self-checks

def self_test():
    # RFC 9496 A.1: the generator's small multiples 2B and 3B.
    assert encode(add(BASE, BASE)).hex() == \
        "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919"
    assert encode(mul(3, BASE)).hex() == \
        "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259"
    assert encode(IDENTITY) == bytes(32)
    # The Elligator map of one field element (ristretto.sage's vectors).
    t = bytes([184, 249, 135, 49, 253, 123, 89, 113, 67, 160, 6, 239, 7, 105, 211, 41,
               192, 249, 185, 57, 9, 102, 70, 198, 15, 127, 7, 26, 160, 102, 134, 71])
    image = bytes([176, 157, 237, 97, 66, 29, 140, 166, 168, 94, 26, 157, 212, 216, 229, 160,
                   195, 246, 232, 239, 169, 112, 63, 193, 64, 32, 152, 69, 11, 190, 246, 86])
    assert encode(elligator(field(t))) == image
    # Decoding refuses a non-canonical and a negative encoding.
    assert decode((P).to_bytes(32, "little")) is None
    assert decode((1).to_bytes(32, "little")) is None
    assert decode(encode(mul(5, BASE))) is not None
    assert same(mul(L, BASE), IDENTITY)
    # The sampler: RFC 7539's all-zero key stream, first words.
    words = chacha_words(bytes(32))
    assert [next(words) for _ in range(4)] == [2917185654, 2419978656, 3848953152, 683509331]


# ------------------------------------------------------ the vectors

TAGS = [("Game", "battlegates"), ("South", "ann@example.org"), ("North", "bob@example.org"),
        ("Nonce", "000102030405060708090a0b0c0d0e0f"), ("Result", "*")]
SECRETS = {"South": bytes(range(32)), "North": bytes(range(32, 64))}
SIDES = ["South", "North"]
CARDS = 34


def vectors():
    """The vectors of spec section 3.9, as (name, value) pairs."""
    out = []
    game, chain = game_id(TAGS), chain_id(TAGS)
    out += [("game id", game.hex()), ("chain id", chain.hex())]
    out += [("card point 0", encode(card_point(game, 0)).hex()),
            ("card point 33", encode(card_point(game, 33)).hex())]
    xs, keys = {}, {}
    for side in SIDES:
        x = card_secret(SECRETS[side], game, side)
        xs[side], keys[side] = x, mul(x, BASE)
        proof = key_proof(x, game, side)
        assert key_verifies(encode(keys[side]), proof, game, side)
        assert not key_verifies(encode(keys[side]), proof, game, "Nobody")
        out += [(f"{side} card secret", sc(x).hex()), (f"{side} card key", encode(keys[side]).hex()),
                (f"{side} key proof", proof.hex())]
    joint = add(keys["South"], keys["North"])
    out.append(("joint key", encode(joint).hex()))
    deck = [(IDENTITY, card_point(game, i)) for i in range(CARDS)]
    for side in SIDES:
        seed = shuffle_seed(SECRETS[side], game, side, 0)
        salt = slot_salt(SECRETS[side], chain, side, "shuffle-0")
        out += [(f"{side} seed 0", seed.hex()), (f"{side} salt of shuffle-0", salt.hex()),
                (f"{side} commit shuffle-0", slot_commitment(game, side, "shuffle-0", salt,
                                                             seed.hex()).hex()),
                (f"{side} permutation", " ".join(map(str, Sampler(seed).shuffle(CARDS)))),
                (f"{side} mask 0", sc(mask(seed, 0)).hex()),
                (f"{side} mask 33", sc(mask(seed, 33)).hex()),
                (f"{side} seed 1", shuffle_seed(SECRETS[side], game, side, 1).hex())]
        deck = a_pass(deck, seed, joint)
        out += [(f"deck 0 after {side}'s pass", deck_bytes(deck[:1]).hex()),
                (f"SHA-256 of the deck after {side}'s pass", sha256(deck_bytes(deck)).hex())]
    c1, c2 = deck[0]
    north_d, north_proof = share(xs["North"], game, "North", 0, c1)
    assert share_verifies(keys["North"], game, "North", 0, c1, north_d, north_proof)
    assert not share_verifies(keys["North"], game, "North", 1, c1, north_d, north_proof)
    out += [("North share 0", north_d.hex()), ("North share 0 proof", north_proof.hex())]
    d33, proof33 = share(xs["North"], game, "North", 33, deck[33][0])
    assert share_verifies(keys["North"], game, "North", 33, deck[33][0], d33, proof33)
    out += [("North share 33", d33.hex()), ("North share 33 proof", proof33.hex())]
    points = [encode(card_point(game, i)) for i in range(CARDS)]
    mine = add(add(c2, neg(decode(north_d))), neg(mul(xs["South"], c1)))
    out.append(("South draws at 0", str(points.index(encode(mine)))))
    south_d, south_proof = share(xs["South"], game, "South", 0, c1)
    assert share_verifies(keys["South"], game, "South", 0, c1, south_d, south_proof)
    out += [("South share 0", south_d.hex()), ("South share 0 proof", south_proof.hex())]
    opened = add(c2, neg(add(decode(north_d), decode(south_d))))
    assert encode(opened) == encode(mine)
    # North's shares of positions 0 and 33 checked in one batch.
    batch = [("North", 0, keys["North"], c1, north_d, north_proof),
             ("North", 33, keys["North"], deck[33][0], d33, proof33)]
    assert batch_verifies(game, batch)
    h = batch_seed(game, batch)
    out += [("batch of North's shares 0 and 33: h", h.hex()),
            ("its weight z_0", sc(wide(h, u32(0), b"\x00")).hex()),
            ("its weight w_1", sc(wide(h, u32(1), b"\x01")).hex())]
    # A batch with one proof's s changed fails, as that proof does alone.
    bad = proof33[:64] + sc(int.from_bytes(proof33[64:], "little") + 1)
    assert not share_verifies(keys["North"], game, "North", 33, deck[33][0], d33, bad)
    assert not batch_verifies(game, batch[:1] + [batch[1][:5] + (bad,)])
    return out


def table_vectors(n, cards):
    """The vectors of spec section 3.9 for `n` players (three or four),
    sides Castle1 .. Castle<n>, and `cards` cards (68: two decks of 34),
    each name prefixed with the table: `4 players: joint key`."""
    tags = [("Game", "battlegates")]
    tags += [(f"Castle{i}", f"castle{i}@example.org") for i in range(1, n + 1)]
    tags += [("Nonce", "0f0e0d0c0b0a09080706050403020100"), ("Result", "*")]
    sides = [f"Castle{i}" for i in range(1, n + 1)]
    secrets = {side: bytes(range(32 * i, 32 * i + 32)) for i, side in enumerate(sides)}
    game, chain = game_id(tags), chain_id(tags)
    out = [("game id", game.hex()),
           (f"card point {cards - 1}", encode(card_point(game, cards - 1)).hex())]
    xs, keys = {}, {}
    for side in sides:
        x = card_secret(secrets[side], game, side)
        xs[side], keys[side] = x, mul(x, BASE)
        proof = key_proof(x, game, side)
        assert key_verifies(encode(keys[side]), proof, game, side)
        out += [(f"{side} card key", encode(keys[side]).hex()), (f"{side} key proof", proof.hex())]
    joint = IDENTITY
    for side in sides:
        joint = add(joint, keys[side])
    out.append(("joint key", encode(joint).hex()))
    deck = [(IDENTITY, card_point(game, i)) for i in range(cards)]
    for side in sides:
        seed = shuffle_seed(secrets[side], game, side, 0)
        salt = slot_salt(secrets[side], chain, side, "shuffle-0")
        out += [(f"{side} commit shuffle-0", slot_commitment(game, side, "shuffle-0", salt,
                                                             seed.hex()).hex())]
        deck = a_pass(deck, seed, joint)
        out.append((f"SHA-256 of the deck after {side}'s pass", sha256(deck_bytes(deck)).hex()))
    # Position 1 (the second mover's first card when Castle1 moves first):
    # Castle2 draws it with every other side's share, then opens it.
    position = 1
    c1, c2 = deck[position]
    drawer = sides[1]
    ds = {}
    for side in sides:
        d, proof = share(xs[side], game, side, position, c1)
        assert share_verifies(keys[side], game, side, position, c1, d, proof)
        ds[side] = d
        out += [(f"{side} share {position}", d.hex()), (f"{side} share {position} proof",
                                                       proof.hex())]
    points = [encode(card_point(game, i)) for i in range(cards)]
    mine = c2
    for side in sides:
        if side != drawer:
            mine = add(mine, neg(decode(ds[side])))
    mine = add(mine, neg(mul(xs[drawer], c1)))
    out.append((f"{drawer} draws at {position}", str(points.index(encode(mine)))))
    opened = c2
    for side in sides:
        opened = add(opened, neg(decode(ds[side])))
    assert encode(opened) == encode(mine)
    return [(f"{n} players: {name}", value) for name, value in out]


def main():
    self_test()
    if sys.argv[1:] == ["--self-test"]:
        print("ristretto255, the sampler: self-test passed")
        return
    ours = vectors() + table_vectors(3, 34) + table_vectors(4, 68)
    if sys.argv[1:2] == ["--check"] and len(sys.argv) == 3:
        check(sys.argv[2], ours)
        return
    if sys.argv[1:]:
        sys.exit("usage: reference.py [--self-test | --check tests/data/vectors/mental-poker.json]")
    for name, value in ours:
        print(f"{name}: {value}")


def check(path, ours):
    """Compare the vectors computed here with the data file's, name by
    name and in order."""
    import json
    with open(path) as f:
        theirs = [tuple(pair) for pair in json.load(f)["vectors"]]
    ours = [(name, str(value)) for name, value in ours]
    if ours == theirs:
        print(f"{len(ours)} vectors agree with {path}")
        return
    for k, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            print(f"vector {k + 1}: computed {a[0]}: {a[1]}, the data file says {b[0]}: {b[1]}")
            break
    if len(ours) != len(theirs):
        print(f"{len(ours)} vectors computed, {len(theirs)} in the data file")
    sys.exit(1)


if __name__ == "__main__":
    main()
