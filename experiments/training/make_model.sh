#!/bin/sh
# Reproduce the shipped model of the built-in `learned` (strategies/learned.npz) from its seeds:
# 1. distil `patient` (seed 2, 400 games per opponent and preset);
# 2. improve the knock head by its own play (seed 3, 150 games per opponent and preset);
# 3. evolution strategies on the points it wins in games to 100 (seed 3101, 45 generations)
#    against `simple`, MARJJ_v5, the model of step 2 and a gin hunter;
# 4. blend the models of steps 2 and 3, half each: the heads played where undercuts cost more than 10;
# 5. the heads played where they cost 10 or less (the default and classic presets): patient's
#    stronger setting distilled under the default rules (seeds 5001 and 5002, the two runs may go
#    side by side), each head with a hidden layer of 16 units, added to the blend as its cheap heads;
# 6. the card value played beside the cheap heads: five rounds of play and fitting
#    (make_card_value.sh, seeds 5142 to 5192), the last round's network written in with weight 4;
# 7. the card value played beside the other heads: four rounds under the EAAI rules
#    (make_card_value_eaai.sh, seeds 5211 to 5218), the last round's samples refitted on targets
#    bootstrapped from the last round's network (TD(0.5)), that network written in with weight 4.
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
python experiments/training/blend.py "$OUT/improved.npz" "$OUT/evolve/gen-45.npz" --weight 0.5 --out "$OUT/blend.npz"
STRONG=samples=128,close=4,candidates=4,take_close=2
python experiments/training/train_learned.py --seed 5001 --games 800 --presets default --teacher "$STRONG" \
    --opponents 'simple;aware' --out-dir "$OUT/cheap-a" --shares 1
python experiments/training/train_learned.py --seed 5002 --games 800 --presets default --teacher "$STRONG" \
    --opponents 'aware:late_turn=8,late_knock_at=0;patient' --out-dir "$OUT/cheap-b" --shares 1
python experiments/training/train_learned.py --fit-only --records "$OUT/cheap-a" --records "$OUT/cheap-b" \
    --hidden 16 --steps 400 --shares 1 --out-dir "$OUT/cheap" --ship "$OUT/cheap.npz"
python experiments/training/cheap_heads.py "$OUT/blend.npz" "$OUT/cheap.npz" --out "$OUT/heads.npz"
MODEL="$OUT/heads.npz" OUT="$OUT/value" sh experiments/training/make_card_value.sh
python experiments/training/card_value.py ship --model "$OUT/heads.npz" --value "$OUT/value/vF256.npz" --weight 4 \
    --out "$OUT/cheap-cards.npz"
MODEL="$OUT/heads.npz" OUT="$OUT/value-eaai" sh experiments/training/make_card_value_eaai.sh
python experiments/training/card_value.py ship --model "$OUT/cheap-cards.npz" --value "$OUT/value-eaai/vTD256.npz" \
    --weight 4 --preset eaai --out "$SHIP"
