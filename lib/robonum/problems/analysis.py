"""Looking at a problem: Jacobian eigenvalues, stiffness ratio, reference solution."""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _scipy
from .. import _validate as check
from ..errors import EvaluationError, ReferenceSolutionError
from ..problem import ODEProblem
from ..work import Work
from . import _checks

REFERENCE_METHODS = ("Radau", "BDF", "LSODA", "DOP853", "RK45")
MAX_T_EVAL = 10**6  # output times of reference_solution (8 MB per state component)
MAX_REFERENCE_NFEV = 5 * 10**6  # ~30 s of Python right-hand sides; more is a wrong request


def _problem(problem) -> ODEProblem:
    if not isinstance(problem, ODEProblem):
        raise TypeError(f"problem must be a robonum.ODEProblem, got {type(problem).__name__}")
    return problem


def _point(problem: ODEProblem, t, y) -> tuple[float, np.ndarray]:
    _problem(problem)
    t = problem.t_span[0] if t is None else check.real("t", t)
    if y is None:
        y = problem.y0.copy()
    else:
        _checks.refuse_bool("y", y)
        y = check.finite_vector("y", y)
    if y.shape != problem.y0.shape:
        raise ValueError(f"y must have shape {problem.y0.shape} like y0, got {y.shape}")
    return t, y


def jacobian_eigenvalues(problem: ODEProblem, t=None, y=None) -> np.ndarray:
    """Eigenvalues of ``J = ∂f/∂y`` at ``(t, y)`` (default ``(t0, y0)``), sorted by ``Re λ``.

    Uses the analytic ``problem.jac`` when present, else forward differences
    (``robonum.Work.jac``).  Locally ``y' ≈ J y``, so each eigenvalue is a
    Dahlquist ``λ``: a step ``h`` is stable for the linearisation when every
    ``z = hλ`` lies in the method's stability region (Hairer & Wanner,
    *Solving ODEs II*, sec. IV.2).  ``t`` is a finite real, ``y`` a real
    finite vector of the state's shape; a point where ``J`` is not finite
    (a state too large for the problem) is a ``ValueError``.
    """
    J, scale = _jacobian(problem, t, y)
    return scale * _sorted_eigenvalues(J)


def _jacobian(problem: ODEProblem, t, y) -> tuple[np.ndarray, float]:
    """``J / s`` and ``s``: ``s = 1`` normally; a power of two near ``max|J_ij|`` when
    that exceeds 1e100, so that eigenvalues and norms of entries near 1e308 cannot
    overflow (a power of two scales exactly: ordinary results stay bit-identical)."""
    t, y = _point(problem, t, y)
    J = None
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # judged by the finiteness test below
        try:
            J = Work(problem).jac(t, y)
        except EvaluationError:  # Work reports a NaN/inf Jacobian from a finite state
            J = None
    if J is None or not np.all(np.isfinite(J)):
        raise ValueError(
            f"the Jacobian at t = {t:g}, y = {y} is not finite: "
            f"y (or t) is too large for this problem"
        )
    big = float(np.max(np.abs(J))) if J.size else 0.0
    scale = 2.0 ** math.frexp(big)[1] if big > 1e100 else 1.0
    return J / scale, scale


def _sorted_eigenvalues(J: np.ndarray) -> np.ndarray:
    lam = np.linalg.eigvals(J)
    return lam[np.argsort(lam.real, kind="stable")]


def stiffness_ratio(
    problem: ODEProblem,
    t=None,
    y=None,
    *,
    measure: str = "real",
    ignore_zero: bool = False,
    zero_tol: float = 1e-12,
) -> float:
    """Stiffness ratio of the Jacobian at ``(t, y)``.

    ``measure="real"``: ``ρ = max|Re λ| / min|Re λ|`` (printed ch. 7.50 §1.1;
    Lambert, *Numerical Methods for Ordinary Differential Systems*, ch. 6).
    ``measure="modulus"``: ``max|λ| / min|λ|``, which also sees lightly
    damped fast oscillations (their ``Re λ`` is small but ``|λ|`` bounds an
    explicit step through the stability region along the imaginary axis).
    Values ``<= zero_tol·‖J‖_F + sqrt(eps·‖J‖_F)`` count as zero: they make
    ρ infinite (a rigid-body or free-fall mode has no decay rate), unless
    ``ignore_zero=True`` drops them.  The first term is the rounding error of
    a simple eigenvalue; the second is there because a double zero
    eigenvalue (a Jordan block, as in free fall) is computed only to about
    ``sqrt(eps·‖J‖)``.  With no nonzero value left, ρ = 1 (no time scale).
    ``zero_tol`` is in [0, 0.1] (a fraction of ‖J‖); ``ignore_zero`` is a bool.
    """
    check.one_of("measure", measure, ("real", "modulus"))
    ignore_zero = check.boolean("ignore_zero", ignore_zero)
    zero_tol = check.positive("zero_tol", zero_tol, allow_zero=True, hi=0.1)
    J, scale = _jacobian(problem, t, y)
    lam = _sorted_eigenvalues(J)  # eigenvalues of J / scale
    size = np.abs(lam.real) if measure == "real" else np.abs(lam)
    norm = np.linalg.norm(J)  # ‖J‖_F / scale
    # the threshold in units of scale: zero_tol·‖J‖ + sqrt(eps·‖J‖), both divided by scale
    nonzero = size > zero_tol * norm + np.sqrt(np.finfo(float).eps * norm / scale)
    if not nonzero.any():
        return 1.0
    if not nonzero.all() and not ignore_zero:
        return float("inf")
    return float(size.max() / size[nonzero].min())


def reference_solution(
    problem: ODEProblem, t_eval, *, method: str = "Radau", rtol: float = 1e-12, atol: float = 1e-14
) -> np.ndarray:
    """``y`` at the times ``t_eval`` by SciPy's ``solve_ivp`` at tight tolerances.

    For problems without ``exact`` (Van der Pol, Robertson, the robots).
    Returns shape ``(n, len(t_eval))``; uses ``problem.jac`` for the implicit
    methods.  ``method`` is one of ``REFERENCE_METHODS`` (Radau, BDF, LSODA,
    DOP853, RK45); ``rtol`` in [1e-13, 1e-2] (SciPy's floor is 100·eps ≈
    2.2e-14); ``atol`` in [1e-30, 1]; ``t_eval`` a real, non-decreasing 1-D
    array inside ``t_span`` with at most 1e6 entries.  Raises
    :class:`ReferenceSolutionError` (a ``RobonumError`` and a
    ``RuntimeError``) if SciPy fails, warns, or needs more than 5e6
    evaluations of ``f``.
    """
    _problem(problem)
    check.one_of("method", method, REFERENCE_METHODS)
    rtol = check.positive("rtol", rtol, lo=1e-13, hi=1e-2)
    atol = check.positive("atol", atol, lo=1e-30, hi=1.0)
    _checks.refuse_bool("t_eval", t_eval)
    t_eval = check.real_array("t_eval", t_eval, ndim=1, max_size=MAX_T_EVAL)
    t0, t1 = problem.t_span
    if np.any(t_eval < t0) or np.any(t_eval > t1) or np.any(np.diff(t_eval) < 0):
        raise ValueError(f"t_eval must be non-decreasing times inside t_span = {problem.t_span}")
    nfev = 0

    def f(t, y):
        nonlocal nfev
        nfev += 1
        if nfev > MAX_REFERENCE_NFEV:  # abort a run that would take many minutes
            raise ReferenceSolutionError(
                f"reference solution ({method}) needs more than {MAX_REFERENCE_NFEV:,} "
                f"evaluations of f on t_span = {problem.t_span}; use a shorter span, an "
                f"implicit method for a stiff problem, or looser tolerances"
            )
        return problem.f(t, y)

    kw = {"jac": problem.jac} if method in ("Radau", "BDF", "LSODA") and problem.jac else {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. overflow in f: a failed reference, not a warning
        try:
            sol = _scipy.integrate().solve_ivp(
                f,
                (t0, t1),
                problem.y0.copy(),
                method=method,
                t_eval=t_eval,
                rtol=rtol,
                atol=atol,
                **kw,
            )
        except Warning as w:
            raise ReferenceSolutionError(
                f"reference solution failed ({method}): {type(w).__name__}: {w}"
            ) from None
    if not sol.success:
        raise ReferenceSolutionError(f"reference solution failed ({method}): {sol.message}")
    return sol.y
