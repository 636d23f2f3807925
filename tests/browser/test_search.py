"""Korean search on the built book: particles, snippets, and the book opened from disk.

The pages a search must find are computed from the built HTML (the text of
each page's article), never written down: searching 강성 must list every page
whose text contains 강성 in any form (강성을, 강성입니다, 강성이 ...), and a
page that uses a word only with an ending attached (방법은, 부호를) is found too.  Result
snippets must be readable text (no raw LaTeX), and the same search must work
when the book is opened from file:// with no server.  A spelling the glossary lists
as a synonym (자코비안, 스티프) finds the pages of the book's word (야코비안, 강성),
and a search that finds nothing says something true in Korean.
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote, unquote, urlparse

import pytest

from conftest import HTML, ROOT, book_pages, file_url, shoot, watch
from robonum_sphinx import glossary
from robonum_sphinx.korean_search import NO_RESULTS, query_terms, synonym_rules
from robonum_sphinx.page_text import article_text

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


def _wait_for_summary(page, base: str, query: str) -> str:
    """Open the search page at ``base`` for ``query``; the summary line once the search ends."""
    page.goto(f"{base}/search.html?q={quote(query)}", wait_until="load")
    page.wait_for_function(
        "() => { const s = document.querySelector('#search-results p.search-summary');"
        " return s && s.innerText.trim().length > 0; }",
        timeout=20000,
    )
    return page.inner_text("#search-results p.search-summary")


def _search(page, base: str, query: str) -> dict[str, list[str]]:
    """Run ``query`` on the search page at ``base``; {page path: [snippet texts]}."""
    _wait_for_summary(page, base, query)
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
    # With the glossary's synonyms: the browser replaces them as query_terms does.
    for text in ["자코비안을", "스티프니스와 스티프", "룽게쿠타 4차", "자동미분과 AD", "사원수"]:
        in_browser = reader.evaluate("t => splitQuery(t)", text)
        assert in_browser == query_terms(text, RULES), (text, in_browser)
        assert in_browser != query_terms(text), f"{text!r}: no synonym was replaced"


# --- synonyms from the glossary (book/appendix/glossary.yml, field `synonyms`) ----------
RULES = synonym_rules(glossary.load(ROOT / "book" / "appendix" / "glossary.yml"))


@pytest.mark.parametrize(("synonym", "word"), [("자코비안", "야코비안"), ("스티프", "강성")])
def test_a_synonym_finds_the_pages_of_the_books_word(reader, site, synonym, word):
    assert (synonym, word) in RULES, f"the glossary no longer lists {synonym} for {word}"
    expected = expected_pages(word)
    assert expected and not expected_pages(synonym), "the test lost its subject"
    found = set(_search(reader, site, synonym))
    assert found == expected, (
        f"search {synonym!r} found {sorted(found)}; the pages with {word!r} are {sorted(expected)}"
    )


# The pages a query finds, by the search page's own code (query split with the synonyms
# replaced, then looked up in the index), without drawing the results and fetching a snippet for
# each: the tests above follow a reader's search to the end.
_FOUND = (
    """q => [...new Set(Search._performSearch(...Search._parseQuery(q)).map(r => r[0]))].sort()"""
)


def test_every_synonym_finds_what_its_word_finds(reader, site):
    """Every synonym of the glossary, against its word: one load of the index, then each query."""
    _wait_for_summary(reader, site, RULES[0][1])  # the page has loaded its index
    for synonym, word in RULES:
        pages = reader.evaluate(_FOUND, word)
        assert pages, f"the book's word {word!r} finds no page: the comparison would be empty"
        assert reader.evaluate(_FOUND, synonym) == pages, synonym


def _prose(path: str) -> str:
    """A page's text without code (a variable ``AD`` in a cell is not a word of the book)."""
    page = re.sub(
        r"<(code|pre)\b[^>]*>.*?</\1>", " ", (HTML / path).read_text(encoding="utf-8"), flags=re.S
    )
    return html.unescape(re.sub(r"<[^>]+>", " ", article_text(page)))


def test_synonyms_are_not_words_of_the_book():
    """A synonym is replaced before searching, so a page using it in prose would be lost."""
    used = {}
    for synonym, _word in RULES:
        word = re.compile(rf"(?<![\w]){re.escape(synonym)}(?![A-Za-z0-9_])", re.I)
        pages = [p for p in PAGES if word.search(_prose(p))]
        if pages:
            used[synonym] = pages
    assert not used, f"the book uses these glossary synonyms (retire or drop them): {used}"


def test_no_result_message_is_true(reader, site):
    summary = _wait_for_summary(reader, site, "쀍뚫쀍")
    assert reader.eval_on_selector_all("#search-results ul.search > li", "l => l.length") == 0
    assert "카테고리" not in summary, summary
    assert summary == NO_RESULTS, summary
