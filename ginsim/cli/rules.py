"""``ginsim rules``: the presets and every rule field with its default and meaning."""

from __future__ import annotations

from dataclasses import fields

import click

from ginsim.engine.presets import FIELD_HELP, PRESETS
from ginsim.engine.rules import Rules, _format_value, preset_rules


def rules_text(preset: str | None = None) -> str:
    """The presets (name, what they are, what they change, sources) and the fields; with
    ``preset``, that preset's value of every field beside the default."""
    default = Rules()
    lines = ["presets (--rules NAME, then --rule key=value to change fields):"]
    for name, p in PRESETS.items():
        changes = ", ".join(f"{k}={_format_value(v)}" for k, v in p.values.items()) or "no changes"
        lines.append(f"  {name:<8} {p.summary}")
        lines.append(f"  {'':<8} {changes}")
        lines.append(f"  {'':<8} source: {p.source}")
    chosen = preset_rules(preset) if preset else None
    head = "fields (default" + (f", {preset}" if preset else "") + "): meaning"
    lines += ["", head]
    width = max(len(f.name) for f in fields(Rules))
    for f in fields(Rules):
        value = _format_value(getattr(default, f.name))
        if chosen is not None:
            value += f", {_format_value(getattr(chosen, f.name))}"
        lines.append(f"  {f.name:<{width}}  [{value}]  {FIELD_HELP.get(f.name, '')}")
    return "\n".join(lines)


@click.command("rules")
@click.option("--list", "list_only", is_flag=True, help="Only the preset names, one a line.")
@click.argument("preset", required=False)
def rules_command(list_only: bool, preset: str | None) -> None:
    """The rule presets and every rule field, with its default and meaning (RULES.md).

    \b
    Examples:
      ginsim rules
      ginsim rules eaai     (the eaai value of each field beside the default)
      ginsim rules --list
    """
    if list_only:
        for name, p in PRESETS.items():
            click.echo(f"{name:<8} {p.summary}")
        return
    click.echo(rules_text(preset))


COMMANDS = [rules_command]
