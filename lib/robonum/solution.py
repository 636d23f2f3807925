"""The result of a run, with SciPy's names (``t``, ``y``, ``nfev`` ...)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SUCCESS, DIVERGED, FAILED = 0, -1, -2


class Outcome:
    """``success`` and ``y_final`` for any result with ``status`` and ``y`` of shape (n, m)."""

    @property
    def success(self) -> bool:
        return self.status == SUCCESS

    @property
    def y_final(self) -> np.ndarray:
        """State at the last time reached."""
        return self.y[:, -1]


@dataclass
class Solution(Outcome):
    """Output of :func:`robonum.integrate` and friends.

    ``y`` has shape ``(n, len(t))`` as in ``scipy.integrate.solve_ivp``.
    ``status`` is 0 when ``t1`` was reached, -1 when the solution diverged
    (left every bound: the step was outside the stability region), -2 when
    the run could not go on (a nonlinear solve failed; for adaptive runs also
    step-size underflow or ``max_steps``).  ``message`` says which, in words.
    """

    t: np.ndarray
    y: np.ndarray
    method: str
    h: float | None
    nsteps: int
    nfev: int
    njev: int
    nlu: int
    n_newton: int
    status: int
    message: str
    nreject: int = 0

    def __repr__(self):
        return (f"Solution({self.method}, steps={self.nsteps}, nfev={self.nfev}, "
                f"njev={self.njev}, nlu={self.nlu}, status={self.status}: {self.message})")
