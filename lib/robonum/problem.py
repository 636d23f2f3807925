"""An initial-value problem, kept apart from the method that solves it.

``ODEProblem`` holds ``y' = f(t, y)``, ``y(t0) = y0`` and what we know about
it (an analytic Jacobian, an exact solution).  ``HamiltonianProblem`` is the
separable case ``H(q, p) = p·p/2 + V(q)``: it is an ``ODEProblem`` (any
method can integrate it) that also exposes ``∇V`` for symplectic splitting
methods, so ``"verlet"`` and ``"rk4"`` on the pendulum differ only in the
method.  :class:`robonum.work.Work` wraps a problem for one run.
"""

from __future__ import annotations

import math

import numpy as np

from . import _validate as check
from .declarations import check_jacobian, returned_array
from .declarations import components as _components
from .declarations import sparsity as _sparsity
from .errors import EvaluationError

_F64 = np.dtype(np.float64)
MAX_DIM = 100_000  # state size; an (n, n) Jacobian of this size would already be 80 GB
GAMMA_MAX = 1e3  # 1/s: damping beyond this is an overdamped, stiff problem


def _call(name, fn, *args):
    """Call a user function; an exception it raises gets a note saying which call it was."""
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001 -- re-raised unchanged, with context
        where = ", ".join(f"{a:g}" if isinstance(a, float) else "array" for a in args)
        exc.add_note(f"(raised inside {name}({where}), a function given to robonum)")
        raise


def _as_output(name, out, shape, t, y=None, dtype=_F64) -> np.ndarray:
    """``out`` as a float (or, for a complex state, complex) array of ``shape``."""
    if type(out) is np.ndarray and out.dtype is _F64 is dtype and out.shape == shape:
        # The common case (Work.f meets it ~10 times a step), by one reduction: a NaN or inf
        # makes the sum non-finite (a finite sum that overflows falls to the full check below).
        if math.isfinite(np.add.reduce(out, axis=None)):
            return out
    arr = returned_array(name, out, f"shape {shape}", t)
    if np.iscomplexobj(arr) and dtype.kind != "c":
        raise TypeError(f"{name} must return real values, got complex at t = {t:g}")
    if arr.dtype.kind not in "biufc":
        raise TypeError(
            f"{name} must return an array of real numbers, got {type(out).__name__} "
            f"(dtype {arr.dtype}) at t = {t:g}"
        )
    if arr.shape != shape:
        if arr.size == 1 and int(np.prod(shape)) == 1:
            arr = arr.reshape(shape)
        else:
            raise ValueError(f"{name} must return shape {shape}, got {arr.shape} at t = {t:g}")
    arr = arr.astype(dtype, copy=False)
    if not np.isfinite(arr).all():
        if y is not None and not np.isfinite(y).all():
            raise EvaluationError(f"the state is no longer finite at t = {t:g}", "diverged", t)
        raise EvaluationError(
            f"{name} returned NaN or inf at t = {t:g} from a finite state", "nan_in_f", t
        )
    return arr


def _at_start(name, fn, shape, t0, y0, dtype) -> np.ndarray:
    """``fn(t0, y0)``: NaN or inf there is bad input (a ``ValueError``), not a run's failure."""
    try:
        return _as_output(name, _call(name, fn, t0, y0.copy()), shape, t0, dtype=dtype)
    except EvaluationError as exc:
        raise ValueError(f"{name} must be finite at (t0, y0): {exc}") from None


class ODEProblem:
    """``y' = f(t, y)`` on ``t_span`` from ``y0``.

    Parameters
    ----------
    f : callable ``f(t, y) -> array of shape (n,)`` (a scalar is fine when n = 1)
    y0 : array_like of shape (n,), real and finite (a scalar means n = 1)
    t_span : (t0, t1) with t0 < t1
    jac : callable ``jac(t, y) -> (n, n) array``, optional
        Analytic Jacobian ``df/dy``; without it implicit methods use forward differences.
    jac_sparsity : (n, n) array_like or SciPy sparse matrix, optional
        Nonzeros mark where ``df_i/dy_j`` may be nonzero; forward differences then
        perturb columns with no common row together (:mod:`robonum.jacobian`),
        one ``f``-call per group instead of per column.  Ignored when ``jac`` is given.
    nonnegative : ``True`` or a sequence of component indices, optional
        Components the exact solution keeps ``>= 0`` (concentrations, masses).
        An adaptive run whose solution falls below ``-DOMAIN_SLACK * atol`` there
        has lost the solution and ends with ``status = -1``, reason
        ``"negative"`` (checked, not enforced: MATLAB's ``NonNegative`` option
        changes the solution instead).
    exact : callable ``exact(t) -> array of shape (n,)``, optional
        Exact solution (checked against ``y0`` at ``t0``), used by error studies.
    name : str
    params : dict, physical parameters for display (units in the key names)

    ``f``, ``jac`` and ``exact`` are called once here, at ``(t0, y0)``, so a
    wrong shape, a complex or non-finite value fails now with a named error; ``jac``
    must also agree with a difference of ``f`` there (two more calls of ``f``,
    :func:`robonum.declarations.check_jacobian`): a wrong one is refused by name.
    ``layout`` names how a :class:`Solution` reads the state (``"state"``: as it is).
    ``open_end=True`` lets ``t1`` be ``inf``: a run that ends at an event (``solve_ivp``).
    """

    layout = "state"

    def __init__(
        self,
        f,
        y0,
        t_span,
        jac=None,
        exact=None,
        name: str = "ODE",
        params=None,
        jac_sparsity=None,
        nonnegative=None,
        open_end: bool = False,
    ):
        check.callable_("f", f, 2, "f(t, y)")
        open_end = check.boolean("open_end", open_end)
        for label, fn, nargs in (("jac", jac, 2), ("exact", exact, None)):
            if fn is not None:
                check.callable_(label, fn, nargs, f"{label}(t, y)")
        y0 = check.state_vector("y0", y0, max_size=MAX_DIM)
        y0.setflags(write=False)
        self.dtype = y0.dtype  # float64, or complex128 for a complex y0 (solve_ivp's methods)
        self.f, self.y0, self.jac, self.exact = f, y0, jac, exact
        self.t_span = check.interval("t_span", t_span, open_end=open_end)
        self.name = check.text("name", name)
        if params is not None and not isinstance(params, dict):
            raise TypeError(f"params must be a dict, got {type(params).__name__}")
        self.params = dict(params or {})
        t0, n = self.t_span[0], y0.size
        self.jac_sparsity, self.jac_groups = _sparsity(jac_sparsity, n)
        self.nonnegative = _components("nonnegative", nonnegative, n)
        if self.nonnegative is not None and self.dtype.kind == "c":
            raise TypeError("nonnegative needs a real y0, got a complex one")
        if self.nonnegative is not None and np.any(y0[self.nonnegative] < 0):
            raise ValueError("y0 must be >= 0 in the components declared nonnegative")
        f0 = _at_start("f", f, (n,), t0, y0, self.dtype)
        f0.setflags(write=False)
        self.f0 = f0  # f(t0, y0): checked here, and the first value a run needs (Work.f)
        if jac is not None:
            J0 = _at_start("jac", jac, (n, n), t0, y0, self.dtype)
            check_jacobian(f, J0, t0, y0, f0, self.t_span[1])
        if exact is not None:
            e0 = _as_output("exact", _call("exact", exact, t0), (n,), t0)
            if np.max(np.abs(e0 - y0)) > 1e-8 * (1.0 + np.max(np.abs(y0))):
                raise ValueError(
                    f"exact(t0) must equal y0 (it is the solution through y0), "
                    f"got {e0} vs {np.asarray(y0)}"
                )

    @property
    def n(self) -> int:
        """Dimension of the state."""
        return self.y0.size

    def _fields(self) -> dict:
        return dict(
            f=self.f,
            y0=self.y0,
            t_span=self.t_span,
            jac=self.jac,
            exact=self.exact,
            name=self.name,
            params=self.params,
            jac_sparsity=self.jac_sparsity,
            nonnegative=self.nonnegative,
        )

    def on_grid(self, h: float) -> "ODEProblem":
        """A copy ending at the first multiple of ``h`` at or after ``t1``.

        ``integrate`` then uses ``h`` exactly (``t1 - t0`` is ``N h``) instead of
        shrinking it to divide the interval -- what an exploration over ``h`` needs
        to label its frames with the step it really used.
        """
        h = check.positive("h", h)
        t0, t1 = self.t_span
        n = max(1, int(np.ceil((t1 - t0) / h * (1 - 1e-12))))
        return self.replace(t_span=(t0, t0 + n * h))

    def replace(self, **changes) -> "ODEProblem":
        """A copy with some fields changed, e.g. ``problem.replace(t_span=(0, 5))``."""
        fields = self._fields()
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(
                f"replace() got unknown field(s) {sorted(unknown)}; fields are {sorted(fields)}"
            )
        fields.update(changes)
        return type(self)(**fields)

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, n={self.n}, t_span={self.t_span})"


def check_problem(problem) -> None:
    """Require an :class:`ODEProblem` (its ``y0``, ``f`` and ``t_span`` were checked when it was made)."""
    if not isinstance(problem, ODEProblem):
        raise TypeError(f"problem must be an ODEProblem, got {type(problem).__name__}")


class HamiltonianProblem(ODEProblem):
    """Separable Hamiltonian ``H(q, p) = p·p/2 + V(q)``: ``q' = p``, ``p' = -∇V(q) - γ p``.

    The state is ``y = (q, p)`` of size ``2d``.  Any method integrates it
    through ``f``; splitting methods (``"verlet"`` ...) use ``grad_V`` directly.

    Parameters
    ----------
    grad_V : callable ``grad_V(q) -> (d,)`` (a scalar is fine when d = 1)
    q0, p0 : array_like (d,)
    t_span : (t0, t1)
    V : callable, optional -- the potential, for :meth:`energy`; it receives
        ``q`` of shape ``(d,)`` or ``(d, m)`` and returns a scalar or ``(m,)``.
    hess_V : callable ``hess_V(q) -> (d, d)``, optional -- gives the analytic Jacobian.
    gamma : float in [0, 1000] 1/s, the linear damping (default 0: no damping).  With
        ``gamma > 0`` the energy decays, ``dH/dt = -γ |p|²``; :meth:`damped` makes one.
    exact, name, params : as for :class:`ODEProblem`.
    Reference: Hairer, Lubich & Wanner, *Geometric Numerical Integration*, sec. I.1, VI.1.
    """

    layout = "hamiltonian"  # Solution.q and .p are the halves of y

    def __init__(
        self,
        grad_V,
        q0,
        p0,
        t_span,
        V=None,
        hess_V=None,
        exact=None,
        name: str = "Hamiltonian",
        params=None,
        gamma: float = 0.0,
    ):
        check.callable_("grad_V", grad_V, 1, "grad_V(q)")
        self.gamma = gamma = check.real("gamma", gamma, 0.0, GAMMA_MAX)
        for label, fn in (("V", V), ("hess_V", hess_V)):
            if fn is not None:
                check.callable_(label, fn, 1, f"{label}(q)")
        q0 = check.finite_vector("q0", q0, max_size=MAX_DIM // 2)
        p0 = check.finite_vector("p0", p0, max_size=MAX_DIM // 2)
        if q0.shape != p0.shape:
            raise ValueError(f"q0 and p0 must have the same shape, got {q0.shape} and {p0.shape}")
        d = q0.size
        self.grad_V, self.V, self.hess_V, self.d = grad_V, V, hess_V, d

        def f(t, y):
            # checked at every call, as Work checks f: a later call may still return a NaN, a
            # complex number or another size, and the error must name grad_V, not f
            q = y[:d]
            force = -_as_output("grad_V", _call("grad_V", grad_V, q), (d,), t, q)
            return np.concatenate([y[d:], force - gamma * y[d:] if gamma else force])

        jac = None
        if hess_V is not None:

            def jac(t, y):
                J = np.zeros((2 * d, 2 * d))
                J[:d, d:] = np.eye(d)
                J[d:, :d] = -np.asarray(hess_V(y[:d]), dtype=float)
                J[d:, d:] = -gamma * np.eye(d)
                return J

        t0, _ = check.interval("t_span", t_span)
        _as_output("grad_V", _call("grad_V", grad_V, q0.copy()), (d,), t0)
        super().__init__(
            f, np.concatenate([q0, p0]), t_span, jac=jac, exact=exact, name=name, params=params
        )
        if V is not None:
            self.energy(self.y0)  # fails now, with a named error, if V is wrong

    def _fields(self) -> dict:
        d = self.d
        return dict(
            grad_V=self.grad_V,
            q0=self.y0[:d],
            p0=self.y0[d:],
            t_span=self.t_span,
            V=self.V,
            hess_V=self.hess_V,
            exact=self.exact,
            name=self.name,
            params=self.params,
            gamma=self.gamma,
        )

    def damped(self, gamma: float) -> HamiltonianProblem:
        """This system with damping ``p' = -∇V(q) - γ p`` (``γ`` in [0, 1000] 1/s).

        Runge-Kutta methods integrate the damped right-hand side; splitting methods
        run as ``D(h/2) ∘ Φ_h ∘ D(h/2)`` with the exact damping flow ``D(τ): p ← e^{-γτ} p``
        (a Strang splitting, so order 2 whatever the order of ``Φ``; HLW sec. II.5).
        Example: ``rn.integrate(rn.problems.pendulum().damped(0.01), "verlet", 0.1)``.
        """
        gamma = check.real("gamma", gamma, 0.0, GAMMA_MAX)
        if gamma == 0.0:
            return self
        return self.replace(gamma=gamma, exact=None, name=f"{self.name}, damped (γ={gamma:g})")

    def energy(self, y) -> np.ndarray | float:
        """``H = p·p/2 + V(q)`` for ``y`` of shape ``(2d,)`` or ``(2d, m)``."""
        if self.V is None:
            raise ValueError(
                f"{self.name}: energy() needs the potential V (pass V= to the problem)"
            )
        y = check.real_array("y", y, finite=False)
        if y.ndim not in (1, 2) or y.shape[0] != 2 * self.d:
            raise ValueError(
                f"y must have shape ({2 * self.d},) or ({2 * self.d}, m), got {y.shape}"
            )
        q, p = y[: self.d], y[self.d :]
        v = np.asarray(_call("V", self.V, q), dtype=float)
        expected = () if y.ndim == 1 else (y.shape[1],)
        if v.shape != expected:
            raise ValueError(
                f"V(q) for q of shape {q.shape} must return shape {expected}, got {v.shape}"
            )
        return 0.5 * np.sum(p * p, axis=0) + v
