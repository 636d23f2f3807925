"""Errors raised by robonum itself, in one module that every other module may import.

Bad *input* is reported with the built-in ``TypeError`` / ``ValueError``
(the message names the parameter and the allowed range).  What goes wrong
*during* a computation that was correctly asked for is a
:class:`RobonumError`; the drivers catch it and turn it into a result with
``status = -1`` and a ``reason`` (see :mod:`robonum.solution`).
"""

from __future__ import annotations


class RobonumError(Exception):
    """Base class for errors raised by robonum during a computation (not by bad input)."""


class NonlinearSolveError(RobonumError):
    """Newton's method did not converge; carries the iteration count and residual."""

    def __init__(self, message: str, iterations: int, residual: float):
        super().__init__(f"{message} (after {iterations} iterations, residual {residual:.3e})")
        self.iterations = iterations
        self.residual = residual


class EvaluationError(RobonumError):
    """A user function (``f``, ``jac``, ``grad_V`` ...) returned something unusable.

    ``reason`` is ``"nan_in_f"`` for NaN/inf values and ``"bad_output"`` for a
    wrong shape or type; ``t`` is the time of the offending call.
    """

    def __init__(self, message: str, reason: str, t: float | None = None):
        super().__init__(message)
        self.reason = reason
        self.t = t


class ReferenceSolutionError(RobonumError, RuntimeError):
    """SciPy could not produce a reference solution (also a ``RuntimeError``)."""
