# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""``run:RUN_DIR`` agents: a trained policy plays benchmark episodes as the trainer evaluates it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.train.support import require_train_extra

require_train_extra()

import gymnasium as gym
import torch
from agentgym_bench import agent_specs
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve
from agentgym_bench.trained_agent import TrainedPolicyAgent, make_trained_agent

from agentgym_envs.core.episode import play_episode
from agentgym_train.export import export_adapter, export_run, start_from_adapter
from agentgym_train.rollout import Job, RolloutCollector
from agentgym_train.trainer import EVAL_SEED_BASE, Trainer, read_metrics
from tests.train.support import config_for

#: the trainer tests' small config, made faster still: a tiny model with no pre-training (mean
#: reduction, so that its choices depend on the task rather than on the shortest action)
FAST = (
    "rollout.score_reduction=mean",
    "rollout.show_admissible=false",  # the observation ends the prompt: choices differ by task
    "policy.tiny_pretrain_steps=0",
    "policy.tiny_corpus_episodes=40",
    "updates=2",
    "evaluation.every=1",
    "evaluation.episodes=4",
    "evaluation.splits=[valid]",
)
SEEDS = [EVAL_SEED_BASE + i for i in range(4)]  # the trainer's evaluation seeds
SUITE = """\
name: trained
version: 1
description: two Toy easy test tasks
envs:
  AgentGym/Toy-v0:
    difficulties: [easy]
    splits: [test]
    episodes: 2
"""


@pytest.fixture(scope="module")
def score_run(tmp_path_factory) -> tuple[Path, Trainer]:
    """A LoRA PPO run in score mode (two updates, evaluated and checkpointed after each)."""
    run_dir = tmp_path_factory.mktemp("trained") / "score"
    trainer = Trainer(config_for(run_dir, "tiny", *FAST))
    trainer.train()
    return run_dir, trainer


@pytest.fixture(scope="module")
def generate_run(score_run) -> tuple[Path, Trainer]:
    """One update in generate mode on the score run's base model."""
    base = score_run[0] / "base_model"
    run_dir = score_run[0].parent / "generate"
    overrides = (*FAST, "updates=1", "rollout.action_mode=generate", "rollout.max_new_tokens=8")
    trainer = Trainer(config_for(run_dir, str(base), *overrides))
    trainer.train()
    return run_dir, trainer


def trainer_turns(trainer: Trainer, split: str = "valid") -> list[list[tuple]]:
    """Each turn of the trainer's own greedy evaluation (``Trainer.evaluate``'s collector, one
    env so that no batch padding is involved) on ``SEEDS``: action, prompt and completion ids."""
    cfg = trainer.config
    kwargs = {**cfg.rollout.env_kwargs, "split": split}
    collector = RolloutCollector(trainer.policy, cfg.rollout, cfg.reward, kwargs, num_envs=1)
    played = collector.collect([Job(seed) for seed in SEEDS], cfg.evaluation.temperature)
    collector.close()
    return [[_turn(step) for step in episode.steps] for episode in played]


def _turn(step) -> tuple:
    return step.action, step.prompt_ids, step.completion_ids


def agent_actions(agent, env: gym.Env, max_steps: int) -> list[list[str]]:
    return [
        [s["action"] for s in play_episode(env, agent, seed, max_steps).steps] for seed in SEEDS
    ]


@pytest.mark.parametrize("run", ["score_run", "generate_run"])
def test_agent_plays_the_trainers_greedy_evaluation(run, request):
    run_dir, trainer = request.getfixturevalue(run)
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    agent = make_trained_agent(env, run=str(run_dir))
    assert isinstance(agent, TrainedPolicyAgent)
    expected = trainer_turns(trainer)
    for seed, turns in zip(SEEDS, expected, strict=True):
        played = play_episode(env, agent, seed, trainer.config.rollout.max_turns)
        assert [s["action"] for s in played.steps] == [action for action, _, _ in turns]
        # the same prompts (system, history, observation) and tokens
        assert [_turn(step) for step in agent.episode.steps] == turns
    assert all(expected)
    if trainer.config.rollout.action_mode == "score":  # a choice worth comparing
        assert len({episode[0][0] for episode in expected}) > 1, expected
    described = agent.describe()
    mode = trainer.config.rollout.action_mode
    assert described["run"] == str(run_dir.resolve()) and described["source"] == "run"
    assert described["update"] == trainer.state["update"]
    assert described["action_mode"] == mode and described["decoding"]["greedy"]
    assert described["base_model"] == trainer.config.policy.model and described["lora"]
    assert described["prompt"]["system_template"] == trainer.config.rollout.system_template
    json.dumps(described)  # recorded in run.json
    # another env of the same process shares the loaded model
    other = make_trained_agent(gym.make("AgentGym/Toy-v0", difficulty="easy", split="ood"),
                               run=str(run_dir))  # fmt: skip
    assert other.loaded is agent.loaded and other is not agent
    env.close()


def test_generate_mode_play_skips_the_log_prob_pass(generate_run, monkeypatch):
    """Benchmark play needs the action only: no ``Policy.sequence_stats`` pass over each completion
    (training's rollouts make one for the log-probs and values)."""
    run_dir, trainer = generate_run
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    agent = make_trained_agent(env, run=str(run_dir))

    def no_pass(*args, **kwargs):
        raise AssertionError("benchmark play ran the log-prob pass")

    monkeypatch.setattr(agent.loaded.policy, "sequence_stats", no_pass)
    played = play_episode(env, agent, SEEDS[0], trainer.config.rollout.max_turns)
    env.close()
    assert played.steps and all(not step.token_logprobs for step in agent.episode.steps)


def test_best_checkpoint_and_export(score_run, tmp_path):
    run_dir, trainer = score_run
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    best = make_trained_agent(env, run=str(run_dir), checkpoint="best")
    assert trainer.state["best_update"] is not None
    assert best.describe()["update"] == trainer.state["best_update"]
    assert Path(best.describe()["checkpoint"]).name == f"update_{trainer.state['best_update']:06d}"
    with pytest.raises(ValueError, match=r"not a complete checkpoint.*latest, best"):
        make_trained_agent(env, run=str(run_dir), checkpoint="7")
    best_name = f"update_{trainer.state['best_update']:06d}"
    manifest = export_adapter(run_dir, tmp_path / "best", "best") / "agentgym_adapter.json"
    assert json.loads(manifest.read_text())["checkpoint"] == best_name  # export --checkpoint best
    # the export (LoRA merged, value head dropped) plays as the run's latest checkpoint does
    export = export_run(run_dir, tmp_path / "export")
    exported = make_trained_agent(env, run=str(export), config=str(run_dir / "config.yaml"))
    assert exported.describe()["source"] == "export"
    latest = make_trained_agent(env, run=str(run_dir))
    max_steps = trainer.config.rollout.max_turns
    assert agent_actions(exported, env, max_steps) == agent_actions(latest, env, max_steps)
    env.close()


def test_adapter_export_is_small_and_plays_as_the_run(score_run, tmp_path):
    """The form a board row commits: the LoRA adapter in bf16 and the run's config."""
    run_dir, trainer = score_run
    out = export_adapter(run_dir, tmp_path / "adapter")
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert "adapter/adapter_model.safetensors" in files and "config.yaml" in files
    assert "agentgym_adapter.json" in files
    assert not any(name.endswith(".pt") for name in files)  # no optimizer, RNG or value head
    manifest = json.loads((out / "agentgym_adapter.json").read_text())
    assert manifest["update"] == trainer.state["update"] and manifest["dtype"] == "bfloat16"
    from safetensors.torch import load_file

    weights = load_file(out / "adapter" / "adapter_model.safetensors")
    assert weights and {t.dtype for t in weights.values()} == {torch.bfloat16}
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    adapter = make_trained_agent(env, run=str(out))
    assert adapter.describe()["source"] == "adapter"
    assert adapter.describe()["update"] == trainer.state["update"]
    # same LoRA weights up to bf16 rounding: the same moves as the run's latest checkpoint
    latest = make_trained_agent(env, run=str(run_dir))
    max_steps = trainer.config.rollout.max_turns
    assert agent_actions(adapter, env, max_steps) == agent_actions(latest, env, max_steps)
    with pytest.raises(ValueError, match="adapter export has no checkpoints"):
        make_trained_agent(env, run=str(out), checkpoint="best")
    env.close()
    with pytest.raises(ValueError, match=r"policy\.lora=false"):
        export_adapter(_full_run(tmp_path / "full"), tmp_path / "nope")


def test_a_run_starts_from_an_exported_adapter(score_run, tmp_path):
    """policy.init_adapter: RL on top of a published clone; the adapter is evaluated first."""
    import shutil

    import yaml

    run_dir, trainer = score_run
    out = export_adapter(run_dir, tmp_path / "adapter")
    base = str(run_dir / "base_model")
    rl_dir = tmp_path / "rl"
    started = Trainer(config_for(rl_dir, base, *FAST, "updates=0", f"policy.init_adapter={out}"))
    exported = trainer.policy.trainable_state()
    loaded = started.policy.trainable_state()
    lora = [name for name in exported if "lora_" in name]
    assert lora and all(
        torch.equal(loaded[name], exported[name].to(torch.bfloat16).to(loaded[name].dtype))
        for name in lora
    )  # the export's weights (bf16) in every LoRA layer
    fresh = Trainer(config_for(tmp_path / "fresh", base, *FAST, "updates=0"))
    assert not torch.equal(fresh.policy.trainable_state()[lora[0]], loaded[lora[0]])
    fresh.close()
    started.train()
    start = [row for row in read_metrics(rl_dir) if "eval/valid/success_rate" in row]
    assert [row["update"] for row in start] == [0]  # the curve starts at the adapter's figure
    assert started.state["best_update"] == 0
    other = tmp_path / "other"
    shutil.copytree(out, other)
    config = yaml.safe_load((other / "config.yaml").read_text())
    config["policy"]["model"] = "some/other-model"
    (other / "config.yaml").write_text(yaml.safe_dump(config))
    with pytest.raises(ValueError, match=r"trained on 'some/other-model'.*set policy\.model"):
        start_from_adapter(started.policy, other)
    with pytest.raises(FileNotFoundError, match="holds no adapter"):
        start_from_adapter(started.policy, tmp_path)
    with pytest.raises(ValueError, match=r"init_adapter needs policy\.lora=true"):
        config_for(tmp_path / "full", base, "policy.lora=false", f"policy.init_adapter={out}")


def _full_run(run_dir: Path) -> Path:
    """A run folder whose config trains the whole model (no adapter to export)."""
    import yaml

    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump({"policy": {"lora": False}}))
    return run_dir


def test_suite_runner_plays_a_run(score_run, tmp_path):
    run_dir, trainer = score_run
    (tmp_path / "trained.yaml").write_text(SUITE)
    out = tmp_path / "bench"
    spec = "run:" + str(run_dir)
    run_suite(resolve(str(tmp_path / "trained.yaml")), RunSettings(spec, workers=1), out,
              progress=False)  # fmt: skip
    records = read_episodes(out)
    assert len(records) == 2
    assert all(r["error"] is None and r["trajectory"]["steps"] for r in records), records
    description = json.loads((out / "run.json").read_text())["agent"]["description"]
    assert description["spec"] == spec
    assert description["run"] == str(run_dir.resolve())
    assert description["update"] == trainer.state["update"]


def test_missing_run_or_checkpoint_says_what_to_pass(tmp_path):
    env = gym.make("AgentGym/Toy-v0")
    with pytest.raises(ValueError, match=r"no such directory; pass run:RUN_DIR .*run:EXPORT_DIR"):
        agent_specs.make("run:" + str(tmp_path / "missing"), env)
    with pytest.raises(ValueError, match=r"neither config\.yaml"):
        make_trained_agent(env, run=str(tmp_path))
    (tmp_path / "config.yaml").write_text("updates: 1\n")
    with pytest.raises(ValueError, match=r"no complete checkpoint.*name a checkpoint folder"):
        make_trained_agent(env, run=str(tmp_path))
    env.close()


def test_hf_agent_plays_a_plain_model_directory(score_run, tmp_path):
    run_dir, trainer = score_run
    export = export_run(run_dir, tmp_path / "export")  # a plain Hugging Face model folder
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    options = {"config": str(run_dir / "config.yaml")}
    hf = agent_specs.make("hf:" + str(export), env, options)
    assert hf.describe()["kind"] == "Hugging Face model"
    assert hf.describe()["model"] == str(export)
    same = make_trained_agent(env, run=str(export), **options)
    max_steps = trainer.config.rollout.max_turns
    assert agent_actions(hf, env, max_steps) == agent_actions(same, env, max_steps)
    with pytest.raises(ValueError, match=r"not a Hugging Face model directory.*never downloaded"):
        agent_specs.make("hf:" + str(tmp_path / "nothing"), env)
    env.close()


def test_hf_agent_takes_a_suites_history_setting(score_run, tmp_path):
    run_dir, _ = score_run
    export = export_run(run_dir, tmp_path / "export")
    env = gym.make("AgentGym/Toy-v0", difficulty="hard", split="test")
    options = {"config": str(run_dir / "config.yaml")}
    for limit in (0, 1, None):
        hf = agent_specs.make("hf:" + str(export), env, options)
        assert agent_specs.apply_prompt_settings(hf, {"max_history_turns": limit})
        assert hf.describe()["prompt"]["max_history_turns"] == limit
        prompts: list[str] = []
        build, decode = hf.player.turns.prompt_ids, hf.player.turns.policy.tokenizer.decode

        def seen(slot, build=build, decode=decode, prompts=prompts):
            ids = build(slot)
            prompts.append(decode(ids))
            return ids

        hf.player.turns.prompt_ids = seen
        play_episode(env, hf, SEEDS[0], 4)
        assert len(prompts) >= 3  # hard Toy tasks take more than 2 steps
        for k, prompt in enumerate(prompts):  # each past turn shows its observation again
            kept = k if limit is None else min(k, limit)
            assert prompt.count("Observation:") == 1 + kept, (limit, k)
    env.close()


@pytest.mark.parametrize("run", ["score_run", "generate_run"])
def test_training_evaluations_are_benchmark_records(run, request):
    """The trainer writes each evaluation episode as the runner does: summaries and replays
    work on them as on any benchmark run."""
    from agentgym_bench.stats import summarize

    run_dir, trainer = request.getfixturevalue(run)
    latest = sorted((run_dir / "evaluations").iterdir())[-1]
    assert latest.name == f"update_{trainer.state['update']:06d}"
    lines = (latest / "episodes.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == 4 and {r["split"] for r in records} == {"valid"}
    (row,) = summarize(records)
    assert row["success_rate"] == trainer.last_evaluation["eval/valid/success_rate"]
    env = gym.make(records[0]["env_id"], difficulty=row["difficulty"], split="valid")
    for record in records:  # replaying the recorded actions gives the recorded observations
        trajectory = record["trajectory"]
        assert record["key"].endswith(f"|{record['task_id']}|{record['seed']}")
        observation, _ = env.reset(seed=record["seed"], options={"task_id": record["task_id"]})
        assert observation == trajectory["observation"]
        for step in trajectory["steps"]:
            observation, reward, *_ = env.step(step["action"])
            assert (observation, reward) == (step["observation"], step["reward"])
    env.close()
