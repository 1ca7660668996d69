"""The `agentgym` command line and the cheap registration."""

from __future__ import annotations

import json
import subprocess
import sys

from agentgym_envs.cli import main


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


def test_list_and_check(capsys):
    assert main(["list"]) == 0
    assert "AgentGym/Toy-v0" in capsys.readouterr().out
    assert main(["check", "AgentGym/Toy-v0"]) == 0
    assert "PASS AgentGym/Toy-v0" in capsys.readouterr().out


def test_unknown_id_is_a_clear_error(capsys):
    assert main(["check", "AgentGym/Nope-v0"]) == 2
    assert "known ids" in capsys.readouterr().err


def test_play_reads_commands_from_stdin():
    script = ":actions\n:hint\nlook\n:quit\n"
    out = subprocess.run(
        [sys.executable, "-m", "agentgym_envs.cli", "play", "AgentGym/Toy-v0", "--seed", "2"],
        input=script,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Task:" in out and "go to" in out and "You are in the hallway" in out


def test_bench_writes_a_report(tmp_path):
    code = main(
        [
            "bench",
            "--envs",
            "AgentGym/Toy-v0",
            "--episodes",
            "3",
            "--difficulties",
            "easy",
            "--splits",
            "test",
            "--out",
            str(tmp_path),
        ]
    )
    assert code == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    rows = {r["agent"]: r for r in summary["rows"]}
    assert rows["oracle"]["success_rate"] == 1.0 and rows["oracle"]["episodes"] == 3
    assert (tmp_path / "report.md").read_text().startswith("# AgentGym quick benchmark")
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 6
