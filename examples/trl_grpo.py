"""GRPO with TRL on any AgentGym env, in either of the two ways ``agentgym_trl`` offers.

    # multi-turn transcripts (any causal LM; the env's text actions are parsed from its turns)
    python examples/trl_grpo.py --env AgentGym/WebShop-v0 --model /path/to/model --mode rollout
    # tool calls (a tool-calling chat template TRL can parse, e.g. the Qwen family)
    python examples/trl_grpo.py --env AgentGym/MiniWoB-v0 --model /path/to/qwen --mode tools

Models are local folders (nothing is downloaded by AgentGym; a Hugging Face id works where the
hub is reachable). ``--vllm colocate`` (or ``server``, with ``trl vllm-serve --model ...``
running) generates the tool-mode completions with vLLM on a GPU; the rollout mode generates
with the model itself. Every flag: ``--help``.
"""

from __future__ import annotations

import argparse
import os


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env", default="AgentGym/Toy-v0", help="an AgentGym env id")
    parser.add_argument("--difficulty", default="easy", help="easy, medium or hard")
    parser.add_argument("--model", required=True, help="a local model folder (or a hub id)")
    modes = "rollout: EnvRollout transcripts; tools: environment_factory"
    parser.add_argument("--mode", choices=("rollout", "tools"), default="rollout", help=modes)
    parser.add_argument("--tasks", type=int, default=256, help="reset seeds in the dataset")
    parser.add_argument("--steps", type=int, default=100, help="GRPO steps")
    parser.add_argument("--group", type=int, default=8, help="completions per task (a group)")
    parser.add_argument("--turns", type=int, default=8, help="env steps per episode at most")
    parser.add_argument("--lr", type=float, default=1e-5, help="learning rate")
    parser.add_argument("--vllm", choices=("off", "colocate", "server"), default="off",
                        help="generate with vLLM (tools mode; needs a GPU and vllm)")  # fmt: skip
    parser.add_argument("--out", default="runs/trl-grpo", help="output folder")
    args = parser.parse_args(argv)

    import torch
    from agentgym_trl import EnvRollout, env_reward, environment_factory, tool_dataset
    from transformers import AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    env_kwargs = {"difficulty": args.difficulty}
    vllm = {} if args.vllm == "off" else {"use_vllm": True, "vllm_mode": args.vllm}
    gpu = torch.cuda.is_available()
    config = GRPOConfig(
        output_dir=args.out, per_device_train_batch_size=args.group, num_generations=args.group,
        max_steps=args.steps, learning_rate=args.lr, logging_steps=1, save_strategy="no",
        report_to="none", max_tool_calling_iterations=args.turns, bf16=gpu, use_cpu=not gpu,
        **vllm,
    )  # fmt: skip
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if args.mode == "rollout":
        rollout = EnvRollout(args.env, env_kwargs, max_turns=args.turns)
        extra = {"train_dataset": rollout.dataset(range(args.tasks)), "reward_funcs": env_reward,
                 "rollout_func": rollout}  # fmt: skip
    else:
        extra = {"train_dataset": tool_dataset(range(args.tasks)),
                 "environment_factory": environment_factory(args.env, **env_kwargs)}  # fmt: skip
    trainer = GRPOTrainer(model=args.model, args=config, processing_class=tokenizer, **extra)
    trainer.train()
    trainer.save_model(args.out)


if __name__ == "__main__":
    main()
