"""Self-check exercises: one definition, checked in the static page and in Jupyter alike.

>>> ex = Exercise("rk4-limit", "RK4의 실수축 안정 구간 끝 $|x|$는?", answer=-x_end, rtol=1e-3,
...               hint="$R(x) = 1$이 되는 음의 실수 $x$를 찾습니다.", solution="...")
>>> ex                      # built page: input + 확인 + a few lines of inline JS; Jupyter: ipywidgets
>>> ex.check("2.785")       # CheckResult(correct=True, message='맞습니다! ...', status='correct')

The answer is computed on the page, never typed by hand; it is stored to 12
significant digits and to a millionth of the tolerance, so round-off between
machines does not change the page.  A reply ``x`` is right when
``|x - answer| <= max(atol, rtol * |answer|)`` (the same IEEE arithmetic in
Python and in the page's JS).  Replies are read by
:func:`~robonum.book.numbers.parse_number` (``.`` decimal point, no commas,
``2.5e-3`` and ``1/3`` accepted).  Hint and solution sit in closed ``<details>``.
Ids derive from ``key`` alone (no random ids, no timestamps): nbval-safe.
"""

from __future__ import annotations

import math
import numbers
import re
from typing import NamedTuple

from .. import _validate as check
from .exercise_views import in_kernel, live_widget, static_html
from .markup import plain_text
from .numbers import PARSE_MESSAGES, fmt, parse_number, pct, round_sig

__all__ = ["Exercise", "CheckResult", "MESSAGES", "parse_number"]

_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")
MESSAGES = {
    **PARSE_MESSAGES,
    "choose": "보기를 하나 고르세요.",
    "wrong": "아직 아닙니다. 힌트를 열어 보세요.",
    "sign": "아직 아닙니다. 크기는 맞는데 부호가 반대입니다.",
}
_MIN_RTOL = 1e-9  # the stored answer has 12 significant digits


class CheckResult(NamedTuple):
    correct: bool
    message: str
    status: str  # "correct", "wrong" or "invalid" (not judged: empty, unreadable, ...)


def _nonempty(name: str, value) -> str:
    if not check.text(name, value).strip():
        raise ValueError(f"{name} must not be empty")
    return value


class Exercise:
    """A numeric self-check; see :meth:`choice` for multiple choice.

    Parameters
    ----------
    key : str, unique on its page (letters, digits, ``-``, ``_``); the element id is ``rn-ex-<key>``.
    question, hint, solution : markup (``$...$`` math, ``**bold**``, ```code```, blank-line paragraphs).
    answer : the computed value (finite real; NaN, inf, complex and bool are refused).
    rtol, atol : the reply is right when ``|x - answer| <= max(atol, rtol * |answer|)``.
        Both 0 means an exact integer answer.  Otherwise the tolerance must be
        at least ``1e-9 * |answer|``; an answer of 0 needs ``atol > 0``.
    unit : shown after the input box and in the tolerance (plain text, e.g. ``"s"``).
    """

    kind = "number"

    def __init__(
        self,
        key: str,
        question: str,
        *,
        answer,
        rtol=1e-3,
        atol=0.0,
        unit: str = "",
        hint: str,
        solution: str,
    ):
        self._common(key, question, hint, solution)
        answer = check.real("answer", answer)
        self.rtol = check.positive("rtol", rtol, allow_zero=True, hi=1.0)
        self.atol = check.positive("atol", atol, allow_zero=True)
        self.unit = check.text("unit", unit).strip()
        a12 = round_sig(answer, 12)
        tol = max(self.atol, self.rtol * abs(a12))
        if tol == 0 and self.rtol > 0:
            raise ValueError(
                "answer is 0, where a relative tolerance (rtol) is 0 wide: give atol > 0"
            )
        if tol == 0 and not (a12 == int(a12) and abs(a12) < 1e12):
            raise ValueError(
                f"rtol and atol are both 0, which only suits an exact integer answer; "
                f"answer is {answer!r}: give rtol (e.g. 1e-3) or atol"
            )
        if 0 < tol < _MIN_RTOL * abs(a12):
            raise ValueError(
                f"tolerance {tol:.3g} is below {_MIN_RTOL:g} * |answer|: the page stores "
                f"the answer to 12 significant digits; use rtol >= {_MIN_RTOL:g}"
            )
        # Stored to 12 significant digits and to a millionth of the tolerance, so a
        # round-off-level answer (1e-17 here, -2e-17 there) is written the same everywhere.
        self.answer = a12 if tol == 0 else round(a12, 6 - math.floor(math.log10(tol))) + 0.0

    def _common(self, key, question, hint, solution):
        if not isinstance(key, str) or not _KEY.match(key):
            raise ValueError(
                f"key must be 1-64 letters, digits, '-' or '_' (starting with a letter "
                f"or digit), got {key!r}"
            )
        self.key, self.uid = key, f"rn-ex-{key}"
        self.question = _nonempty("question", question)
        self.hint = _nonempty("hint", hint)
        self.solution = _nonempty("solution", solution)

    @classmethod
    def choice(
        cls, key: str, question: str, options, *, answer, hint: str, solution: str
    ) -> "Exercise":
        """Multiple choice (radio buttons): ``answer`` is an option's index (from 0) or its text."""
        ex = cls.__new__(cls)
        ex._common(key, question, hint, solution)
        if isinstance(options, str):
            raise TypeError("options must be a list of strings, got a single string")
        ex.options = [_nonempty(f"options[{i}]", o) for i, o in enumerate(options)]
        if len(ex.options) < 2 or len(set(ex.options)) != len(ex.options):
            raise ValueError(f"options must be at least 2 distinct strings, got {ex.options!r}")
        if isinstance(answer, str):
            check.one_of("answer", answer, ex.options)
            answer = ex.options.index(answer)
        ex.answer = check.integer("answer", answer, 0, len(ex.options) - 1)
        ex.kind, ex.rtol, ex.atol, ex.unit = "choice", None, None, ""
        return ex

    # -- judging ---------------------------------------------------------------
    @property
    def tolerance(self) -> float | None:
        """The absolute tolerance actually applied (None for multiple choice)."""
        return None if self.kind == "choice" else max(self.atol, self.rtol * abs(self.answer))

    def _unit(self) -> str:
        return "" if not self.unit else self.unit if self.unit in ("°", "%") else " " + self.unit

    def tolerance_text(self) -> str:
        """What the reader is told about the tolerance (Korean)."""
        if self.kind == "choice":
            return ""
        if self.tolerance == 0:
            return "정확한 정수로 답하세요."
        if self.rtol * abs(self.answer) >= self.atol:
            return f"허용 오차: 상대 {pct(self.rtol)}"
        return f"허용 오차: ±{fmt(self.atol, 2)}{self._unit()}"

    def shown_digits(self) -> int:
        """Significant digits the "맞습니다!" message gives the answer: down to a hundredth of the band.

        More would show digits the exercise does not ask for -- and digits that
        can differ between machines when the answer passes through a
        tolerance-controlled algorithm.  Between 2 and 6.
        """
        tol = self.tolerance
        if not tol or self.answer == 0:
            return 6
        return min(
            6,
            max(
                2, math.floor(math.log10(abs(self.answer))) - math.floor(math.log10(tol / 100)) + 1
            ),
        )

    def _messages(self) -> dict:
        if self.kind == "choice":
            return {**MESSAGES, "correct": "맞습니다!"}
        # "약" whenever a band is granted (decided by the exercise, not by the digits, which
        # could be exact on one machine and not on another)
        about = "약 " if self.tolerance else ""
        shown = fmt(self.answer, self.shown_digits())
        return {
            **MESSAGES,
            "correct": f"맞습니다! 이 페이지에서 계산한 값은 {about}{shown}{self._unit()}입니다.",
        }

    def check(self, value) -> CheckResult:
        """Judge a reply: a string as typed in the page, a number, or (choice) an index or option text."""
        msg = self._messages()
        if self.kind == "choice":
            if isinstance(value, str) and value.strip() in self.options:
                value = self.options.index(value.strip())
            if not (
                isinstance(value, numbers.Integral)
                and not isinstance(value, bool)
                and 0 <= value < len(self.options)
            ):
                return CheckResult(False, msg["choose"], "invalid")
            ok = int(value) == self.answer
            return CheckResult(ok, msg["correct" if ok else "wrong"], "correct" if ok else "wrong")
        if value is None or isinstance(value, str):
            x = parse_number(value or "")
        elif isinstance(value, numbers.Real) and not isinstance(value, bool):
            try:
                x = float(value)
            except OverflowError:
                x = float("inf")
            x = MESSAGES["bad"] if x != x else MESSAGES["big"] if abs(x) == float("inf") else x
        else:
            x = MESSAGES["bad"]
        if isinstance(x, str):
            return CheckResult(False, x, "invalid")
        a, tol = self.answer, self.tolerance
        if abs(x - a) <= tol:
            return CheckResult(True, msg["correct"], "correct")
        return CheckResult(False, msg["sign" if a != 0 and abs(x + a) <= tol else "wrong"], "wrong")

    # -- views -----------------------------------------------------------------
    def to_html(self) -> str:
        """The static, kernel-free view (see the module docstring)."""
        return static_html(self)

    def to_text(self) -> str:
        lines = [f"확인 문제 [{self.key}] {plain_text(self.question)}"]
        if self.kind == "choice":
            lines += [f"  {i}) {plain_text(o)}" for i, o in enumerate(self.options)]
            lines.append("답은 .check(번호 또는 보기)로 확인합니다.")
        else:
            lines.append(f"{self.tolerance_text()} · 답은 .check(값)으로 확인합니다.")
        return "\n".join(lines)

    def widget(self):
        """The live view (ipywidgets): the same question, checks and hidden hint/solution."""
        return live_widget(self)

    def __repr__(self):
        return f"Exercise({self.key!r}, {self.kind})"

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.to_text(), "text/html": self.to_html()}
        if in_kernel():
            bundle.update(self.widget()._repr_mimebundle_())
            bundle["text/plain"] = self.to_text()
        return bundle
