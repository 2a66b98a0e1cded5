"""The rulebook's arithmetic, written once: melds, discards, lay-offs, the score, the
built-in policies and the fast turn loop, over ints and flat tables.

Every rule the engine computes lives in this package's modules, as plain functions of
ints (cards, 52-bit masks, 13-bit suit patterns) and flat integer tables
(``MeldTables``' arrays, built once in ``ginsim.engine.melds``). The general engine
(``hand``), the fast path (``fastplay``), the play-outs (``playout``), the environments'
tables and the terminal's score lines call these functions; nothing else holds a copy of
a rule. Each module has one purpose; callers import from the module that owns a name:

- ``bits``: card masks (counting, the lowest card, a suit's and a rank's bits);
- ``splitmix``: splitmix64 on 32-bit halves, and what is drawn from it (floats, bounded
  ints, a card of a mask, a shuffled deck, a deal's seeds);
- ``meldsearch``: the meld tables' layout, a hand's least deadwood and melds (R04-R07);
- ``discard``: the best discard of eleven cards (R11);
- ``layoffs``: the defender's lay-offs on the knocker's melds (R17);
- ``facts``: what the kernel reads of the rules (``RuleFacts``);
- ``scoring``: the end of a hand, its score and a forfeit's (R15-R22, R25, R26, R28, R30);
- ``policies``: the built-in parametric policies' decisions;
- ``loop``: the fast turn loop, a hand or a batch of hands of two built-in policies;
- ``table``, ``steps``: a learner's table stepped decision by decision, and batches of
  them with what each learner sees (the vectorised environment).

One source, two compilers:

- mypyc compiles every module here with the other hot modules (``_native.HOT``), in one
  group, so calls between them are native; tables are tuples and buffers lists, and every
  value is a short int (below 2**62).
- numba compiles the same functions from these files' sources when it is installed
  (``fastjit`` loads each module's source a second time, jits each function and points
  each module's imports of its siblings' functions at their jitted forms); tables and
  buffers are then int64 arrays.

So the code keeps to what both compile alike: ints, floats, bools, tuples of them, lists
of ints, arrays or tuples indexed by int, and no method of ``int`` (no ``bit_count``, no
``bit_length``): ``bits.count`` and ``bits.low_index`` do those. A module imports only
``typing`` and names from its sibling modules (``from ginsim.engine.kernel.x import f``).
Every intermediate value stays below 2**62, so no product ever needs more than 64 bits:
splitmix64 runs on 32-bit halves, its products taken in 16-bit pieces.
"""
