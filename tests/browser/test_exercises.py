"""Self-check exercises (``.rn-check``) in the built book, in headless Chromium, offline.

For every exercise on every page: the right answer gets the correct-feedback,
a wrong one the wrong-feedback, and hint and solution stay hidden until their
summary is clicked.  No console errors, no request outside the site.  The
page's JS must judge exactly as ``Exercise.check`` does (same inputs, same
verdicts), and the exercises must work from ``file://`` too.
"""
from __future__ import annotations

import re

import pytest

from conftest import HTML, book_pages

PAGES = book_pages() if HTML.exists() else []


def _text(path: str) -> str:
    return (HTML / path).read_text(encoding="utf-8")


WITH_EXERCISES = [p for p in PAGES if 'class="rn-check"' in _text(p)]


def _h1(path: str) -> str:
    """The page's heading as shown (the theme's print header repeats it without the number)."""
    heads = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<h1[^>]*>(.*?)</h1>", _text(path), re.S)]
    numbered = [h for h in heads if _NUMBERED.match(h)]
    return (numbered or heads or [""])[0]


_NUMBERED = re.compile(r"\d+(\.\d+)*\.?\s")
CHAPTERS = [p for p in PAGES if _NUMBERED.match(_h1(p))]


def _watch(pg, allowed):
    pg.outside, pg.errors = [], []
    pg.on("request", lambda r: None if r.url.startswith(allowed) else pg.outside.append(r.url))
    pg.on("pageerror", lambda e: pg.errors.append(f"pageerror: {e}"))
    pg.on("console", lambda m: pg.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    pg.route("**/*", lambda route: route.continue_() if route.request.url.startswith(allowed)
             else route.abort())
    return pg


@pytest.fixture
def page(browser, site):
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    yield _watch(context.new_page(), (site + "/", "data:", "blob:", "about:"))
    context.close()


def _wrong_value(root) -> str:
    a, tol = float(root.get_attribute("data-answer")), _tolerance(root)
    return repr(a + 10 * tol + abs(a) + 1)


def _tolerance(root) -> float:
    a = float(root.get_attribute("data-answer"))
    return max(float(root.get_attribute("data-atol")), float(root.get_attribute("data-rtol")) * abs(a))


def _answer(root, value: str, press_enter: bool):
    if root.get_attribute("data-kind") == "choice":
        root.locator(f"input[type=radio][value='{value}']").check()
        root.locator("button.rn-submit").click()
        return
    box = root.locator("input.rn-input")
    box.fill(value)
    if press_enter:
        box.press("Enter")
    else:
        root.locator("button.rn-submit").click()


def _check_exercise(root, label):
    feedback = root.locator(".rn-feedback")
    assert feedback.get_attribute("role") == "status" and feedback.get_attribute("aria-live") == "polite"
    root.scroll_into_view_if_needed()
    for cls in ("rn-hint", "rn-solution"):
        details = root.locator(f"details.{cls}")
        assert details.count() == 1, f"{label}: no {cls}"
        assert details.get_attribute("open") is None, f"{label}: {cls} open before asked"
        assert not details.locator(".rn-body").is_visible(), f"{label}: {cls} visible before asked"
    answer = root.get_attribute("data-answer")
    if root.get_attribute("data-kind") == "choice":
        radios = root.locator("input[type=radio]")
        wrong = next(radios.nth(i).get_attribute("value") for i in range(radios.count())
                     if radios.nth(i).get_attribute("value") != answer)
    else:
        wrong = _wrong_value(root)
    _answer(root, wrong, press_enter=True)
    assert root.get_attribute("data-state") == "wrong", f"{label}: {wrong!r} not judged wrong"
    assert feedback.inner_text().startswith("아직 아닙니다"), f"{label}: {feedback.inner_text()!r}"
    _answer(root, answer, press_enter=False)
    assert root.get_attribute("data-state") == "correct", f"{label}: the right answer was refused"
    assert feedback.inner_text().startswith("맞습니다"), f"{label}: {feedback.inner_text()!r}"
    for cls in ("rn-hint", "rn-solution"):
        root.locator(f"details.{cls} > summary").click()
        assert root.locator(f"details.{cls} .rn-body").is_visible(), f"{label}: {cls} did not open"


def test_some_page_has_exercises():
    if not WITH_EXERCISES:
        pytest.skip("no page of the built book has a self-check exercise yet")


@pytest.mark.parametrize("path", WITH_EXERCISES)
def test_every_exercise_answers_right_and_wrong(page, site, path):
    page.goto(f"{site}/{path}", wait_until="load")
    roots = page.locator(".rn-check")
    ids = [roots.nth(i).get_attribute("id") for i in range(roots.count())]
    assert len(set(ids)) == len(ids), f"{path}: duplicate exercise keys {ids}"
    for i, uid in enumerate(ids):
        root = roots.nth(i)
        assert root.get_attribute("data-ready") == "1", f"{path}#{uid}: script did not run"
        _check_exercise(root, f"{path}#{uid}")
    assert page.outside == [], f"{path} requested outside the build: {page.outside}"
    assert page.errors == [], f"{path}: {page.errors}"


@pytest.mark.parametrize("path", WITH_EXERCISES[:1])
def test_exercises_work_from_file_urls(browser, path):
    context = browser.new_context()
    pg = _watch(context.new_page(), ("file://", "data:", "blob:", "about:"))
    pg.goto((HTML / path).as_uri(), wait_until="load")
    root = pg.locator(".rn-check").first
    _check_exercise(root, f"file://{path}")
    assert pg.outside == [] and pg.errors == [], (pg.outside, pg.errors)
    context.close()


@pytest.mark.parametrize("path", CHAPTERS)
def test_each_chapter_has_at_least_three_exercises(path):
    n = _text(path).count('class="rn-check"')
    assert n >= 3, f"{path} ({_h1(path)!r}) has {n} self-check exercises; chapters need at least 3"


# -- the page's JS judges exactly like Exercise.check (no built book needed) --------
REPLIES = ["2.785", " 2.7853 ", "-2.785", "\u22122.785", "2,785", "1,000", "", "   ", "abc", "inf",
           "NaN", "1/0", "1e999", "1e300/1e-300", "557/200", "2.785e0", ".5", "5.", "+2.78",
           "２．７８５", "١٢", "0x10", "1/2/3", "2.79", "2.78", "2.7824", "2.7881"]


def test_page_js_and_python_give_the_same_verdicts(browser):
    from robonum.book import Exercise

    kw = {"hint": "힌트 $x$", "solution": "풀이"}
    exercises = [Exercise("pos", "양수", answer=2.7852935634, **kw),
                 Exercise("neg", "음수", answer=-2.7852935634, rtol=1e-2, **kw),
                 Exercise("zero", "영", answer=1e-17, atol=1e-3, **kw),
                 Exercise("int", "정수", answer=6, rtol=0, **kw)]
    choice = Exercise.choice("pick", "고르기", ["$a$", "b", "c"], answer=2, **kw)
    context = browser.new_context()
    pg = _watch(context.new_page(), ("data:", "about:"))
    pg.set_content("<!doctype html><meta charset=utf-8><body>"
                   + "".join(ex.to_html() for ex in exercises + [choice]) + "</body>")
    for ex in exercises:
        root = pg.locator(f"#{ex.uid}")
        assert root.get_attribute("data-ready") == "1"
        for reply in REPLIES + ["6", "6.0", "12/2", "0", "-0.0009", "0.0011"]:
            _answer(root, reply, press_enter=True)
            want = ex.check(reply)
            got = (root.get_attribute("data-state"), root.locator(".rn-feedback").inner_text())
            assert got == (want.status, want.message), (ex.key, reply)
    root = pg.locator(f"#{choice.uid}")
    root.locator("button.rn-submit").click()                    # nothing picked yet
    assert root.locator(".rn-feedback").inner_text() == choice.check(None).message
    for i in range(3):
        _answer(root, str(i), press_enter=False)
        assert root.locator(".rn-feedback").inner_text() == choice.check(i).message
    for ex in exercises + [choice]:                           # the same walk-through as on the pages
        _check_exercise(pg.locator(f"#{ex.uid}"), ex.key)
    assert pg.errors == [] and pg.outside == []
    context.close()
