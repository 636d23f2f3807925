"""Korean search on the built book: particles, snippets, and the book opened from disk.

The pages a search must find are computed from the built HTML (the text of
each page's article), never written down: searching 강성 must list every page
whose text contains 강성 in any form (강성을, 강성입니다, 강성이 ...), and a
page that uses a word only with an ending attached (방법은, 부호를) is found too.  Result
snippets must be readable text (no raw LaTeX), and the same search must work
when the book is opened from file:// with no server.
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote, unquote, urlparse

import pytest

from conftest import HTML, book_pages, file_url, shoot, watch

PAGES = book_pages() if HTML.exists() else []
RAW_LATEX = re.compile(r"\\[A-Za-z]+|\\[()\[\]]|\$")
QUERIES = ["강성", "안정", "후진 오일러", "부처 배열"]


def _article_text(path: str) -> str:
    """The readable text of a page's article, straight from the built HTML."""
    page = (HTML / path).read_text(encoding="utf-8")
    m = re.search(r'<article class="bd-article"[^>]*>(.*?)</article>', page, re.S)
    if not m:
        return ""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", m.group(1), flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def expected_pages(query: str) -> set[str]:
    """Pages whose text contains every space-separated word of ``query``."""
    words = query.split()
    return {p for p in PAGES if (text := _article_text(p)) and all(w in text for w in words)}


def _search(page, base: str, query: str) -> dict[str, list[str]]:
    """Run ``query`` on the search page at ``base``; {page path: [snippet texts]}."""
    page.goto(f"{base}/search.html?q={quote(query)}", wait_until="load")
    page.wait_for_function(
        "() => { const s = document.querySelector('#search-results p.search-summary');"
        " return s && s.innerText.trim().length > 0; }",
        timeout=20000,
    )
    # Snippets arrive one by one; wait until every listed result has one.
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('#search-results ul.search > li'))"
        ".every(li => li.querySelector('p.context'))",
        timeout=20000,
    )
    items = page.eval_on_selector_all(
        "#search-results ul.search > li",
        "lis => lis.map(li => [li.querySelector('a').href,"
        " (li.querySelector('p.context') || {}).textContent || ''])",
    )
    found: dict[str, list[str]] = {}
    for href, snippet in items:
        path = unquote(urlparse(href).path)
        root = unquote(urlparse(base + "/").path)
        found.setdefault(path[len(root) :] if path.startswith(root) else path, []).append(snippet)
    return found


@pytest.fixture
def reader(browser, site):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = watch(context.new_page(), (site + "/", "data:", "blob:", "about:"))
    yield page
    context.close()


@pytest.mark.parametrize("query", QUERIES)
def test_search_finds_every_page_with_the_word(reader, site, query):
    expected = expected_pages(query)
    assert expected, f"no page contains {query!r}: the test lost its subject"
    found = _search(reader, site, query)
    missing = expected - set(found)
    assert not missing, f"search {query!r} missed {sorted(missing)} (found {sorted(found)})"
    stray = set(found) - expected
    assert not stray, f"search {query!r} listed pages without the words: {sorted(stray)}"
    assert reader.outside == [] and reader.errors == [], (reader.outside, reader.errors)


# Two-syllable words, the common case in Korean, that some page may use only with an
# ending attached (방법은, 부호를, 규약이): Sphinx's own search never finds those pages.
PARTICLE_WORDS = ["방법", "부호", "규약", "영역", "함수", "간격", "차수", "강성", "오차", "걸음"]


def only_with_particles(word: str) -> set[str]:
    """Pages whose text has ``word`` but never as a word on its own."""
    alone = re.compile(rf"(?<![가-힣]){word}(?![가-힣])")
    return {p for p in PAGES if word in (text := _article_text(p)) and not alone.search(text)}


def test_a_word_with_an_ending_is_found(reader, site):
    cases = {w: only_with_particles(w) for w in PARTICLE_WORDS}
    cases = {w: pages for w, pages in cases.items() if pages}
    assert cases, "no page uses these words only with endings: pick other words"
    for word, pages in cases.items():
        found = set(_search(reader, site, word))
        assert pages <= found, (
            f"search {word!r} missed {sorted(pages - found)}, which say {word}+ending"
        )


def test_particles_do_not_hide_a_word():
    """The subject of the test above: 강성 appears with particles attached, on several pages."""
    forms = set()
    for p in PAGES:
        forms |= set(re.findall(r"강성[가-힣]+", _article_text(p)))
    assert len(forms) >= 3, forms
    assert len(expected_pages("강성")) >= 3


@pytest.mark.parametrize("query", ["강성", "안정"])
def test_snippets_are_clean_text(reader, site, query):
    found = _search(reader, site, query)
    snippets = [s for ss in found.values() for s in ss]
    assert snippets and all(s.strip() for s in snippets), found
    raw = [s for s in snippets if RAW_LATEX.search(s)]
    assert not raw, f"raw LaTeX in snippets: {raw[:3]}"
    assert any(query in s for s in snippets), snippets[:3]


def test_search_works_from_file(browser):
    """The book opened from disk: results are listed, with snippets, and nothing leaves the folder."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = watch(context.new_page(), (file_url().rstrip("/") + "/", "data:", "blob:", "about:"))
    try:
        found = _search(page, file_url().rstrip("/"), "강성")
        shoot(page, "search_file.png", full_page=True)
        assert set(found) == expected_pages("강성"), sorted(found)
        snippets = [s for ss in found.values() for s in ss]
        assert all(s.strip() and not RAW_LATEX.search(s) for s in snippets), snippets[:3]
        assert page.outside == [], page.outside
        assert page.errors == [], page.errors
    finally:
        context.close()


def test_query_is_split_as_the_index_is(reader, site):
    """The browser's splitQuery and the indexer's split agree (robonum_sphinx.korean_search)."""
    from robonum_sphinx.korean_search import pieces

    reader.goto(f"{site}/search.html", wait_until="load")
    for text in ["강성을", "후진 오일러의 R(z)는", "RK4는 4차", "값 h", "A-안정성과 L-안정성"]:
        in_browser = reader.evaluate("t => splitQuery(t)", text)
        in_python = [w for tok in re.findall(r"\w+", text) for w in pieces(tok)]
        assert in_browser == in_python, (text, in_browser, in_python)
