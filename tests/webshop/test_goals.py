"""Goals: the price rule, difficulty definitions, split disjointness, OOD and adversarial sets."""

from __future__ import annotations

import random

import pytest

from agentgym_envs.core.splits import DIFFICULTIES, SplitTable
from agentgym_envs.webshop import goals as goals_module
from agentgym_envs.webshop.goals import (
    SPLIT_SIZES,
    catalog_search_engine,
    goals,
    original_price_bound,
    price_candidates,
    tight_price_bound,
)
from agentgym_envs.webshop.instructions import HUMAN_SHARE, IID_VOICES, OOD_VOICES
from agentgym_envs.webshop.vocab import OOD_SUBCATEGORIES, SUBCATEGORIES
from tests.webshop.small_catalog import small_catalog

OOD_QUERIES = {SUBCATEGORIES[i].query for i in OOD_SUBCATEGORIES}
IID = ("train", "valid", "test")


@pytest.fixture(scope="module")
def catalog():
    return small_catalog()


@pytest.fixture(scope="module")
def engine(catalog):
    return catalog_search_engine(catalog)


@pytest.fixture(scope="module")
def all_goals(catalog, engine):
    return {(d, s): goals(catalog, d, s, engine=engine) for d in DIFFICULTIES
            for s in (*IID, "ood", "adversarial")}  # fmt: skip


def test_price_candidates_follow_the_original_rule():
    assert price_candidates(35.5) == [40.0, 50.0, 60.0, 70.0]
    assert price_candidates(40.0) == [50.0, 60.0, 70.0, 80.0]  # strictly above
    assert price_candidates(975.0) == [980.0, 990.0]
    assert price_candidates(985.0) == [990.0]
    bounds = {original_price_bound(35.5, random.Random(seed)) for seed in range(200)}
    assert bounds == {50.0, 60.0, 70.0}  # the larger of two distinct candidates, never the first
    assert original_price_bound(975.0, random.Random(0)) == 990.0
    assert original_price_bound(985.0, random.Random(0)) is None
    assert tight_price_bound(35.5) == 40.0 and tight_price_bound(985.0) is None


def test_lists_have_the_documented_sizes_and_unique_ids(all_goals):
    table = SplitTable("webshop", {key: len(value) for key, value in all_goals.items()})
    for (difficulty, split), goal_list in all_goals.items():
        assert len(goal_list) <= SPLIT_SIZES.get(split, SPLIT_SIZES["test"])
        assert [g.goal_id for g in goal_list] == table.task_ids(difficulty, split)
    assert len(all_goals[("medium", "train")]) > 1_000
    assert len(all_goals[("medium", "test")]) > 100
    assert len(all_goals[("medium", "ood")]) > 100
    assert all(len(all_goals[("hard", s)]) > 0 for s in (*IID, "ood"))


def test_iid_splits_have_disjoint_targets_across_difficulties(all_goals):
    targets = {s: {g.asin for d in DIFFICULTIES for g in all_goals[(d, s)]} for s in IID}
    assert not targets["train"] & targets["valid"]
    assert not targets["train"] & targets["test"]
    assert not targets["valid"] & targets["test"]


def test_ood_uses_held_out_subcategories_and_templates(all_goals):
    ood_openers = _openers(OOD_VOICES)
    for difficulty in DIFFICULTIES:
        for split in IID:
            for goal in all_goals[(difficulty, split)]:
                assert goal.query not in OOD_QUERIES
                assert not goal.instruction.startswith(ood_openers)
        for goal in all_goals[(difficulty, "ood")]:
            assert goal.query in OOD_QUERIES
            assert goal.instruction.startswith(ood_openers)
            assert "price lower than" not in goal.instruction
    assert not set(_openers(IID_VOICES)) & set(ood_openers)


def _openers(voices) -> tuple[str, ...]:
    templates = voices.synthetic.openers + voices.human.openers
    return tuple(opener.split("{")[0] for opener in templates)


def test_both_voices_write_every_split(all_goals):
    """About HUMAN_SHARE of generated goals read like a shopper, the rest like the template."""
    for split, voices in (("train", IID_VOICES), ("ood", OOD_VOICES)):
        synthetic = tuple(o.split("{")[0] for o in voices.synthetic.openers)
        texts = [g.instruction for g in all_goals[("medium", split)]]
        human = sum(not t.startswith(synthetic) for t in texts) / len(texts)
        assert abs(human - HUMAN_SHARE) < 0.15, (split, human)


def test_adversarial_is_test_with_perturbed_text(all_goals):
    for difficulty in DIFFICULTIES:
        test, adversarial = all_goals[(difficulty, "test")], all_goals[(difficulty, "adversarial")]
        assert len(test) == len(adversarial)
        changed = 0
        for plain, hard in zip(test, adversarial, strict=True):
            assert (plain.asin, plain.attributes, plain.options, plain.price_upper) == (
                hard.asin, hard.attributes, hard.options, hard.price_upper)  # fmt: skip
            changed += plain.instruction != hard.instruction
        assert changed == len(test)


def test_difficulty_definitions_hold(catalog, engine, all_goals):
    for split in (*IID, "ood"):
        for goal in all_goals[("easy", split)]:
            product = catalog.product(catalog.index_of(goal.asin))
            assert len(goal.attributes) == 1 and goal.attributes[0] in product.attributes
            assert goal.options == {}
            assert catalog.index_of(goal.asin) in engine.search(goal.instruction, 10)
        for goal in all_goals[("hard", split)]:
            row = catalog.index_of(goal.asin)
            product = catalog.product(row)
            assert len(goal.attributes) >= 3 and len(goal.options) >= 2
            assert set(goal.options) == set(product.options)
            assert goal.price_upper == tight_price_bound(product.price)
            assert catalog.meta["siblings"][row] >= 2 and catalog.meta["anchor"][row]
            cluster = catalog.meta["cluster"][row]
            for near in range(row + 1, row + 1 + int(catalog.meta["siblings"][row])):
                assert catalog.meta["cluster"][near] == cluster
                assert catalog.product(near).price > goal.price_upper


def test_medium_goals_are_drawn_from_the_target(catalog, all_goals):
    for goal in all_goals[("medium", "train")][:400]:
        product = catalog.product(catalog.index_of(goal.asin))
        assert 1 <= len(goal.attributes) <= 4
        assert set(goal.attributes) <= set(product.attributes)
        assert all(goal.options[g] in product.options[g] for g in goal.options)
        assert goal.price_upper in price_candidates(product.price)[1:] or goal.price_upper is None
        assert (goal.query, goal.title, goal.type_nouns) == (
            product.query, product.title, product.type_nouns)  # fmt: skip
        # the instruction says everything the reward checks, in either voice
        for attribute in goal.attributes:
            assert attribute in goal.instruction
        for value in goal.options.values():
            assert value in goal.instruction
        if goal.price_upper is not None:
            assert f"{goal.price_upper:.0f}" in goal.instruction


def test_goal_lists_are_deterministic_and_cached(catalog, engine, all_goals):
    cache = catalog.cache_dir / f"goals-{goals_module.GOALS_VERSION}" / "medium-test.jsonl"
    assert cache.exists()
    goals_module._MEMO.clear()
    assert goals(catalog, "medium", "test") == all_goals[("medium", "test")]  # read back
    cache.write_text(cache.read_text()[:-50])  # damaged: rebuilt, same result
    goals_module._MEMO.clear()
    assert goals(catalog, "medium", "test") == all_goals[("medium", "test")]


def test_bad_difficulty_or_split_lists_the_valid_ones(catalog):
    with pytest.raises(ValueError, match="'easy', 'medium', 'hard'"):
        goals(catalog, "impossible", "train")
    with pytest.raises(ValueError, match="adversarial"):
        goals(catalog, "easy", "dev")


def test_buying_the_target_with_the_wanted_options_scores_one(catalog, all_goals):
    from agentgym_envs.webshop.reward import compute_reward

    for goal_list in all_goals.values():
        for goal in goal_list[:300]:
            target = catalog.product(catalog.index_of(goal.asin))
            assert compute_reward(target, goal, goal.options).score == 1.0


def test_calibration_script_prints_histogram_and_rule_agent(catalog, monkeypatch, capsys):
    from agentgym_envs.webshop import calibrate
    from tests.webshop.small_catalog import small_cache_root

    monkeypatch.setenv("AGENTGYM_CACHE", str(small_cache_root()))
    calibrate.main(["--num-products", str(len(catalog)), "--limit", "50", "--show", "3"])
    out = capsys.readouterr().out
    assert "rank 1:" in out and "beyond 50:" in out and "rule agent score:" in out
    assert out.count("  goal: ") == 3 and out.count("  attributes: ") == 3
    with pytest.raises(SystemExit):
        calibrate.main(["--help"])
    assert "rule agent" in capsys.readouterr().out


def test_shopper_voice_states_every_fact_in_varied_order():
    from agentgym_envs.webshop.instructions import HUMAN_STYLE, render_human

    facts = ("slim fit", "machine wash", "navy blue", "x-large")
    rng = random.Random(0)
    orders, texts = set(), set()
    for _ in range(300):
        options = {"color": "navy blue", "size": "x-large"}
        text = render_human("dress shirt", list(facts[:2]), options, 40.0, HUMAN_STYLE, rng)
        assert all(fact in text for fact in facts) and "40" in text and "dress shirt" in text
        assert ":" not in text  # no "color: navy blue" template
        orders.add(tuple(sorted(facts, key=text.index)))
        texts.add(text)
    assert len(orders) >= 6 and len(texts) > 250
