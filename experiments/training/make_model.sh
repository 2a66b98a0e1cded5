#!/bin/sh
# Reproduce the shipped model of the built-in `learned` (strategies/learned.npz) from its seeds:
# distil `patient` (seed 2, 400 games per opponent and preset), then improve the knock head by
# its own play (seed 3, 150 games per opponent and preset). Run from the repository's root;
# OUT (default build/learned) receives the records and the models along the way.
set -e
OUT=${OUT:-build/learned}
SHIP=${SHIP:-strategies/learned.npz}
python experiments/training/train_learned.py --seed 2 --games 400 --out-dir "$OUT" --ship "$OUT/distilled.npz"
python experiments/training/improve_knocks.py --model "$OUT/distilled.npz" --games 150 --seed 3 --out "$SHIP"
