#!/bin/sh
# Reproduce the shipped model of the built-in `learned` (strategies/learned.npz) from its seeds:
# 1. distil `patient` (seed 2, 400 games per opponent and preset);
# 2. improve the knock head by its own play (seed 3, 150 games per opponent and preset);
# 3. evolution strategies on the points it wins in games to 100 (seed 3101, 45 generations)
#    against `simple`, MARJJ_v5, the model of step 2 and a gin hunter;
# 4. blend the models of steps 2 and 3, half each.
# Run from the repository's root. OUT (default build/learned) receives the records and the
# models along the way. Step 3 plays MARJJ_v5, the EAAI-21 champion line's Java player: MARJJ
# names its java: spec (compile it with experiments/java/compile_marjj.sh; docs/java.md).
set -e
OUT=${OUT:-build/learned}
SHIP=${SHIP:-strategies/learned.npz}
MARJJ=${MARJJ:-java:build/classes:MARJJ_v5}
python experiments/training/train_learned.py --seed 2 --games 400 --out-dir "$OUT" --ship "$OUT/distilled.npz"
python experiments/training/improve_knocks.py --model "$OUT/distilled.npz" --games 150 --seed 3 --out "$OUT/improved.npz"
python experiments/training/evolve.py --model "$OUT/improved.npz" --seed 3101 --generations 45 --out "$OUT/evolve" \
    --opponent simple@default --opponent simple@eaai --opponent "$MARJJ@eaai" --opponent "$MARJJ@default" \
    --opponent "learned:model=$OUT/improved.npz@eaai" --opponent "aware:late_turn=8,late_knock_at=0@eaai"
python experiments/training/blend.py "$OUT/improved.npz" "$OUT/evolve/gen-45.npz" --weight 0.5 --out "$SHIP"
