"""Explicit Runge-Kutta methods as Butcher tableaux (exact rationals).

References: Hairer, Norsett & Wanner, *Solving ODEs I*, Tables II.1.1-II.1.2
(Euler, Heun, midpoint, Kutta's third-order rule, classical RK4) and
Bogacki & Shampine (1989), Appl. Math. Lett. 2, 321-325 (BS23, SciPy's RK23, MATLAB's
ode23); Dormand & Prince (1980), J. Comput. Appl. Math. 6, 19-26 (DOPRI5); DOPRI5's
continuous extension of order 4: Shampine (1986), Math. Comp. 46, 135-150, in the form
of Hairer, Norsett & Wanner I, sec. II.6 (their code DOPRI5, routine CONTD5).
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

# A 3(2) pair, first same as last: three new f-calls a step.  Its error estimate
# is of order 2 (b - b_hat), and with no continuous extension of its own the dense
# output is the cubic Hermite interpolant of y and f at both ends (as SciPy's RK23).
BS23 = ButcherTableau(
    "Bogacki-Shampine 3(2)",
    A=[[0, 0, 0, 0], [F(1, 2), 0, 0, 0], [0, F(3, 4), 0, 0], [F(2, 9), F(1, 3), F(4, 9), 0]],
    b=[F(2, 9), F(1, 3), F(4, 9), 0],
    b_hat=[F(7, 24), F(1, 4), F(1, 3), F(1, 8)],
    order=3,
    order_hat=2,
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
    # b_i(theta) = sum_k dense[i, k] theta^(k+1): row i is stage i, column k the power k + 1.
    # Stage 2 has weight 0 at every theta; the last stage (f at the new point) has b_7 = 0
    # but a nonzero weight in between: the extension costs no f-call beyond the step's own.
    dense=[
        [1, F(-8048581381, 2820520608), F(8663915743, 2820520608), F(-12715105075, 11282082432)],
        [0, 0, 0, 0],
        [
            0,
            F(131558114200, 32700410799),
            F(-68118460800, 10900136933),
            F(87487479700, 32700410799),
        ],
        [
            0,
            F(-1754552775, 470086768),
            F(14199869525, 1410260304),
            F(-10690763975, 1880347072),
        ],
        [
            0,
            F(127303824393, 49829197408),
            F(-318862633887, 49829197408),
            F(701980252875, 199316789632),
        ],
        [0, F(-282668133, 205662961), F(2019193451, 616988883), F(-1453857185, 822651844)],
        [0, F(40617522, 29380423), F(-110615467, 29380423), F(69997945, 29380423)],
    ],
    dense_order=4,
)

ALL = {
    "euler": EULER,
    "heun": HEUN,
    "midpoint": MIDPOINT,
    "rk3": KUTTA3,
    "rk4": RK4,
    "bs23": BS23,
    "dopri5": DOPRI5,
}
