"""The rules of one Gin Rummy variant: a frozen dataclass validated when it is built.

Every number a player of another house rule would change is a field here (RULES.md,
"Variants"). Rules load from a TOML file with a ``[rules]`` table and from ``key=value``
overrides; an unknown key or a bad value raises RulesError naming both.
"""

from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from ginsim.errors import RulesError

NEXT_DEALER_CHOICES = ("alternate", "winner", "loser")


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

    def __post_init__(self) -> None:
        _check_int("knock_limit", self.knock_limit, 0, 10)
        _check_int("gin_bonus", self.gin_bonus, 0)
        _check_int("undercut_bonus", self.undercut_bonus, 0)
        if self.big_gin_bonus is not None:
            _check_int("big_gin_bonus", self.big_gin_bonus, 0)
        if not isinstance(self.allow_discard_of_drawn_upcard, bool):
            raise RulesError(
                f"rules: allow_discard_of_drawn_upcard must be true or false, "
                f"not {self.allow_discard_of_drawn_upcard!r}"
            )
        if self.max_run_length is not None:
            _check_int("max_run_length", self.max_run_length, 3, 13)
        _check_int("target_score", self.target_score, 1)
        if self.next_dealer not in NEXT_DEALER_CHOICES:
            raise RulesError(
                f"rules: next_dealer must be one of {', '.join(NEXT_DEALER_CHOICES)}, not {self.next_dealer!r}"
            )
        if self.time_per_hand is not None:
            t = self.time_per_hand
            if isinstance(t, bool) or not isinstance(t, int | float) or not t > 0 or t != t:
                raise RulesError(f"rules: time_per_hand must be a number of seconds > 0, not {t!r}")
            object.__setattr__(self, "time_per_hand", float(t))

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

    def differences(self) -> dict[str, Any]:
        """The fields that differ from the default rules."""
        default = Rules()
        return {
            f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(default, f.name)
        }

    def describe(self) -> str:
        """``default rules`` or the fields that differ, as ``key=value`` text."""
        diff = self.differences()
        if not diff:
            return "default rules"
        return ", ".join(f"{k}={_format_value(v)}" for k, v in diff.items())

    def with_values(self, values: dict[str, Any], source: str = "rules") -> Rules:
        """A copy with some fields changed; unknown keys raise RulesError."""
        known = {f.name for f in fields(self)}
        for key in values:
            if key not in known:
                raise RulesError(f"{source}: unknown rule {key!r} (known: {', '.join(sorted(known))})")
        try:
            return replace(self, **values)
        except RulesError as e:
            raise RulesError(f"{source}: {str(e).removeprefix('rules: ')}") from None


def _format_value(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _check_int(name: str, value: Any, lo: int, hi: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"rules: {name} must be a whole number, not {value!r}")
    if value < lo or (hi is not None and value > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise RulesError(f"rules: {name} must be {bounds}, not {value}")


_FIELD_TYPES = {f.name: f.type for f in fields(Rules)}
_NAMES = tuple(_FIELD_TYPES)


def parse_rule_value(key: str, text: str) -> Any:
    """Convert the text of ``--rule key=value`` to the field's type."""
    if key not in _FIELD_TYPES:
        known = ", ".join(sorted(_FIELD_TYPES))
        raise RulesError(f"--rule: unknown rule {key!r} (known: {known})")
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
        k: (None if isinstance(v, str) and v.lower() == "none" and k != "next_dealer" else v) for k, v in table.items()
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


def build_rules(rules_file: str | Path | None = None, rule_options: list[str] | tuple[str, ...] = ()) -> Rules:
    """Rules from an optional file, then ``--rule`` overrides on top."""
    rules = load_rules_file(rules_file) if rules_file else Rules()
    if rule_options:
        rules = rules.with_values(parse_rule_options(rule_options), "--rule")
    return rules
