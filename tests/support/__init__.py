"""Helpers the tests share, in one place (tests/ is on pytest's import path, so any test
imports them as ``support.NAME``): deals built card by card (``deals``), brute-force
rule references (``reference``), the strategy contract (``contract``), fast-path and
play-out comparisons (``fastpath``, ``playouts``), run folders and the CLI in a child
process (``runs``), and the browser (``web``)."""
