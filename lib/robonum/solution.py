"""The result of every driver: one type, SciPy's names and status codes.

``status`` follows ``scipy.integrate.solve_ivp``: 0 the run reached
``t1``, -1 it failed, 1 a terminal event stopped it (``solve_ivp(events=...)``;
``success`` is then true, as in SciPy).  ``reason`` says
which failure in one word, ``message`` in a sentence:

==================  ============================================================
reason              meaning
==================  ============================================================
``"success"``       reached ``t1``
``"diverged"``      the state left every bound (``max|y| > blowup``) or became
                    non-finite: for a fixed step, typically ``h`` outside the
                    method's stability region
``"nan_in_f"``      ``f`` (or ``∇V``, ``jac``) returned NaN/inf from a finite state
``"newton_failed"`` the nonlinear equations of an implicit step were not solved
``"step_underflow"`` an adaptive step fell below the rounding level of ``t``
``"max_steps"``     an adaptive run used up its step budget
``"negative"``      a component the problem declares nonnegative fell below
                    ``-1000 atol``: the run lost the solution
``"event"``         (status 1) a terminal event of ``solve_ivp`` stopped the run
==================  ============================================================

``y`` has shape ``(n, len(t))`` as in ``solve_ivp``.  A Hamiltonian run also
offers ``q`` and ``p`` (the two halves of ``y``), a rotation run ``R`` of
shape ``(len(t), 3, 3)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

SUCCESS, FAILURE, EVENT = 0, -1, 1
REASONS = (
    "success",
    "diverged",
    "nan_in_f",
    "newton_failed",
    "step_underflow",
    "max_steps",
    "negative",
    "event",
)
LAYOUTS = ("state", "hamiltonian", "so3")


@dataclass
class Solution:
    """Output of :func:`robonum.integrate` (and of every other driver in robonum).

    Fields: ``t``, ``y``, ``method`` (name), ``h`` (the equal step actually
    used, or None for adaptive runs), ``status``, ``reason``, ``message``,
    ``nfev`` (calls of ``f`` by the method; as SciPy's, those that build a difference
    Jacobian are counted apart in ``nfev_jac``, so every call is ``nfev + nfev_jac``),
    ``njev``, ``nlu``, ``n_newton``, ``nsteps`` (steps taken,
    accepted ones for adaptive runs), ``nreject`` (rejected steps),
    ``layout`` (the problem's: ``"state"``, ``"hamiltonian"`` or ``"so3"``), ``info``
    (extras: ``h``, the steps of a run by rule; ``compile_time``/``run_time`` of the
    compiled path) and ``sol`` (the dense output of ``solve_ivp(..., dense_output=True)``).
    ``t`` and ``y`` are arrays, but for ``solve_ivp(..., t_eval=...)`` when a terminal event
    stops the run before the first ``t_eval`` point: then both are ``[]``, as SciPy's.
    """

    t: np.ndarray
    y: np.ndarray
    method: str
    h: float | None
    status: int
    reason: str
    message: str
    nfev: int = 0
    nfev_jac: int = 0  # calls of f by difference Jacobians (not in nfev, as SciPy)
    njev: int = 0
    nlu: int = 0
    n_newton: int = 0
    nsteps: int = 0
    nreject: int = 0
    layout: str = "state"
    info: dict = field(default_factory=dict)
    sol: object = None  # solve_ivp's dense output (DenseOutput) with dense_output=True
    t_events: list | None = None  # solve_ivp(events=...): per event, the times found
    y_events: list | None = None  # ... and the states there, (k, n) each

    @property
    def success(self) -> bool:
        return self.status >= SUCCESS

    def __getitem__(self, key: str):
        """``sol["t"]`` as ``sol.t``: SciPy's result is also read as a dict."""
        if not isinstance(key, str) or not hasattr(self, key):
            raise KeyError(key)
        return getattr(self, key)

    @property
    def y_final(self) -> np.ndarray:
        """State at the last time reached."""
        return self.y[:, -1]

    @property
    def t_final(self) -> float:
        return float(self.t[-1])

    def _half(self):
        if self.layout != "hamiltonian":
            raise AttributeError(
                f"q and p exist for Hamiltonian problems; this run's layout is {self.layout!r}"
            )
        return self.y.shape[0] // 2

    @property
    def q(self) -> np.ndarray:
        """Positions ``y[:d]`` of a Hamiltonian run, shape ``(d, len(t))``."""
        return self.y[: self._half()]

    @property
    def p(self) -> np.ndarray:
        """Momenta ``y[d:]`` of a Hamiltonian run, shape ``(d, len(t))``."""
        return self.y[self._half() :]

    @property
    def R(self) -> np.ndarray:
        """Attitudes of a rotation run, shape ``(len(t), 3, 3)``."""
        if self.layout != "so3":
            raise AttributeError(
                f"R exists for rotation runs; this run's layout is {self.layout!r}"
            )
        return self.y.T.reshape(-1, 3, 3)

    def __repr__(self):
        step = f"h={self.h:.6g}, " if self.h is not None else ""
        rej = f", nreject={self.nreject}" if self.nreject else ""
        jac = f", nfev_jac={self.nfev_jac}" if self.nfev_jac else ""
        return (
            f"Solution({self.method}, {step}steps={self.nsteps}{rej}, nfev={self.nfev}{jac}, "
            f"njev={self.njev}, nlu={self.nlu}, status={self.status} ({self.reason}): {self.message})"
        )
