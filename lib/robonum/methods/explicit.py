"""Explicit Runge-Kutta methods as Butcher tableaux (exact rationals).

References: Hairer, Norsett & Wanner, *Solving ODEs I*, Tables II.1.1-II.1.2
(Euler, Heun, midpoint, Kutta's third-order rule, classical RK4) and
Dormand & Prince (1980), J. Comput. Appl. Math. 6, 19-26 (DOPRI5).
"""

from fractions import Fraction as F

from ..tableau import ButcherTableau

EULER = ButcherTableau("Euler", A=[[0]], b=[1], order=1)

HEUN = ButcherTableau("Heun", A=[[0, 0], [1, 0]], b=[F(1, 2), F(1, 2)], order=2)

MIDPOINT = ButcherTableau("Explicit midpoint", A=[[0, 0], [F(1, 2), 0]], b=[0, 1], order=2)

KUTTA3 = ButcherTableau(
    "Kutta RK3",
    A=[[0, 0, 0], [F(1, 2), 0, 0], [-1, 2, 0]],
    b=[F(1, 6), F(2, 3), F(1, 6)],
    order=3,
)

RK4 = ButcherTableau(
    "RK4",
    A=[[0, 0, 0, 0], [F(1, 2), 0, 0, 0], [0, F(1, 2), 0, 0], [0, 0, 1, 0]],
    b=[F(1, 6), F(1, 3), F(1, 3), F(1, 6)],
    order=4,
)

DOPRI5 = ButcherTableau(
    "Dormand-Prince 5(4)",
    A=[
        [0, 0, 0, 0, 0, 0, 0],
        [F(1, 5), 0, 0, 0, 0, 0, 0],
        [F(3, 40), F(9, 40), 0, 0, 0, 0, 0],
        [F(44, 45), F(-56, 15), F(32, 9), 0, 0, 0, 0],
        [F(19372, 6561), F(-25360, 2187), F(64448, 6561), F(-212, 729), 0, 0, 0],
        [F(9017, 3168), F(-355, 33), F(46732, 5247), F(49, 176), F(-5103, 18656), 0, 0],
        [F(35, 384), 0, F(500, 1113), F(125, 192), F(-2187, 6784), F(11, 84), 0],
    ],
    b=[F(35, 384), 0, F(500, 1113), F(125, 192), F(-2187, 6784), F(11, 84), 0],
    b_hat=[
        F(5179, 57600),
        0,
        F(7571, 16695),
        F(393, 640),
        F(-92097, 339200),
        F(187, 2100),
        F(1, 40),
    ],
    order=5,
    order_hat=4,
)

ALL = {
    "euler": EULER,
    "heun": HEUN,
    "midpoint": MIDPOINT,
    "rk3": KUTTA3,
    "rk4": RK4,
    "dopri5": DOPRI5,
}
