"""An execution record of one run: the numerical settings, the counts, the outcome, the check.

There is no standard notation for a numerical method's settings; a test is judged by a
problem with a known solution and by a record that states the tolerances it ran with
(printed ch. 1.18.8).  In simulation-based verification of safety-related software the
integrator's settings belong to the evidence (1.18.9), because the step size and the
tolerances decide the error, and the error decides whether the simulation says anything.
So a record holds what another person needs to repeat the run and to judge it:

* **method** and **step control**: ``h`` for equal steps, ``rtol``/``atol`` for an adaptive
  run (taken as arguments: a :class:`~robonum.solution.Solution` does not carry them), the
  smallest and largest step of a run by rule -- without them the run cannot be repeated;
* **counts** ``nfev``, ``nfev_jac``, ``njev``, ``nlu``, ``n_newton``, ``nsteps``, ``nreject`` -- the work,
  the same on every machine up to a flipped step decision, unlike wall-clock time;
* **outcome** ``status``, ``reason``, ``message`` and the time reached -- a failed run is
  recorded as failed, never as a small error;
* **check** against an exact solution, where one exists: the error at the last time reached,
  the acceptance tolerance ``tol`` it is judged by, and the verdict ``passed``
  (``status`` a success and ``error <= tol``);
* **environment**: Python, NumPy, SciPy and robonum versions -- a fact of the machine,
  kept apart (``versions``) so that a comparison of records can leave it out.

Reference: IEEE Std 1012-2016 (verification and validation: a test result is recorded
with its inputs, criteria and environment); Hairer, Nørsett & Wanner, *Solving ODEs I*
(1993), sec. II.10 (numerical experiments reported with tolerances and counts).
"""

from __future__ import annotations

import math
import numbers
import platform
import sys
from dataclasses import asdict, dataclass, field

import numpy as np

from . import _validate as check
from .solution import Solution

__all__ = ["RunRecord", "run_record", "versions"]

MAX_SETTINGS = 32  # extra settings in one record: a record is read by a person
_COUNTS = ("nfev", "nfev_jac", "njev", "nlu", "n_newton", "nsteps", "nreject")


def versions() -> dict:
    """Python, NumPy, SciPy and robonum versions of this process (``"not installed"`` if absent)."""
    import importlib.metadata  # here: 20 ms that `import robonum` need not pay

    try:
        scipy_version = importlib.metadata.version("scipy")  # without importing SciPy
    except importlib.metadata.PackageNotFoundError:
        scipy_version = "not installed"
    package = sys.modules.get(__package__)
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy_version,
        "robonum": getattr(package, "__version__", "unknown"),
    }


@dataclass(frozen=True)
class RunRecord:
    """The record :func:`run_record` makes; ``as_dict()`` gives plain values (JSON-ready).

    ``step`` is ``"h"``, ``"rule"`` or ``"adaptive"``; ``h`` (equal steps), ``h_min``/``h_max``
    (by rule) and ``rtol``/``atol`` (adaptive) are None where they do not apply.  ``error``,
    ``tol`` and ``passed`` are None when no exact solution was given.
    """

    method: str
    step: str
    h: float | None
    h_min: float | None
    h_max: float | None
    rtol: float | list | None
    atol: float | list | None
    t_final: float
    status: int
    reason: str
    message: str
    counts: dict
    error: float | None
    tol: float | None
    passed: bool | None
    settings: dict = field(default_factory=dict)
    versions: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


def _tolerance(name: str, value):
    """A tolerance as recorded: a positive float, or a list of them (one per component)."""
    arr = check.real_array(name, value, min_size=1, max_size=100_000)
    if arr.ndim > 1 or not np.all(arr > 0):
        raise ValueError(f"{name} must be a positive number or a 1-D array of them")
    return float(arr) if arr.ndim == 0 else [float(v) for v in arr]


def _setting(key: str, value):
    if isinstance(value, (bool, np.bool_)) or value is None:
        return None if value is None else bool(value)
    if isinstance(value, str):
        return check.text(key, value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real) and math.isfinite(float(value)):
        return float(value)
    raise TypeError(
        f"setting {key} must be a string, a finite real number, a bool or None "
        f"(a record is text), got {type(value).__name__}"
    )


def _error(sol: Solution, exact) -> float:
    if callable(exact):
        try:
            ref = exact(sol.t_final)
        except Exception as exc:
            raise ValueError(f"exact(t) failed at t = {sol.t_final:g}: {exc}"[:300]) from exc
    else:
        ref = exact
    ref = check.real_array("exact", ref, ndim=1, max_size=100_000)
    if ref.shape != sol.y_final.shape:
        raise ValueError(
            f"exact must give the state at the last time, shape {sol.y_final.shape}, "
            f"got {ref.shape}"
        )
    return float(np.max(np.abs(sol.y_final - ref)))


def run_record(sol, *, exact=None, tol=None, rtol=None, atol=None, **settings) -> RunRecord:
    """Make the execution record of the run ``sol`` (a :class:`~robonum.solution.Solution`).

    ``exact``: the exact solution, a function ``exact(t)`` (as ``problem.exact``) or the exact
    state at the last time; the record then holds ``error = max_i |y_i(t_end) - exact_i|``.
    ``tol`` (> 0, needs ``exact``): the acceptance tolerance; ``passed`` is true when the
    run succeeded and ``error <= tol``.  ``rtol``, ``atol``: the tolerances an adaptive run
    ran with -- required when ``sol.h`` is None and ``sol`` is not a run by rule, refused
    for an equal-step run (they did not act on it).  ``settings``: anything else the run
    depended on (``problem="stiff_cosine"``, ``max_step=0.1``), strings, finite numbers,
    bools or None, at most ``MAX_SETTINGS`` of them.
    """
    if not isinstance(sol, Solution):
        raise TypeError(f"sol must be a robonum Solution, got {type(sol).__name__}")
    if np.size(sol.t) == 0:
        raise ValueError("sol holds no times (no t_eval point was reached): nothing to record")
    by_rule = sol.h is None and "h" in sol.info
    if sol.h is not None or by_rule:
        if rtol is not None or atol is not None:
            raise ValueError(
                "rtol and atol are for an adaptive run; this run used "
                + ("steps by rule" if by_rule else f"equal steps h = {sol.h:g}")
            )
        tols = (None, None)
    else:
        if rtol is None or atol is None:
            raise ValueError(
                "sol is an adaptive run (h is None): give the rtol and atol it ran with"
            )
        tols = (_tolerance("rtol", rtol), _tolerance("atol", atol))
    if tol is not None and exact is None:
        raise ValueError("tol judges the error against an exact solution: give exact too")
    if tol is not None:
        tol = check.positive("tol", tol)
    if len(settings) > MAX_SETTINGS:
        raise ValueError(f"at most {MAX_SETTINGS} settings, got {len(settings)}")
    error = None if exact is None else _error(sol, exact)
    steps = np.asarray(sol.info["h"], dtype=float) if by_rule else None
    return RunRecord(
        method=str(sol.method),
        step="rule" if by_rule else ("h" if sol.h is not None else "adaptive"),
        h=None if sol.h is None else float(sol.h),
        h_min=float(steps.min()) if by_rule and steps.size else None,
        h_max=float(steps.max()) if by_rule and steps.size else None,
        rtol=tols[0],
        atol=tols[1],
        t_final=sol.t_final,
        status=int(sol.status),
        reason=str(sol.reason),
        message=str(sol.message),
        counts={k: int(getattr(sol, k)) for k in _COUNTS},
        error=error,
        tol=tol,
        passed=None if tol is None else bool(sol.success and error <= tol),
        settings={k: _setting(k, v) for k, v in settings.items()},
        versions=versions(),
    )
