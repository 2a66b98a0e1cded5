"""A strategy's code is part of a run's identity (ginsim.run.codedigest): resuming or
rerunning a run after the code changed is refused in one line, and replay says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ginsim.engine.spec import parse_spec
from ginsim.run.codedigest import ginsim_digest, spec_digest
from ginsim.runfolder.chunks import chunk_files

BOT = """
from ginsim import Strategy
{imports}


class B(Strategy):
    def take_upcard(self, view):
        return False

    def discard(self, view):
        return view.best_discards()[0]

    def knock(self, view):
        return {knock}
"""


def _bot(folder: Path, knock: str = "True", imports: str = "") -> str:
    (folder / "b3.py").write_text(BOT.format(knock=knock, imports=imports))
    return f"{folder / 'b3.py'}:B"


def _args(spec: str, out: Path) -> list[str]:
    return [
        "match",
        spec,
        "simple",
        "--hands",
        "40",
        "--chunk",
        "5",
        "--jobs",
        "1",
        "-q",
        "--no-plots",
        "--out",
        str(out),
    ]


def test_a_resumed_run_with_changed_code_is_refused_and_loses_nothing(tmp_path, run_cli):
    spec = _bot(tmp_path)
    out = tmp_path / "run"
    assert run_cli(*_args(spec, out)).code == 0
    files = chunk_files(out)
    (out / "hands" / files[-1].name).unlink()  # as if interrupted before the last chunk
    kept = {f.name: f.read_bytes() for f in chunk_files(out)}
    _bot(tmp_path, knock="view.deadwood() == 0")  # the bug fixed
    r = run_cli(*_args(spec, out))
    assert r.code == 2
    line = r.err.strip()
    assert "\n" not in line and "Traceback" not in r.err
    assert "strategy 'B'" in line and "changed: b3.py)" in line and "--out" in line
    assert {f.name: f.read_bytes() for f in chunk_files(out)} == kept  # nothing already written is lost


def test_a_finished_run_rerun_after_a_fix_does_not_reprint_old_figures(tmp_path, run_cli):
    spec = _bot(tmp_path)
    out = tmp_path / "run"
    assert run_cli(*_args(spec, out)).code == 0
    _bot(tmp_path, knock="view.deadwood() == 0")
    r = run_cli(*_args(spec, out))
    assert r.code == 2 and "changed since the run was played" in r.err


def test_unchanged_code_resumes(tmp_path, run_cli):
    spec = _bot(tmp_path)
    out = tmp_path / "run"
    assert run_cli(*_args(spec, out)).code == 0
    (out / "hands" / chunk_files(out)[0].name).unlink()
    assert run_cli(*_args(spec, out)).code == 0
    m = json.loads((out / "manifest.json").read_text())
    code = m["strategies"][0]["code"]
    assert m["identity"]["code"][m["strategies"][0]["label"]] == code["digest"]
    assert code["kind"] == "python" and list(code["files"]) == ["b3.py"]


def test_a_local_module_the_bot_imports_is_part_of_its_code(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the bot imports its neighbours by package path, from where the run starts
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "botlib").mkdir()
    (tmp_path / "botlib" / "__init__.py").write_text("")
    (tmp_path / "botlib" / "tables.py").write_text("LIMIT = 0\n")
    spec = _bot(tmp_path, imports="from botlib.tables import LIMIT  # noqa: F401")
    out = tmp_path / "run"
    assert run_cli(*_args(spec, out)).code == 0
    m = json.loads((out / "manifest.json").read_text())
    assert set(m["strategies"][0]["code"]["files"]) == {"b3.py", "botlib", "botlib.tables"}
    (tmp_path / "botlib" / "tables.py").write_text("LIMIT = 10\n")
    r = run_cli(*_args(spec, out))
    assert r.code == 2 and "changed: botlib.tables)" in r.err


def test_replay_says_the_code_changed_before_it_tries(tmp_path, run_cli):
    spec = _bot(tmp_path)
    out = tmp_path / "run"
    assert run_cli(*_args(spec, out)).code == 0
    assert run_cli("replay", str(out), "--hand", "3").code == 0
    _bot(tmp_path, knock="view.deadwood() == 0")
    r = run_cli("replay", str(out), "--hand", "3")
    assert r.code == 2 and "strategy 'B'" in r.err and "changed since the run was played" in r.err
    assert "does not replay as logged" not in r.err


def test_builtins_carry_ginsims_source_digest_and_library_modules_are_not_followed(tmp_path):
    d = spec_digest(parse_spec("threshold:knock_at=4"))
    assert d == ginsim_digest() and d.kind == "builtin"
    assert {"engine/kernel/meldsearch.py", "engine/kernel/loop.py"} <= set(d.files)  # the kernel's modules
    assert any(name.startswith("strategies/") for name in d.files)
    (tmp_path / "np_bot.py").write_text(
        BOT.format(knock="True", imports="import numpy as np  # noqa: F401\nimport json  # noqa: F401")
    )
    bot = spec_digest(parse_spec(f"{tmp_path / 'np_bot.py'}:B"), cwd=tmp_path)
    assert list(bot.files) == ["np_bot.py"]  # numpy, json and ginsim are not the bot's code


def test_the_digest_reads_and_never_runs_the_bot(tmp_path):
    (tmp_path / "loud.py").write_text("raise SystemExit('imported!')\n" + BOT.format(knock="True", imports=""))
    from ginsim.engine.spec import StrategySpec

    d = spec_digest(StrategySpec(f"{tmp_path / 'loud.py'}:B", f"{tmp_path / 'loud.py'}:B"), cwd=tmp_path)
    assert list(d.files) == ["loud.py"] and d.digest.startswith("sha256:")


@pytest.mark.parametrize("source", ["(" * 5000 + ")" * 5000, "def f(:\n", "\x00\x01 not python"])
def test_a_source_that_cannot_be_parsed_is_still_hashed(tmp_path, source):
    (tmp_path / "odd.py").write_text(source)
    from ginsim.engine.spec import StrategySpec

    d = spec_digest(StrategySpec(f"{tmp_path / 'odd.py'}:B", f"{tmp_path / 'odd.py'}:B"), cwd=tmp_path)
    assert list(d.files) == ["odd.py"]


def test_data_beside_the_bot_and_a_policy_behind_a_prefix_are_its_code(tmp_path):
    import numpy as np

    from ginsim.engine.spec import StrategySpec

    (tmp_path / "pol.py").write_text("import numpy as np\n\ndef act(observation, mask):\n    return 0\n")
    np.save(tmp_path / "weights.npy", np.zeros(3))
    spec = StrategySpec(f"rlpolicy:{tmp_path / 'pol.py'}:act", f"rlpolicy:{tmp_path / 'pol.py'}:act")
    before = spec_digest(spec, cwd=tmp_path)
    assert set(before.files) == {"pol.py", "data:weights.npy"}
    np.save(tmp_path / "weights.npy", np.ones(3))  # retrained
    after = spec_digest(spec, cwd=tmp_path)
    assert after.digest != before.digest and after.files["pol.py"] == before.files["pol.py"]


def test_a_model_file_a_parameter_names_is_part_of_the_code(tmp_path, run_cli):
    """``learned:model=PATH`` retrained in place between two sessions of a run: refused,
    as a changed source is."""
    import shutil

    from ginsim.strategies import learned

    model = tmp_path / "mine.npz"
    shutil.copy(Path(learned.__file__).with_name("learned.npz"), model)
    spec = f"learned:model={model}"
    before = spec_digest(parse_spec(spec), cwd=tmp_path)
    assert "param:model" in before.files
    out = tmp_path / "run"
    assert run_cli(*_args(spec, out)).code == 0
    (out / "hands" / chunk_files(out)[-1].name).unlink()
    with model.open("ab") as f:
        f.write(b"\0")  # retrained, say
    r = run_cli(*_args(spec, out))
    assert r.code == 2 and "changed: param:model" in r.err, r.err


def test_the_built_ins_digest_holds_the_shipped_model() -> None:
    assert "strategies/data:learned.npz" in ginsim_digest().files
