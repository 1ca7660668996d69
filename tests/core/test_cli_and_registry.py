"""The `agentgym` command line and the cheap registration."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import gymnasium as gym
import pytest

import agentgym_envs
from agentgym_envs.cli import check_targets, main, pick_difficulty, pick_split
from agentgym_envs.registration import ENTRIES, entry_for, one_per_family


def test_make_without_prior_import():
    code = (
        "import gymnasium as gym; env = gym.make('agentgym_envs:AgentGym/Toy-v0'); "
        "print(env.reset(seed=0)[1]['task_id'])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("toy-easy-train-")


def test_plain_gymnasium_make_finds_agentgym_ids_with_no_import(tmp_path):
    # the installed agentgym-autoregister.pth registers the ids when gymnasium is imported;
    # interpreter start alone imports neither package (cwd elsewhere: the installed package)
    code = (
        "import sys; loaded = ['gymnasium' in sys.modules, 'agentgym_envs' in sys.modules]; "
        "import gymnasium; env = gymnasium.make('AgentGym/Toy-v0'); "
        "print(loaded, env.reset(seed=0)[1]['task_id'])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert out.stdout.startswith("[False, False] toy-easy-train-"), out.stdout + out.stderr


def test_autoregister_failure_is_a_warning_not_a_broken_gymnasium(tmp_path):
    # an agentgym_envs that cannot be imported (shadowed here by a broken one on sys.path)
    (tmp_path / "agentgym_envs.py").write_text("raise RuntimeError('broken install')\n")
    code = "import gymnasium; print(gymnasium.make('CartPole-v1').reset(seed=0)[0].shape)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert out.stdout.strip() == "(4,)"
    assert "AgentGym envs were not registered with Gymnasium" in out.stderr
    assert "broken install" in out.stderr


def test_import_registers_ids_without_heavy_modules():
    code = (
        "import sys, json, gymnasium, agentgym_envs; "
        "ids = sorted(i for i in gymnasium.registry if i.startswith('AgentGym/')); "
        "heavy = [m for m in ('torch', 'playwright', 'textworld', 'bm25s', 'transformers', "
        "'agentgym_envs.toy.env') if m in sys.modules]; "
        "print(json.dumps([ids, heavy]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ids, heavy = json.loads(out.stdout)
    assert "AgentGym/Toy-v0" in ids
    assert heavy == []


def test_list_version_and_check(capsys):
    assert main(["list"]) == 0
    assert "AgentGym/Toy-v0" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"agentgym {agentgym_envs.__version__}"
    assert main(["check", "AgentGym/Toy-v0"]) == 0
    out = capsys.readouterr().out
    for difficulty in ("easy", "medium", "hard"):  # each with its time and the oracle's run
        assert re.search(rf"PASS AgentGym/Toy-v0 {difficulty} \(\d+\.\d s; oracle succeeded", out)
    assert "3 of 3 passed, 0 skipped" in out


def test_default_check_covers_each_family_at_each_difficulty():
    targets = [(entry.id, difficulty) for entry, difficulty in check_targets([], every_id=False)]
    assert len(targets) == 4 * 3 and ("AgentGym/MiniWoB-v0", "hard") in targets
    every = check_targets([], every_id=True)
    assert len(every) == 12 + sum(e.id.startswith("AgentGym/MiniWoB-") for e in ENTRIES) - 1
    assert [d for e, d in every if e.id == "AgentGym/MiniWoB-login-user-v0"] == ["medium"]


def test_registry_entries_name_their_family_and_how_to_install_them():
    heads = {entry.family: entry.id for entry in one_per_family()}
    assert heads == {
        "toy": "AgentGym/Toy-v0",
        "webshop": "AgentGym/WebShop-v0",
        "alfworld": "AgentGym/ALFWorld-v0",
        "miniwob": "AgentGym/MiniWoB-v0",  # the tier env, not a single task's id
    }
    assert entry_for("AgentGym/Toy-v0").install_hint() == ""  # nothing beyond the base install
    webshop = entry_for("AgentGym/WebShop-v0").install_hint()
    assert webshop == "pip install 'agentgym-suite[webshop]'"
    alfworld = entry_for("AgentGym/ALFWorld-v0").install_hint()
    assert alfworld.startswith("pip install 'agentgym-suite[alfworld]', then ")
    assert "fast-downward" in alfworld and "scripts/install_alfworld.sh" in alfworld
    miniwob = entry_for("AgentGym/MiniWoB-click-test-v0").install_hint()
    assert "miniwob==1.1.0" in miniwob and "Chromium" in miniwob


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "AgentGym/Nope-v0"], "unknown env id 'AgentGym/Nope-v0'; did you mean"),
        (["check", "AgentGym/toy-v0"], "did you mean AgentGym/Toy-v0?"),
        (["play", "webshop"], "did you mean AgentGym/WebShop-v0?"),
        (
            ["bench", "baselines", "--agents", "orcale"],
            "unknown agent 'orcale'; did you mean oracle?",
        ),
        (["bench", "baselines", "--env", "AgentGym/Toy-v9"], "did you mean AgentGym/Toy-v0?"),
        (["bench", "baselines", "--workers", "0"], "--workers must be at least 1"),
        (["play", "AgentGym/Toy-v0", "--env-kwarg", "nope"], "--env-kwarg takes KEY=VALUE"),
        (
            ["play", "AgentGym/Toy-v0", "--env-kwarg", "colour=1"],
            "AgentGym/Toy-v0 has no keyword 'colour'; it takes difficulty",
        ),
    ],
)
def test_mistakes_are_one_line_errors_before_any_work(tmp_path, capsys, argv, message):
    assert main([*argv, *(["--out", str(tmp_path / "out")] if argv[0] == "bench" else [])]) == 2
    err = capsys.readouterr().err
    assert err.startswith("agentgym: error: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()  # nothing written


def _play(*args: str, script: str) -> str:
    return subprocess.run(
        [sys.executable, "-m", "agentgym_envs.cli", "play", *args],
        input=script,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_play_shows_task_steps_and_return_and_handles_commands():
    env = gym.make("AgentGym/Toy-v0")
    _, info = env.reset(seed=2)
    oracle = []
    while info["expert_action"]:
        oracle.append(info["expert_action"])
        *_, info = env.step(info["expert_action"])
    script = "\n".join([":actions", ":hint", ":bogus", *oracle, "look", ":reset", ":quit"]) + "\n"
    out = _play("AgentGym/Toy-v0", "--seed", "2", script=script)
    assert "[AgentGym/Toy-v0  task toy-easy-train-" in out and "limit 30 steps]" in out
    assert "action forms:" in out and "unknown command ':bogus'" in out
    assert f"[step {len(oracle)}/30  reward +1.000  return 1.000]" in out
    assert "[episode over: success; score 1.000] :reset or :quit" in out
    assert "the episode is over: :reset starts a new one" in out  # "look" was not sent
    assert out.count("[AgentGym/Toy-v0  task") == 2  # :reset started the next seed


def test_play_takes_env_kwargs_and_one_task_ids():
    out = _play("AgentGym/Toy-v0", "--env-kwarg", "expert=False", script=":hint\n:quit\n")
    assert "(no hint)" in out
    entry = entry_for("AgentGym/MiniWoB-login-user-v0")
    assert pick_difficulty(entry, None) == "medium"  # the task's own tier, no --difficulty needed
    with pytest.raises(ValueError, match="difficulty medium only; drop --difficulty"):
        pick_difficulty(entry, "easy")
    held_out = entry_for("AgentGym/MiniWoB-click-test-transfer-v0")
    assert pick_split(held_out, None) == "ood"  # a held-out task's id plays its ood split
    with pytest.raises(ValueError, match="serves split ood only; drop --split"):
        pick_split(held_out, "train")
    assert pick_split(entry_for("AgentGym/Toy-v0"), None) == "train"


def test_bench_baselines_plays_a_suite_per_agent_and_compares_them(tmp_path):
    argv = ["bench", "baselines", "--env", "AgentGym/Toy-v0", "--out", str(tmp_path)]
    assert main(argv) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    oracle = [r for r in summary["rows"] if r["agent"] == "oracle"]
    assert len(oracle) == 9  # 3 difficulties x test, ood, adversarial
    assert all(r["success_rate"] == 1.0 and r["episodes"] == 5 for r in oracle)
    assert (tmp_path / "report.md").read_text().startswith("# Baselines on the quick suite")
    for agent in ("random", "oracle"):  # a run folder each, ready to submit
        assert len((tmp_path / agent / "episodes.jsonl").read_text().splitlines()) == 45


def test_a_plugin_command_declared_twice_is_added_once(monkeypatch, capsys):
    # a stale egg-info beside the installed metadata declares every plugin command again
    import importlib.metadata

    from agentgym_envs import cli

    found = importlib.metadata.entry_points(group=cli.COMMANDS_GROUP)
    assert {point.name for point in found} >= {"bench", "leaderboard", "inspect"}
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [*found, *found])
    cli.build_parser()
    assert "unavailable" not in capsys.readouterr().err  # argparse refused no second "bench"
