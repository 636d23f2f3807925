"""Looking at a problem: Jacobian eigenvalues, stiffness ratio, reference solution."""
from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp

from .. import _validate as check
from ..problem import ODEProblem, Work


def _point(problem: ODEProblem, t, y) -> tuple[float, np.ndarray]:
    if not isinstance(problem, ODEProblem):
        raise TypeError(f"problem must be a robonum.ODEProblem, got {type(problem).__name__}")
    t = problem.t_span[0] if t is None else check.real("t", t)
    y = problem.y0.copy() if y is None else check.finite_vector("y", y)
    if y.shape != problem.y0.shape:
        raise ValueError(f"y must have shape {problem.y0.shape} like y0, got {y.shape}")
    return t, y


def jacobian_eigenvalues(problem: ODEProblem, t=None, y=None) -> np.ndarray:
    """Eigenvalues of ``J = ∂f/∂y`` at ``(t, y)`` (default ``(t0, y0)``), sorted by ``Re λ``.

    Uses the analytic ``problem.jac`` when present, else forward differences
    (``robonum.Work.jac``).  Locally ``y' ≈ J y``, so each eigenvalue is a
    Dahlquist ``λ``: a step ``h`` is stable for the linearisation when every
    ``z = hλ`` lies in the method's stability region (Hairer & Wanner,
    *Solving ODEs II*, sec. IV.2).
    """
    return _sorted_eigenvalues(_jacobian(problem, t, y))


def _jacobian(problem: ODEProblem, t, y) -> np.ndarray:
    t, y = _point(problem, t, y)
    J = Work(problem).jac(t, y)
    if not np.all(np.isfinite(J)):
        raise ValueError(f"the Jacobian at t={t}, y={y} is not finite")
    return J


def _sorted_eigenvalues(J: np.ndarray) -> np.ndarray:
    lam = np.linalg.eigvals(J)
    return lam[np.argsort(lam.real, kind="stable")]


def stiffness_ratio(problem: ODEProblem, t=None, y=None, *, measure: str = "real",
                    ignore_zero: bool = False, zero_tol: float = 1e-12) -> float:
    """Stiffness ratio of the Jacobian at ``(t, y)``.

    ``measure="real"``: ``ρ = max|Re λ| / min|Re λ|`` (seed ch. 7.50 §1.1;
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
    """
    check.one_of("measure", measure, ("real", "modulus"))
    zero_tol = check.positive("zero_tol", zero_tol)
    J = _jacobian(problem, t, y)
    lam = _sorted_eigenvalues(J)
    size = np.abs(lam.real) if measure == "real" else np.abs(lam)
    norm = np.linalg.norm(J)
    nonzero = size > zero_tol * norm + np.sqrt(np.finfo(float).eps * norm)
    if not nonzero.any():
        return 1.0
    if not nonzero.all() and not ignore_zero:
        return float("inf")
    return float(size.max() / size[nonzero].min())


def reference_solution(problem: ODEProblem, t_eval, *, method: str = "Radau",
                       rtol: float = 1e-12, atol: float = 1e-14) -> np.ndarray:
    """``y`` at the times ``t_eval`` by SciPy's ``solve_ivp`` at tight tolerances.

    For problems without ``exact`` (Van der Pol, Robertson, the robots).
    Returns shape ``(n, len(t_eval))``; uses ``problem.jac`` for the implicit
    methods.  Raises ``RuntimeError`` if SciPy reports failure.
    """
    check.one_of("method", method, ("Radau", "BDF", "LSODA", "DOP853", "RK45"))
    rtol, atol = check.positive("rtol", rtol), check.positive("atol", atol)
    t_eval = np.atleast_1d(np.asarray(t_eval, dtype=float))
    t0, t1 = problem.t_span
    if t_eval.ndim != 1 or np.any(t_eval < t0) or np.any(t_eval > t1) or np.any(np.diff(t_eval) < 0):
        raise ValueError(f"t_eval must be increasing times inside t_span = {problem.t_span}")
    kw = {"jac": problem.jac} if method in ("Radau", "BDF", "LSODA") and problem.jac else {}
    sol = solve_ivp(problem.f, (t0, t1), problem.y0.copy(), method=method,
                    t_eval=t_eval, rtol=rtol, atol=atol, **kw)
    if not sol.success:
        raise RuntimeError(f"reference solution failed ({method}): {sol.message}")
    return sol.y
