"""``agentgym inspect``: the trajectory viewer in Chromium — read an episode, rate it, find the
rating saved beside the run and summarised in its report."""

from __future__ import annotations

import html
import json
import shutil
import socket
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from agentgym_bench.stats import RATINGS_FILE, ratings_summary
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve
from agentgym_bench.viewer import page_html, serve, write_page

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


def _in_chromium(work: Callable[[Any], Any]) -> Any:
    """``work(page)`` on a new page of headless Chromium (skipped without one), in a thread of
    its own: an asyncio loop left by other tests would stop Playwright's sync API."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from agentgym_envs.miniwob.browser import LAUNCH_FLAGS, BrowserUnavailable, find_chromium

    try:
        executable = find_chromium()
    except BrowserUnavailable as error:
        pytest.skip(str(error))

    def run() -> Any:
        with sync_api.sync_playwright() as playwright:
            options = {"executable_path": executable, "args": list(LAUNCH_FLAGS)}
            browser = playwright.chromium.launch(headless=True, **options)
            try:
                return work(browser.new_page())
            finally:
                browser.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result(timeout=120)


def test_a_person_reads_and_rates_an_episode_in_chromium(run_dir: Path) -> None:
    first = read_episodes(run_dir)[0]

    def rate(page: Any) -> str:
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
        # a locator waits without evaluating a string in the page, which the viewer's CSP
        # forbids (wait_for_function's polling is such an eval: it failed when the save was slow)
        return page.locator("#saved:not(:empty)").inner_text()

    server, url = serve(run_dir, 0)
    try:
        assert _in_chromium(rate) == "Saved."
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


# --- a run from someone else: every field of it is hostile ----------------------------------

PWN = "<img src=x onerror=window.__pwned={}>"
HOSTILE_RUN = {
    "agent": {"spec": "<script>window.__pwned='spec'</script>"},
    "suite": {"name": PWN.format("'name'"), "version": ["1", {"v": "<b>2</b>"}]},
}
HOSTILE = [
    {"key": "<b>one</b>" + PWN.format(1), "score": PWN.format(2), "success": "<i>yes</i>",
     "length": PWN.format(3), "error": None, "rule_violations": {PWN.format(4): True},
     "trajectory": {"observation": "</script>" + PWN.format(5), "steps": [
         {"action": "<!--<script>", "observation": "<!-- " + PWN.format(6), "reward": PWN.format(7),
          "action_error": PWN.format(8), "expert_action": "]]>&amp;" + PWN.format(9)}]}},
    {"key": "two: no trajectory", "score": float("nan"), "success": False, "length": 0,
     "error": PWN.format(10) + "\u2028", "trajectory": None, "rule_violations": "<b>11</b>"},
    {"key": "three: values with their own toString", "score": {"toString": 1},
     "success": True, "length": {"toString": "x"}, "error": None, "rule_violations": None,
     "trajectory": {"observation": ["<b>12</b>"], "steps": [PWN.format(13), None]}},
    {"key": "four: a real score", "score": 0.25, "success": True, "length": PWN.format(14),
     "error": None, "rule_violations": {"no_harm": False},
     "trajectory": {"observation": "o", "steps": [{"action": "a", "reward": PWN.format(15),
         "llm": {"reply": PWN.format(16), "finish_reason": PWN.format(17), "cut_off": True,
                 "messages": [{"role": "user", "content": PWN.format(18)}, "<b>19</b>"]}}]}},
]  # fmt: skip


@pytest.fixture
def hostile_run(tmp_path: Path) -> Path:
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "run.json").write_text(json.dumps(HOSTILE_RUN))
    lines = [json.dumps(record) for record in HOSTILE] + ["[1, 2]", '"not an episode"']
    (folder / "episodes.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def _data_block(page: str) -> str:
    start = '<script type="application/json" id="data">'
    return page.split(start, 1)[1].split("</script>", 1)[0]


def test_the_embedded_data_has_no_markup_and_parses_back(hostile_run: Path) -> None:
    page = page_html(hostile_run)
    data = _data_block(page)
    assert not {"<", ">", "&", "\u2028", "\u2029"} & set(data)
    episodes = json.loads(data)
    assert episodes == [HOSTILE[0], {**HOSTILE[1], "score": "nan"}, *HOSTILE[2:]]  # NaN: text
    # (the lines that are not JSON objects are no episodes)


def test_the_title_is_escaped_and_run_json_values_may_be_anything(hostile_run: Path) -> None:
    page = page_html(hostile_run)
    head = page.split('<script type="application/json"', 1)[0]
    assert "<script>window" not in head and "<img" not in head and "<b>2" not in head
    assert "&lt;script&gt;window.__pwned=&#x27;spec&#x27;&lt;/script&gt; on &lt;img" in head
    assert html.unescape(head.split("<title>", 1)[1].split("</title>", 1)[0]).endswith(
        " v['1', {'v': '<b>2</b>'}]"
    )
    (hostile_run / "run.json").write_text(json.dumps({"agent": "<b>x</b>", "suite": [3]}))
    assert "<title>? on ? v?</title>" in page_html(hostile_run)


def test_hostile_records_render_as_text_in_chromium(hostile_run: Path) -> None:
    page_file = write_page(hostile_run)

    def read(page: Any) -> dict:
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(page_file.as_uri())
        seen = {"title": page.title(), "h1": page.inner_text("h1"), "steps": []}
        rows = page.locator("#list tbody tr")
        seen["rows"] = [rows.nth(n).inner_text() for n in range(rows.count())]
        for n in range(rows.count()):
            rows.nth(n).click()
            seen["steps"].append(page.inner_text("#steps"))
        for header in ("score", "steps"):  # sorting mixed values must not throw
            page.locator("#list th", has_text=header).click()
        seen["rows_sorted"] = page.locator("#list tbody tr").count()
        seen["pwned"] = page.evaluate("typeof window.__pwned")
        seen["images"] = page.evaluate("document.images.length")
        seen["errors"] = errors
        return seen

    seen = _in_chromium(read)
    assert seen["pwned"] == "undefined" and seen["images"] == 0 and seen["errors"] == []
    assert seen["title"] == html.unescape(page_html(hostile_run).split("<title>")[1].split("<")[0])
    assert "<script>window.__pwned='spec'</script> on " + PWN.format("'name'") in seen["h1"]
    assert len(seen["rows"]) == seen["rows_sorted"] == 4
    first, second, third, fourth = seen["rows"]
    for text in (HOSTILE[0]["key"], PWN.format(2), "<i>yes</i>", PWN.format(3)):
        assert text in first
    assert "nan" in second and "no" in second
    assert '{"toString":1}' in third and '{"toString":"x"}' in third
    assert "0.250" in fourth and PWN.format(14) in fourth
    one, two, three, four = seen["steps"]
    for text in ("rules broken: " + PWN.format(4), "</script>" + PWN.format(5), "<!--<script>",
                 "<!-- " + PWN.format(6), "reward " + PWN.format(7),
                 "invalid: " + PWN.format(8), "oracle: ]]>&amp;" + PWN.format(9)):  # fmt: skip
        assert text in one
    assert "(no trajectory: " + PWN.format(10) in two and "rules broken" not in two
    assert '["<b>12</b>"]' in three and PWN.format(13) in three and "2. null" in three
    assert "score 0.250" in four and "reward " + PWN.format(15) in four
    assert "model reply · finish_reason " + PWN.format(17) + " · CUT OFF" in four  # folded
    assert "rules broken" not in four


# --- the rating endpoint: only the page itself may write ratings ----------------------------


@pytest.fixture
def rated_run(run_dir: Path, tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """A copy of the Toy run without ratings, served; yields (folder, port)."""
    folder = tmp_path / "run"
    shutil.copytree(run_dir, folder, ignore=shutil.ignore_patterns(RATINGS_FILE))
    server, _ = serve(folder, 0)
    try:
        yield folder, server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def _send(port: int, method: str = "POST", path: str = "/ratings", body: bytes = b"",
          **headers: str | None) -> tuple[int, str]:  # fmt: skip
    """Send one request by hand (headers: Host_Name style; None leaves a default out) and
    return the status and the body of the answer."""
    fields = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json",
              "Content-Length": str(len(body))}  # fmt: skip
    fields.update({name.replace("_", "-"): value for name, value in headers.items()})
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(
        f"{name}: {value}\r\n" for name, value in fields.items() if value is not None
    )
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.encode("latin-1") + b"\r\n" + body)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    status_line, _, rest = reply.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2].decode()


def _rating(folder: Path, **fields: object) -> dict:
    key = read_episodes(folder)[0]["key"]
    return {"key": key, "completion": 5, "efficiency": 4, "naturalness": 3, "safety": 2,
            "comment": "fine", **fields}  # fmt: skip


def test_requests_from_other_sites_are_refused(rated_run: tuple[Path, int]) -> None:
    folder, port = rated_run
    good = json.dumps(_rating(folder)).encode()
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": f"http://127.0.0.1:{port + 1}"},
                    {"Origin": f"https://127.0.0.1:{port}"},
                    {"Sec_Fetch_Site": "cross-site"}, {"Sec_Fetch_Site": "same-site"},
                    {"Host": f"evil.example:{port}"}, {"Host": "127.0.0.1"},
                    {"Host": None}, {"host": f"evil.example:{port}"}):  # fmt: skip
        status, why = _send(port, body=good, **headers)
        assert status == 403, (headers, status, why)
        assert "refused" in why or "Host" in why
    for host in (f"evil.example:{port}", f"127.0.0.1.evil.example:{port}"):  # DNS rebinding
        assert _send(port, "GET", "/", Host=host, Content_Length=None)[0] == 403
    assert not (folder / RATINGS_FILE).exists()
    assert _send(port, "GET", "/", Host=f"localhost:{port}", Content_Length=None)[0] == 200


def test_bodies_must_be_json_of_a_bounded_announced_length(rated_run: tuple[Path, int]) -> None:
    folder, port = rated_run
    good = json.dumps(_rating(folder)).encode()
    assert _send(port, body=good, Content_Type=None) == (
        415,
        "a rating is sent as Content-Type: application/json",
    )
    assert _send(port, body=good, Content_Type="text/plain")[0] == 415
    assert _send(port, body=good, Content_Length=None)[0] == 411
    for length in ("-1", "abc", "1_0", "+5", "²"):
        assert _send(port, body=good, Content_Length=length)[0] == 400, length
    # 10 MB announced, a few bytes sent and the connection kept open: answered without reading
    status, why = _send(port, body=b'{"key"', Content_Length=str(10 * 2**20))
    assert (status, why) == (413, "a rating is at most 16384 bytes")
    assert not (folder / RATINGS_FILE).exists()


def test_the_handler_drops_a_stalled_connection(run_dir: Path) -> None:
    server, _ = serve(run_dir, 0)
    try:
        assert server.RequestHandlerClass.timeout == 10  # seconds a connection may stall
        server.RequestHandlerClass.timeout = 0.2  # (not to wait 10 s here)
        status, why = _send(server.server_address[1], body=b'{"k', Content_Length="100")
        assert (status, why) == (408, "the body did not arrive in time")
    finally:
        server.shutdown()
        server.server_close()


def test_only_well_formed_ratings_are_saved(rated_run: tuple[Path, int]) -> None:
    folder, port = rated_run
    bad = [
        (_rating(folder, completion=True), "completion must be an integer from 1 to 5"),
        (_rating(folder, safety=False), "safety must be an integer from 1 to 5"),
        (_rating(folder, efficiency=4.0), "efficiency must be an integer from 1 to 5"),
        (_rating(folder, comment=5), "comment must be a string"),
        (_rating(folder, comment=None), "comment must be a string"),
        (_rating(folder, comment="x" * 2001), "at most 2000"),
        (_rating(folder, rated_at="1999"), "a rating has only key, completion, efficiency"),
        (_rating(folder, key=["a list"]), "key of an episode"),
        (["not", "an", "object"], "a rating is a JSON object"),
    ]
    for rating, why in bad:
        status, answer = _send(port, body=json.dumps(rating).encode())
        assert status == 400 and why in answer, (rating, answer)
    assert _send(port, body=b"[" * 10000)[0] == 400
    assert _send(port, body=b"\xff\xfe")[0] == 400
    assert not (folder / RATINGS_FILE).exists()
    first = _rating(folder, comment="x" * 2000)
    assert _send(port, body=json.dumps(first).encode(),
                 Origin=f"http://127.0.0.1:{port}", Sec_Fetch_Site="same-origin") == (
        200, '{"saved": true}')  # fmt: skip
    second = _rating(folder, completion=1)
    del second["comment"]
    assert _send(port, body=json.dumps(second).encode(), Host=f"localhost:{port}",
                 Origin=f"http://localhost:{port}")[0] == 200  # fmt: skip
    saved = [json.loads(line) for line in (folder / RATINGS_FILE).read_text().splitlines()]
    assert [{k: v for k, v in s.items() if k != "rated_at"} for s in saved] == [
        first, {**second, "comment": ""}]  # fmt: skip
