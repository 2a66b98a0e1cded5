"""EAAI Java players (``ginrummy.GinRummyPlayer``) as ginsim strategies.

The spec ``java:CLASSPATH:ClassName`` (optionally ``:timeout=S``) names a player class on
a classpath that also holds the framework's ``ginrummy`` package. ``JavaPlayer`` turns
ginsim's decisions into the framework's calls, in the framework's order:

- a hand starts with ``startGame(seat, non-dealer, ten cards)``; ``reportScores`` of the
  game so far comes first from the second hand of a game on;
- ``take_upcard`` is ``willDrawFaceUpCard``; a declined first-turn offer is not reported,
  every draw is (``reportDraw``, the opponent's stock card as null);
- ``discard`` is ``getDiscard``, then ``reportDiscard`` and ``getFinalMelds``: melds there
  mean a knock, shown through ``choose_melds`` (ginsim checks them);
- the defender is told the knocker's melds, asked ``getFinalMelds`` (checked), and told
  the lay-offs ginsim makes for it (R17: the best ones) and the final hands it may see.

Only what the seat's view holds crosses the pipe. Cards are translated between ginsim's
suit order (C D H S) and the framework's (C H S D).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar

from ginsim.engine.cards import CARD_NAMES, Card, Mask
from ginsim.engine.layoff import best_layoff
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import Event, PlayerView
from ginsim.outside.jvm import JavaError, jvm_for, toolchain, unescape

_TO_EAAI_SUIT = (0, 3, 1, 2)  # ginsim C D H S -> the framework's C H S D
TO_EAAI: tuple[int, ...] = tuple(_TO_EAAI_SUIT[c // 13] * 13 + c % 13 for c in range(52))
"""ginsim card -> framework card id."""
FROM_EAAI: tuple[int, ...] = tuple(sorted(range(52), key=lambda c: TO_EAAI[c]))
"""framework card id -> ginsim card."""

MAX_REASON = 1500


class JavaPlayerError(Exception):
    """A Java player failed a call: it threw, answered wrongly, hung or its JVM died."""


def eaai_cards(mask: Mask) -> str:
    """A card mask as the protocol's list of framework ids ('-' for none)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(str(TO_EAAI[low.bit_length() - 1]))
        mask ^= low
    return ",".join(out) or "-"


def eaai_melds(melds: tuple[Mask, ...] | list[Mask]) -> str:
    return "/".join(eaai_cards(m) for m in melds) or "-"


def parse_melds(text: str) -> list[Mask] | None:
    """The protocol's meld list as ginsim masks (None for null); JavaPlayerError when a
    meld repeats a card or the list repeats a meld's card."""
    if text == "n":
        return None
    if text == "-":
        return []
    out = []
    for part in text.split("/"):
        ids = [int(x) for x in part.split(",")]
        if any(not 0 <= i < 52 for i in ids):
            raise JavaPlayerError(f"getFinalMelds returned a card id out of range in {part}")
        mask = 0
        for i in ids:
            mask |= 1 << FROM_EAAI[i]
        if mask.bit_count() != len(ids):
            raise JavaPlayerError(f"getFinalMelds returned a meld with a card twice: {_names(mask)}")
        out.append(mask)
    return out


def _names(mask: Mask) -> str:
    return " ".join(CARD_NAMES[c] for c in range(52) if mask >> c & 1)


class JavaPlayer(Strategy):
    """Base of the classes built for each ``java:`` spec (see ``java_class``)."""

    name = "java"
    description = "an EAAI Java player (ginrummy.GinRummyPlayer) run in a JVM"
    classpath: ClassVar[str] = ""
    class_name: ClassVar[str] = ""
    notes: ClassVar[tuple[str, ...]] = ()
    reseeded: ClassVar[int] = 0

    def __init__(self, timeout: float = 10.0) -> None:
        if not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {timeout}")
        self.timeout = timeout
        self._jvm: Any = None
        self._id = -1
        self._view: PlayerView | None = None
        self._seen = 0
        self._answer: tuple[str, str] | None = None  # discard and melds sent with a take
        self._skip_take = False
        self._melds: list[Mask] | None = None
        self._used = 0.0

    # -- reproducibility, for the manifest ---------------------------------------------
    @classmethod
    def outside_info(cls) -> dict[str, Any]:
        return {
            "kind": "java",
            "class": cls.class_name,
            "classpath": cls.classpath,
            "java": toolchain().version,
            "random_fields_reseeded": cls.reseeded,
            "notes": list(cls.notes),
            "reproducible": not cls.notes,
        }

    # -- the decisions -----------------------------------------------------------------
    def take_upcard(self, view: PlayerView) -> bool:
        self._sync(view)
        up = view.upcard
        if up is None:
            return False
        reply = self._ask(f"U {self._id} {TO_EAAI[up]}", view, "willDrawFaceUpCard")
        if reply == "0":
            return False
        _, card, melds = reply.split(" ")
        self._answer = (card, melds)
        self._skip_take = True  # the host already reported the draw to the player
        return True

    def discard(self, view: PlayerView) -> Card:
        self._sync(view)
        if self._answer is None:
            card, melds = self._ask(f"D {self._id}", view, "getDiscard").split(" ")
        else:
            card, melds = self._answer
            self._answer = None
        eaai = int(card)
        if eaai < 0:
            raise JavaPlayerError(f"{self.class_name}.getDiscard returned null")
        c = FROM_EAAI[eaai]
        self._melds = parse_melds(melds)
        if self._melds is not None and view.hand >> c & 1:
            dw = view.deadwood_after(c)
            if dw > view.rules.knock_limit:
                raise JavaPlayerError(
                    f"{self.class_name}.getFinalMelds knocked after discarding {CARD_NAMES[c]} with deadwood {dw}, "
                    f"over the knock limit {view.rules.knock_limit}"
                )
        return c

    def knock(self, view: PlayerView) -> bool:
        return self._melds is not None

    def choose_melds(self, view: PlayerView) -> list[Mask] | None:
        melds = self._melds or []
        self._jvm.queue(f"m {self._id} {view.seat} {eaai_melds(melds)}")  # the knocker hears its own melds
        return list(melds)

    def choose_layoffs(self, view: PlayerView) -> Mask | None:
        self._sync(view)
        me, knocker = view.seat, 1 - view.seat
        jvm = self._jvm
        jvm.queue(f"m {self._id} {knocker} {eaai_melds(view.knocker_melds)}")
        melds = parse_melds(self._ask(f"M {self._id}", view, "getFinalMelds"))
        if melds is None:
            raise JavaPlayerError(f"{self.class_name}.getFinalMelds returned null after the opponent knocked")
        used = 0
        for m in melds:
            if m & ~view.hand or m & used or not view._tables.is_meld(m):
                raise JavaPlayerError(
                    f"{self.class_name}.getFinalMelds showed {_names(m)}, not a meld of its own cards"
                )
            used |= m
        jvm.queue(f"m {self._id} {me} {eaai_melds(melds)}")
        laid = best_layoff(view.hand, view.knocker_melds, view._tables)[1]
        self._report_layoffs(view, laid)
        return laid

    def _report_layoffs(self, view: PlayerView, laid: Mask) -> None:
        """reportLayoff for each card ginsim lays off, on the meld it extends (in order, so
        a chain of run cards goes on one by one)."""
        melds = list(view.knocker_melds)
        left = laid
        while left:
            placed = False
            q = left
            while q:
                low = q & -q
                q ^= low
                for i, m in enumerate(melds):
                    if view._tables.is_meld(m | low):
                        c = low.bit_length() - 1
                        self._jvm.queue(f"l {self._id} {view.seat} {TO_EAAI[c]} {eaai_cards(m)}")
                        melds[i] = m | low
                        left ^= low
                        placed = True
                        break
            if not placed:
                break

    # -- keeping the Java player up to date ----------------------------------------------
    def _sync(self, view: PlayerView) -> None:
        if view is not self._view:
            self._new_hand(view)
        history = view.history
        if self._seen < len(history):
            for ev in history[self._seen :]:
                self._report(view.seat, ev)
            self._seen = len(history)

    def _report(self, me: int, ev: Event) -> None:
        seat, action, card = ev
        if action == "take" or action == "draw":
            if seat == me and action == "take" and self._skip_take:
                self._skip_take = False
                return
            c = -1 if card is None else TO_EAAI[card]
            self._jvm.queue(f"d {self._id} {seat} {c}")
        elif action == "discard" and seat != me:
            self._jvm.queue(f"x {self._id} {seat} {TO_EAAI[card]}")  # type: ignore[index]

    def _new_hand(self, view: PlayerView) -> None:
        jvm = self._jvm
        if jvm is None or not jvm.alive:
            try:
                jvm = self._jvm = jvm_for(self.classpath, view.seat)
            except JavaError as e:
                raise JavaPlayerError(str(e)) from None
            self._id = jvm.new_id()
            jvm.queue(f"N {self._id} {self.class_name}")
        else:
            self._close_hand()
            own, opp = view.scores
            scores = (own, opp) if view.seat == 0 else (opp, own)
            jvm.queue(f"s {self._id} {scores[0]} {scores[1]}")
        self._view = view
        self._seen = 0
        self._answer = None
        self._skip_take = False
        self._melds = None
        self._used = 0.0
        first = 1 - view.dealer
        jvm.queue(f"S {self._id} {view._seed} {view.seat} {first} {eaai_cards(view.hand)}")

    def _close_hand(self) -> None:
        """The end of the last hand as this seat saw it: the events it has not heard yet
        and the final hands it may know (its own; the knocker's, shown at a knock)."""
        view = self._view
        if view is None or self._jvm is None or not self._jvm.alive:
            return
        for ev in view.history[self._seen :]:
            self._report(view.seat, ev)
        self._seen = len(view.history)
        hands = {view.seat: view.hand}
        if view.knocker_melds:
            shown = 0
            for m in view.knocker_melds:
                shown |= m
            hands[1 - view.seat] = shown | view.knocker_deadwood_cards
        for seat in sorted(hands):
            self._jvm.queue(f"h {self._id} {seat} {eaai_cards(hands[seat])}")

    def _ask(self, line: str, view: PlayerView, what: str) -> str:
        import time

        limit = self.timeout
        clock = view.rules.time_per_hand
        if clock is not None:  # R25: the engine charges the time; this stops a call that overran it
            limit = min(limit, max(clock - self._used, 0.0) + 0.5)
        t0 = time.perf_counter()
        try:
            reply = self._jvm.ask(line, limit, f"{self.class_name}.{what}")
        except JavaError as e:
            raise JavaPlayerError(f"{e}") from None
        self._used += time.perf_counter() - t0
        if reply.startswith("! "):
            text = unescape(reply[2:])
            if len(text) > MAX_REASON:
                text = text[:MAX_REASON] + " ..."
            raise JavaPlayerError(f"{self.class_name} threw during {what}: {text}")
        return reply

    def __del__(self) -> None:
        try:
            jvm = self._jvm
            if jvm is not None and jvm.alive:
                self._close_hand()
                jvm.queue(f"F {self._id}")
        except Exception:  # noqa: BLE001 - never fail while being collected
            pass


def split_target(target: str) -> tuple[str, str]:
    """``java:CLASSPATH:ClassName`` -> (classpath, class name)."""
    body = target[len("java:") :]
    classpath, sep, name = body.rpartition(":")
    if not sep or not classpath or not name:
        raise JavaError("expected java:CLASSPATH:ClassName")
    return classpath, name


@lru_cache(maxsize=64)
def java_class(target: str) -> type[JavaPlayer]:
    """The strategy class for ``java:CLASSPATH:ClassName``: the class is loaded and probed
    in a JVM once per process. JavaError says what is wrong (no JDK, a classpath entry or
    the class missing, no framework on the classpath, a class that is not a player)."""
    classpath, name = split_target(target)
    jvm = jvm_for(classpath, 0)
    reply = jvm.ask(f"P {name}", 60.0, f"loading {name}")
    if reply.startswith("! "):
        text = unescape(reply[2:])
        first = text.splitlines()[0] if text else "failed"
        if "ClassNotFoundException" in first or "NoClassDefFoundError" in first:
            raise JavaError(f"class {name} not found on the classpath {classpath!r} ({first})")
        raise JavaError(f"cannot load {name}: {first}")
    fields = reply[3:].split("\t")
    reseeded = int(fields[0].partition("=")[2] or 0)
    notes = tuple(unescape(n) for n in fields[1:] if n)
    safe = "".join(ch if ch.isalnum() else "_" for ch in name)
    return type(
        f"Java_{safe}",
        (JavaPlayer,),
        {
            "name": target,
            "description": f"Java player {name}",
            "classpath": classpath,
            "class_name": name,
            "notes": notes,
            "reseeded": reseeded,
            "__module__": __name__,
        },
    )
