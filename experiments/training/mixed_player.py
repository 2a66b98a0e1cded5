"""``learned`` with one kind of decision handed to ``patient`` (a diagnostic file strategy).

Where does a stronger teacher's strength lie: in its discards, its upcard decisions or its
knocks? ``Mixed`` answers each kind of question with either ``learned`` (its model) or
``patient`` in the setting ``teacher`` (parameters as ``patient:PARAMS`` names them; by
default the stronger setting T1 of the notes, whose commas a spec could not carry), as
``discard``, ``take`` and ``knock`` say (``"teacher"`` or ``"student"``). The one that does not
answer a take or a discard still reads its view (``learned`` its context, ``patient`` its
evidence of a gin hunter), so each keeps its own evidence of the opponent's kind; the
teacher's knock, when the student discarded, plays out knocking and not with the student's
discard. Measured in the notes (the ninth attempt): which of its decisions carries the
teacher's gain against ``simple``.

    ginsim match 'experiments/training/mixed_player.py:Mixed:discard=teacher' simple --games 600
"""

from __future__ import annotations

from ginsim.strategies.learned import Learned
from ginsim.strategies.patient import Patient

from ginsim.cards import Card
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView

STRONG = "samples=256,close=8,candidates=8,take_close=4"
"""``patient``'s stronger setting (T1 of the notes)."""
KINDS = ("teacher", "student")


class Mixed(Strategy):
    """Each kind of decision answered by ``patient`` (``teacher``) or ``learned`` (``student``)."""

    name = "mixed"

    def __init__(
        self, discard: str = "student", take: str = "student", knock: str = "student", teacher: str = STRONG
    ) -> None:
        for what, who in (("discard", discard), ("take", take), ("knock", knock)):
            if who not in KINDS:
                raise ValueError(f"{what} must be one of {', '.join(KINDS)}, not {who!r}")
        self.student = Learned()
        made = parse_spec(f"patient:{teacher}").build()
        assert isinstance(made, Patient)
        self.teacher = made
        self.who = {"discard": discard, "take": take, "knock": knock}

    def _pair(self, kind: str) -> tuple[Strategy, Strategy]:
        """(the one who answers, the other)."""
        if self.who[kind] == "teacher":
            return self.teacher, self.student
        return self.student, self.teacher

    def _reads(self, other: Strategy, view: PlayerView) -> None:
        """The one that does not answer still reads the view: its evidence of the opponent."""
        if other is self.student:
            self.student.context(view)
        else:
            self.teacher.hunter_chance(view)

    def take_upcard(self, view: PlayerView) -> bool:
        answer, other = self._pair("take")
        self._reads(other, view)
        return answer.take_upcard(view)

    def discard(self, view: PlayerView) -> Card:
        answer, other = self._pair("discard")
        self._reads(other, view)
        return answer.discard(view)

    def knock(self, view: PlayerView) -> bool:
        if self.who["knock"] == "student":
            return self.student.knock(view)
        if self.who["discard"] == "teacher":  # the plan of its own discard search holds the answer
            return self.teacher.knock(view)
        # the student chose the discard: the teacher plays out knocking with it and not
        card = view.discard_choice
        options = [(card, True), (card, False)]
        teacher = self.teacher
        return options[teacher.choose(view, options, teacher.evaluate(view, options))][1]
