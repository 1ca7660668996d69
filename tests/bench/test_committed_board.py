"""The committed leaderboard (``leaderboards/``, built by ``scripts/main.sh``) still holds up
under today's code: each submission's suite resolves here to the version and hash it recorded,
its summary is what its episodes give, the board rebuilds to the committed files, and (slow)
every submission replays in full, as ``agentgym leaderboard build --replay`` does."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from agentgym_bench.replay import Verification, _check_summary
from agentgym_bench.site import build_site
from agentgym_bench.site.load import newest_revisions
from agentgym_bench.suites import resolve

from agentgym_envs.cli import main
from agentgym_envs.registration import entry_for

BOARD = Path(__file__).resolve().parents[2] / "leaderboards"
SUBMISSIONS = sorted((BOARD / "submissions").glob("*/run.json"))


@pytest.mark.parametrize("run_file", SUBMISSIONS, ids=lambda p: p.parent.name)
def test_committed_submission_matches_its_suite_and_episodes(run_file: Path) -> None:
    folder = run_file.parent
    run = json.loads(run_file.read_text())
    summary = json.loads((folder / "summary.json").read_text())
    text = gzip.decompress((folder / "episodes.jsonl.gz").read_bytes()).decode()
    records = [json.loads(line) for line in text.splitlines()]
    env_ids = sorted({r["env_id"] for r in records})
    missing = [e for e in env_ids if entry_for(e).missing()]
    if missing:
        pytest.skip(f"{missing} not installed here")
    suite = resolve(run["suite"]["name"], env_ids=env_ids)
    assert (suite.version, suite.hash) == (run["suite"]["version"], run["suite"]["hash"])
    check = Verification(folder)
    _check_summary(summary, records, check)
    assert check.verified, check.reasons


def test_committed_board_rebuilds_to_the_committed_files(tmp_path: Path) -> None:
    if not SUBMISSIONS:
        pytest.skip("no committed submissions")
    shutil.copytree(BOARD / "submissions", tmp_path / "submissions")
    build_site(tmp_path)
    for name in ("README.md", "index.html"):
        assert (tmp_path / name).read_text() == (BOARD / name).read_text(), name


@pytest.mark.slow
def test_every_committed_submission_replays(tmp_path: Path, capsys) -> None:
    if not SUBMISSIONS:
        pytest.skip("no committed submissions")
    shutil.copytree(BOARD / "submissions", tmp_path / "submissions")
    status = main(["leaderboard", "build", "--to", str(tmp_path), "--replay"])
    out = capsys.readouterr().out
    assert status == 0 and "replay failed" not in out and "not shown" not in out, out
    # the board shows (and replays) the newest revision of each id; older ones stay as history
    newest = newest_revisions(BOARD / "submissions")
    assert out.count("replaying ") == len(newest)
    for folder in newest:
        assert f"replaying {folder.name}\n" in out
    readme = (BOARD / "README.md").read_text()
    assert "reproduced (" in readme
    # an endpoint (openai:) cannot be re-run, so its rows are "replayed"; every other row here
    # was reproduced by the verifier
    endpoints = [f for f in SUBMISSIONS if f.parent.name.startswith("openai-")]
    assert ("| replayed |" in readme) == bool(endpoints)
