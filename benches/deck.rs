//! Criterion benchmarks of the hidden-hands protocol (spec section 3.9):
//! `cargo bench --bench deck`.
//!
//! - `deck/setup-passes/<n>`: the set-up passes of `n` players over a
//!   34-card deck (each player's pass in turn, from the unmasked deck to
//!   the final one);
//! - `deck/draw/<n>`: one draw in a game of `n` players: the other
//!   players' shares with their proofs, the drawer's verification of
//!   each and its unmasking of the card;
//! - `deck/audit-40-turns/<n>`: the end-of-game audit of a 40-turn game
//!   of `n` players: every pass of every deck (the first and each
//!   reshuffle, their sizes as the schedule makes them, hands of 3, one
//!   card drawn and one discarded a turn) recomputed from its seed.
//!
//! - `deck/share-proofs/one-by-one/<n>` and `deck/share-proofs/batch/<n>`:
//!   `n` share proofs (two players' shares of `n / 2` positions) checked
//!   one at a time, and as one batch (one multiscalar multiplication,
//!   spec section 3.9, "Checking shares in batches"): the floor the
//!   replay's batches are measured against;
//!
//! - `deck/check-battlegates-40-turns`: `herald check`'s whole replay
//!   of a self-played Battlegates game with hidden hands (signed lines,
//!   40 turns through a reshuffle, a resignation and both closing lines
//!   auditing every pass): parsing, every line, every share verified,
//!   every draw and opening, the audit.
//!
//! - `deck/long-game/<n>`: the replay of the first `n` turns of a long
//!   self-played Battlegates game with hidden hands (signed lines; the
//!   longest uniform game of seeds 0 to 7, 844 turns, its length
//!   printed), and `deck/peaceful-game/<n>` of a 5,000-turn one in which
//!   nobody is killed (`examples/common/long_games.rs`): time a turn
//!   should not grow with `n` (issue 30: 5,000 turns no slower a turn
//!   than 300 by more than 20%).
//!
//! - `deck/floor/<record>/batched` and `deck/floor/<record>/herald`
//!   (issue 30, "at least 0.8 of the batched floor"): the floor of a
//!   hidden-hands record, the same number of share proofs and
//!   signatures as the record holds, in the same windows (256 deferred
//!   checks), checked by the cryptography alone, each window's shares one
//!   random linear combination (`deck::verify_batch`; herald's replay
//!   too when 48 or more wait, `referee::seal`) and its
//!   signatures one merged-key batch (`fairness::seals_verify`), against
//!   herald's whole replay of that record in process (parse, rules,
//!   deck, digest, every check), one after the other in one run. The
//!   floor is given each share's `D` and its card's `C1` decoded (it
//!   decodes each proof's `A1` and `A2`); `deck/floor/<record>/from-bytes`
//!   is the same floor with `D` and `C1` decoded from their 32 bytes for
//!   each share's check, as the record gives them.
//!   `deck/floor/<record>/from-record`, the floor from the record's
//!   bytes (session 47, the lead's decision: the target is 0.8 of this
//!   one), is the cryptography the protocol requires of anyone who checks
//!   the record from its bytes: every point the record carries that a
//!   checker must decode, decoded once (each pass's cards, both halves,
//!   the record's own `deck` items, since a pass whose card is not a
//!   point is refused on its line; each card key; each share's `D`; each
//!   proof's `A1` and `A2`; a share's `C1` and an opening's `C2` are its
//!   card's, decoded with its pass, and an opening's shares are decoded
//!   with them), then every card key's proof and each window's
//!   signatures and share proofs in one batch each. `<record>` is the
//!   long game's first 300 turns and its first 839. The counts are
//!   printed, and then the floors and herald timed again in CPU time
//!   (the thread's clock), 21 rounds one after the other, their medians
//!   and the median of the rounds' ratios: on a loaded machine
//!   criterion's wall time counts the other jobs too.
//!
//! One thread; everything but the measured step is made outside the
//! timed loop.

#[path = "common/cpu.rs"]
mod cpu;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use herald::fairness::{chain_id, slot_salt, Hash};
use herald::game::Side;
use herald::games::battlegates::Battlegates;
use herald::record::Source;
use herald::referee::deck::schedule::{first_draws, reshuffle_due};
use herald::referee::deck::{
    audit_pass, shuffle, shuffle_slot, verify_batch, CardKey, CardSecret, Ciphertext, Deck,
    KeyProof, PublishedPass, SeedOpening, Share, ShareCheck, ShuffleSeed, Table,
};
use herald::referee::{replay, result_text, Ending, Keys, Line};
use herald::selfplay;
use herald::wallet::Wallet;

#[path = "../examples/common/long_games.rs"]
mod long_games;
use long_games::first_turns;

const SIDES: [&str; 4] = ["South", "North", "East", "West"];
const GAME: Hash = [7; 32];
const CHAIN: Hash = [8; 32];

fn key_file(i: usize) -> Hash {
    [i as u8 + 1; 32]
}

fn secrets(n: usize) -> Vec<CardSecret> {
    (0..n)
        .map(|i| CardSecret::derive(&key_file(i), &GAME, SIDES[i]))
        .collect()
}

fn table(secrets: &[CardSecret]) -> Table {
    let sides: Vec<(&str, CardKey, KeyProof)> = secrets
        .iter()
        .map(|s| (s.side(), s.public(), s.prove()))
        .collect();
    Table::new(&GAME, 34, &sides).expect("honest keys")
}

/// Every player's pass over `deck`, generation `g`, in turn order: the
/// passes as published, with their openings.
fn passes(table: &Table, deck: &Deck, g: u32) -> Vec<(Deck, PublishedPass, SeedOpening)> {
    let mut input = deck.clone();
    let mut out = Vec::new();
    for (i, side) in SIDES.iter().copied().enumerate().take(table.players()) {
        let seed = ShuffleSeed::derive(&key_file(i), &GAME, side, g);
        let salt = slot_salt(&key_file(i), &CHAIN, side, &shuffle_slot(g));
        let output = shuffle(table, &input, &seed);
        let pass = PublishedPass {
            side: side.into(),
            generation: g,
            commitment: seed.commitment(&GAME, side, g, &salt),
            output: output.clone(),
        };
        let opening = SeedOpening {
            value: seed.value(),
            salt,
        };
        out.push((input, pass, opening));
        input = output;
    }
    out
}

/// The sizes of the decks of a `turns`-turn game of `n` players: the
/// first deck, then each reshuffled discard pile, by the schedule's
/// rule (one draw and one discard a turn, hands of 3).
fn deck_sizes(n: u32, turns: u32) -> Vec<u32> {
    let mut sizes = vec![34];
    let (mut end, mut pile) = (34u32, 0u32);
    for t in 1..=turns {
        let next = first_draws(n, 3, t).first().copied().unwrap_or(end);
        if pile > 0 && reshuffle_due(n, end.saturating_sub(next)) {
            sizes.push(pile);
            end += pile;
            pile = 0;
        }
        pile += 1;
    }
    sizes
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("deck");
    group.measurement_time(Duration::from_secs(5));
    for n in [2usize, 4] {
        let secrets = secrets(n);
        let table = table(&secrets);
        let unmasked = Deck::unmasked(&table, 0, &(0..34).collect::<Vec<_>>()).unwrap();
        let seeds: Vec<ShuffleSeed> = (0..n)
            .map(|i| ShuffleSeed::derive(&key_file(i), &GAME, SIDES[i], 0))
            .collect();
        group.bench_function(format!("setup-passes/{n}"), |b| {
            b.iter(|| {
                let mut deck = unmasked.clone();
                for seed in &seeds {
                    deck = shuffle(&table, &deck, seed);
                }
                black_box(deck)
            })
        });
        let deck = passes(&table, &unmasked, 0).pop().unwrap().1.output;
        group.bench_function(format!("draw/{n}"), |b| {
            b.iter(|| {
                let shares: Vec<Share> = secrets[1..]
                    .iter()
                    .map(|s| s.share(&deck, 3).unwrap())
                    .collect();
                let others: Vec<(&str, &Share)> = secrets[1..]
                    .iter()
                    .zip(&shares)
                    .map(|(s, share)| (s.side(), share))
                    .collect();
                black_box(secrets[0].draw(&table, &deck, 3, &others).unwrap())
            })
        });
        let mut all = Vec::new();
        let mut base = 0;
        for (g, size) in deck_sizes(n as u32, 40).into_iter().enumerate() {
            let cards: Vec<u32> = (0..size).collect();
            let deck = Deck::unmasked(&table, base, &cards).unwrap();
            all.extend(passes(&table, &deck, g as u32));
            base += size;
        }
        group.bench_function(format!("audit-40-turns/{n}"), |b| {
            b.iter(|| {
                for (input, pass, opening) in &all {
                    audit_pass(&table, input, pass, opening).unwrap();
                }
            })
        });
        eprintln!(
            "deck/audit-40-turns/{n}: decks of {:?} cards, {} passes",
            deck_sizes(n as u32, 40),
            all.len()
        );
    }
    let secrets = secrets(2);
    let table = table(&secrets);
    let unmasked = Deck::unmasked(&table, 0, &(0..34).collect::<Vec<_>>()).unwrap();
    let deck = passes(&table, &unmasked, 0).pop().unwrap().1.output;
    for n in [2u32, 16, 64] {
        let checks: Vec<ShareCheck> = (0..n)
            .map(|k| {
                let s = &secrets[(k % 2) as usize];
                let share = s.share(&deck, k / 2).unwrap();
                share.check(&table, s.side(), &deck).unwrap()
            })
            .collect();
        group.bench_function(format!("share-proofs/one-by-one/{n}"), |b| {
            b.iter(|| {
                for check in &checks {
                    assert!(check.verify(&GAME));
                }
            })
        });
        group.bench_function(format!("share-proofs/batch/{n}"), |b| {
            b.iter(|| assert!(verify_batch(&GAME, black_box(&checks))))
        });
    }
    let text = hidden_hands_record();
    group.bench_function("check-battlegates-40-turns", |b| {
        b.iter(|| {
            let source = Source::new(text.as_bytes()).unwrap();
            let record = herald::record::parse(&source).unwrap();
            let referee = replay::<Battlegates>(&record, |_, _| {}).unwrap();
            assert!(referee.failed_audits().is_empty());
            black_box(referee.outcome())
        })
    });
    if !selected("long-game") && !selected("peaceful-game") {
        group.finish();
        return;
    }
    let long = long_games::longest_of_seeds();
    let turns = first_turns(&long, usize::MAX).1;
    eprintln!("deck/long-game: {turns} turns");
    let peaceful = long_games::peaceful(1, 5000);
    let peaceful_turns = first_turns(&peaceful, usize::MAX).1;
    eprintln!("deck/peaceful-game: {peaceful_turns} turns");
    // The last turns (the resignation or the win, the closing audits of
    // every pass) left out: time a turn of play.
    let cuts = [
        ("long-game", &long, turns.saturating_sub(5)),
        ("peaceful-game", &peaceful, peaceful_turns),
    ];
    for (name, text, last) in cuts {
        for n in [300, last] {
            let (cut, _) = first_turns(text, n);
            group.bench_function(format!("{name}/{n}"), |b| {
                b.iter(|| {
                    let source = Source::new(cut.as_bytes()).unwrap();
                    let record = herald::record::parse(&source).unwrap();
                    black_box(replay::<Battlegates>(&record, |_, _| {}).unwrap().outcome())
                })
            });
        }
    }
    group.finish();
}

/// Whether the benchmarks `deck/<name>/...` may run: there is no filter
/// (the free arguments of the command line), or one names them or is a
/// part of their id (`deck`, `deck/floor`). A filter that leaves the long
/// games out skips making them, which takes a while.
fn selected(name: &str) -> bool {
    let id = format!("deck/{name}/");
    let free: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    free.is_empty()
        || free
            .iter()
            .any(|a| a.contains(name) || id.contains(a.as_str()))
}

/// `deck/floor/...`: the batched floor of the long game's first 300 and
/// first 839 turns against herald's replay of them.
fn floors(c: &mut Criterion) {
    if !selected("floor") {
        return;
    }
    let mut group = c.benchmark_group("deck");
    group.measurement_time(Duration::from_secs(5));
    group.sample_size(20);
    let long = long_games::longest_of_seeds();
    let turns = first_turns(&long, usize::MAX).1;
    for n in [300, turns.saturating_sub(5)] {
        let (cut, _) = first_turns(&long, n);
        floor(&mut group, &format!("long-game-{n}"), &cut);
    }
    group.finish();
}

/// The checks deferred at once by a replay before they are verified
/// (`referee::seal`'s window): the floor batches as herald does.
const WINDOW: usize = 256;

/// A window of a record's deferred checks: its signatures and share
/// proofs; and the points its lines carry besides the shares' (for the
/// floor from the record's bytes): the cards of its passes (`deck`
/// items, two points each) and its card keys (`cardkey` items).
#[derive(Clone, Copy, Debug, Default)]
struct Window {
    sigs: usize,
    shares: usize,
    cards: usize,
    keys: usize,
}

/// The windows herald's replay of `record` verifies: each line's
/// signature, then its shares' proofs, join the checks waiting; before a
/// line is played, a window of [`WINDOW`] or more is verified; the rest
/// at the end. Also the mean length of a line's bytes (what a signature
/// covers, behind the game id), and every pass's cards as the record
/// gives them (the 64 bytes of each `deck` item, in order).
fn windows(record: &herald::record::Record<'_>) -> (Vec<Window>, usize, Vec<[u8; 64]>) {
    use herald::record::ProofKind;
    let (mut out, mut now) = (Vec::new(), Window::default());
    let mut bytes = 0;
    let mut cards = Vec::new();
    for turn in &record.turns {
        if now.sigs + now.shares >= WINDOW {
            out.push(std::mem::take(&mut now));
        }
        for proof in &turn.proofs {
            match proof.kind {
                ProofKind::Sign(_) => now.sigs += 1,
                ProofKind::Share { .. } => now.shares += 1,
                ProofKind::Deck { card, .. } => {
                    now.cards += 1;
                    cards.push(card);
                }
                ProofKind::CardKey { .. } => now.keys += 1,
                _ => {}
            }
        }
        bytes += turn.lines_end.saturating_sub(turn.span.start);
    }
    out.push(now);
    (out, bytes / record.turns.len().max(1), cards)
}

/// `deck/floor/<name>/batched` and `deck/floor/<name>/herald` for the
/// hidden-hands record `text` (see the module's comment).
fn floor(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    text: &str,
) {
    let source = Source::new(text.as_bytes()).unwrap();
    let record = herald::record::parse(&source).unwrap();
    let (windows, line, pass_cards) = windows(&record);
    let most_sigs = windows.iter().map(|w| w.sigs).max().unwrap_or(0);
    let most_shares = windows.iter().map(|w| w.shares).max().unwrap_or(0);
    // Share proofs: two players' shares of every position of a deck of
    // 34, over and over (a batch costs the same whatever the positions).
    let secrets = secrets(2);
    let table = table(&secrets);
    let unmasked = Deck::unmasked(&table, 0, &(0..34).collect::<Vec<_>>()).unwrap();
    let deck = passes(&table, &unmasked, 0).pop().unwrap().1.output;
    let pool: Vec<ShareCheck> = (0..68u32)
        .map(|k| {
            let s = &secrets[(k % 2) as usize];
            let share = s.share(&deck, k / 2).unwrap();
            share.check(&table, s.side(), &deck).unwrap()
        })
        .collect();
    let checks: Vec<ShareCheck> = pool.iter().cycle().take(most_shares).cloned().collect();
    // The same share proofs as the record's items give them: `D` of
    // each share and its card's `C1` as 32 bytes each, decoded for
    // each share's check (the floor above is given them decoded).
    let packed = Deck::vouched(0, (0..34).map(|p| deck.card_bytes(p).unwrap()).collect());
    let items: Vec<(&str, Share)> = (0..68u32)
        .map(|k| {
            let s = &secrets[(k % 2) as usize];
            let share = s.share(&deck, k / 2).unwrap();
            let share =
                Share::from_bytes(k / 2, &share.point_bytes(), share.proof_bytes()).unwrap();
            (s.side(), share)
        })
        .cycle()
        .take(most_shares)
        .collect();
    // Signatures: two keys in turn, each over a message as long as the
    // record's mean line behind the game id.
    let keys = [
        herald::fairness::signing_key(&[1; 32]),
        herald::fairness::signing_key(&[2; 32]),
    ];
    let messages: Vec<Vec<u8>> = (0..most_sigs)
        .map(|i| {
            let mut m = vec![b'x'; 32 + line];
            m[..8].copy_from_slice(&(i as u64).to_be_bytes());
            m
        })
        .collect();
    let signers: Vec<ed25519_dalek::VerifyingKey> = (0..most_sigs)
        .map(|i| keys[i % 2].verifying_key())
        .collect();
    let sigs: Vec<[u8; 64]> = (0..most_sigs)
        .map(|i| {
            use ed25519_dalek::Signer;
            keys[i % 2].sign(&messages[i]).to_bytes()
        })
        .collect();
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    // The floor from the record's bytes: the shares' `C1` are those of
    // the pass cards it decodes (the final deck's cards as read from
    // their bytes, `enc(C1)` kept as read), not decoded again.
    let read = Deck::read(0, (0..34).map(|p| deck.card_bytes(p).unwrap()).collect()).unwrap();
    // Its card keys as the record gives them: the 32 bytes of `X` and
    // the key proof, decoded and verified.
    let card_keys: Vec<([u8; 32], KeyProof, &str)> = (0..2)
        .map(|i| {
            let s = &secrets[i];
            (s.public().to_bytes(), s.prove(), s.side())
        })
        .collect();
    let (all_sigs, all_shares, all_cards, all_keys) =
        windows.iter().fold((0, 0, 0, 0), |(a, b, c, d), w| {
            (a + w.sigs, b + w.shares, c + w.cards, d + w.keys)
        });
    assert_eq!(all_cards, pass_cards.len());
    eprintln!(
        "deck/floor/{name}: {} lines, {all_sigs} signatures, {all_shares} share proofs, \
         {all_cards} pass cards, {all_keys} card keys, {} windows, a line {line} bytes",
        record.turns.len(),
        windows.len()
    );
    // A window's signatures in one merged-key batch.
    let window_seals = |n: usize| {
        assert!(herald::fairness::seals_verify(
            &signers[..n],
            black_box(&refs[..n]),
            &sigs[..n]
        ));
    };
    // A window's `count` shares read from their bytes (each `D` decoded)
    // and checked against `deck`, their proofs in one batch.
    let shares_from_bytes = |count: usize, deck: &Deck| {
        let checks: Vec<ShareCheck> = black_box(&items[..count])
            .iter()
            .map(|(side, item)| {
                let share =
                    Share::from_bytes(item.position(), &item.point_bytes(), item.proof_bytes())
                        .unwrap();
                share.check(&table, side, deck).unwrap()
            })
            .collect();
        assert!(verify_batch(&GAME, &checks));
    };
    let batched = || {
        for w in &windows {
            window_seals(w.sigs);
            assert!(verify_batch(&GAME, black_box(&checks[..w.shares])));
        }
    };
    let from_bytes = || {
        for w in &windows {
            window_seals(w.sigs);
            shares_from_bytes(w.shares, &packed);
        }
    };
    // The floor from the record's bytes (issue 30, session 47): what the
    // protocol requires of anyone who checks the record from its bytes.
    // Every point the record carries that a checker must decode, decoded
    // once: each pass's cards, both halves (the record's own `deck`
    // items: a pass whose card is not a point is refused on its line,
    // so that a player learns of a poisoned deck before it answers, not
    // at the audit), each card key, each share's `D`; a proof's `A1` and
    // `A2` are decoded by `verify_batch`. A share's `C1` is its card's,
    // decoded with the pass that made the final deck, and an opening's
    // points are its card's `C2` (decoded with the pass) and the shares'
    // `D` (decoded with the shares): nothing more to decode. Then every
    // card key's proof, and each window's signatures and share proofs in
    // one batch each, as above.
    let from_record = || {
        let mut cards = pass_cards.iter();
        let mut keys = card_keys.iter().cycle();
        for w in &windows {
            for bytes in cards.by_ref().take(w.cards) {
                black_box(Ciphertext::from_bytes(black_box(bytes)).unwrap());
            }
            for (key, proof, side) in keys.by_ref().take(w.keys) {
                let key = CardKey::from_bytes(black_box(key)).unwrap();
                key.verify(&GAME, side, proof).unwrap();
            }
            window_seals(w.sigs);
            shares_from_bytes(w.shares, &read);
        }
    };
    let herald = || {
        let source = Source::new(text.as_bytes()).unwrap();
        let record = herald::record::parse(&source).unwrap();
        black_box(replay::<Battlegates>(&record, |_, _| {}).unwrap().outcome());
    };
    group.bench_function(format!("floor/{name}/batched"), |b| b.iter(batched));
    group.bench_function(format!("floor/{name}/from-bytes"), |b| b.iter(from_bytes));
    group.bench_function(format!("floor/{name}/from-record"), |b| b.iter(from_record));
    group.bench_function(format!("floor/{name}/herald"), |b| b.iter(herald));
    cpu::cpu_pairs(
        &format!("deck/floor/{name}"),
        &[
            ("floor", &batched),
            ("from bytes", &from_bytes),
            ("from the record's bytes", &from_record),
        ],
        &herald,
    );
}

/// A self-played Battlegates game with hidden hands, 40 signed turns,
/// then a resignation and both closing lines.
fn hidden_hands_record() -> String {
    let mut options = selfplay::Options::new::<Battlegates>(11, 2);
    options.tags = vec![("Hands".into(), "hidden".into())];
    options.signatures = true;
    options.max_turns = 40;
    let text = selfplay::record::<Battlegates>(&options).unwrap();
    let source = Source::new(text.as_bytes()).unwrap();
    let record = herald::record::parse(&source).unwrap();
    let mut referee = replay::<Battlegates>(&record, |_, _| {}).unwrap();
    let chain = chain_id([
        ("Game", "battlegates"),
        ("South", "south@example.org"),
        ("North", "north@example.org"),
        ("Hands", "hidden"),
    ]);
    let wallets: Vec<Wallet> = ["South", "North"]
        .iter()
        .enumerate()
        .map(|(i, side)| {
            let secret = selfplay::secret(11, Side(i as u8));
            Wallet::from_secret("battlegates", side, chain, secret)
        })
        .collect();
    let mut log = String::new();
    let mut resign = true;
    while let Some(side) = referee.to_move() {
        let (kind, number) = referee.next_line();
        let words = if resign {
            vec!["resign".to_string()]
        } else {
            Vec::new()
        };
        let mut line = Line::of_actions(kind, number, side.name::<Battlegates>(), &words);
        if resign {
            line.entries.clear();
            line.ending = Ending::Resign;
        }
        resign = false;
        let played = referee
            .compose(line, Keys::own(&wallets[usize::from(side.0)]))
            .unwrap();
        herald::record::write_turn(&played.text(), &mut log);
    }
    let mut header = String::new();
    referee
        .header()
        .write(&result_text::<Battlegates>(referee.outcome()), &mut header);
    let body = &text[text.find("\n\n").unwrap() + 2..];
    format!("{header}\n{body}{log}")
}

criterion_group!(benches, bench, floors);
criterion_main!(benches);
