"""The live view: in a real JupyterLab, moving a slider makes the kernel redraw.

Starts JupyterLab on loopback with a copy of the exploration how-to notebook,
runs all cells in headless Chromium, moves the step-size slider with the
keyboard and waits for the frame (an ipywidgets Image) to change.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from conftest import ROOT, shoot


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    shutil.copy(ROOT / "book" / "intro" / "how_to_use.ipynb", root / "live.ipynb")
    port = _free_port()
    # Private config/runtime dirs: the reader's own Jupyter settings stay untouched.
    env = {
        **os.environ,
        **{f"JUPYTER_{k}_DIR": str(root / f".{k.lower()}") for k in ("CONFIG", "RUNTIME", "DATA")},
    }
    # Start the notebook's kernel without asking (a cold server otherwise may show
    # a "Select Kernel" dialog), and don't pop up the news notice over the page.
    settings = root / ".config" / "lab" / "user-settings" / "@jupyterlab"
    for ext, body in [
        ("notebook-extension/tracker", '{"autoStartDefaultKernel": true}'),
        ("apputils-extension/notification", '{"fetchNews": "false"}'),
    ]:
        path = settings / f"{ext}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--allow-root",
            "--no-browser",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={root}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("JupyterLab did not start within 90 s")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=30)


def _accept_kernel_dialog(page):
    """A cold server may still ask "Select Kernel": accept the preselected Python 3."""
    try:
        page.locator(".jp-Dialog .jp-mod-accept").first.click(timeout=5_000)
    except PlaywrightTimeout:
        pass


def _run_all_cells(page):
    """Run > Run All Cells from the menu bar (no reliance on keyboard focus)."""
    _accept_kernel_dialog(page)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()


def test_slider_move_recomputes_in_the_kernel(browser, lab):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(f"{lab}/lab/tree/live.ipynb")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
        # The kernel must be up before "Run All" or the request can be lost.
        page.wait_for_function(
            "() => Array.from(document.querySelectorAll('.jp-Notebook-ExecutionIndicator'))"
            ".some(e => (e.getAttribute('data-status') || '') === 'idle')",
            timeout=120_000,
        )
        frame = page.locator(".jp-OutputArea .jupyter-widgets img").first
        for attempt in range(2):
            try:
                _run_all_cells(page)
                frame.wait_for(timeout=90_000)
                break
            except PlaywrightTimeout:
                if attempt:
                    raise
        page.wait_for_function(
            "el => el.src.startsWith('data:') || el.src.startsWith('blob:')",
            arg=frame.element_handle(),
            timeout=60_000,
        )
        before = frame.get_attribute("src")
        handle = page.locator(".jp-OutputArea .widget-slider .noUi-handle").first
        handle.scroll_into_view_if_needed()
        handle.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "([el, old]) => el.src !== old", arg=[frame.element_handle(), before], timeout=60_000
        )
        assert frame.get_attribute("src") != before
    finally:
        shoot(page, "jupyterlab_live.png")
        page.close()
