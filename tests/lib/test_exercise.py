"""Self-check exercises: tolerance logic, reply parsing, deterministic HTML, the live widget."""

import json
import math
from fractions import Fraction
from html.parser import HTMLParser

import numpy as np
import pytest

from robonum.book import CheckResult, Exercise
from robonum.book.exercise import MESSAGES, parse_number


def number(answer=2.7852935634, **kw):
    kw = {"hint": "$R(x) = 1$을 푸세요.", "solution": "삼차식의 근입니다.", **kw}
    return Exercise("rk4-limit", "RK4의 실수축 안정 한계 $|x|$는?", answer=answer, **kw)


def choice(**kw):
    kw = {"answer": 1, "hint": "$R(\\infty)$를 보세요.", "solution": "$R \\to -1$", **kw}
    return Exercise.choice(
        "trap-l", "사다리꼴은 L-안정입니까?", ["예", "아니요, $|R(\\infty)| = 1$"], **kw
    )


# -- tolerance ---------------------------------------------------------------------
def test_relative_tolerance_is_applied_and_stated():
    ex = number(answer=2.5, rtol=1e-3)
    assert ex.tolerance == pytest.approx(2.5e-3)
    assert ex.check(2.5024).correct and ex.check("2.4976").correct
    assert not ex.check(2.5026).correct and not ex.check("2.4974").correct
    assert ex.tolerance_text() == "허용 오차: 상대 0.1 %"


def test_the_larger_of_atol_and_rtol_applies_and_is_the_one_stated():
    ex = number(answer=0.002, rtol=1e-3, atol=1e-4, unit="s")
    assert ex.tolerance == 1e-4  # atol dominates near zero
    assert ex.check(0.00209).correct and not ex.check(0.00211).correct
    assert ex.tolerance_text() == "허용 오차: ±0.0001 s"


def test_answer_zero_needs_atol():
    with pytest.raises(ValueError, match="atol"):
        number(answer=0.0)
    ex = number(answer=0.0, atol=1e-6)
    assert [ex.check(v).correct for v in ("0", "-0", "1e-7", "-1e-7", "2e-6")] == [True] * 4 + [
        False
    ]
    # no "wrong sign" verdict for 0: -x is as close as x
    assert ex.check("-5e-6").message == MESSAGES["wrong"]


def test_negative_answers_and_the_sign_hint():
    ex = number(answer=-2.7852935634)
    assert ex.check("-2.785").correct and ex.check("\u22122.785").correct  # U+2212 minus
    r = ex.check("2.785")
    assert r == CheckResult(False, MESSAGES["sign"], "wrong")
    assert r.message.startswith("아직 아닙니다")


def test_exact_integer_answers_and_refused_exactness():
    ex = number(answer=6, rtol=0)
    assert ex.check("6").correct and ex.check("6.0").correct and ex.check("12/2").correct
    assert not ex.check("6.0000001").correct
    assert ex.tolerance_text() == "정확한 정수로 답하세요."
    with pytest.raises(ValueError, match="rtol and atol are both 0"):
        number(answer=2.5, rtol=0)


@pytest.mark.parametrize(
    "bad, exc, word",
    [
        (float("nan"), ValueError, "answer"),
        (float("inf"), ValueError, "answer"),
        (-np.inf, ValueError, "answer"),
        (1 + 2j, TypeError, "answer"),
        (True, TypeError, "answer"),
        ("2.5", TypeError, "answer"),
        (10**400, ValueError, "answer"),
    ],
)
def test_bad_answers_are_refused_naming_the_parameter(bad, exc, word):
    with pytest.raises(exc, match=word):
        number(answer=bad)


def test_bad_tolerances_are_refused():
    with pytest.raises(ValueError, match="rtol"):
        number(rtol=-1e-3)
    with pytest.raises(ValueError, match="rtol"):
        number(rtol=2.0)  # more than 100 %
    with pytest.raises(ValueError, match="12 significant digits"):
        number(rtol=1e-12)  # tighter than the stored answer
    with pytest.raises(ValueError, match="atol"):
        number(atol=float("nan"))


def test_definition_errors_are_clear():
    with pytest.raises(ValueError, match="key"):
        Exercise("has space", "q", answer=1.0, hint="h", solution="s")
    with pytest.raises(ValueError, match="hint"):
        number(hint="  ")
    with pytest.raises(TypeError, match="solution"):
        number(solution=None)


# -- replies -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, value",
    [
        ("2.5", 2.5),
        (" 2.5 ", 2.5),
        ("+2.5", 2.5),
        ("-2.785", -2.785),
        ("\u22122.785", -2.785),
        (".5", 0.5),
        ("5.", 5.0),
        ("2.5e-3", 2.5e-3),
        ("2.5E+3", 2500.0),
        ("1/3", 1 / 3),
        ("-1 / 4", -0.25),
        ("２．５", 2.5),  # full-width digits (NFKC)
    ],
)
def test_replies_that_are_numbers(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize(
    "text, key",
    [
        ("", "empty"),
        ("   ", "empty"),
        (" 2,5", "comma"),
        ("1,000", "comma"),
        ("abc", "bad"),
        ("inf", "bad"),
        ("nan", "bad"),
        ("1/2/3", "bad"),
        ("0x10", "bad"),
        ("2.5.1", "bad"),
        ("e5", "bad"),
        ("١٢", "bad"),  # Arabic-Indic digits: float() would accept them, the page would not
        ("1/0", "zero"),
        ("1/0.0", "zero"),
        ("1e999", "big"),
        ("1e300/1e-300", "big"),
    ],
)
def test_replies_that_are_not_numbers_get_a_korean_message(text, key):
    assert parse_number(text) == MESSAGES[key]
    r = number().check(text)
    assert r == CheckResult(False, MESSAGES[key], "invalid")


def test_numbers_and_odd_objects_passed_from_python():
    ex = number()
    assert ex.check(np.float64(2.785)).correct and ex.check(Fraction(557, 200)).correct
    assert ex.check(None).message == MESSAGES["empty"]
    for odd in (True, float("nan"), [2.785], 2.785 + 0j):
        assert ex.check(odd).status == "invalid"
    assert ex.check(float("inf")).message == MESSAGES["big"]


def test_messages():
    ex = number()
    # rtol 1e-3: the band is 0.0028 wide, so the answer is shown down to a hundredth of it,
    # and "약" says the value shown is rounded (always, where a band is granted)
    assert ex.check("2.785").message == "맞습니다! 이 페이지에서 계산한 값은 약 2.78529입니다."
    assert ex.shown_digits() == 6
    assert number(rtol=0.05).shown_digits() == 4 and number(rtol=1e-9).shown_digits() == 6
    assert number(answer=16.2074347, rtol=0.01).shown_digits() == 5
    assert (
        number(answer=0.5, rtol=0.0, atol=0.01).check("0.5").message
        == "맞습니다! 이 페이지에서 계산한 값은 약 0.5입니다."
    )
    assert (
        number(answer=994, rtol=0.0).check("994").message
        == "맞습니다! 이 페이지에서 계산한 값은 994입니다."
    )
    assert ex.check("3").message == "아직 아닙니다. 힌트를 열어 보세요."


def test_multiple_choice():
    ex = choice()
    assert ex.check(1).correct and ex.check("아니요, $|R(\\infty)| = 1$").correct
    assert ex.check(0) == CheckResult(False, MESSAGES["wrong"], "wrong")
    for odd in (None, 2, -1, "몰라", True):
        assert ex.check(odd) == CheckResult(False, MESSAGES["choose"], "invalid")
    assert choice(answer="예").answer == 0
    with pytest.raises(ValueError, match="answer"):
        choice(answer="모름")
    with pytest.raises(ValueError, match="answer"):
        choice(answer=2)
    with pytest.raises(ValueError, match="options"):
        Exercise.choice("k", "q", ["예", "예"], answer=0, hint="h", solution="s")
    with pytest.raises(TypeError, match="options"):
        Exercise.choice("k", "q", "예아니요", answer=0, hint="h", solution="s")


# -- the static view ---------------------------------------------------------------
class _Tree(HTMLParser):
    def __init__(self, text):
        super().__init__()
        self.tags, self.text = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def find(self, tag, **attrs):
        return [
            a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in attrs.items())
        ]


def test_html_is_deterministic_and_machine_independent():
    a, b = number().to_html(), number().to_html()
    assert a == b
    # a round-off-level difference in the computed answer does not change the page
    assert number(answer=1 / 3).to_html() == number(answer=1 / 3 + 2e-16).to_html()
    assert 'data-answer="0.3333333333"' in number(answer=1 / 3).to_html()  # tol/1e6 resolution
    assert 'data-answer="0.333333333333"' in number(answer=1 / 3, rtol=1e-9).to_html()  # 12 digits
    # a round-off-level answer near 0 is stored to a millionth of the tolerance
    near_zero = [number(answer=a, atol=1e-6).to_html() for a in (1.3e-17, -2.2e-17, 0.0)]
    assert near_zero[0] == near_zero[1] == near_zero[2] and 'data-answer="0.0"' in near_zero[0]
    assert "0x" not in a and 'id="rn-ex-rk4-limit"' in a


def test_html_structure_number():
    html = number(answer=2.5, unit="s").to_html()
    tree = _Tree(html)
    root = tree.find("div", id="rn-ex-rk4-limit")[0]
    assert root["class"] == "rn-check" and root["data-kind"] == "number"
    assert (root["data-answer"], root["data-rtol"], root["data-atol"]) == ("2.5", "0.001", "0.0")
    inp = tree.find("input", id="rn-ex-rk4-limit-in")[0]
    assert inp["inputmode"] == "decimal" and inp["type"] == "text"
    assert tree.find("label", **{"for": "rn-ex-rk4-limit-in"})
    assert tree.find("button", type="button")
    assert tree.find("p", role="status", **{"aria-live": "polite"})
    details = tree.find("details")
    assert [d["class"] for d in details] == ["rn-hint", "rn-solution"]
    assert all("open" not in d for d in details)  # hidden until asked for
    text = "".join(tree.text)
    assert "힌트" in text and "풀이" in text and "확인" in text and "허용 오차: 상대 0.1 %" in text
    msgs = json.loads(html.split('class="rn-msgs">')[1].split("</script>")[0])
    assert msgs["correct"].startswith("맞습니다") and msgs["comma"] == MESSAGES["comma"]


def test_inputmode_text_when_a_number_pad_cannot_type_the_answer():
    assert 'inputmode="text"' in number(answer=-2.5).to_html()  # minus sign
    assert 'inputmode="text"' in number(answer=2.5e-7).to_html()  # exponent
    assert 'inputmode="decimal"' in number(answer=0.0025).to_html()


def test_html_structure_choice():
    tree = _Tree(choice().to_html())
    radios = tree.find("input", type="radio")
    assert [r["value"] for r in radios] == ["0", "1"] and {r["name"] for r in radios} == {
        "rn-ex-trap-l"
    }
    root = tree.find("div", id="rn-ex-trap-l")[0]
    assert root["data-kind"] == "choice" and root["data-answer"] == "1"


def test_text_is_escaped_and_math_is_kept_for_mathjax():
    ex = Exercise(
        "esc",
        "<b>굵게?</b> & $a < b$ 그리고 \\$5",
        answer=1.0,
        hint="</script><script>alert(1)</script>",
        solution="**풀이** `x<y`",
    )
    html = ex.to_html()
    assert "&lt;b&gt;굵게?&lt;/b&gt; &amp;" in html and "<b>" not in html
    assert '<span class="math notranslate nohighlight">\\(a &lt; b\\)</span>' in html
    assert "그리고 $5" in html
    assert "<script>alert" not in html and "&lt;/script&gt;&lt;script&gt;alert(1)" in html
    assert "<strong>풀이</strong> <code>x&lt;y</code>" in html
    assert html.count("<script") == 2  # the messages (JSON) and the checker


def test_text_plain_is_readable_and_hides_the_answer():
    text = number().to_text()
    assert text == (
        "확인 문제 [rk4-limit] RK4의 실수축 안정 한계 |x|는?\n"
        "허용 오차: 상대 0.1 % · 답은 .check(값)으로 확인합니다."
    )
    assert "2.785" not in text
    assert "1) 아니요, |R(∞)| = 1" in choice().to_text()


def test_mimebundle_outside_a_kernel_is_html_and_text():
    bundle = number()._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/html"] == number().to_html()


# -- the live view -----------------------------------------------------------------
def test_widget_checks_with_the_same_rules():
    box = number().widget()
    assert box.more.selected_index is None  # hint and solution closed
    box.input.value = "2.785"  # Enter in the Text box
    assert "맞습니다" in box.feedback.value
    box.input.value = " 2,5"
    assert MESSAGES["comma"] in box.feedback.value
    w = choice().widget()
    w.input.value = 0
    w.button.click()
    assert "아직 아닙니다" in w.feedback.value
    w.input.value = 1
    w.button.click()
    assert "맞습니다" in w.feedback.value


def test_same_verdicts_as_the_formula():
    # |x - a| <= max(atol, rtol |a|), checked on a grid around the boundary
    ex = number(answer=-3.0, rtol=1e-2, atol=1e-3)
    for x in np.linspace(-3.1, -2.9, 41):
        assert ex.check(float(x)).correct == (abs(x + 3.0) <= max(1e-3, 3e-2)), x
    assert math.isclose(ex.tolerance, 0.03)
