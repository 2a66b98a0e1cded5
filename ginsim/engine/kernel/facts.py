"""What the kernel reads of the rules: one hand's knock limits, multipliers, bonuses and
discard rule as plain numbers (``RuleFacts``, built by ``rules.rule_facts``).
"""

from __future__ import annotations

from typing import NamedTuple


class RuleFacts(NamedTuple):
    """What the rules decide for a hand, read once from a ``Rules`` (``rules.rule_facts``):
    the knock limit and score multiplier of each possible first upcard (R14, R29, R30)
    and the scoring and discard rules as plain numbers."""

    limits: tuple[int, ...]
    mults: tuple[int, ...]
    big_gin: bool
    big_gin_bonus: int
    gin_bonus: int
    undercut_bonus: int
    undercut_on_tie: bool
    no_back: bool
    max_run: int  # max_run_length, -1 for none
