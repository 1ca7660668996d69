# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Config: defaults, YAML files, dotted overrides, schedules and helpful errors."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.train.support import require_train_extra

require_train_extra()

from agentgym_train.config import Schedule, describe, load_config

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.mark.parametrize("name", ["toy", "webshop", "alfworld", "miniwob", "webshop-qwen-lora"])
def test_shipped_configs_load(name):
    config = load_config(CONFIGS / f"{name}.yaml")
    assert config.rollout.env_id.startswith("AgentGym/")
    assert config.algorithm.name in ("ppo", "grpo")


def test_overrides_parse_yaml_values_and_nested_keys():
    config = load_config(
        CONFIGS / "toy.yaml",
        ["algorithm.lr=5e-4", "evaluation.splits=[valid]", "policy.lora=false",
         "reward.step_penalty.end=0.5", "reward.step_penalty.updates=10",
         "rollout.system_template=Say: {action_help}"],
    )  # fmt: skip
    assert config.algorithm.lr == 5e-4
    assert config.evaluation.splits == ["valid"]
    assert config.policy.lora is False
    assert config.reward.step_penalty.at(5) == pytest.approx(0.05 + 0.45 / 2)  # toy.yaml: 0.05
    assert config.rollout.system_template == "Say: {action_help}"


def test_schedule_shapes():
    assert Schedule(1.0).at(100) == 1.0
    linear = Schedule(1.0, 0.0, 10)
    assert [linear.at(u) for u in (0, 5, 10, 20)] == [1.0, 0.5, 0.0, 0.0]
    cosine = Schedule(1.0, 0.0, 10, "cosine")
    assert cosine.at(5) == pytest.approx(0.5)
    assert cosine.at(2) > linear.at(2)


def test_unknown_key_names_the_closest_or_lists_valid_ones():
    with pytest.raises(ValueError, match=r"algorithm.clip; did you mean algorithm.clip_range or"):
        load_config(None, ["algorithm.clip=0.1"])
    with pytest.raises(ValueError, match=r"rolout; did you mean rollout\?"):
        load_config(None, ["rolout.env_id=AgentGym/Toy-v0"])
    with pytest.raises(ValueError, match=r"valid keys under algorithm.*clip_range"):
        load_config(None, ["algorithm.zzzz=0.1"])


def test_quantized_loading_needs_lora():
    with pytest.raises(ValueError, match=r"load_in_bits=4 needs policy\.lora=true"):
        load_config(None, ["policy.load_in_bits=4", "policy.lora=false"])
    assert load_config(None, ["policy.load_in_bits=4", "policy.lora=true"]).policy.lora


def test_sharding_is_one_of_the_supported_modes():
    with pytest.raises(ValueError, match=r"sharding='zero3' is not valid.*'none', 'fsdp'"):
        load_config(None, ["sharding=zero3"])
    with pytest.raises(ValueError, match=r"sharding=fsdp with policy.load_in_bits"):
        load_config(None, ["sharding=fsdp", "policy.load_in_bits=4"])
    assert load_config(None, ["sharding=fsdp"]).sharding == "fsdp"


def test_unregistered_env_id_is_refused_with_close_matches():
    with pytest.raises(ValueError, match=r"'AgentGym/Toy-v9' is not a registered.*AgentGym/Toy-v0"):
        load_config(None, ["rollout.env_id=AgentGym/Toy-v9"])


def test_bad_choice_and_bad_override():
    with pytest.raises(ValueError, match="choose one of"):
        load_config(None, ["algorithm.name=a2c"])
    with pytest.raises(ValueError, match=r"section\.field=value"):
        load_config(None, ["algorithm.lr"])
    with pytest.raises(ValueError, match=r"multiple of algorithm\.group_size"):
        load_config(None, ["algorithm.name=grpo", "algorithm.group_size=5"])


def test_every_field_is_documented():
    lines = describe()
    assert len(lines) > 60
    assert all("#" in line and not line.rstrip().endswith("#") for line in lines)


def test_grpo_with_few_tasks_per_update_warns_with_a_fix():
    with pytest.warns(UserWarning, match=r"16 distinct tasks.*episodes_per_update=128"):
        load_config(None, ["algorithm.name=grpo", "rollout.episodes_per_update=64"])
    with pytest.warns(UserWarning, match=r"gigpo: only 16 distinct tasks"):
        load_config(None, ["algorithm.name=gigpo", "rollout.episodes_per_update=64"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_config(None, ["algorithm.name=grpo", "rollout.episodes_per_update=128"])
        load_config(None, ["rollout.episodes_per_update=16"])  # PPO: no groups, no warning


def test_choices_are_typed_once_and_checked_wherever_a_config_is_made():
    from agentgym_train.config import AlgorithmConfig, Schedule

    with pytest.raises(ValueError, match=r"name='a2c' is not valid.*'grpo', 'gigpo'\]"):
        AlgorithmConfig(name="a2c")  # type: ignore[arg-type]  (made in code, not from YAML)
    with pytest.raises(ValueError, match=r"shape='step' is not valid"):
        Schedule(1.0, 0.0, 10, "step")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"policy.load_in_bits=3 is not valid.*\[0, 4, 8\]"):
        load_config(None, ["policy.load_in_bits=3"])
    # the help lists the type's choices
    lines = {line.split(" = ")[0]: line for line in describe()}
    assert lines["algorithm.name"].endswith("[ppo | grpo | gigpo]")
    assert lines["policy.load_in_bits"].endswith("[0 | 4 | 8]")


def test_a_config_is_validated_once_so_its_warning_comes_once():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_config(None, ["algorithm.name=grpo", "rollout.episodes_per_update=64"])
    with pytest.warns(UserWarning, match=r"gigpo: only 16 distinct tasks"):
        load_config(None, ["algorithm.name=gigpo", "rollout.episodes_per_update=64"])
    assert len([w for w in caught if "distinct tasks" in str(w.message)]) == 1
