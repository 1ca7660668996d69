# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Evaluation plays only the splits the env id serves: ``evaluation.splits=auto`` drops the
default splits a one-task MiniWoB id does not serve (one log line), and a split asked for by name
that the id does not serve is refused when the config is made, naming the splits it serves."""

from __future__ import annotations

import logging

import pytest

from tests.train.support import config_for, require_train_extra

require_train_extra()

from agentgym_envs.registration import entry_for
from agentgym_train.config import describe, load_config
from agentgym_train.trainer import Trainer

IID_ONLY = "AgentGym/MiniWoB-click-test-2-v0"  # an i.i.d. task without a MiniWoB test mode
HELD_OUT = "AgentGym/MiniWoB-click-test-transfer-v0"  # held out: ood only


def test_the_ids_serve_what_the_tests_assume():
    assert "ood" not in entry_for(IID_ONLY).splits and "valid" in entry_for(IID_ONLY).splits
    assert entry_for(HELD_OUT).splits == ("ood",)


@pytest.mark.parametrize(
    ("env_id", "splits", "rollback", "dropped"),
    [
        ("AgentGym/Toy-v0", ["valid", "ood"], "valid", []),
        (IID_ONLY, ["valid"], "valid", ["ood"]),
        (HELD_OUT, ["ood"], "ood", ["valid"]),
    ],
)
def test_auto_evaluates_the_default_splits_the_id_serves(env_id, splits, rollback, dropped):
    config = load_config(None, [f"rollout.env_id={env_id}"])
    assert config.evaluation.splits == "auto" and config.evaluation.rollback_split == "auto"
    assert config.evaluation.plan(env_id) == (splits, rollback, dropped)


def test_the_generic_miniwob_id_with_one_task_serves_that_tasks_splits():
    # AgentGym/MiniWoB-v0 serves every split; made with task=... it serves the task's own
    generic = "AgentGym/MiniWoB-v0"
    config = load_config(None, [f"rollout.env_id={generic}"])
    assert config.evaluation.plan(generic) == (["valid", "ood"], "valid", [])
    assert config.evaluation.plan(generic, {"task": "click-test-2"}) == (
        ["valid"], "valid", ["ood"]
    )  # fmt: skip
    assert config.evaluation.plan(generic, {"task": "click-test-transfer"}) == (
        ["ood"], "ood", ["valid"]
    )  # fmt: skip
    with pytest.raises(ValueError, match=r"MiniWoB-v0 with task=click-test-transfer does not"):
        load_config(
            None,
            [f"rollout.env_id={generic}", "rollout.env_kwargs={task: click-test-transfer}",
             "evaluation.splits=[valid]"],
        )  # fmt: skip


def test_a_split_asked_for_that_the_id_does_not_serve_is_refused_naming_the_served_ones():
    served = ", ".join(entry_for(IID_ONLY).splits)
    with pytest.raises(ValueError, match=rf"evaluation.splits=.*asks for ood.*serves {served}"):
        load_config(None, [f"rollout.env_id={IID_ONLY}", "evaluation.splits=[valid, ood]"])
    with pytest.raises(ValueError, match=r"rollback_split='valid' is a split .* serves ood"):
        load_config(None, [f"rollout.env_id={HELD_OUT}", "evaluation.rollback_split=valid"])
    # an explicit split the id serves stays as asked; a bare name is a one-split list
    config = load_config(None, [f"rollout.env_id={IID_ONLY}", "evaluation.splits=test"])
    assert config.evaluation.plan(IID_ONLY) == (["test"], "valid", [])


def test_the_help_says_what_auto_means():
    lines = {line.split(" = ")[0]: line for line in describe()}
    assert lines["evaluation.splits"].startswith("evaluation.splits = 'auto'  # ")
    assert "those of them the env id serves" in lines["evaluation.splits"]
    assert "auto: valid, or the first evaluated split" in lines["evaluation.rollback_split"]


def test_trainer_evaluates_a_one_task_id_on_the_splits_it_serves(tiny_dir, tmp_path, caplog):
    entry = entry_for(IID_ONLY)
    if entry.missing():
        pytest.skip(f"needs {entry.missing()}: {entry.install_hint()}")
    config = config_for(
        tmp_path, tiny_dir, f"rollout.env_id={IID_ONLY}", "rollout.num_envs=1",
        "rollout.max_turns=2", "evaluation.episodes=1",
    )  # fmt: skip
    with caplog.at_level(logging.INFO, logger="agentgym_train"):
        trainer = Trainer(config)
    try:
        notes = [r.getMessage() for r in caplog.records if "splits=auto" in r.getMessage()]
        assert notes == [
            f"evaluation.splits=auto: {IID_ONLY} does not serve ood; evaluating on valid"
        ]
        results = trainer.evaluate()  # the first evaluation: no split error
    finally:
        trainer.close()
    assert set(results) >= {"eval/valid/success_rate"}
    assert not any(key.startswith("eval/ood/") for key in results)
