"""SciPy's modules, each imported on first use.

``import robonum`` should cost little more than numpy: a scientist who only
wants a tableau's stability function should not wait for SciPy.  Importing
``scipy.linalg`` alone takes about 0.2-0.3 s here, ``scipy.optimize`` and
``scipy.integrate`` as much again, and most uses of the library (explicit
methods, analysis of coefficients) need none of them.  The functions below
import a module when it is first needed and keep it, so a call in a loop
costs one dictionary lookup.
"""

from __future__ import annotations

import importlib

_LOADED: dict = {}


def _module(name: str):
    # a dictionary lookup, not importlib's (~0.4 µs): LAPACK solves run several times a step
    mod = _LOADED.get(name)
    if mod is None:
        mod = _LOADED[name] = importlib.import_module(name)
    return mod


def linalg():
    """``scipy.linalg``."""
    return _module("scipy.linalg")


def lapack():
    """``scipy.linalg.lapack`` (LU factorisation and solves called directly)."""
    return _module("scipy.linalg.lapack")


def sparse():
    """``scipy.sparse`` (iteration matrices of a problem with ``jac_sparsity``)."""
    return _module("scipy.sparse")


def sparse_linalg():
    """``scipy.sparse.linalg`` (``splu``)."""
    return _module("scipy.sparse.linalg")


def optimize():
    """``scipy.optimize`` (``brentq``, ``minimize_scalar``)."""
    return _module("scipy.optimize")


def integrate():
    """``scipy.integrate`` (``solve_ivp`` for reference solutions)."""
    return _module("scipy.integrate")


def special():
    """``scipy.special`` (elliptic integrals of the pendulum's exact solution)."""
    return _module("scipy.special")
