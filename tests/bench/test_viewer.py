"""``agentgym inspect``: the trajectory viewer in Chromium — read an episode, rate it, find the
rating saved beside the run and summarised in its report."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from agentgym_bench.stats import RATINGS_FILE, ratings_summary
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve
from agentgym_bench.viewer import serve, write_page

SUITE = """\
name: tiny-view
version: 1
envs:
  AgentGym/Toy-v0:
    difficulties: [easy]
    splits: [test]
    episodes: 3
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("viewer")
    (folder / "suite.yaml").write_text(SUITE)
    run_suite(resolve(str(folder / "suite.yaml")), RunSettings("oracle"), folder / "run",
              progress=False)  # fmt: skip
    return folder / "run"


def _post(url: str, rating: dict) -> tuple[int, str]:
    request = urllib.request.Request(url + "ratings", data=json.dumps(rating).encode(),
                                     headers={"Content-Type": "application/json"})  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_bad_ratings_are_refused_with_the_reason(run_dir: Path) -> None:
    server, url = serve(run_dir, 0)
    try:
        status, why = _post(url, {"key": "nope"})
        assert status == 400 and "key of an episode" in why
        key = read_episodes(run_dir)[0]["key"]
        status, why = _post(url, {"key": key, "completion": 9})
        assert status == 400 and "completion must be an integer from 1 to 5" in why
    finally:
        server.shutdown()
    assert not (run_dir / RATINGS_FILE).exists()
    assert "Pick an episode" in write_page(run_dir).read_text()


def test_a_person_reads_and_rates_an_episode_in_chromium(run_dir: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    from agentgym_envs.miniwob.browser import LAUNCH_FLAGS, BrowserUnavailable, find_chromium

    try:
        executable = find_chromium()
    except BrowserUnavailable as error:
        pytest.skip(str(error))
    server, url = serve(run_dir, 0)
    first = read_episodes(run_dir)[0]

    def rate() -> str:
        # in its own thread: an asyncio loop left by other tests would stop the sync API
        with sync_api.sync_playwright() as playwright:
            options = {"executable_path": executable, "args": list(LAUNCH_FLAGS)}
            browser = playwright.chromium.launch(headless=True, **options)
            try:
                page = browser.new_page()
                page.goto(url)
                rows = page.locator("#list tbody tr")
                assert rows.count() == 3
                rows.filter(has_text=first["key"]).click()
                steps = page.locator("#steps")
                assert first["trajectory"]["steps"][0]["action"] in steps.inner_text()
                page.select_option("#completion", "5")
                page.select_option("#efficiency", "4")
                page.select_option("#naturalness", "3")
                page.select_option("#safety", "5")
                page.fill("#comment", "took the shortest path")
                page.click("#save")
                page.wait_for_function("document.getElementById('saved').textContent !== ''")
                return page.inner_text("#saved")
            finally:
                browser.close()

    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            assert pool.submit(rate).result(timeout=120) == "Saved."
    finally:
        server.shutdown()
    (saved,) = [json.loads(line) for line in (run_dir / RATINGS_FILE).read_text().splitlines()]
    assert saved["key"] == first["key"] and saved["comment"] == "took the shortest path"
    assert (saved["completion"], saved["efficiency"], saved["naturalness"], saved["safety"]) == (
        5, 4, 3, 5,
    )  # fmt: skip
    means = {"completion": 5.0, "efficiency": 4.0, "naturalness": 3.0, "safety": 5.0}
    assert ratings_summary(run_dir) == {"rated_episodes": 1, **means}
    report = (run_dir / "report.md").read_text()
    assert "1 episodes rated" in report and "efficiency 4.00" in report
