"""Automatic differentiation: forward mode (dual numbers) and reverse mode (tape).

Write a model once with :mod:`robonum.autodiff.functions` (``sin, cos, exp,
log, sqrt, tanh``) and ordinary arithmetic; it then runs on floats, complex
numbers (complex step), :class:`Dual` (forward mode) and :class:`Var`
(reverse mode).

>>> from robonum.autodiff import grad, jacobian_forward, sin
>>> grad(lambda x: sin(x[0]) * x[1], [0.0, 2.0])
array([2., 0.])
"""
from .cost import ADCost, ad_cost
from .forward import Dual, derivative, jacobian_forward
from .functions import cos, exp, log, sin, sqrt, tanh
from .reverse import Tape, Var, grad, jacobian_reverse

__all__ = ["Dual", "Var", "Tape", "derivative", "jacobian_forward", "jacobian_reverse",
           "grad", "ad_cost", "ADCost", "sin", "cos", "exp", "log", "sqrt", "tanh"]
