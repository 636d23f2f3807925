"""Korean reader-facing text for what the library reports in English.

The library's messages stay English (they are for programmers and tests);
the book shows readers a Korean sentence built from the same structured
facts -- a :class:`robonum.Solution`'s ``reason``, ``t`` and ``h``, or an
input error -- so a frame's message never contradicts what was computed.
"""

from __future__ import annotations

from ..solution import Solution
from .numbers import fmt, fmt_h

METHOD_NAMES = {
    "euler": "전진 오일러",
    "heun": "호인",
    "midpoint": "명시적 중점",
    "rk3": "쿠타 RK3",
    "rk4": "RK4",
    "dopri5": "도르만-프린스 5(4)",
    "backward_euler": "후진 오일러",
    "trapezoid": "사다리꼴",
    "implicit_midpoint": "암시적 중점",
    "gauss2": "가우스 2단계",
    "gauss3": "가우스 3단계",
    "gauss4": "가우스 4단계",
    "radau2": "라다우 IIA 2단계",
    "radau3": "라다우 IIA 3단계",
    "sdirk2": "SDIRK2",
    "sdirk3": "SDIRK3",
    "symplectic_euler": "심플렉틱 오일러",
    "verlet": "스토머-베를레",
    "yoshida4": "요시다 4차",
    **{f"bdf{k}": f"BDF{k}" for k in range(1, 7)},
}


def method_name(key: str) -> str:
    """The Korean name the book uses for a catalogue key (the key itself if it has none)."""
    if not isinstance(key, str):
        raise TypeError(f"key must be a catalogue key (str), got {type(key).__name__}")
    return METHOD_NAMES.get(key.lower(), key)


REASONS_KO = {
    "success": "끝 시각까지 적분했습니다",
    "diverged": "발산",
    "nan_in_f": "모델 함수가 NaN/inf를 냈습니다",
    "newton_failed": "암시적 걸음의 방정식을 풀지 못했습니다",
    "step_underflow": "간격이 반올림 수준까지 줄었습니다",
    "max_steps": "걸음 수 한도에 도달했습니다",
    "negative": "음수가 될 수 없는 성분이 음수가 되었습니다: 해를 잃었습니다",
    "event": "종료 사건이 일어나 멈췄습니다",
}


def run_message(sol: Solution, *, success: str = "") -> str:
    """Korean sentences, each ending in a full stop, about how a run ended.

    ``success`` is returned as given when the run reached ``t1`` (often ``""``:
    nothing to say).  Built from ``sol.reason``, the last time reached and the
    step actually used (``sol.h``), never from what a slider asked for.  Join
    it with other notes by :func:`sentences`.
    """
    if not isinstance(sol, Solution):
        raise TypeError(f"sol must be a robonum.Solution, got {type(sol).__name__}")
    if sol.reason == "success":
        return success
    t = fmt(sol.t_final, 3)
    step = f"간격 h = {fmt_h(sol.h)}" if sol.h is not None else "적응 간격"
    if sol.reason == "diverged":
        text = (
            f"발산: t = {t}에서 해가 한계를 넘었습니다. {step}에서 이 방법이 불안정하다는 뜻입니다"
            if sol.h is not None
            else f"발산: t = {t}에서 해가 한계를 넘었습니다"
        )
    elif sol.reason == "nan_in_f":
        text = f"t = {t} 근처에서 모델 함수 f가 NaN/inf를 냈습니다(간격 때문이 아니라 모델의 문제입니다)"
    elif sol.reason == "newton_failed":
        text = f"t = {t}에서 시작하는 암시적 걸음의 방정식을 뉴턴 반복으로 풀지 못했습니다({step})"
    elif sol.reason == "step_underflow":
        text = f"t = {t}에서 간격이 반올림 수준까지 줄어 더 나아갈 수 없습니다"
    elif sol.reason == "max_steps":
        text = f"t = {t}에서 걸음 수 한도에 도달했습니다"
    elif sol.reason == "negative":
        text = f"t = {t}에서 음수가 될 수 없는 성분이 음수가 되었습니다. 해를 잃었습니다"
    else:
        text = REASONS_KO.get(sol.reason, sol.reason)
    return sentences(text)


def sentences(*parts: str) -> str:
    """The non-empty ``parts`` as one paragraph: each ends in a full stop, joined by a space.

    ``sentences("|R| > 1: z가 영역 밖에 있습니다", "", run_message(sol))`` reads as
    prose, where ``"; ".join`` would leave a reader a list of fragments.
    """
    out = []
    for part in parts:
        if not isinstance(part, str):
            raise TypeError(f"parts must be str, got {type(part).__name__}")
        part = part.strip()
        if part:
            out.append(part if part.endswith((".", "?", "!")) else part + ".")
    return " ".join(out)


def input_message(exc: Exception) -> str:
    """A Korean lead-in for an input error, keeping the library's English detail for precision."""
    if not isinstance(exc, Exception):
        raise TypeError(f"exc must be an exception, got {type(exc).__name__}")
    return f"이 값으로는 계산할 수 없습니다 — {exc}"
