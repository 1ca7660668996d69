"""Suites, the resumable runner, replay verification and leaderboard submission (Toy env)."""

from __future__ import annotations

import json
import queue
from pathlib import Path

import pytest
from agentgym_bench.leaderboard import submit
from agentgym_bench.replay import verify_run
from agentgym_bench.scheduler import messages
from agentgym_bench.stats import summarize, wilson_interval
from agentgym_bench.suite_runner import RunMismatch, RunSettings, read_episodes, run_suite
from agentgym_bench.suites import SuiteError, resolve

from agentgym_envs.cli import main
from tests.bench.support import TINY_SUITE as SUITE


@pytest.fixture(scope="module")
def random_run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("suite")
    (folder / "tiny.yaml").write_text(SUITE)
    run_dir = folder / "run"
    run_suite(resolve(str(folder / "tiny.yaml")), RunSettings("random", workers=2), run_dir,
              progress=False)  # fmt: skip
    return run_dir


def _suite(random_run: Path) -> Path:
    """The tiny suite's file (self-made: the verifier is given it)."""
    return random_run.parent / "tiny.yaml"


def _copy(run_dir: Path, to: Path) -> Path:
    to.mkdir()
    for name in ("run.json", "episodes.jsonl", "summary.json"):
        (to / name).write_bytes((run_dir / name).read_bytes())
    return to


def _edit_episodes(run_dir: Path, edit) -> None:
    """Edit the run's episodes and, as a careful attacker would, its summary to agree."""
    records = read_episodes(run_dir)
    records = edit(records)
    (run_dir / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    summary = json.loads((run_dir / "summary.json").read_text())
    summary["rows"] = summarize(records)
    (run_dir / "summary.json").write_text(json.dumps(summary))


def test_suite_resolves_to_fixed_hashed_episodes(suite_file):
    suite = resolve(str(suite_file))
    assert [e.task_id for e in suite.episodes] == [
        "toy-easy-test-00000", "toy-easy-test-00001", "toy-easy-test-00002",
        "toy-easy-ood-00000", "toy-easy-ood-00001", "toy-easy-ood-00002"]  # fmt: skip
    assert [e.seed for e in suite.episodes] == [0, 1, 2, 0, 1, 2]
    assert {e.max_steps for e in suite.episodes} == {30}  # the registered limit
    assert resolve(str(suite_file)).hash == suite.hash
    suite_file.write_text(SUITE.replace("episodes: 3", "episodes: 2"))
    assert resolve(str(suite_file)).hash != suite.hash
    suite_file.write_text(SUITE.replace("splits: [test, ood]", "splits: [tset]"))
    with pytest.raises(SuiteError, match=r"splits \['tset'\] not among"):
        resolve(str(suite_file))
    with pytest.raises(SuiteError, match="known: ablation-history, full, quick, smoke"):
        resolve("quik")
    suite_file.write_text(SUITE.replace("episodes: 3", "task_ids: [toy-easy-ood-00004]"))
    assert [e.task_id for e in resolve(str(suite_file)).episodes] == ["toy-easy-ood-00004"]
    suite_file.write_text(SUITE.replace("episodes: 3", "task_ids: [toy-easy-tset-00001]"))
    with pytest.raises(SuiteError, match="are in none of its"):
        resolve(str(suite_file))


def test_standard_targets_plays_standards_own_test_episodes_of_the_target_cells():
    """Before/after-training figures on standard-targets compare episode for episode with the
    standard suite's rows: same tasks, seeds and step limits, every episode of each cell."""
    cells = {("AgentGym/Toy-v0", d, "test") for d in ("easy", "medium", "hard")}
    cells |= {("AgentGym/WebShop-v0", "easy", "test"), ("AgentGym/MiniWoB-v0", "easy", "test")}
    env_ids = sorted({env_id for env_id, _, _ in cells})
    standard = {
        e.key: e.max_steps
        for e in resolve("standard", env_ids=env_ids).episodes
        if (e.env_id, e.difficulty, e.split) in cells
    }
    targets = {e.key: e.max_steps for e in resolve("standard-targets").episodes}
    assert targets == standard
    assert len(targets) == 3 * 30 + 20 + 19  # MiniWoB's easy tier has 19 test tasks


def test_run_writes_results_summary_and_report(random_run):
    records = read_episodes(random_run)
    assert len(records) == 6 and len({r["key"] for r in records}) == 6
    assert all(r["error"] is None and r["trajectory"]["steps"] for r in records)
    run = json.loads((random_run / "run.json").read_text())
    assert run["suite"]["name"] == "tiny" and run["agent"]["spec"] == "random"
    assert run["provenance"]["python"] and "gymnasium" in run["provenance"]["packages"]
    summary = json.loads((random_run / "summary.json").read_text())
    assert [(r["split"], r["episodes"]) for r in summary["rows"]] == [("test", 3), ("ood", 3)]
    report = (random_run / "report.md").read_text()
    assert "## AgentGym/Toy-v0" in report and "Generalization gap" in report


def test_rerun_resumes_without_duplicates(random_run, tmp_path):
    run_dir = _copy(random_run, tmp_path / "resume")
    before = {r["key"]: r for r in read_episodes(run_dir)}
    _edit_episodes(run_dir, lambda records: records[:4])  # as if stopped after 4 episodes
    with (run_dir / "episodes.jsonl").open("a") as out:
        out.write('{"key": "torn')  # killed mid-write
    suite = resolve(json.loads((run_dir / "run.json").read_text())["suite"]["file"])
    run_suite(suite, RunSettings("random"), run_dir, progress=False)
    after = read_episodes(run_dir)
    assert sorted(r["key"] for r in after) == sorted(before)  # each once
    assert [r["score"] for r in after] == [before[r["key"]]["score"] for r in after]  # seeded
    run_suite(suite, RunSettings("random"), run_dir, progress=False)  # nothing left to play
    assert len(read_episodes(run_dir)) == 6
    with pytest.raises(RunMismatch, match="use another --out folder"):
        run_suite(suite, RunSettings("oracle"), run_dir, progress=False)


def test_hanging_and_failing_agents_are_recorded_and_the_run_goes_on(suite_file, tmp_path):
    suite = resolve(str(suite_file))
    settings = RunSettings("tests.bench.agents_for_tests:hangs_on_seed_0", episode_timeout=10)
    run_suite(suite, settings, tmp_path / "hang", progress=False)
    records = {r["task_id"]: r for r in read_episodes(tmp_path / "hang")}
    assert len(records) == 6
    for task_id, record in records.items():
        if task_id.endswith("00000"):
            assert record["error"] == "timed out after 10 s" and record["score"] == 0.0
        else:
            assert record["error"] is None and record["length"] > 0
    run_suite(suite, RunSettings("tests.bench.agents_for_tests:raises"), tmp_path / "raise",
              progress=False)  # fmt: skip
    errors = {r["error"] for r in read_episodes(tmp_path / "raise")}
    assert len(errors) == 1 and "RuntimeError: the model server went away" in errors.pop()
    summary = json.loads((tmp_path / "raise" / "summary.json").read_text())
    assert {r["errors"] for r in summary["rows"]} == {3}


def test_ray_backend_plays_the_same_episodes_and_times_out_a_hanging_agent(
    suite_file, random_run, tmp_path
):
    ray = pytest.importorskip("ray")
    suite = resolve(str(suite_file))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        run_suite(suite, RunSettings("random", workers=2, backend="ray"), tmp_path / "ray",
                  progress=False)  # fmt: skip
        hang = RunSettings("tests.bench.agents_for_tests:hangs_on_seed_0", workers=2,
                           episode_timeout=10, backend="ray")  # fmt: skip
        run_suite(suite, hang, tmp_path / "hang", progress=False)
    finally:
        ray.shutdown()

    def played(run_dir: Path) -> dict[str, dict]:
        return {r["key"]: r["trajectory"] for r in read_episodes(run_dir)}

    assert played(tmp_path / "ray") == played(random_run)  # the same episodes, step by step
    assert verify_run(tmp_path / "ray", progress=False, suite_file=suite_file).verified
    run = json.loads((tmp_path / "ray" / "run.json").read_text())
    assert run["settings"]["backend"] == "ray"
    records = {r["task_id"]: r for r in read_episodes(tmp_path / "hang")}
    assert len(records) == 6
    for task_id, record in records.items():
        if task_id.endswith("00000"):
            assert record["error"] == "timed out after 10 s"
        else:
            assert record["error"] is None and record["length"] > 0


def test_untampered_run_verifies(random_run):
    check = verify_run(random_run, progress=False, suite_file=_suite(random_run))
    assert check.verified, check.reasons
    assert check.replayed_episodes == 6 and check.replayed_steps > 6


def test_a_run_records_env_content_versions_and_a_changed_env_is_named(random_run, tmp_path):
    run = json.loads((random_run / "run.json").read_text())
    (version,) = run["suite"]["env_versions"].values()
    assert version.startswith("src-")  # a digest of the Toy family's and the core's sources
    run_dir = _copy(random_run, tmp_path / "changed")
    run["suite"]["env_versions"]["AgentGym/Toy-v0"] = "src-000000000000"
    (run_dir / "run.json").write_text(json.dumps(run))

    def edit(records):
        records[0]["trajectory"]["observation"] += " (changed)"
        return records

    _edit_episodes(run_dir, edit)
    check = verify_run(run_dir, progress=False, suite_file=_suite(random_run))
    assert any("the run had AgentGym/Toy-v0 at 'src-000000000000'" in r for r in check.reasons)


def test_real_time_tasks_are_skipped_by_the_replay(random_run, tmp_path, monkeypatch):
    from agentgym_envs.toy.env import ToyEnv

    run_dir = _copy(random_run, tmp_path / "real-time")
    index = _failed(read_episodes(run_dir))
    _edit_episodes(run_dir, _tamper_score)  # a tampered real-time episode cannot be checked
    tampered = read_episodes(run_dir)[index]
    monkeypatch.setattr(ToyEnv, "real_time_tasks", {tampered["task_id"]: "follows the wall clock"})
    check = verify_run(run_dir, progress=False, suite_file=_suite(random_run))
    assert check.verified, check.reasons
    assert check.skipped_real_time == [tampered["key"]]
    assert check.replayed_episodes == 5
    # the summary still has to match the episodes, real-time ones included
    (run_dir / "summary.json").write_bytes((random_run / "summary.json").read_bytes())
    check = verify_run(run_dir, progress=False, suite_file=_suite(random_run))
    assert check.reasons and all("summary" in reason for reason in check.reasons)


def _failed(records) -> int:
    """The index of the first failed episode (records arrive in worker order: which one fails
    varies from run to run, and raising a success's score to 1.0 would change nothing)."""
    failed = [i for i, record in enumerate(records) if not record["success"]]
    assert failed, "the random run solved every episode: nothing to tamper with"
    return failed[0]


def _tamper_score(records):
    records[_failed(records)].update(score=1.0, success=True)
    return records


def _tamper_action(records):
    records[0]["trajectory"]["steps"][0]["action"] = "go nowhere"
    return records


def _tamper_admissible(records):
    """A step's flag "in the env's admissible list" flipped (it feeds the admissible rate)."""
    step = records[0]["trajectory"]["steps"][0]
    step["admissible"] = not step["admissible"]
    return records


def _tamper_task(records):
    for record in records:
        if record["task_id"] == "toy-easy-test-00002":  # swapped for an easier-looking task
            record["task_id"] = "toy-easy-test-00007"
            record["key"] = record["key"].replace("00002", "00007")
    return records


def _tamper_fields(records):
    records[3]["task_id"] = "toy-easy-test-00009"  # the key still names the suite's task
    return records


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (_tamper_score, "recorded score 1.0 != replayed"),
        (lambda records: records[:-1], "1 missing episode(s)"),
        (lambda records: [*records, records[0]], "1 duplicated episode(s)"),
        (_tamper_action, "step 0"),
        (_tamper_admissible, "step 0 admissible differs"),
        (_tamper_task, "1 unexpected episode(s)"),
        (_tamper_fields, "its fields do not match its key"),
    ],
)
def test_tampered_runs_are_rejected(random_run, tmp_path, edit, reason):
    run_dir = _copy(random_run, tmp_path / "tampered")
    _edit_episodes(run_dir, edit)
    check = verify_run(run_dir, progress=False, suite_file=_suite(random_run))
    assert not check.verified and any(reason in r for r in check.reasons), check.reasons


def test_edited_summary_or_task_list_is_rejected(random_run, tmp_path):
    run_dir = _copy(random_run, tmp_path / "summary")
    summary = json.loads((run_dir / "summary.json").read_text())
    summary["rows"][0]["success_rate"] = 1.0
    (run_dir / "summary.json").write_text(json.dumps(summary))
    check = verify_run(run_dir, progress=False, suite_file=_suite(random_run))
    assert any("success_rate" in r for r in check.reasons), check.reasons
    run_dir = _copy(random_run, tmp_path / "suite")
    run = json.loads((run_dir / "run.json").read_text())
    run["suite"]["hash"] = "0" * 64
    (run_dir / "run.json").write_text(json.dumps(run))
    check = verify_run(run_dir, progress=False, suite_file=_suite(random_run))
    assert any("suite mismatch" in r for r in check.reasons), check.reasons


def test_submit_adds_verified_runs_only(random_run, tmp_path):
    board, suite = tmp_path / "board", _suite(random_run)
    accepted, message = submit(random_run, board, progress=False, suite_file=suite)
    assert accepted, message
    folders = list((board / "submissions").iterdir())
    assert len(folders) == 1 and (folders[0] / "episodes.jsonl.gz").exists()
    verdict = json.loads((folders[0] / "verification.json").read_text())
    assert verdict["replayed_episodes"] == 6 and verdict["method"] == "reproduced"
    assert "random" in (board / "README.md").read_text() and (board / "index.html").exists()
    assert submit(random_run, board, progress=False, suite_file=suite)[0]  # again: revision 2
    rerun = _copy(random_run, tmp_path / "rerun")  # another run of the same agent and suite
    _edit_episodes(rerun, lambda records: [{**r, "seconds": 0.5} for r in records])
    assert submit(rerun, board, progress=False, suite_file=suite)[0]
    assert len(list((board / "submissions").iterdir())) == 3  # revisions kept: r1, r2, r3
    assert (board / "README.md").read_text().count("| random [^") == 1  # its newest only
    tampered = _copy(random_run, tmp_path / "tampered")
    _edit_episodes(tampered, _tamper_score)
    accepted, message = submit(tampered, board, progress=False, suite_file=suite)
    assert not accepted and message.startswith("rejected") and "recorded score" in message
    assert len(list((board / "submissions").iterdir())) == 3


def test_cli_runs_a_suite_and_explains_mistakes(suite_file, tmp_path, capsys):
    out = tmp_path / "cli"
    argv = ["bench", "run", "--suite", str(suite_file), "--agent", "oracle", "--out", str(out)]
    assert main(argv) == 0
    assert "100.0%" in (out / "report.md").read_text()
    assert main(["leaderboard", "submit", str(out), "--to", str(tmp_path / "board"),
                 "--suite", str(suite_file)]) == 0  # fmt: skip
    assert main(["bench", "run", "--suite", str(suite_file), "--agent", "orcale"]) == 2
    assert "did you mean oracle?" in capsys.readouterr().err


def test_wilson_interval():
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28  # the textbook 0/10 interval: [0, 0.278]
    low, high = wilson_interval(5, 10)
    assert abs(low - 0.2366) < 1e-3 and abs(high - 0.7634) < 1e-3


def test_action_rates_count_refused_and_unlisted_actions(random_run):
    from agentgym_bench.stats import action_rates

    def step(error, admissible):
        return {"action_error": error, "admissible": admissible}

    steps = [step(None, True), step("no such room", False), step(None, None), step(None, True)]
    rates = action_rates([{"trajectory": {"steps": steps}}])
    assert rates == {"invalid_action_rate": 0.25, "admissible_rate": 2 / 3}
    assert action_rates([]) == {"invalid_action_rate": None, "admissible_rate": None}
    rows = json.loads((random_run / "summary.json").read_text())["rows"]
    # the random agent picks among the admissible actions: none refused, all listed
    assert all(r["invalid_action_rate"] == 0.0 and r["admissible_rate"] == 1.0 for r in rows)


def test_every_queued_message_is_read_before_episodes_are_judged_late():
    # a "done" that waited in the queue while the driver was busy (starting a worker) is read
    # in the same pass as the first message, not judged late behind it
    results: queue.Queue = queue.Queue()
    sent = [("start", 0, "a", None), ("done", 1, "b", {}), ("done", 0, "a", {})]
    for message in sent:
        results.put(message)
    assert messages(results, wait=0.1) == sent
    assert messages(results, wait=0.01) == []
