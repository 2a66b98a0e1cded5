"""Strategies that attack ginsim: cheaters, saboteurs and crashers (test fixtures)."""
