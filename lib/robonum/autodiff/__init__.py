"""Automatic differentiation: forward mode (dual numbers) and reverse mode (tape).

Write a model once with :mod:`robonum.autodiff.functions` (``sin, cos, exp,
log, sqrt, tanh``) and ordinary arithmetic; it then runs on floats, complex
numbers (complex step), :class:`Dual` (forward mode) and :class:`Var`
(reverse mode).

>>> from robonum.autodiff import grad, jacobian_forward, sin
>>> grad(lambda x: sin(x[0]) * x[1], [0.0, 2.0])
array([2., 0.])

:func:`trace` returns the computational graph a recording leaves on the tape
(:mod:`.graph`); :func:`grad_through_steps` differentiates through many
integrator steps, optionally with checkpointing (:mod:`.checkpoint`).

Error policy (the same for every primitive ``+ - * / ** exp log sin cos sqrt
tanh``, in both modes and for floats, complex numbers and numpy arrays):

* **Outside the domain or overflowing** -> :class:`DomainError` (a
  ``RobonumError`` and a ``ValueError``) naming the operation, the value and
  the valid domain: ``log(x) needs x > 0, got x = -1.0``, ``u / w needs
  w != 0``, ``exp(x) needs x <= 709.7827``; a value *or derivative* beyond
  the largest double is reported the same way (``sqrt`` and ``u**c`` with
  ``0 < c < 1`` at 0, ``log`` at a subnormal x).  No NaN or inf is ever
  stored in a :class:`Dual` or :class:`Var`, and no numpy warning escapes.
* **Bad input** (to a driver, ``Dual(...)``, ``Tape.var``) -> ``TypeError``
  for the wrong kind (bool, str, complex where a real is expected, a
  non-callable ``f``) and ``ValueError`` for the wrong value (NaN, inf, an
  int too large for a double, empty or 2-D ``x``); the message names the
  parameter.  Operands that are neither real numbers nor of the same mode
  (``Dual + Var``, ``Dual * True``, ``"a" + Dual``) are a ``TypeError``
  naming the operator.
* **The user's f**: wrong output (not a number or 1-D sequence, NaN, complex,
  an output count that changes between calls) -> ``TypeError``/``ValueError``
  naming ``f``; an exception raised inside ``f`` -> :class:`robonum.errors.EvaluationError`
  (``reason = "f_raised"``, the original chained as ``__cause__``), except a
  ``RobonumError`` such as a ``DomainError``, which already names its
  operation and passes unchanged.  An output that is a real constant has
  derivative 0 (a zero row of the Jacobian).
"""

from .checkpoint import StepsGradient, checkpoint_counts, grad_through_steps, rk4_step
from .cost import ADCost, ad_cost
from .domain import DomainError
from .forward import Dual, derivative, jacobian_forward
from .functions import cos, exp, log, sin, sqrt, tanh
from .graph import Graph, Node, trace
from .reverse import Tape, Var, grad, jacobian_reverse

__all__ = [
    "Dual",
    "Var",
    "Tape",
    "derivative",
    "jacobian_forward",
    "jacobian_reverse",
    "grad",
    "ad_cost",
    "ADCost",
    "DomainError",
    "sin",
    "cos",
    "exp",
    "log",
    "sqrt",
    "tanh",
    "trace",
    "Graph",
    "Node",
    "grad_through_steps",
    "rk4_step",
    "checkpoint_counts",
    "StepsGradient",
]
