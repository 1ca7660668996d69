"""The household generator: determinism, difficulty rules, split rules, ALFWorld sentences."""

from __future__ import annotations

import pytest

from tests.alfworld.support import needs_alfworld

pytestmark = needs_alfworld


def _house(seed: str, difficulty: str, **kwargs):
    from agentgym_envs.alfworld.generator import GenerationError, generate

    for attempt in range(100):
        try:
            return generate(f"{seed}:{attempt}", difficulty, **kwargs)
        except GenerationError:
            continue
    raise AssertionError("no house in 100 attempts")


def test_same_seed_same_house_and_different_seeds_differ() -> None:
    assert _house("a", "medium") == _house("a", "medium")
    assert _house("a", "medium").fingerprint() != _house("b", "medium").fingerprint()


def test_easy_houses_follow_the_easy_rules() -> None:
    from agentgym_envs.alfworld import assets

    for i in range(15):
        house = _house(f"easy{i}", "easy")
        assert house.room == "Kitchen"
        assert len(house.receptacles) <= 8
        assert house.task.task_type == "pick_and_place_simple"
        where = {r.entity_id: r for r in house.receptacles}
        targets = [item for item in house.items if item.kind == house.task.object_class]
        assert targets and all(not where[t.receptacle].openable for t in targets)
        assert all(where[t.receptacle].kind != house.task.receptacle_class for t in targets)
        assert house.layout not in assets.tables().held_out_scenes


def test_hard_houses_are_big_and_closed() -> None:
    for i in range(8):
        house = _house(f"hard{i}", "hard")
        assert len(house.receptacles) >= 25
        assert sum(r.openable for r in house.receptacles) >= 3
        kinds = [item.kind for item in house.items if item.kind != house.task.object_class]
        lamps = {"DeskLamp", "FloorLamp"}
        assert all(kinds.count(k) >= 2 for k in set(kinds) - lamps)


def test_ood_uses_held_out_layouts_and_pairings_and_train_never_does() -> None:
    from agentgym_envs.alfworld import assets
    from agentgym_envs.alfworld.generator import is_held_out_pair

    held_out = assets.tables().held_out_scenes
    for i in range(10):
        ood = _house(f"ood{i}", "medium", ood=True)
        assert ood.layout in held_out
        assert is_held_out_pair(ood.task.task_type, ood.task.object_class)
        train = _house(f"train{i}", "medium")
        assert train.layout not in held_out
        assert not is_held_out_pair(train.task.task_type, train.task.object_class)


def test_sentences_come_from_the_goal_library() -> None:
    from agentgym_envs.alfworld import assets

    library = assets.goal_library()
    for i in range(20):
        task = _house(f"s{i}", "medium").task
        names = {
            "obj": task.object_class.lower(),
            "recep": (task.receptacle_class or "").lower(),
            "toggle": (task.toggle_class or "").lower(),
        }
        options = {t.format(**names) for t in library[task.task_type]["templates"]}
        assert task.sentence in options


def test_adversarial_keeps_the_goal_but_rewrites_the_sentence_and_adds_decoys() -> None:
    for i in range(6):
        house = _house(f"adv{i}", "medium", adversarial=True)
        assert house.decoy_classes
        assert house.task.sentence != house.task.template_sentence
        assert house.task.object_class.lower() in house.task.sentence
        assert not set('#{}[]"') & set(house.task.sentence)
        kinds = [item.kind for item in house.items]
        assert all(kinds.count(d) >= 2 for d in house.decoy_classes)


def test_alfred_names_number_instances_like_alfworld() -> None:
    from agentgym_envs.alfworld.naming import alfred_names

    ids = ["apple_bar_b", "apple_bar_a", "sink_bar_x_bar_sinkbasin", "agent1"]
    assert alfred_names(ids) == {
        "apple_bar_a": "apple 2",
        "apple_bar_b": "apple 1",
        "sink_bar_x_bar_sinkbasin": "sinkbasin 1",
        "agent1": "agent1 ",
    }


def test_task_lists_have_alfworld_sizes() -> None:
    from agentgym_envs.alfworld.splits import TASK_TABLE

    sizes = {
        s: len(TASK_TABLE.task_ids("hard", s))
        for s in ("train", "valid", "test", "ood", "adversarial")
    }
    assert sizes == {"train": 3553, "valid": 140, "test": 140, "ood": 134, "adversarial": 140}
    with pytest.raises(ValueError):
        TASK_TABLE.parse("alfworld-hard-valid-00140")
