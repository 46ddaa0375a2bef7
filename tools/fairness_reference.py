#!/usr/bin/env python3
"""Reference implementation of herald's fairness derivations (docs/protocol.md,
"Fairness"), written from the spec alone in plain Python (hashlib and a
textbook ChaCha20), so that the Rust implementation can be checked against
numbers it did not produce itself. Prints the test vectors; with
`--check tests/data/vectors/fairness.json`, checks the data file's."""
import hashlib
import struct
import sys


def sha(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


def lp(b):
    return struct.pack(">I", len(b)) + b


def chain_step(chain, v):
    return sha(b"herald/chain/v1", chain, v)


def bound_chain(chain, public_key):
    """The id a side's chain is bound to in a protocol-2 record: its reveals
    hold for its own signing key alone."""
    return sha(b"herald/bound-chain/v2", chain, public_key)


def chain_value(secret, chain, j, n=10000):
    v = sha(b"herald/chain-seed/v1", chain, secret)
    for _ in range(n - j):
        v = chain_step(chain, v)
    return v


def chain_id(tags):
    return sha(b"herald/chain-id/v1", *[lp(n.encode()) + lp(v.encode()) for n, v in tags
                                        if n != "Result" and not (n.endswith("Commit") and len(n) > 6)
                                        and not (n.endswith("Key") and len(n) > 3)])


def game_id(tags):
    # Protocol 3 (a `Protocol` tag of 3): the game id is the chain id, so
    # that a side's Commit and Key tags may join the header after lines.
    if dict(tags).get("Protocol") == "3":
        return chain_id(tags)
    return sha(b"herald/game-id/v1", *[lp(n.encode()) + lp(v.encode()) for n, v in tags if n != "Result"])


def turn_seed(game, turn, label, mover, others):
    return sha(b"herald/turn-chance/v1", game, struct.pack(">I", turn), lp(label.encode()), mover, *others)


def settle_seed(game, declared, settling, label, settler, others):
    """others: the latest reveal (or commitment) of every other side that has
    a Commit tag, in header order, at settlement (the declarer's reveal on
    line `declared` among them)."""
    return sha(b"herald/settle-chance/v2", game, struct.pack(">I", declared), struct.pack(">I", settling),
               lp(label.encode()), settler, *others)


def slot_salt(secret, chain, side, slot):
    return sha(b"herald/slot-salt/v1", chain, secret, lp(side.encode()), lp(slot.encode()))


def slot_commitment(game, side, slot, salt, value):
    return sha(b"herald/slot/v1", game, lp(side.encode()), lp(slot.encode()), salt, lp(value.encode()))


def signing_seed(secret, chain):
    """The 32-byte Ed25519 secret key (RFC 8032 seed) of a side (3.8)."""
    return sha(b"herald/signing-key/v1", chain, secret)


def line_bytes(kind, number, side, text):
    """kind: b"S" for a set-up line, b"T" for a turn (3.8)."""
    return kind + struct.pack(">I", number) + lp(side.encode()) + lp(text.encode())


def record_start(game):
    return sha(b"herald/record/v1", game)


def record_step(previous, line, sig=b""):
    return sha(b"herald/record/v1", previous, line, lp(sig))


def seal_message(game, line, before):
    """The bytes a line's Ed25519 signature is over. Python's standard
    library has no Ed25519, so the signature itself is not checked here."""
    return b"herald/line-sig/v1" + game + line + before


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF


def chacha20_words(key):
    """u32 words of the ChaCha20 keystream: 20 rounds, 64-bit block counter
    from 0, 64-bit nonce 0, words little-endian, blocks in order."""
    k = list(struct.unpack("<8I", key))
    counter = 0
    while True:
        s = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + k + [counter & 0xFFFFFFFF, counter >> 32, 0, 0]
        x = s[:]
        for _ in range(10):
            for a, b, c, d in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                               (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
                x[a] = (x[a] + x[b]) & 0xFFFFFFFF; x[d] = rotl(x[d] ^ x[a], 16)
                x[c] = (x[c] + x[d]) & 0xFFFFFFFF; x[b] = rotl(x[b] ^ x[c], 12)
                x[a] = (x[a] + x[b]) & 0xFFFFFFFF; x[d] = rotl(x[d] ^ x[a], 8)
                x[c] = (x[c] + x[d]) & 0xFFFFFFFF; x[b] = rotl(x[b] ^ x[c], 7)
        for i in range(16):
            yield (x[i] + s[i]) & 0xFFFFFFFF
        counter += 1


class Sampler:
    def __init__(self, seed):
        self.words = chacha20_words(seed)

    def below(self, n):
        limit = n * (2**32 // n)
        while True:
            x = next(self.words)
            if x < limit:
                return x % n

    def shuffle(self, n):
        v = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            v[i], v[j] = v[j], v[i]
        return v


BATTLEGATES_CARDS = [("scale", 6), ("climb", 6), ("move-wall", 5), ("move-gate", 5),
                     ("rotate90", 7), ("rotate180", 5)]


def battlegates_opening(game, south, north):
    """Chance before turn 1 in Battlegates (sections 3.3 and 10): the
    opening roll (label `opening`, South's die then North's, again as a
    pair on a tie) and the deal (label `deal`, six draws by deck position
    in card order, alternately, the side that moves second first). Seeds:
    the turn seed of turn 0, South's latest reveal in the mover's place,
    North's after it. Returns (rolls, first, hands)."""
    faces = [1, 2, 2, 3, 3, 4]
    s = Sampler(turn_seed(game, 0, "opening", south, [north]))
    rolls = []
    while True:
        a, b = faces[s.below(6)], faces[s.below(6)]
        rolls.append((a, b))
        if a != b:
            break
    first = "South" if a > b else "North"
    second = "North" if first == "South" else "South"
    deck = [word for word, copies in BATTLEGATES_CARDS for _ in range(copies)]
    hands = {"South": [], "North": []}
    d = Sampler(turn_seed(game, 0, "deal", south, [north]))
    for k in range(6):
        hands[second if k % 2 == 0 else first].append(deck.pop(d.below(len(deck))))
    return rolls, first, hands


def vectors():
    """The test vectors of docs/protocol.md (sections 3.6, 3.7 and 3.8), as
    (name, value) pairs: the names of tests/data/vectors/fairness.json."""
    zero = bytes(32)
    secret = bytes(range(32))
    tags = [("Game", "battle-of-the-dale"), ("Human", "ann@example.org"), ("Elf", "eve@example.org"),
            ("HumanCommit", "00" * 32), ("Result", "*")]
    out = []
    put = lambda name, value: out.append((name, value))
    cid = chain_id(tags)
    put("chain id", cid.hex())
    put("chain_step(chain id, 00*32)", chain_step(cid, zero).hex())
    put("s_0", chain_value(secret, cid, 0).hex())
    put("s_1", chain_value(secret, cid, 1).hex())
    bound = bound_chain(cid, bytes([0x11]) * 32)
    put("bound chain id", bound.hex())
    put("bound s_0", chain_value(secret, bound, 0).hex())
    gid = game_id(tags)
    put("game id", gid.hex())
    seed = turn_seed(gid, 7, "die", bytes([0x11]) * 32, [bytes([0x22]) * 32])
    put("turn seed", seed.hex())
    sseed = settle_seed(gid, 7, 8, "rally", bytes([0x33]) * 32, [bytes([0x44]) * 32])
    put("settle seed", sseed.hex())
    s = Sampler(zero)
    put("chacha20 words of 00*32", [next(s.words) for _ in range(4)])
    for n in (2, 4, 6):
        s = Sampler(seed)
        put(f"turn seed below({n})", [s.below(n) for _ in range(12)])
    s = Sampler(seed)
    faces = [1, 2, 2, 3, 3, 4]
    put("turn seed die 1 2 2 3 3 4", [faces[s.below(6)] for _ in range(12)])
    s = Sampler(seed)
    put("turn seed shuffle(34)", s.shuffle(34))
    s = Sampler(sseed)
    put("settle seed below(2)", [s.below(2) for _ in range(12)])
    salt = slot_salt(secret, cid, "Human", "a1")
    put("salt Human a1", salt.hex())
    put("commitment Human a1 R", slot_commitment(gid, "Human", "a1", salt, "R").hex())
    keyed = tags[:4] + [("HumanKey", "11" * 32)] + tags[4:]
    put("chain id with HumanKey", chain_id(keyed).hex())
    put("signing-key seed", signing_seed(secret, cid).hex())
    d0 = record_start(gid)
    put("d_0", d0.hex())
    text = "rally=heads, B1-B2, rally Dwarf @C1\nreveal " + "11" * 32
    line = line_bytes(b"T", 7, "Human", text)
    put("line bytes", line.hex())
    put("d_1 unsigned", record_step(d0, line).hex())
    put("d_1 signed 22*64", record_step(d0, line, bytes([0x22]) * 64).hex())
    message = seal_message(gid, line, d0)
    put("seal message length", len(message))
    put("SHA-256 of the seal message", sha(message).hex())
    bg = [("Game", "battlegates"), ("South", "ann@example.org"), ("North", "bob@example.org"),
          ("Result", "*")]
    bgid = game_id(bg)
    put("battlegates game id", bgid.hex())
    south, north = bytes([0x11]) * 32, bytes([0x26]) * 32
    put("battlegates opening seed", turn_seed(bgid, 0, "opening", south, [north]).hex())
    put("battlegates deal seed", turn_seed(bgid, 0, "deal", south, [north]).hex())
    rolls, first, hands = battlegates_opening(bgid, south, north)
    put("battlegates opening rolls", [list(r) for r in rolls])
    put("battlegates first", first)
    put("battlegates deal", hands)
    return out


def check(path):
    """Compare the vectors computed here with the data file's: every one
    computed must be there and equal, and every one there must be computed
    here, but those only Ed25519 gives (listed in the file)."""
    import json
    with open(path) as f:
        data = json.load(f)
    expected = data["vectors"]
    ours = dict(vectors())
    wrong = [n for n, v in ours.items() if expected.get(n) != v]
    missing = [n for n in expected if n not in ours and n not in data["ed25519"]]
    for n in wrong:
        print(f"{n}: computed {ours[n]}, the data file says {expected.get(n)}")
    for n in missing:
        print(f"{n}: in the data file, not computed here")
    if wrong or missing:
        sys.exit(1)
    print(f"{len(ours)} vectors agree with {path}")


if __name__ == "__main__":
    import json
    import sys
    if sys.argv[1:2] == ["--check"] and len(sys.argv) == 3:
        check(sys.argv[2])
    elif sys.argv[1:]:
        sys.exit("usage: fairness_reference.py [--check tests/data/vectors/fairness.json]")
    else:
        for name, value in vectors():
            print(f"{name}: {json.dumps(value)}")
