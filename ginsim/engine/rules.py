"""The rules of one Gin Rummy variant: a frozen dataclass validated when it is built.

Every number a player of another house rule would change is a field here (RULES.md,
"Variants"). Rules load from a TOML file with a ``[rules]`` table and from ``key=value``
overrides; an unknown key or a bad value raises RulesError naming both.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from ginsim.engine.kernel.facts import RuleFacts
from ginsim.engine.presets import PRESET_NAMES, PRESETS
from ginsim.errors import RulesError

NEXT_DEALER_CHOICES = ("alternate", "winner", "loser")
OKLAHOMA_ACE_CHOICES = ("one", "gin")
BOX_TIMING_CHOICES = ("end", "immediate")
SHUTOUT_CHOICES = ("none", "double", "flat")


MAX_HAND_BONUS = 1000
"""The most a gin, big gin, undercut or box bonus may be: with the deadwood difference
(at most 98) and the doubling of R30, a hand is worth at most 2 * (98 + 1000) points,
well inside the hand log's int16 ``points`` column."""
MAX_TARGET_SCORE = 10_000
"""The highest target score: a running score before a hand stays below it, and one that
reaches it by at most one hand's points, so the int16 score columns never overflow."""
MAX_GAME_BONUS = 1_000_000
"""The most a game or shutout bonus may be (game totals are int32)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A Gin Rummy rule set; defaults are RULES.md's."""

    knock_limit: int = 10
    gin_bonus: int = 20
    undercut_bonus: int = 10
    big_gin_bonus: int | None = None
    allow_discard_of_drawn_upcard: bool = False
    max_run_length: int | None = None
    target_score: int = 100
    next_dealer: str = "alternate"
    time_per_hand: float | None = None
    preset: str = "default"
    undercut_on_tie: bool = True
    oklahoma: bool = False
    oklahoma_ace: str = "one"
    oklahoma_spades: bool = False
    box_bonus: int = 0
    box_timing: str = "end"
    game_bonus: int = 0
    shutout: str = "none"
    shutout_bonus: int = 0

    def __post_init__(self) -> None:
        _check_int("knock_limit", self.knock_limit, 0, 10)
        _check_int("gin_bonus", self.gin_bonus, 0, MAX_HAND_BONUS)
        _check_int("undercut_bonus", self.undercut_bonus, 0, MAX_HAND_BONUS)
        if self.big_gin_bonus is not None:
            _check_int("big_gin_bonus", self.big_gin_bonus, 0, MAX_HAND_BONUS)
        if not isinstance(self.allow_discard_of_drawn_upcard, bool):
            raise RulesError(
                f"rules: allow_discard_of_drawn_upcard must be true or false, "
                f"not {self.allow_discard_of_drawn_upcard!r}"
            )
        if self.max_run_length is not None:
            _check_int("max_run_length", self.max_run_length, 3, 13)
        _check_int("target_score", self.target_score, 1, MAX_TARGET_SCORE)
        if self.next_dealer not in NEXT_DEALER_CHOICES:
            raise RulesError(
                f"rules: next_dealer must be one of {', '.join(NEXT_DEALER_CHOICES)}, not {self.next_dealer!r}"
            )
        if self.time_per_hand is not None:
            t = self.time_per_hand
            if isinstance(t, bool) or not isinstance(t, int | float) or not 0 < t < math.inf:
                raise RulesError(f"rules: time_per_hand must be a number of seconds > 0, not {t!r}")
            object.__setattr__(self, "time_per_hand", float(t))
        _check_choice("preset", self.preset, PRESET_NAMES)
        for name in ("undercut_on_tie", "oklahoma", "oklahoma_spades"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"rules: {name} must be true or false, not {getattr(self, name)!r}")
        _check_choice("oklahoma_ace", self.oklahoma_ace, OKLAHOMA_ACE_CHOICES)
        if self.oklahoma_spades and not self.oklahoma:
            raise RulesError("rules: oklahoma_spades needs oklahoma = true")
        _check_int("box_bonus", self.box_bonus, 0, MAX_HAND_BONUS)
        _check_choice("box_timing", self.box_timing, BOX_TIMING_CHOICES)
        _check_int("game_bonus", self.game_bonus, 0, MAX_GAME_BONUS)
        _check_choice("shutout", self.shutout, SHUTOUT_CHOICES)
        _check_int("shutout_bonus", self.shutout_bonus, 0, MAX_GAME_BONUS)
        if self.shutout == "flat" and self.shutout_bonus == 0:
            raise RulesError("rules: shutout = flat needs a shutout_bonus > 0")

    # -- per hand (R29, R30) -------------------------------------------------------
    def hand_knock_limit(self, upcard: int) -> int:
        """The knock limit of a hand whose first upcard is ``upcard`` (R14; R29 Oklahoma:
        the upcard's value, pictures 10, an ace 1 or gin only, never above knock_limit)."""
        if not self.oklahoma:
            return self.knock_limit
        value = min(upcard % 13 + 1, 10)
        if value == 1 and self.oklahoma_ace == "gin":
            value = 0
        return min(value, self.knock_limit)

    def hand_multiplier(self, upcard: int) -> int:
        """2 when a spade first upcard doubles the hand's points (R30), else 1."""
        return 2 if self.oklahoma_spades and upcard >= 39 else 1

    def copy(self) -> Rules:
        """An equal, separate instance: a view's own rules (``object.__setattr__`` on a
        frozen dataclass still works, so a strategy could otherwise change the rules the
        engine scores with)."""
        new = object.__new__(Rules)
        for name in _NAMES:
            object.__setattr__(new, name, getattr(self, name))
        return new

    def to_dict(self) -> dict[str, Any]:
        """All fields, for manifests and reports."""
        return asdict(self)

    def differences(self, base: Rules | None = None) -> dict[str, Any]:
        """The fields that differ from ``base`` (default: the default rules)."""
        default = Rules() if base is None else base
        return {
            f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(default, f.name)
        }

    def describe(self) -> str:
        """``default rules``, or the preset and the fields that differ from it, as
        ``key=value`` text (``eaai rules``; ``eaai rules, knock_limit=8``)."""
        if self.preset == "default":
            diff = self.differences()
            if not diff:
                return "default rules"
            return ", ".join(f"{k}={_format_value(v)}" for k, v in diff.items())
        diff = self.differences(preset_rules(self.preset))
        return ", ".join([f"{self.preset} rules"] + [f"{k}={_format_value(v)}" for k, v in diff.items()])

    def cli_args(self) -> list[str]:
        """The command-line options that give these rules: ``--rules PRESET`` (none for the
        default rules) and a ``--rule key=value`` for each field that differs from the preset."""
        args = [] if self.preset == "default" else ["--rules", self.preset]
        for key, value in self.differences(preset_rules(self.preset)).items():
            args += ["--rule", f"{key}={_format_value(value)}"]
        return args

    def with_values(self, values: dict[str, Any], source: str = "rules") -> Rules:
        """A copy with some fields changed; unknown keys raise RulesError."""
        known = {f.name for f in fields(self)}
        for key in values:
            if key not in known:
                raise RulesError(f"{source}: unknown rule {key!r} (known: {', '.join(sorted(known))})")
        base = self
        if "preset" in values:  # R27: a preset first, the other values on top
            values = dict(values)
            base = preset_rules(values.pop("preset"), source)
        try:
            return replace(base, **values)
        except RulesError as e:
            raise RulesError(f"{source}: {str(e).removeprefix('rules: ')}") from None


_RECENT_FACTS: list[tuple[Rules, RuleFacts]] = []  # those of the Rules objects asked for last, newest first


def rule_facts(rules: Rules) -> RuleFacts:
    """What ``rules`` decide for each hand, as the kernel reads it (``kernel.facts.RuleFacts``):
    read once per Rules object (the last few asked for are kept: the engine's and its
    views' copies alternate), not per hand."""
    for known, facts in _RECENT_FACTS:
        if known is rules:
            return facts
    bonus = rules.big_gin_bonus
    facts = RuleFacts(
        limits=tuple(rules.hand_knock_limit(c) for c in range(52)),
        mults=tuple(rules.hand_multiplier(c) for c in range(52)),
        big_gin=bonus is not None,
        big_gin_bonus=0 if bonus is None else bonus,
        gin_bonus=rules.gin_bonus,
        undercut_bonus=rules.undercut_bonus,
        undercut_on_tie=rules.undercut_on_tie,
        no_back=not rules.allow_discard_of_drawn_upcard,
        max_run=-1 if rules.max_run_length is None else rules.max_run_length,
    )
    _RECENT_FACTS.insert(0, (rules, facts))
    del _RECENT_FACTS[8:]
    return facts


def _format_value(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _check_choice(name: str, value: Any, choices: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in choices:
        raise RulesError(f"rules: {name} must be one of {', '.join(choices)}, not {value!r}")


def preset_rules(name: Any, source: str = "rules") -> Rules:
    """The rules of a preset (R27); RulesError naming the presets for an unknown name."""
    if not isinstance(name, str) or name not in PRESETS:
        raise RulesError(f"{source}: unknown preset {name!r} (presets: {', '.join(PRESET_NAMES)})")
    return Rules(preset=name, **PRESETS[name].values)


def _check_int(name: str, value: Any, lo: int, hi: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"rules: {name} must be a whole number, not {value!r}")
    if value < lo or (hi is not None and value > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise RulesError(f"rules: {name} must be {bounds}, not {value}")


_FIELD_TYPES = {f.name: f.type for f in fields(Rules)}
_TEXT_FIELDS = {f.name for f in fields(Rules) if str(f.type) == "str"}
_NAMES = tuple(_FIELD_TYPES)
_VALUES: dict[int, tuple[Rules, tuple[Any, ...]]] = {}


def rules_values(rules: Rules) -> tuple[Any, ...]:
    """Every field of ``rules`` in field order, as an immutable tuple (kept per Rules
    object, so a hand's views get theirs without copying the rules each hand)."""
    hit = _VALUES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    values = tuple(getattr(rules, name) for name in _NAMES)
    if len(_VALUES) >= 256:
        _VALUES.clear()
    _VALUES[id(rules)] = (rules, values)
    return values


def rules_from_values(values: tuple[Any, ...]) -> Rules:
    """A Rules holding ``values`` (from ``rules_values``), built without checking them
    again: a view's own copy."""
    new = object.__new__(Rules)
    for name, value in zip(_NAMES, values, strict=True):
        object.__setattr__(new, name, value)
    return new


def parse_rule_value(key: str, text: str) -> Any:
    """Convert the text of ``--rule key=value`` to the field's type."""
    if key not in _FIELD_TYPES:
        known = ", ".join(sorted(_FIELD_TYPES))
        raise RulesError(f"--rule: unknown rule {key!r} (known: {known})")
    if key == "preset":
        raise RulesError("--rule preset: name a preset with --rules NAME, then --rule changes fields of it")
    kind = str(_FIELD_TYPES[key])
    t = text.strip()
    low = t.lower()
    if "None" in kind and low in ("none", "off", ""):
        return None
    if "bool" in kind:
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"--rule {key}: expected true or false, not {text!r}")
    if "int" in kind:
        try:
            return int(t)
        except ValueError:
            raise RulesError(f"--rule {key}: expected a whole number, not {text!r}") from None
    if "float" in kind:
        try:
            return float(t)
        except ValueError:
            raise RulesError(f"--rule {key}: expected a number of seconds, not {text!r}") from None
    return t


def parse_rule_options(options: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """``["knock_limit=8", "gin_bonus=25"]`` as a dict of typed values."""
    out: dict[str, Any] = {}
    for opt in options:
        key, sep, value = opt.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RulesError(f"--rule: expected key=value, not {opt!r}")
        if key in out:  # two values for one rule is a typo, not an override
            raise RulesError(f"--rule {key}: given twice")
        out[key] = parse_rule_value(key, value)
    return out


def rules_from_table(table: Any, source: str) -> Rules:
    """Rules from a TOML ``[rules]`` table; ``none`` (a string) clears an optional field."""
    if not isinstance(table, dict):
        raise RulesError(f"{source}: [rules] must be a table of key = value")
    values = {
        k: (None if isinstance(v, str) and v.lower() == "none" and k not in _TEXT_FIELDS else v)
        for k, v in table.items()
    }
    return Rules().with_values(values, source)


def load_rules_file(path: str | Path) -> Rules:
    """Rules from a TOML file holding a ``[rules]`` table."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise RulesError(f"rules file {str(p)!r}: cannot read it ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise RulesError(f"rules file {str(p)!r}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"rules file {str(p)!r}: not valid TOML ({e})") from None
    unknown = [k for k in data if k != "rules"]
    if unknown:
        raise RulesError(f"rules file {str(p)!r}: unknown table or key {unknown[0]!r} (expected [rules])")
    return rules_from_table(data.get("rules", {}), f"rules file {str(p)!r}")


def load_rules(name_or_file: str | Path) -> Rules:
    """``--rules NAME|FILE``: a preset's rules (R27) when the text is a preset's name,
    else the rules of a TOML file."""
    text = str(name_or_file)
    if text in PRESETS:
        return preset_rules(text)
    p = Path(text)
    if not p.exists() and p.suffix == "" and "/" not in text and "\\" not in text:
        raise RulesError(f"--rules {text!r}: unknown preset and no such file (presets: {', '.join(PRESET_NAMES)})")
    return load_rules_file(p)


def build_rules(rules_file: str | Path | None = None, rule_options: list[str] | tuple[str, ...] = ()) -> Rules:
    """Rules from an optional preset name or file, then ``--rule`` overrides on top."""
    rules = load_rules(rules_file) if rules_file else Rules()
    if rule_options:
        rules = rules.with_values(parse_rule_options(rule_options), "--rule")
    return rules
