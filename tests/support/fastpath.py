"""What the fast path's tests share: the rule variants and pairings they play, a chunk
task as the runner builds it, and the fast policy of a built-in spec."""

from __future__ import annotations

from ginsim.engine.policy import FastPolicy
from ginsim.engine.presets import PRESET_NAMES
from ginsim.engine.rules import Rules, preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.run import fastchunk
from ginsim.run.seeding import text_key
from ginsim.run.worker import ChunkTask

VARIANTS: dict[str, Rules] = {
    **{f"preset {name}": preset_rules(name) for name in PRESET_NAMES},
    "undercut_on_tie false": Rules(undercut_on_tie=False),
    "oklahoma with spades": Rules(oklahoma=True, oklahoma_spades=True),
    "oklahoma, ace is gin": Rules(oklahoma=True, oklahoma_ace="gin"),
    "max_run_length 5": Rules(max_run_length=5),
    "discard of the drawn upcard": Rules(allow_discard_of_drawn_upcard=True),
    "big gin": Rules(big_gin_bonus=31),
    "low knock limit": Rules(knock_limit=3, next_dealer="winner"),
}
PAIRS = [("simple", "simple"), ("threshold:knock_at=3", "simple"), ("random", "threshold:knock_at=0")]


def chunk_task(rules: Rules, a: str, b: str, mode: str, start: int, stop: int, seed: int = 5) -> ChunkTask:
    """A chunk of hands ``start``..``stop`` of the pairing ``a`` vs ``b``, as the runner hands it to a worker."""
    sa, sb = parse_spec(a), parse_spec(b)
    key = text_key("pairing", sa.canonical, sb.canonical)
    return ChunkTask(rules, sa, sb, 3, key, seed, mode, True, start, stop, 0)


def policy_of(spec: str) -> FastPolicy:
    """The fast path's policy for a built-in spec (which must have one)."""
    s = parse_spec(spec)
    policy = fastchunk.fast_policy(s.load_class(), s.params)
    assert policy is not None
    return policy
