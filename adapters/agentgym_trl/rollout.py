"""Multi-turn AgentGym episodes as TRL ``GRPOTrainer`` rollouts (``rollout_func``).

Each dataset row is the first prompt of one task (``EnvRollout.dataset`` builds the rows from
reset seeds). TRL hands the rollout the rows of this process, each already repeated
``num_generations`` times, so a GRPO group replays one task. An episode is one growing
transcript: the prompt (system prompt and first observation), then per turn the model's tokens
(``env_mask`` 1, with their sampling log-probs) and the env's answer (``env_mask`` 0: the loss
skips them), until the episode ends or ``max_turns``. The episode's return (the env's final
score) and success go to the reward functions as ``env_return`` / ``env_success``: pass
``env_reward`` as a reward function.

Sampling is from softmax(logits / ``args.temperature``) and nothing else (the checkpoint's own
``generation_config`` set aside), the distribution TRL scores the completion under. With
``match_cutoff`` (0-100) the model's text is mapped onto the closest admissible action
(``AdmissibleOnly``), so a model that has not learned the action grammar yet still acts; None
sends the text as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym

from agentgym_envs.core.episode import LiveEpisode
from agentgym_envs.wrappers import AdmissibleOnly
from agentgym_envs.wrappers.prompt import PromptFormatter, parse_action

#: what ends a model turn in the transcript besides an EOS token
TURN_END = "\n"


class EnvRollout:
    """``rollout_func`` for ``trl.GRPOTrainer``: plays ``env_id`` episodes with the policy."""

    def __init__(
        self,
        env_id: str,
        env_kwargs: dict[str, Any] | None = None,
        max_turns: int = 8,
        max_new_tokens: int = 24,
        match_cutoff: float | None = 0.0,
        system_template: str | None = None,
    ) -> None:
        import agentgym_envs  # noqa: F401 - registers the AgentGym ids

        self.env_id = env_id
        self.env_kwargs = dict(env_kwargs or {})
        self.max_turns = max_turns
        self.max_new_tokens = max_new_tokens
        self.match_cutoff = match_cutoff
        #: the env every episode is played in (made once: a MiniWoB env holds a browser)
        self.env: gym.Env = gym.make(env_id, **self.env_kwargs)
        if match_cutoff is not None:
            self.env = AdmissibleOnly(self.env, cutoff=match_cutoff)
        self.formatter = PromptFormatter(
            action_help=getattr(self.env.unwrapped, "action_help", "") or "free text",
            show_admissible=match_cutoff is None,  # AdmissibleOnly lists them, numbered
            reasoning=False,
            system_template=system_template,
        )
        #: first prompt -> reset seed, filled by ``dataset`` (TRL passes prompts, not rows)
        self.seeds: dict[str, int] = {}

    def close(self) -> None:
        self.env.close()

    # ---- the dataset -----------------------------------------------------------------------
    def first_prompt(self, observation: str, info: dict[str, Any]) -> str:
        return self.formatter.system_prompt() + "\n\n" + self._turn(observation, info)

    def _turn(self, observation: str, info: dict[str, Any]) -> str:
        admissible = info.get("admissible_actions")
        return self.formatter.user_message(observation, admissible) + "\nAction:"

    def dataset(self, seeds: Sequence[int]):
        """A ``datasets.Dataset`` with one row per reset seed: ``prompt`` (the first prompt) and
        ``seed``. Two seeds whose first prompts are identical share the first seed's episode."""
        from datasets import Dataset

        rows: dict[str, list] = {"prompt": [], "seed": []}
        for seed in seeds:
            observation, info = self.env.reset(seed=int(seed))
            prompt = self.first_prompt(observation, info)
            self.seeds.setdefault(prompt, int(seed))
            rows["prompt"].append(prompt)
            rows["seed"].append(int(seed))
        return Dataset.from_dict(rows)

    # ---- the rollout -----------------------------------------------------------------------
    def __call__(self, prompts: list, trainer) -> dict[str, list]:
        out: dict[str, list] = {key: [] for key in (
            "prompt_ids", "completion_ids", "logprobs", "env_mask", "env_return", "env_success",
        )}  # fmt: skip
        model = trainer.accelerator.unwrap_model(trainer.model)
        tokenizer = trainer.processing_class
        temperature = float(trainer.args.temperature)
        for prompt in prompts:
            if prompt not in self.seeds:
                raise ValueError(
                    "EnvRollout got a prompt it did not build: make the train dataset with "
                    "EnvRollout.dataset(seeds) (its prompts name the task seeds)"
                )
            episode = self._play(self.seeds[prompt], model, tokenizer, temperature)
            for key, value in episode.items():
                out[key].append(value)
        return out

    def _play(self, seed: int, model, tokenizer, temperature: float) -> dict[str, Any]:
        live = LiveEpisode(self.env, seed, max_steps=self.max_turns)
        prompt_ids = tokenizer(self.first_prompt(live.observation, live.info))["input_ids"]
        completion: list[int] = []
        logprobs: list[float] = []
        mask: list[int] = []
        while not live.done:
            ids, token_logprobs = self._generate(model, tokenizer, prompt_ids + completion,
                                                 temperature)  # fmt: skip
            completion += ids
            logprobs += token_logprobs
            mask += [1] * len(ids)
            text = tokenizer.decode(ids, skip_special_tokens=True).split(TURN_END)[0]
            live.apply(parse_action(text))
            if not live.done:
                feedback = tokenizer(TURN_END + "\n" + self._turn(live.observation, live.info),
                                     add_special_tokens=False)["input_ids"]  # fmt: skip
                completion += feedback
                logprobs += [0.0] * len(feedback)
                mask += [0] * len(feedback)
        return {
            "prompt_ids": prompt_ids,
            "completion_ids": completion,
            "logprobs": logprobs,
            "env_mask": mask,
            "env_return": float(live.trajectory.episode_return),
            "env_success": float(bool(live.info.get("success", False))),
        }

    def _generate(self, model, tokenizer, ids: list[int], temperature: float):
        """One model turn: the sampled tokens (up to EOS, a line end or ``max_new_tokens``) and
        each one's log-prob under softmax(logits / temperature)."""
        import torch
        from transformers import GenerationConfig

        settings = GenerationConfig(
            max_new_tokens=self.max_new_tokens,
            do_sample=True,
            temperature=temperature,
            top_p=1.0,
            top_k=0,  # off: otherwise transformers fills in its default of 50
            pad_token_id=tokenizer.pad_token_id or tokenizer.eos_token_id,
            eos_token_id=tokenizer.eos_token_id,
            stop_strings=[TURN_END],
            output_scores=True,
            return_dict_in_generate=True,
        )
        base = model.get_base_model() if hasattr(model, "get_base_model") else model
        own, base.generation_config = base.generation_config, GenerationConfig()
        was_training = model.training
        model.eval()
        try:
            with torch.no_grad():
                inputs = torch.tensor([ids], device=model.device)
                out = model.generate(
                    input_ids=inputs,
                    attention_mask=torch.ones_like(inputs),
                    generation_config=settings,
                    tokenizer=tokenizer,  # (for stop_strings)
                )
                scores = model.compute_transition_scores(
                    out.sequences, out.scores, normalize_logits=True
                )
        finally:
            base.generation_config = own
            model.train(was_training)
        new = out.sequences[0, len(ids) :].tolist()
        return new, scores[0, : len(new)].float().tolist()


def env_reward(completions: list, env_return: list[float], **kwargs: Any) -> list[float]:
    """A GRPO reward function: each rollout's env return (pass it in ``reward_funcs``)."""
    return [float(value) for value in env_return]


__all__ = ["EnvRollout", "env_reward"]
