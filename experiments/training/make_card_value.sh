#!/bin/sh
# Step 6 of make_model.sh: the card value `learned` adds to its discard head under the default
# and classic rules (docs/notes/2026-12-learned.md, "A value of the kept hand over the cards").
# Five rounds of play and fitting, each round played with the previous round's network (weight 4,
# the second round's 10), every network fitted on all the samples so far:
#   A: `learned` plays (seed 5142)            -> vA (128 units), vA256
#   B: judged by vA (5151), C: by vA256 (5153) -> vABC256
#   D: judged by vABC256 (5171 and 5172)       -> vABCD256
#   F: judged by vABCD256 (5191)               -> vF256, the shipped network
# MODEL is the model file `learned` plays while the samples are collected (its heads; any card
# value in it is not used); OUT (default build/learned/value) receives the samples and the
# networks. About 80 minutes on two cores; the collections take the most.
set -e
MODEL=${MODEL:?MODEL must name the model file learned plays (make_model.sh sets it)}
OUT=${OUT:-build/learned/value}
CV="python experiments/training/card_value.py"
mkdir -p "$OUT"
samples() { for d in "$@"; do for f in "$OUT/$d"/samples-*.npz; do printf -- '--samples %s ' "$f"; done; done; }
$CV collect --model "$MODEL" --games 8000 --seed 5142 --jobs 2 --out-dir "$OUT/A"
$CV fit $(samples A) --hidden 128 --epochs 5 --seed 5142 --out "$OUT/vA.npz"
$CV collect --model "$MODEL" --games 6000 --seed 5151 --jobs 2 --value "$OUT/vA.npz" --weight 4 --out-dir "$OUT/B" &
B=$!
$CV fit $(samples A) --hidden 256 --epochs 8 --seed 5142 --out "$OUT/vA256.npz"
$CV collect --model "$MODEL" --games 7000 --seed 5153 --jobs 1 --value "$OUT/vA256.npz" --weight 10 --out-dir "$OUT/C"
wait $B
$CV fit $(samples A B C) --hidden 256 --epochs 5 --seed 5154 --out "$OUT/vABC256.npz"
$CV collect --model "$MODEL" --games 7000 --seed 5171 --jobs 1 --value "$OUT/vABC256.npz" --weight 4 --out-dir "$OUT/D1" &
D=$!
$CV collect --model "$MODEL" --games 5000 --seed 5172 --jobs 1 --value "$OUT/vABC256.npz" --weight 4 --out-dir "$OUT/D2"
wait $D
$CV fit $(samples A B C D1 D2) --hidden 256 --epochs 5 --seed 5173 --out "$OUT/vABCD256.npz"
$CV collect --model "$MODEL" --games 6000 --seed 5191 --jobs 2 --value "$OUT/vABCD256.npz" --weight 4 --out-dir "$OUT/F"
$CV fit $(samples A B C D1 D2 F) --hidden 256 --epochs 5 --seed 5192 --out "$OUT/vF256.npz"
