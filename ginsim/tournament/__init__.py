"""Tournament mode (``--isolate``): strategies nobody trusts, each in a confined process.

- ``referee``: the engine's stand-ins for the bots, the pool of their processes.
- ``tables``: a chunk's deals played at once, each bot process getting every pending
  decision of its tables in one request.
- ``bot_process``: one bot's process as the referee talks to it: every request and
  answer under its deadline, any failure a forfeit with one line.
- ``processes``: starting and ending the bots' processes (a user of its own each, a
  private temporary folder, a minimal environment) and reading their output with a bound.
- ``confine``: what a bot's process does to itself before any of the bot's code runs
  (namespaces, resource limits, no ptrace, no core dumps).
- ``bot_host``: the process a bot plays in (``python -m ginsim.tournament.bot_host``).
- ``spec_check`` and ``spec_host``: bots' specs checked in processes of their own
  (``python -m ginsim.tournament.spec_host``), so the referee imports no bot's code.

The layer, as the import contract of pyproject.toml checks (tests/test_layers.py): above
the engine and ``ginsim.outside`` (whose Java players a bot's process may host), beside
``ginsim.runfolder``, below ``ginsim.run``, whose workers play tournament chunks
through the referee. docs/security.md says what tournament mode guarantees.
"""
