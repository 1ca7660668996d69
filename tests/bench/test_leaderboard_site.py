"""The leaderboard site: README rows and order, PNG plots, the sortable index.html in Chromium."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from agentgym_bench.rules import DESCRIPTIONS, RULES
from agentgym_bench.site import RuleTally, build_site, rule_text, slug
from agentgym_bench.stats import rule_rates

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ENVS = ("AgentGym/Toy-v0", "AgentGym/WebShop-v0")
SPLITS = ("test", "ood", "adversarial")
# success rate per (env, difficulty) and split; the test order differs from the ood order on
# Toy/easy (so clicking "ood success" re-sorts) and between difficulties (so ranking is per table).
SUCCESS = {
    "greedy": {
        ("AgentGym/Toy-v0", "easy"): (0.80, 0.40, 0.20),
        ("AgentGym/Toy-v0", "hard"): (0.30, 0.20, 0.10),
        ("AgentGym/WebShop-v0", "easy"): (0.60, 0.50, 0.30),
        ("AgentGym/WebShop-v0", "hard"): (0.25, 0.15, 0.05),
    },
    "random": {
        ("AgentGym/Toy-v0", "easy"): (0.35, 0.50, 0.30),
        ("AgentGym/Toy-v0", "hard"): (0.45, 0.25, 0.15),
        ("AgentGym/WebShop-v0", "easy"): (0.10, 0.05, 0.00),
        ("AgentGym/WebShop-v0", "hard"): (0.05, 0.05, 0.00),
    },
    # unverified: would top every table if it were (wrongly) included
    "cheater": {(env, d): (0.99, 0.99, 0.99) for env in ENVS for d in ("easy", "hard")},
}
# WebShop episodes (of 20 a split: test, ood, adversarial) that broke the price rule; Toy has no
# rules. Easy: greedy 7 of 60 (11.7%), random 30 of 60 (50.0%).
PRICE_BREAKS = {
    "greedy": {"easy": (5, 2, 0), "hard": (1, 0, 0)},
    "random": {"easy": (10, 8, 12), "hard": (0, 0, 0)},
    "cheater": {"easy": (0, 0, 0), "hard": (0, 0, 0)},
}


def _write_submission(root: Path, sub_id: str, agent: str, verified: bool, day: int) -> None:
    folder = root / "submissions" / sub_id
    folder.mkdir(parents=True)
    run = {
        "agent": {
            "spec": agent,
            "options": {"temperature": 0.0, "config": "configs/greedy.yaml"} if day == 1 else {},
            "description": {"kind": agent, "params": {"seed": day}},
        },
        "suite": {"name": "quick", "version": 1, "hash": "ab" * 32},
        "provenance": {
            "agentgym_version": "0.1.0",
            "git_commit": f"abc12{day}",
            "python": "3.11.7",
            "os": "Linux-6.1-x86_64",
            "device": "cpu",
            "packages": {"torch": "2.13.0"},
        },
        "started": f"2026-12-0{day}T04:00:00Z",
        "finished": f"2026-12-0{day}T04:05:00Z",
    }
    rows = []
    for (env_id, difficulty), rates in SUCCESS[agent].items():
        for index, (split, rate) in enumerate(zip(SPLITS, rates, strict=True)):
            rules = {}
            if env_id == "AgentGym/WebShop-v0":  # the runner's figures from the episodes' flags
                broken = PRICE_BREAKS.get(agent, PRICE_BREAKS["greedy"])[difficulty][index]
                rules = rule_rates([{"rule_violations": {"price_bound": i < broken}}
                                    for i in range(20)])  # fmt: skip
            rows.append(
                {
                    "env_id": env_id,
                    "difficulty": difficulty,
                    "split": split,
                    "episodes": 20,
                    "errors": 0,
                    "success_rate": rate,
                    "success_ci": [max(rate - 0.15, 0.0), min(rate + 0.15, 1.0)],
                    "mean_score": rate + 0.06,
                    "score_ci": [rate - 0.05, rate + 0.15],
                    "mean_steps": 12.5,
                    **rules,
                }
            )
    verification = {
        "verified": verified,
        "replayed_episodes": len(rows) * 20,
        "checked_at": f"2026-12-0{day}T04:06:00Z",
    }
    for name, data in (
        ("run.json", run),
        ("summary.json", {"rows": rows}),
        ("verification.json", verification),
    ):
        (folder / name).write_text(json.dumps(data), encoding="utf-8")


def _make_board(root: Path) -> Path:
    _write_submission(root, "2026-12-01-greedy", "greedy", verified=True, day=1)
    _write_submission(root, "2026-12-02-random", "random", verified=True, day=2)
    _write_submission(root, "2026-12-03-cheater", "cheater", verified=False, day=3)
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = _make_board(tmp_path_factory.mktemp("leaderboard"))
    return build_site(root, check=False)


def _readme_tables(text: str) -> dict[tuple[str, str], list[list[str]]]:
    """(env id, difficulty) -> the table's body rows as lists of cell texts."""
    found: dict[tuple[str, str], list[list[str]]] = {}
    env = difficulty = ""
    for line in text.splitlines():
        if line.startswith("## "):
            env = line[3:].strip()
        elif line.startswith("### "):
            difficulty = line[4:].strip()
        elif line.startswith("|") and not line.startswith("| Agent") and "---" not in line:
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            found.setdefault((env, difficulty), []).append(cells)
    return found


def test_slug() -> None:
    assert slug("AgentGym/Toy-v0") == "agentgym-toy-v0"
    assert slug("  A__b//C ") == "a-b-c"


def test_readme_rows_order_and_no_unverified(site: dict) -> None:
    text = site["readme"].read_text(encoding="utf-8")
    assert text.startswith("# ")
    assert "every row passed the verifier" in text
    assert "cheater" not in text
    tables = _readme_tables(text)
    assert set(tables) == {(e, d) for e in ENVS for d in ("easy", "hard")}
    header = next(line for line in text.splitlines() if line.startswith("| Agent"))
    assert [c.strip() for c in header.strip("|").split("|")] == [
        "Agent",
        "Suite",
        "Verified",
        "test success",
        "test score",
        "ood success",
        "ood score",
        "adversarial success",
        "adversarial score",
        "errors",
        "rule violations",
    ]
    agents = {key: [row[0].split(" [^")[0] for row in rows] for key, rows in tables.items()}
    assert agents[("AgentGym/Toy-v0", "easy")] == ["greedy", "random"]
    assert agents[("AgentGym/Toy-v0", "hard")] == ["random", "greedy"]  # sorted per table
    assert agents[("AgentGym/WebShop-v0", "easy")] == ["greedy", "random"]
    greedy = tables[("AgentGym/Toy-v0", "easy")][0]
    assert greedy[1:3] == ["quick@1", "replayed"]
    assert greedy[3:5] == ["80.0% [65.0–95.0]", "0.86"]
    assert greedy[5] == "40.0% [25.0–55.0]"
    assert greedy[-2] == "0 of 60"  # errored episodes over the table's splits
    # rule violations: pooled over the table's splits, 95% CI; "–" where the env has no rules
    assert greedy[-1] == "–"
    greedy, random = tables[("AgentGym/WebShop-v0", "easy")]
    assert greedy[-1] == "11.7% [5.8–22.2]"  # 7 of 60
    assert random[-1] == "50.0% [37.7–62.3]"  # 30 of 60
    assert tables[("AgentGym/WebShop-v0", "hard")][1][-1] == "0.0% [0.0–6.0]"  # random: 0%, not –
    assert "`price_bound`: bought an item priced over the goal's price bound" in text
    assert "– where no rule applies to the env" in text
    # provenance footnotes (with the agent's options) and plot links
    assert re.search(r"^\[\^1\]: greedy .*agentgym 0\.1\.0.*commit abc121.*device cpu", text, re.M)
    assert "options config=configs/greedy.yaml, temperature=0.0, agentgym 0.1.0" in text
    assert "finished 2026-12-02" in text
    for plot in site["plots"]:
        assert f"(plots/{plot.name})" in text


def test_plots_exist_and_are_small_pngs(site: dict) -> None:
    names = sorted(plot.name for plot in site["plots"])
    assert names == sorted(
        f"{kind}-{slug(env)}.png"
        for env in ENVS
        for kind in ("success_by_difficulty", "generalization_gap")
    )
    for plot in site["plots"]:
        data = plot.read_bytes()
        assert data.startswith(PNG_MAGIC)
        assert 1_000 < len(data) < 300_000


def test_plot_legends_name_each_row_with_its_suite_outside_the_axes(tmp_path, monkeypatch) -> None:
    """Legends sit right of the axes (so no number of rows covers the data), and the gap plot
    lists rows and difficulties once each rather than every row x difficulty pair."""
    from agentgym_bench.site import render

    figures = {}
    monkeypatch.setattr(render, "_save", lambda figure, path: figures.setdefault(path.name, figure))
    build_site(_make_board(tmp_path), check=False)
    assert len(figures) == 2 * len(ENVS)
    for name, figure in figures.items():
        figure.canvas.draw()
        (axes,) = figure.axes
        legend = axes.get_legend()
        assert legend.get_window_extent().x0 > axes.get_window_extent().x1, name
        texts = [t.get_text() for t in legend.get_texts()]
        rows = ["greedy · quick@1", "random · quick@1"]  # the unverified cheater is left out
        expected = [*rows, "easy", "hard"] if name.startswith("generalization_gap") else rows
        assert texts == expected, name


def test_rule_cells_show_each_rule_when_there_are_several() -> None:
    tally = RuleTally(checked=10, broken=3, by_rule={"a": (2, 10), "b": (1, 10)})
    assert rule_text(tally) == "30.0% [10.8–60.3] (a 20.0%, b 10.0%)"
    assert rule_text(None) == "–"


def test_every_rule_has_a_one_line_meaning() -> None:
    names = {name for rules in RULES.values() for name in rules}
    assert names <= set(DESCRIPTIONS)
    assert all(text and "\n" not in text for text in DESCRIPTIONS.values())


def test_html_rule_cells(site: dict) -> None:
    page = site["html"].read_text(encoding="utf-8")
    webshop = page.split('id="table-agentgym-webshop-v0-easy"')[1].split("</table>")[0]
    cell = re.search(r'<td data-sort="([^"]+)" title="([^"]+)">11\.7% \[5\.8–22\.2\]</td>', webshop)
    assert cell is not None
    assert float(cell[1]) == pytest.approx(7 / 60)
    assert cell[2].startswith("7 of 60 episodes broke a rule (test 5 of 20; ood 2 of 20; ")
    assert "price_bound (bought an item priced over the goal&#x27;s price bound)" in cell[2]
    toy = page.split('id="table-agentgym-toy-v0-easy"')[1].split("</table>")[0]
    assert toy.count('<td title="no rule applies to this env">–</td>') == 2  # no data-sort


def test_html_is_self_contained(site: dict) -> None:
    page = site["html"].read_text(encoding="utf-8")
    assert "://" not in page and "<link" not in page and "<script src" not in page
    assert "cheater" not in page
    assert 'id="table-agentgym-toy-v0-easy"' in page
    for src in re.findall(r'<img src="([^"]+)"', page):
        assert (site["html"].parent / src).is_file()


def test_broken_submissions_are_skipped_with_a_warning(tmp_path: Path) -> None:
    root = _make_board(tmp_path)
    broken = root / "submissions" / "2026-12-04-broken"
    broken.mkdir()
    (broken / "verification.json").write_text('{"verified": true}')
    (broken / "run.json").write_text("{not json")
    missing = root / "submissions" / "2026-12-05-missing"
    missing.mkdir()
    (missing / "run.json").write_text("{}")
    _write_submission(root, "2026-12-06-bad-rule-rate", "greedy", verified=True, day=6)
    summary = root / "submissions" / "2026-12-06-bad-rule-rate" / "summary.json"
    data = json.loads(summary.read_text())
    data["rows"][-1]["rule_violation_rate"] = 1.5
    summary.write_text(json.dumps(data))
    with pytest.warns(UserWarning, match="skipping submission") as caught:
        result = build_site(root, check=False)
    messages = " ".join(str(w.message) for w in caught)
    assert "2026-12-04-broken" in messages and "2026-12-05-missing" in messages
    assert "rule_violation_rate is not a share in [0, 1]: 1.5" in messages
    assert "cheater" not in messages  # unverified is skipped silently
    text = result["readme"].read_text(encoding="utf-8")
    assert "| greedy" in text and "| random" in text and "broken" not in text


def test_html_sorts_in_chromium(site: dict, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    from agentgym_envs.miniwob.browser import LAUNCH_FLAGS, BrowserUnavailable, find_chromium

    try:
        executable = find_chromium()
    except BrowserUnavailable as error:
        pytest.skip(str(error))

    def check() -> None:
        # in its own thread: an asyncio loop left running by other tests in this process
        # would make Playwright's sync API refuse to start
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=executable, args=list(LAUNCH_FLAGS), headless=True
            )
            try:
                page = browser.new_page(viewport={"width": 1100, "height": 800})
                requests: list[str] = []
                page.on("request", lambda request: requests.append(request.url))
                page.goto(site["html"].as_uri())
                table = page.locator("#table-agentgym-toy-v0-easy")

                def agents() -> list[str]:
                    return table.locator("tbody tr td:first-child").all_inner_texts()

                def header(name: str) -> sync_api.Locator:
                    return table.locator("th").filter(has_text=re.compile(f"^{name}$"))

                first = table.locator("tbody tr").nth(0).locator("td")
                assert first.nth(3).inner_text() == "80.0% [65.0–95.0]"
                assert agents() == ["greedy", "random"]
                header("ood success").click()  # numbers: descending first
                assert agents() == ["random", "greedy"]
                header("ood success").click()  # toggles to ascending
                assert agents() == ["greedy", "random"]
                header("Agent").click()  # text: ascending first
                assert agents() == ["greedy", "random"]
                header("Agent").click()
                assert agents() == ["random", "greedy"]
                assert first.last.inner_text() == "–"  # Toy has no rules
                shop = page.locator("#table-agentgym-webshop-v0-easy")
                cells = shop.locator("tbody tr td:last-child")
                assert cells.all_inner_texts() == ["11.7% [5.8–22.2]", "50.0% [37.7–62.3]"]
                shop.locator("th").filter(has_text="rule violations").click()  # descending
                assert cells.all_inner_texts() == ["50.0% [37.7–62.3]", "11.7% [5.8–22.2]"]
                assert page.evaluate(
                    "Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)"
                )
                assert page.locator("img").count() == 4
                assert all(url.startswith("file://") for url in requests)
                shot = tmp_path / "leaderboard.png"
                page.screenshot(path=str(shot), full_page=True)
            finally:
                browser.close()
        assert shot.read_bytes().startswith(PNG_MAGIC) and shot.stat().st_size > 1_000

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(check).result()


def test_path_efficiency_against_the_suites_oracle(tmp_path: Path) -> None:
    import gzip

    from agentgym_bench.site import load_submissions, path_efficiency

    SUCCESS["oracle"] = SUCCESS["greedy"]
    try:
        _write_submission(tmp_path, "a-oracle", "oracle", verified=True, day=1)
        _write_submission(tmp_path, "b-greedy", "greedy", verified=True, day=2)
    finally:
        del SUCCESS["oracle"]

    def episodes(folder: str, lengths: dict[str, int | None]) -> None:
        lines = [json.dumps({"key": f"AgentGym/Toy-v0|easy|test|t{i}|{i}", "error": None,
                             "success": length is not None, "length": length or 30})
                 for i, length in lengths.items()]  # fmt: skip
        data = gzip.compress(("\n".join(lines) + "\n").encode())
        (tmp_path / "submissions" / folder / "episodes.jsonl.gz").write_bytes(data)

    episodes("a-oracle", {1: 2, 2: 3, 3: 4})
    episodes("b-greedy", {1: 4, 2: 3, 3: None})  # t3 unsolved: not counted
    oracle, greedy = load_submissions(tmp_path, check=False)
    assert path_efficiency(greedy, oracle, "AgentGym/Toy-v0") == pytest.approx((2 / 4 + 1) / 2)
    assert path_efficiency(greedy, oracle, "AgentGym/WebShop-v0") is None
    paths = build_site(tmp_path, check=False)
    readme = Path(paths["readme"]).read_text()
    assert "Path efficiency (oracle steps / agent steps" in readme
    assert "greedy (quick@1): 0.75" in readme


HOSTILE_NAME = ("<img src=x onerror=alert(1)> [win](javascript:alert(1)) **bold**\n"
                "| forged | cell | $\\frac{1$ _hidden")  # fmt: skip


def test_a_hostile_agent_name_is_text_in_every_renderer(tmp_path: Path) -> None:
    _write_submission(tmp_path, "a-greedy", "greedy", verified=True, day=1)
    run_file = tmp_path / "submissions" / "a-greedy" / "run.json"
    run = json.loads(run_file.read_text())
    run["agent"]["spec"] = HOSTILE_NAME
    run["provenance"]["git_commit"] = "<script>alert(2)</script>"
    run["agent"]["options"] = {"config": "<script>alert(3)</script>"}
    run_file.write_text(json.dumps(run))
    paths = build_site(tmp_path, check=False)  # plots: bad mathtext would raise here
    assert len(paths["plots"]) == 4 and not paths["skipped"]
    readme = paths["readme"].read_text()
    row = next(line for line in readme.splitlines() if "onerror" in line)
    assert row.startswith("| &lt;img src=x onerror=alert(1)&gt; \\[win\\](javascript:alert(1))")
    assert "\\*\\*bold\\*\\*" in row and "\\| forged \\| cell \\|" in row  # one row, no cells
    assert row.count(" | ") == len(row.split(" | ")) - 1  # (every real separator is ' | ')
    assert "<img" not in readme and "<script>" not in readme
    assert not re.search(r"(?<!\\)\]\(javascript:", readme)  # no link: its "]" is escaped
    page = paths["html"].read_text()
    assert "<img src=x" not in page and "<script>alert(2)" not in page
    assert "<script>alert(3)" not in page and "<script>alert(3)" not in readme
    assert "options config=&lt;script&gt;alert(3)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
