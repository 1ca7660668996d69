# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Tiny offline model, shared-prompt scoring, and lock-step rollouts on Toy."""

from __future__ import annotations

import pytest

from tests.train.support import require_train_extra

require_train_extra()

import torch

from agentgym_train.policy import Policy
from agentgym_train.rollout import Job, RolloutCollector
from tests.train.support import config_for


@pytest.fixture(scope="module")
def policy(tiny_dir, tmp_path_factory):
    config = config_for(tmp_path_factory.mktemp("run"), tiny_dir)
    torch.manual_seed(0)
    policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"))
    with torch.no_grad():  # make the adapters matter, so reference != policy
        for name, param in policy.named_parameters():
            if "lora_B" in name:
                param.normal_(0, 0.05)
    return policy


def test_tiny_model_round_trips(tiny_dir):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_dir)
    model = AutoModelForCausalLM.from_pretrained(tiny_dir)
    assert model.config.hidden_size == 64 and model.config.num_hidden_layers == 2
    text = "Task: Go to the red room."
    assert tokenizer.decode(tokenizer(text).input_ids) == text
    assert len(tokenizer(" go to red room").input_ids) <= 5  # env words are single tokens


@pytest.mark.parametrize("packing", [True, False], ids=["packed", "shared-cache"])
def test_shared_prompt_scoring_matches_full_sequences(policy, packing, monkeypatch):
    prompts = [[5, 6, 7, 8], [9, 10], [11, 12, 13]]
    groups = [[[20, 21, 2], [22, 2]], [[23, 24, 25, 2]], [[26, 2], [27, 28, 2], [29, 2]]]
    monkeypatch.setattr(policy.config, "score_packing", packing)
    shared = policy.score_candidates(prompts, groups)
    flat_prompts = [p for p, g in zip(prompts, groups, strict=True) for _ in g]
    flat = policy.sequence_stats(flat_prompts, [c for g in groups for c in g])
    assert torch.allclose(shared.token_logprobs, flat.token_logprobs, atol=1e-5)
    assert torch.allclose(shared.values, flat.values[[0, 2, 3]], atol=1e-6)
    one_token = policy.score_candidates([[5, 6, 7], [8, 9]], [[[2], [20]], [[21]]])  # no rest
    flat = policy.sequence_stats([[5, 6, 7], [5, 6, 7], [8, 9]], [[2], [20], [21]])
    assert torch.allclose(one_token.token_logprobs, flat.token_logprobs, atol=1e-5)


def test_attention_implementation_is_selectable(tiny_dir, tmp_path):
    prompts, groups = [[5, 6, 7, 8], [9, 10]], [[[20, 21, 2], [22, 2]], [[23, 24, 2]]]
    scores = {}
    for name in ("eager", "sdpa"):
        config = config_for(tmp_path, tiny_dir, f"policy.attn_implementation={name}")
        policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"), reference=False)
        assert policy.model.config._attn_implementation == name
        scores[name] = policy.score_candidates(prompts, groups).token_logprobs
    assert torch.allclose(scores["eager"], scores["sdpa"], atol=1e-5)
    with pytest.raises(ValueError, match=r"attn_implementation='flash'.*choose one of"):
        config_for(tmp_path, tiny_dir, "policy.attn_implementation=flash")


def test_reference_is_the_model_without_adapters(policy):
    stats = policy.sequence_stats([[5, 6, 7]], [[8, 9]], values=False)
    with policy.reference() as ref:
        ref_stats = policy.sequence_stats([[5, 6, 7]], [[8, 9]], values=False, lm=ref)
    assert not torch.allclose(stats.token_logprobs, ref_stats.token_logprobs)


def test_score_mode_rollout_records_choices(policy, tiny_dir, tmp_path):
    config = config_for(tmp_path, tiny_dir)
    collector = RolloutCollector(policy, config.rollout, config.reward)
    torch.manual_seed(0)
    episodes = collector.collect([Job(i) for i in range(6)], temperature=1.0, with_reference=True)
    collector.close()
    assert [e.seed for e in episodes] == list(range(6))
    for episode in episodes:
        assert 1 <= len(episode.steps) <= config.rollout.max_turns
        for step in episode.steps:
            assert step.candidates is not None and step.completion_ids in step.candidates
            assert step.old_logprob <= 0 and len(step.ref_logprobs) == len(step.candidates)
            assert not step.invalid  # score mode only plays admissible actions
        if episode.success:
            assert episode.steps[-1].env_reward == 1.0


def test_generate_mode_penalises_invalid_actions(policy, tiny_dir, tmp_path):
    config = config_for(
        tmp_path, tiny_dir, "rollout.action_mode=generate", "rollout.max_new_tokens=6",
        "reward.invalid_action_penalty=0.5", "reward.long_action_penalty=0.25",
    )  # fmt: skip
    collector = RolloutCollector(policy, config.rollout, config.reward)
    torch.manual_seed(0)
    episodes = collector.collect([Job(i) for i in range(4)], temperature=1.0)
    collector.close()
    steps = [s for e in episodes for s in e.steps]
    assert steps
    for step in steps:
        # only the policy's tokens are trained on: one log-prob per generated token
        assert len(step.token_logprobs) == len(step.completion_ids) <= 6
        expected = step.env_reward - 0.5 * step.invalid - 0.25 * step.hit_token_limit
        assert step.reward == pytest.approx(expected)


@pytest.mark.parametrize("algorithm", ["ppo", "grpo"])
def test_generate_mode_update_runs_with_kl(tiny_dir, tmp_path, algorithm):
    from agentgym_train.trainer import Trainer

    config = config_for(
        tmp_path, tiny_dir, "updates=1", "rollout.action_mode=generate",
        "rollout.max_new_tokens=5", "algorithm.kl_coef=0.1", f"algorithm.name={algorithm}",
        "checkpoint.every=0", "rollout.episodes_per_update=8", "rollout.max_turns=2",
    )  # fmt: skip
    metrics = Trainer(config).train()
    assert metrics["loss/kl_ref"] >= 0.0
    assert all(v == v for v in metrics.values())  # no NaN
    assert ("loss/value_loss" in metrics) == (algorithm == "ppo")


@pytest.mark.parametrize("packing", [True, False], ids=["packed", "shared-cache"])
def test_score_mode_is_the_same_under_gradient_checkpointing(tiny_dir, tmp_path, packing):
    # transformers turns the KV cache off in checkpointed layers while training: the update
    # scored candidates without their prompt (7 nats/token off on SmolLM2, KL 11.5 pre-step)
    prompts = [[5, 6, 7, 8], [9, 10], [11, 12, 13]]
    groups = [[[20, 21, 2], [22, 2]], [[23, 24, 25, 2]], [[26, 2], [27, 28, 2], [29, 2]]]
    results = {}
    for checkpointing in (False, True):
        config = config_for(tmp_path, tiny_dir, f"policy.gradient_checkpointing={checkpointing}",
                            f"policy.score_packing={packing}")  # fmt: skip
        policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"))
        policy.train()  # as in the update: training mode, gradients on
        stats = policy.score_candidates(prompts, groups)
        stats.sums().sum().backward()  # the backward pass works too
        results[checkpointing] = stats
    plain, checkpointed = results[False], results[True]
    assert torch.allclose(checkpointed.token_logprobs, plain.token_logprobs, atol=1e-5)
    assert torch.allclose(checkpointed.values, plain.values, atol=1e-6)


def _saved_bytes_and_grads(policy, prompts, groups):
    """Bytes autograd keeps for backward (each storage once), log-probs and the gradient of
    their sum."""
    saved = {}

    def pack(tensor):
        storage = tensor.untyped_storage()
        saved[storage.data_ptr()] = storage.nbytes()
        return tensor

    policy.zero_grad()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        stats = policy.score_candidates(prompts, groups)
    stats.sums().sum().backward()
    grads = {n: p.grad.clone() for n, p in policy.named_parameters() if p.grad is not None}
    return sum(saved.values()), stats.token_logprobs.detach(), grads


def test_packed_or_chunked_scoring_keeps_no_cache_copies_for_backward(tiny_dir, tmp_path):
    # one 160-token prompt with 48 candidates: the cache path unchunked holds 48 copies of its
    # cache for backward; chunks and packing (no copies at all) give the same numbers with less
    prompts = [list(range(5, 165))]
    groups = [[[20 + i % 40, 21 + i % 30, 2] for i in range(48)]]
    config = config_for(tmp_path, tiny_dir, "policy.score_packing=false")
    policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"))
    policy.train()
    whole_bytes, whole_logp, whole_grads = _saved_bytes_and_grads(policy, prompts, groups)
    for chunk, packing in ((1, False), (5, False), (0, True)):
        policy.config.score_chunk_size, policy.config.score_packing = chunk, packing
        saved, logp, grads = _saved_bytes_and_grads(policy, prompts, groups)
        assert torch.allclose(logp, whole_logp, atol=1e-5), chunk
        for name, grad in whole_grads.items():
            assert torch.allclose(grads[name], grad, atol=1e-5), (chunk, name)
        # packing keeps each token's activations once (and a mask): 5.8 of 13.1 MB here
        assert saved < whole_bytes / (2 if packing else 3), (chunk, saved, whole_bytes)
    policy.config.score_packing = False
    with torch.no_grad():  # without gradients there is nothing to recompute: one pass
        assert torch.allclose(policy.score_candidates(prompts, groups).token_logprobs, whole_logp,
                              atol=1e-5)  # fmt: skip


@pytest.mark.parametrize("mode", ["score", "generate"])
@pytest.mark.parametrize("checkpointing", [False, True])
def test_update_sees_the_rollout_policy_before_its_first_step(
    tiny_dir, tmp_path, mode, checkpointing, caplog
):
    from agentgym_train.trainer import Trainer

    config = config_for(
        tmp_path, tiny_dir, "updates=1", f"rollout.action_mode={mode}", "checkpoint.every=0",
        "rollout.max_new_tokens=5", "rollout.episodes_per_update=8", "rollout.max_turns=2",
        f"policy.gradient_checkpointing={checkpointing}",
    )  # fmt: skip
    metrics = Trainer(config).train()
    assert abs(metrics["loss/approx_kl_prestep"]) < 1e-4  # ~0, rounding aside
    assert "away from the rollout" not in caplog.text


def test_a_rollout_the_update_disagrees_with_is_warned_about(policy, tiny_dir, tmp_path, caplog):
    import random

    from agentgym_train.algorithms import Learner, assign_ppo_advantages

    config = config_for(tmp_path, tiny_dir)
    collector = RolloutCollector(policy, config.rollout, config.reward)
    torch.manual_seed(0)
    episodes = collector.collect([Job(i) for i in range(4)], temperature=1.0)
    collector.close()
    assign_ppo_advantages(episodes, gamma=1.0, lam=1.0)
    steps = [s for e in episodes for s in e.steps]
    for step in steps:  # as if the rollout had sampled from another distribution
        step.old_logprob -= 1.0
    optimizer = torch.optim.SGD([p for p in policy.parameters() if p.requires_grad], lr=0.0)
    learner = Learner(policy, optimizer, config.algorithm, "score", "sum")
    with caplog.at_level("WARNING", logger="agentgym_train"):
        out = learner.update(steps, random.Random(0))
        learner.update(steps, random.Random(1))
    assert out["approx_kl_prestep"] > 0.3
    assert caplog.text.count("away from the rollout") == 1  # once per run


def _raw_greedy(policy, prompt, steps):
    """Greedy continuation straight from the model's logits (no processors at all)."""
    ids = list(prompt)
    with torch.no_grad():
        for _ in range(steps):
            logits = policy.model(input_ids=torch.tensor([ids])).logits[0, -1]
            ids.append(int(logits.argmax()))
    return ids[len(prompt) :]


def test_sampling_ignores_the_checkpoints_generation_config(tiny_dir, tmp_path):
    # Qwen2.5-Instruct ships repetition_penalty 1.05: sampling must still be from the logits
    # that sequence_stats() records, and every EOS id must end a completion
    from transformers import GenerationConfig

    config = config_for(tmp_path, tiny_dir, "policy.lora=false")
    torch.manual_seed(0)
    plain = Policy.load(tiny_dir, config.policy, torch.device("cpu"), reference=False)
    prompt = [5, 6, 7, 8, 9]
    raw = _raw_greedy(plain, prompt, 6)
    eos = plain.tokenizer.eos_token_id
    plain.model.generation_config = GenerationConfig(
        repetition_penalty=50.0, no_repeat_ngram_size=1, top_k=1, min_new_tokens=6,
        suppress_tokens=[raw[0]], bad_words_ids=[[raw[1]]], eos_token_id=eos,
    )  # fmt: skip
    assert plain.generate([prompt], max_new_tokens=6, temperature=0.0) == [raw]
    assert plain.model.generation_config.repetition_penalty == 50.0  # restored afterwards

    plain.model.generation_config = GenerationConfig(eos_token_id=[eos, raw[2]])
    again = Policy(plain.model, plain.tokenizer, config.policy, torch.device("cpu"))
    assert again.eos_token_ids == (eos, raw[2])  # a second end-of-turn id, as Llama-3 has
    expected = raw[: raw.index(raw[2]) + 1]
    assert again.generate([prompt], max_new_tokens=6, temperature=0.0) == [expected]


def _changed_fraction(dtype: str, tiny_dir, tmp_path) -> tuple[float, torch.dtype]:
    """One full fine-tuning AdamW step at lr 1e-5: the share of weights it changed."""
    config = config_for(tmp_path, tiny_dir, "policy.lora=false", f"policy.dtype={dtype}")
    policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"), reference=False)
    params = [p for p in policy.model.parameters() if p.requires_grad]
    before = [p.detach().clone() for p in params]
    optimizer = torch.optim.AdamW(params, lr=1e-5)
    policy.train()
    stats = policy.sequence_stats([[5, 6, 7, 8], [9, 10, 11]], [[12, 13, 2], [14, 2]])
    assert stats.token_logprobs.dtype == torch.float32
    (-stats.token_logprobs.mean() + stats.values.square().mean()).backward()
    optimizer.step()
    changed = sum(int((p.detach() != b).sum()) for p, b in zip(params, before, strict=True))
    return changed / sum(p.numel() for p in params), params[0].dtype


def test_bf16_training_keeps_fp32_master_weights(tiny_dir, tmp_path):
    # bf16 weights updated in place kept ~2% of a 1e-5 step (rounding); fp32 masters keep all
    fraction, stored = _changed_fraction("bfloat16", tiny_dir, tmp_path)
    assert stored == torch.float32 and fraction > 0.9
    reference, _ = _changed_fraction("float32", tiny_dir, tmp_path)
    assert fraction == pytest.approx(reference, abs=0.05)


def test_fp16_training_is_refused(tiny_dir, tmp_path):
    with pytest.raises(ValueError, match=r"float16 cannot train.*use bfloat16"):
        config_for(tmp_path, tiny_dir, "policy.dtype=float16")


@pytest.mark.parametrize("mode", ["score", "generate"])
def test_micro_batches_give_the_minibatch_gradient(tiny_dir, tmp_path, mode):
    import random

    from agentgym_train.algorithms import Learner, assign_ppo_advantages

    config = config_for(
        tmp_path, tiny_dir, f"rollout.action_mode={mode}", "rollout.max_new_tokens=5",
        "algorithm.minibatch_size=12", "algorithm.ppo_epochs=1",
    )  # fmt: skip
    torch.manual_seed(0)
    policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"))
    collector = RolloutCollector(policy, config.rollout, config.reward)
    episodes = collector.collect([Job(i) for i in range(8)], temperature=1.0)
    collector.close()
    assign_ppo_advantages(episodes, gamma=1.0, lam=0.95)
    steps = [s for e in episodes for s in e.steps]
    start = {k: v.clone() for k, v in policy.trainable_state().items()}
    results = {}
    for micro in (0, 5, 1):  # whole minibatch, uneven micro-batches, one turn at a time
        policy.load_trainable_state({k: v.clone() for k, v in start.items()})
        optimizer = torch.optim.SGD([p for p in policy.parameters() if p.requires_grad], lr=0.1)
        config.algorithm.micro_batch_size = micro
        learner = Learner(policy, optimizer, config.algorithm, mode, "sum")
        sizes: list[int] = []

        def counted(batch, use_kl, sizes=sizes, loss=learner._loss):
            sizes.append(len(batch))
            return loss(batch, use_kl)

        learner._loss = counted
        metrics = learner.update(steps, random.Random(0))
        assert max(sizes) == (micro or 12) and sum(sizes) == len(steps)  # forward passes
        results[micro] = (policy.trainable_state(), metrics)
    whole, whole_metrics = results[0]
    for micro in (5, 1):
        state, metrics = results[micro]
        for name, tensor in whole.items():
            assert torch.allclose(state[name], tensor, atol=1e-6), (micro, name)
        assert metrics["loss"] == pytest.approx(whole_metrics["loss"], abs=1e-5)
