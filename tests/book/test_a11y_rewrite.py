"""The accessibility rewrites of a rendered page (robonum_sphinx.a11y), on small pieces of markup.

tests/browser/test_a11y.py runs axe-core over the built book; these pin down
what each rewrite does and does not touch, and that a second pass changes nothing.
"""

from __future__ import annotations

from robonum_sphinx.a11y import KOREAN, accessible, korean_chrome, math_only_names

MATH = '<span class="math notranslate nohighlight">\\({}\\)</span>'


def test_math_only_header_gets_a_unicode_twin_and_the_formula_is_hidden():
    page = f'<table><thead><tr><th scope="col">{MATH.format("x^2")}</th></tr></thead></table>'
    out = math_only_names(page)
    assert '<span class="visually-hidden">x²</span>' in out
    assert f'<span aria-hidden="true">{MATH.format("x^2")}</span>' in out


def test_a_label_with_words_of_its_own_is_left_alone():
    page = f'<label><input type="radio" value="1"> {MATH.format("|x|")} (<code>abs</code>)</label>'
    assert math_only_names(page) == page
    math_only = f'<label><input type="radio" value="0"> {MATH.format("x^2")}</label>'
    assert '<span class="visually-hidden">x²</span>' in math_only_names(math_only)


def test_every_rewrite_is_idempotent():
    page = (
        '<div id="pst-skip-link" class="skip-link d-print-none"><a href="#main-content">'
        'Skip to main content</a></div><div id="pst-primary-sidebar" class="bd-sidebar">'
        '<summary aria-label="Toggle hidden content">'
        f"<th>{MATH.format('h')}</th>"
    )
    once = accessible(page)
    assert ">본문으로 건너뛰기<" in once and 'role="complementary"' in once
    assert "<summary>" in once
    assert accessible(once) == once


def test_the_search_field_is_named_by_what_it_shows():
    button = (
        '<button class="btn search-button-field search-button__button pst-js-only" '
        'title="검색" aria-label="검색" data-bs-placement="bottom">'
    )
    out = korean_chrome(button)
    assert "aria-label" not in out and 'title="검색"' in out


def test_every_replacement_gives_its_korean():
    for english, korean in KOREAN:
        assert korean_chrome(english) == korean, english
