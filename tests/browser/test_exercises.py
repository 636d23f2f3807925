"""Self-check exercises (``.rn-check``) in the built book, in headless Chromium, offline.

Every exercise of every page is walked through (``conftest.walk_exercise``:
a wrong answer gets the wrong-feedback, the right one the correct-feedback,
hint and solution stay hidden until their summary is clicked) in the one
phone-width ``file://`` load of each page, ``test_pages.py``.  Here: the
page's JS must judge exactly as ``Exercise.check`` does (same inputs, same
verdicts), the exercises also work over http, and every chapter has at least three.
"""

from __future__ import annotations

import re

import pytest

from conftest import HTML, answer_exercise, book_pages, snapshot, walk_exercise, watch

PAGES = book_pages() if HTML.exists() else []


def _text(path: str) -> str:
    return (HTML / path).read_text(encoding="utf-8")


WITH_EXERCISES = [p for p in PAGES if 'class="rn-check"' in _text(p)]


def _h1(path: str) -> str:
    """The page's heading as shown (the theme's print header repeats it without the number)."""
    heads = [
        re.sub(r"<[^>]+>", "", h).strip()
        for h in re.findall(r"<h1[^>]*>(.*?)</h1>", _text(path), re.S)
    ]
    numbered = [h for h in heads if _NUMBERED.match(h)]
    return (numbered or heads or [""])[0]


_NUMBERED = re.compile(r"\d+(\.\d+)*\.?\s")
CHAPTERS = [p for p in PAGES if _NUMBERED.match(_h1(p))]


def test_some_page_has_exercises():
    if not WITH_EXERCISES:
        pytest.skip("no page of the built book has a self-check exercise yet")


@pytest.mark.parametrize("path", WITH_EXERCISES[:1])
def test_exercises_work_over_http(browser, site, path):
    context = browser.new_context()
    pg = watch(context.new_page(), (site + "/", "data:", "blob:", "about:"))
    pg.goto(f"{site}/{path}", wait_until="load")
    walk_exercise(pg.locator(".rn-check").first, f"http {path}")
    assert pg.outside == [] and pg.errors == [], (pg.outside, pg.errors)
    context.close()


@pytest.mark.parametrize("path", CHAPTERS)
def test_each_chapter_has_at_least_three_exercises(path):
    n = _text(path).count('class="rn-check"')
    assert n >= 3, f"{path} ({_h1(path)!r}) has {n} self-check exercises; chapters need at least 3"


# -- the page's JS judges exactly like Exercise.check (no built book needed) --------
REPLIES = [
    "2.785",
    " 2.7853 ",
    "-2.785",
    "\u22122.785",
    "2,785",
    "1,000",
    "",
    "   ",
    "abc",
    "inf",
    "NaN",
    "1/0",
    "1e999",
    "1e300/1e-300",
    "557/200",
    "2.785e0",
    ".5",
    "5.",
    "+2.78",
    "２．７８５",
    "١٢",
    "0x10",
    "1/2/3",
    "2.79",
    "2.78",
    "2.7824",
    "2.7881",
]


def test_page_js_and_python_give_the_same_verdicts(browser):
    from robonum.book import Exercise

    kw = {"hint": "힌트 $x$", "solution": "풀이"}
    exercises = [
        Exercise("pos", "양수", answer=2.7852935634, **kw),
        Exercise("neg", "음수", answer=-2.7852935634, rtol=1e-2, **kw),
        Exercise("zero", "영", answer=1e-17, atol=1e-3, **kw),
        Exercise("int", "정수", answer=6, rtol=0, **kw),
    ]
    choice = Exercise.choice("pick", "고르기", ["$a$", "b", "c"], answer=2, **kw)
    context = browser.new_context()
    pg = watch(context.new_page(), ("data:", "about:"))
    pg.set_content(
        "<!doctype html><meta charset=utf-8><body>"
        + "".join(ex.to_html() for ex in exercises + [choice])
        + "</body>"
    )
    for ex in exercises:
        root = pg.locator(f"#{ex.uid}")
        assert root.get_attribute("data-ready") == "1"
        for reply in REPLIES + ["6", "6.0", "12/2", "0", "-0.0009", "0.0011"]:
            answer_exercise(root, reply, press_enter=True, kind=ex.kind)
            want = ex.check(reply)
            snap = snapshot(root)  # one round trip for both
            got = (snap["state"], snap["feedback"])
            assert got == (want.status, want.message), (ex.key, reply)
    root = pg.locator(f"#{choice.uid}")
    root.locator("button.rn-submit").click()  # nothing picked yet
    assert root.locator(".rn-feedback").inner_text() == choice.check(None).message
    for i in range(3):
        answer_exercise(root, str(i), press_enter=False)
        assert root.locator(".rn-feedback").inner_text() == choice.check(i).message
    for ex in exercises + [choice]:  # the same walk-through as on the pages
        walk_exercise(pg.locator(f"#{ex.uid}"), ex.key)
    assert pg.errors == [] and pg.outside == []
    context.close()
