#!/bin/sh
# Whole-process speed of `herald check` against pgn-reader's validator
# (issue 30): megabytes a second of each, on inputs of similar size, run
# in turn (herald, validator, herald, ...) so that both see the same load.
#
#   tools/compare-pgn.sh PGNVAL HERALD RECORDS [RUNS] [BYTES]
#
# PGNVAL   the validator built from the bench material (its README says
#          how; nothing here builds or ships it): `PGNVAL gen SEED BYTES
#          OUT` writes random legal chess games, `PGNVAL FILE` checks them.
# HERALD   a release build of herald (target/release/herald).
# RECORDS  a folder of self-play records, written by
#          `HERALD_RECORDS_DIR=RECORDS cargo bench --bench replay -- none`
#          (`<game>-<plain|commit>-<seed>.pbem`).
# RUNS     runs of each command (default 11); medians are printed.
# BYTES    how much each command reads at least (default 8000000, so
#          that a run takes a tenth of a second or more: /usr/bin/time
#          counts hundredths).
#
# For each game and kind of record, `HERALD check` reads every record of
# that kind in one process (one verdict a record; the list given again
# until it holds BYTES), and the validator one PGN file of the same size
# (at least); cpu time is user + system from /usr/bin/time. Prints: game, kind, bytes, herald MB/s, validator MB/s,
# their ratio; then the same per move (herald's turns a second, the
# validator's plies a second, their ratio): the bytes a move differ
# (SAN about 7 a ply, herald's lines 18 to 200 a turn).
set -eu

[ $# -ge 3 ] || { echo "usage: $0 PGNVAL HERALD RECORDS [RUNS]" >&2; exit 2; }
pgnval=$1 herald=$2 records=$3 runs=${4:-11} least=${5:-8000000}
[ -x "$pgnval" ] || { echo "$0: $pgnval is not an executable" >&2; exit 2; }
[ -x "$herald" ] || { echo "$0: $herald is not an executable" >&2; exit 2; }
[ -d "$records" ] || { echo "$0: $records is not a folder" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# cpu seconds (user + system) of one run of the command given.
cpu() {
    /usr/bin/time -f '%U %S' -o "$work/time" "$@" >/dev/null 2>&1 || {
        echo "$0: failed: $*" >&2
        exit 1
    }
    awk '{ printf "%.4f\n", $1 + $2 }' "$work/time"
}

median() {
    sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%-20s %-7s %9s %12s %14s %7s %11s %11s %7s\n' game kind bytes herald_MB/s validator_MB/s ratio turns/s plies/s ratio
for kind in plain commit; do
    for game in $(ls "$records" | sed -n "s/-$kind-[0-9]*\.pbem\$//p" | sort -u); do
        once=$(ls "$records"/"$game"-"$kind"-*.pbem)
        # shellcheck disable=SC2086
        size=$(cat $once | wc -c)
        # shellcheck disable=SC2086
        turns=$(cat $once | grep -c '^[0-9][0-9]*\. ')
        files=$once bytes=$size times=1
        while [ "$bytes" -lt "$least" ]; do
            files="$files $once" bytes=$((bytes + size)) times=$((times + 1))
        done
        turns=$((turns * times))
        "$pgnval" gen 2 "$bytes" "$work/chess.pgn" >/dev/null
        pgn_bytes=$(wc -c <"$work/chess.pgn")
        # Plies: the movetext's words less move numbers and results.
        plies=$(grep -v '^\[' "$work/chess.pgn" | tr -s ' ' '\n' |
            grep -cv -e '^$' -e '^[0-9][0-9]*\.$' -e '^1-0$' -e '^0-1$' -e '^1/2-1/2$' -e '^\*$')
        : >"$work/h" && : >"$work/p"
        i=0
        while [ "$i" -lt "$runs" ]; do
            # shellcheck disable=SC2086
            cpu "$herald" check $files >>"$work/h"
            cpu "$pgnval" "$work/chess.pgn" >>"$work/p"
            i=$((i + 1))
        done
        h=$(median <"$work/h")
        p=$(median <"$work/p")
        awk -v g="$game" -v k="$kind" -v b="$bytes" -v pb="$pgn_bytes" -v h="$h" -v p="$p" \
            -v t="$turns" -v pl="$plies" 'BEGIN {
            hm = (h > 0) ? b / h / 1e6 : 0; pm = (p > 0) ? pb / p / 1e6 : 0
            ht = (h > 0) ? t / h : 0; pt = (p > 0) ? pl / p : 0
            printf "%-20s %-7s %9d %12.1f %14.1f %7.2f %11.0f %11.0f %7.2f\n", g, k, b, hm, pm,
                (pm > 0) ? hm / pm : 0, ht, pt, (pt > 0) ? ht / pt : 0
        }'
    done
done
