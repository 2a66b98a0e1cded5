#!/bin/sh
# Step 7 of make_model.sh: the card value `learned` adds to the discard head of its heads, those
# it plays where undercuts cost more than 10 (the EAAI, modern and palace presets). The recipe of
# make_card_value.sh (step 6) played under the EAAI rules, in four rounds of play and fitting, each
# round played with the previous round's network at weight 4, every network fitted on all the
# samples so far:
#   A: `learned` plays (seed 5211)  -> vA256
#   B: judged by vA256 (5213)       -> vAB256
#   C: judged by vAB256 (5215)      -> vABC256
#   D: judged by vABC256 (5217)     -> vABCD256
# and the shipped network, vTD256: the samples A to D refitted with vABCD256's recipe on TD(0.5)
# targets, each discard's the mean of the next discard's value by vABCD256 and that discard's own
# target, a hand's last discard its points (value_targets.py; the notes' fifteenth attempt).
# MODEL is the model file `learned` plays while the samples are collected (its heads; any card
# value in it is not used); OUT (default build/learned/value-eaai) receives the samples and the
# networks. About an hour on two cores; the collections take the most.
set -e
MODEL=${MODEL:?MODEL must name the model file learned plays (make_model.sh sets it)}
OUT=${OUT:-build/learned/value-eaai}
CV="python experiments/training/card_value.py"
mkdir -p "$OUT"
samples() { for d in "$@"; do for f in "$OUT/$d"/samples-*.npz; do printf -- '--samples %s ' "$f"; done; done; }
round() { # ROUND SEED NETWORK: play and note a round judged by NETWORK
    $CV collect --model "$MODEL" --preset eaai --games 6000 --seed "$2" --jobs 2 --value "$OUT/$3.npz" --weight 4 \
        --out-dir "$OUT/$1"
}
$CV collect --model "$MODEL" --preset eaai --games 8000 --seed 5211 --jobs 2 --out-dir "$OUT/A"
$CV fit $(samples A) --hidden 256 --epochs 8 --seed 5212 --out "$OUT/vA256.npz"
round B 5213 vA256
$CV fit $(samples A B) --hidden 256 --epochs 5 --seed 5214 --out "$OUT/vAB256.npz"
round C 5215 vAB256
$CV fit $(samples A B C) --hidden 256 --epochs 5 --seed 5216 --out "$OUT/vABC256.npz"
round D 5217 vABC256
$CV fit $(samples A B C D) --hidden 256 --epochs 5 --seed 5218 --out "$OUT/vABCD256.npz"
$CV fit $(samples A B C D) --hidden 256 --epochs 5 --seed 5218 --preset eaai --target td \
    --bootstrap "$OUT/vABCD256.npz" --lam 0.5 --out "$OUT/vTD256.npz"
