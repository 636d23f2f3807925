"""Five stiff problems of the IVP test sets with their reference values.

``hires()`` (8 chemical species, ``t in [0, 321.8122]``), ``rober()``
(Robertson's reaction to ``t = 1e11``), ``orego()`` (the Oregonator on
``[0, 360]``) and ``vdpol()`` (Van der Pol in the
test set's scaling ``eps y2' = (1 - y1^2) y2 - y1`` with ``eps = 1e-6``,
``t in [0, 2]``) are those of Mazzia & Magherini's test set; each problem's
``params["reference"]`` is ``y(t_end)`` as published with it (computed there with
RADAU5/MEBDFI at tight tolerances in quadruple precision; ``tests/lib/test_testset.py``
checks them against SciPy at ``rtol = 1e-12``).  ``e5()`` is the badly scaled
chemical pyrolysis of the Stiff DETEST set (Enright, Hull & Lindberg 1975; Hairer &
Wanner II, sec. IV.10), on a horizon whose reference double precision can compute
(:func:`e5`).  The concentrations are declared ``nonnegative``, so an adaptive run
that loses the solution says so instead of reporting success.  :func:`digits` is the
test set's accuracy measure, ``-log10`` of the largest relative error at ``t_end``.
The book's benchmark harness (work-precision runs, fronts, cost ratios) lives
in the book layer, :mod:`robonum.book.bench`.

Reference: F. Mazzia and C. Magherini, *Test Set for Initial Value Problem
Solvers*, release 2.4 (2008), problems HIRES, ROBER, OREGO and VDPOL.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from ..problem import ODEProblem

HIRES_END = 321.8122
HIRES_REF = np.array(
    [
        0.7371312573325668e-3,
        0.1442485726316185e-3,
        0.5888729740967575e-4,
        0.1175651343283149e-2,
        0.2386356198831331e-2,
        0.6238968252742796e-2,
        0.2849998395185769e-2,
        0.2850001604814231e-2,
    ]
)
ROBER_END = 1e11
ROBER_REF = np.array([0.2083340149701255e-7, 0.8333360770334713e-13, 0.9999999791665050])
VDPOL_END = 2.0
VDPOL_REF = np.array([0.1706167732170483e1, -0.8928097010247975])
OREGO_END = 360.0
OREGO_REF = np.array([0.1000814870318523e1, 0.1228178521549917e4, 0.1320554942846706e3])
E5_END = 1e3
# y(1e3) by SciPy's Radau, rtol 2.2e-14 (its floor), atol 1e-32, the analytic Jacobian; its
# BDF and LSODA at rtol 1e-12 ... 1e-14 agree to 3e-12 relative (tests/lib/test_testset.py).
E5_REF = np.array(
    [1.6180769999073307e-03, 1.3822370304980593e-10, 8.2515735006868129e-12, 1.2997212954920339e-10]
)
# y(1e13) as published with the Stiff DETEST set (and the R package deTestSet); see e5()
E5_PUBLISHED = np.array(
    [0.1152903278711829e-290, 0.8867655517642120e-22, 0.8854814626268838e-22, 0.0]
)
NAMES = ("hires", "rober", "vdpol", "orego", "e5")


def hires() -> ODEProblem:
    """HIRES: 8 reactions of light-induced plant growth (Schäfer 1975), test set problem 4."""

    def f(t, y):
        y1, y2, y3, y4, y5, y6, y7, y8 = y
        r = 280.0 * y6 * y8
        return np.array(
            [
                -1.71 * y1 + 0.43 * y2 + 8.32 * y3 + 0.0007,
                1.71 * y1 - 8.75 * y2,
                -10.03 * y3 + 0.43 * y4 + 0.035 * y5,
                8.32 * y2 + 1.71 * y3 - 1.12 * y4,
                -1.745 * y5 + 0.43 * y6 + 0.43 * y7,
                -r + 0.69 * y4 + 1.71 * y5 - 0.43 * y6 + 0.69 * y7,
                r - 1.81 * y7,
                -r + 1.81 * y7,
            ]
        )

    def jac(t, y):
        J = np.zeros((8, 8))
        J[0, :3] = -1.71, 0.43, 8.32
        J[1, :2] = 1.71, -8.75
        J[2, 2:5] = -10.03, 0.43, 0.035
        J[3, 1:4] = 8.32, 1.71, -1.12
        J[4, 4:7] = -1.745, 0.43, 0.43
        J[5, 3:8] = 0.69, 1.71, -0.43 - 280.0 * y[7], 0.69, -280.0 * y[5]
        J[6, 5:8] = 280.0 * y[7], -1.81, 280.0 * y[5]
        J[7, 5:8] = -280.0 * y[7], 1.81, -280.0 * y[5]
        return J

    y0 = [1.0, 0, 0, 0, 0, 0, 0, 0.0057]
    return ODEProblem(
        f,
        y0,
        (0.0, HIRES_END),
        jac=jac,
        name="HIRES",
        params={"reference": HIRES_REF.copy()},
        nonnegative=True,  # concentrations
    )


def rober() -> ODEProblem:
    """ROBER: Robertson's autocatalytic reaction on ``[0, 1e11]``, test set problem 1."""

    def f(t, y):
        a, b, c = 0.04 * y[0], 1e4 * y[1] * y[2], 3e7 * y[1] ** 2
        return np.array([-a + b, a - b - c, c])

    def jac(t, y):
        return np.array(
            [
                [-0.04, 1e4 * y[2], 1e4 * y[1]],
                [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                [0.0, 6e7 * y[1], 0.0],
            ]
        )

    return ODEProblem(
        f,
        [1.0, 0.0, 0.0],
        (0.0, ROBER_END),
        jac=jac,
        name="ROBER",
        params={"reference": ROBER_REF.copy()},
        nonnegative=True,  # concentrations
    )


def vdpol() -> ODEProblem:
    """VDPOL: ``y1' = y2``, ``y2' = ((1 - y1^2) y2 - y1) / eps``, ``eps = 1e-6``, test set problem 9."""
    eps = 1e-6

    def f(t, y):
        return np.array([y[1], ((1.0 - y[0] ** 2) * y[1] - y[0]) / eps])

    def jac(t, y):
        return np.array([[0.0, 1.0], [(-2.0 * y[0] * y[1] - 1.0) / eps, (1.0 - y[0] ** 2) / eps]])

    return ODEProblem(
        f,
        [2.0, 0.0],
        (0.0, VDPOL_END),
        jac=jac,
        name="VDPOL (ε = 1e-6)",
        params={"reference": VDPOL_REF.copy(), "eps": eps},
    )


def orego() -> ODEProblem:
    """OREGO: the Oregonator (Field-Noyes model of the Belousov-Zhabotinskii reaction), problem 3.

    ``y1' = s (y2 + y1 (1 - q y1 - y2))``, ``y2' = (y3 - (1 + y1) y2) / s``,
    ``y3' = w (y1 - y3)`` with ``s = 77.27``, ``w = 0.161``, ``q = 8.375e-6``,
    ``y0 = (1, 2, 3)`` on ``[0, 360]``: components spanning five decades that
    jump in relaxation oscillations.
    """
    s, w, q = 77.27, 0.161, 8.375e-6

    def f(t, y):
        y1, y2, y3 = y
        return np.array(
            [s * (y2 + y1 * (1.0 - q * y1 - y2)), (y3 - (1.0 + y1) * y2) / s, w * (y1 - y3)]
        )

    def jac(t, y):
        y1, y2, _ = y
        return np.array(
            [
                [s * (1.0 - 2.0 * q * y1 - y2), s * (1.0 - y1), 0.0],
                [-y2 / s, -(1.0 + y1) / s, 1.0 / s],
                [w, 0.0, -w],
            ]
        )

    return ODEProblem(
        f,
        [1.0, 2.0, 3.0],
        (0.0, OREGO_END),
        jac=jac,
        name="OREGO",
        params={"reference": OREGO_REF.copy()},
        nonnegative=True,  # concentrations
    )


def e5() -> ODEProblem:
    """E5: chemical pyrolysis (Stiff DETEST; HW II, sec. IV.10), four species over eight decades.

    With ``r1 = A y1``, ``r2 = B y1 y3``, ``r3 = M C y2 y3``, ``r4 = C y4``::

        y1' = -r1 - r2,  y2' = r1 - r3,  y3' = r1 - r2 - r3 + r4,  y4' = r2 - r4,

    ``A = 7.89e-10``, ``B = 1.1e7``, ``C = 1.13e3``, ``M = 1e6``, ``y0 = (1.76e-3, 0, 0, 0)``.
    At ``t = 1e3`` the state is ``(1.6e-3, 1.4e-10, 8.3e-12, 1.3e-10)``: a scalar ``atol``
    must sit below ``8e-12 rtol`` for every component to be controlled relatively.
    ``y2 - y3 - y4`` is conserved (``= 0``).

    Why ``[0, 1e3]`` and not the set's ``[0, 1e13]``: there the state is decided by
    rounding.  ``y2 - y3 - y4 = 0`` leaves ``y2`` and ``y3`` decaying together like
    ``1/(M C t)``, so an offset ``y2 - y3`` of ``eps`` times the transient's ``1e-10``
    decides ``y(1e13) ~ 1e-22``: SciPy's Radau, BDF and LSODA at rtol 1e-6 and 1e-8 end
    with ratios ``y2/y3`` scattered over more than six decades, and the published
    reference (:data:`E5_PUBLISHED`) has ``y2 - y3 = 1.28e-25`` with ``y4 = 0``.  Up to
    ``1e3`` SciPy's three codes agree to 3e-12, so digits can be measured
    (:data:`E5_REF`; both claims are tested in ``tests/lib/test_testset.py``).
    """
    A, B, C, M = 7.89e-10, 1.1e7, 1.13e3, 1e6

    def f(t, y):
        r1, r2, r3, r4 = A * y[0], B * y[0] * y[2], M * C * y[1] * y[2], C * y[3]
        return np.array([-r1 - r2, r1 - r3, r1 - r2 - r3 + r4, r2 - r4])

    def jac(t, y):
        b1, b3, m2, m3 = B * y[0], B * y[2], M * C * y[1], M * C * y[2]
        return np.array(
            [
                [-A - b3, 0.0, -b1, 0.0],
                [A, -m3, -m2, 0.0],
                [A - b3, -m3, -b1 - m2, C],
                [b3, 0.0, b1, -C],
            ]
        )

    return ODEProblem(
        f,
        [1.76e-3, 0.0, 0.0, 0.0],
        (0.0, E5_END),
        jac=jac,
        name="E5",
        params={"reference": E5_REF.copy()},
        nonnegative=True,  # concentrations
    )


def testset_problem(name: str) -> ODEProblem:
    """``"hires"``, ``"rober"``, ``"vdpol"``, ``"orego"`` or ``"e5"``."""
    check.one_of("name", name, NAMES)
    return {"hires": hires, "rober": rober, "vdpol": vdpol, "orego": orego, "e5": e5}[name]()


def digits(y_end, reference, floor: float = 0.0) -> float:
    """``-log10(max_i |y_i - ref_i| / max(|ref_i|, floor))``: correct digits at ``t_end``.

    Components with ``ref_i = 0`` (and ``floor = 0``) are measured absolutely.
    ``floor >= 0`` keeps a component that happens to pass near zero from
    dominating (the robot problems use ``1e-6 max|ref|``).  Capped at 16; negative
    when the error exceeds the reference (finite even where the ratio overflows a double);
    0 for a ``y_end`` that is not finite, a failed run's, which no accuracy can be read from.
    """
    y = check.real_array("y_end", y_end, ndim=1, finite=False)
    ref = check.real_array("reference", reference, ndim=1)
    if y.shape != ref.shape:
        raise ValueError(f"y_end must have shape {ref.shape} like reference, got {y.shape}")
    if not np.all(np.isfinite(y)):
        return 0.0
    floor = check.positive("floor", floor, allow_zero=True)
    den = np.maximum(np.abs(ref), floor)
    den = np.where(den == 0.0, 1.0, den)
    with np.errstate(over="ignore"):
        err = float(np.max(np.abs(y / den - ref / den)))  # scaled first: y - ref can overflow
    if err == math.inf:  # y far beyond a tiny reference: the same ratio taken in logarithms
        with np.errstate(divide="ignore"):
            logs = np.log10(np.abs(0.5 * y - 0.5 * ref)) + math.log10(2.0) - np.log10(den)
        return float(-np.max(logs))
    return 16.0 if err == 0.0 else float(min(16.0, -np.log10(err)))
