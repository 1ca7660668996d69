"""``agentgym-train``: train, plot learning curves, export a servable model, list config fields.

agentgym-train --config configs/toy.yaml [section.field=value ...]
agentgym-train plot RUN_DIR
agentgym-train plot RUN_DIR RUN_DIR ... --out DIR   # one metric per PNG, a line per run
agentgym-train export RUN_DIR --to DIR
agentgym-train config            # every config field with its default and help

Several processes (data-parallel, see README "Multi-GPU / multi-process"):
accelerate launch --multi_gpu --num_processes N -m agentgym_train.cli --config ...
"""

from __future__ import annotations

import argparse
import logging
import sys

COMMANDS = ("plot", "export", "config")


def _train(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentgym-train",
        description="Multi-turn PPO/GRPO with LoRA on AgentGym envs. Other commands: "
        "`agentgym-train plot RUN_DIR`, `agentgym-train export RUN_DIR --to DIR`, "
        "`agentgym-train config`.",
    )
    parser.add_argument("--config", help="YAML file (see configs/); defaults apply without one")
    parser.add_argument("overrides", nargs="*", help="section.field=value (values parsed as YAML)")
    args = parser.parse_args(argv)
    from agentgym_train.config import load_config
    from agentgym_train.trainer import Trainer

    config = load_config(args.config, args.overrides)
    trainer = Trainer(config)
    last = trainer.train()
    if trainer.parallel.is_main:
        shown = {k: round(v, 4) for k, v in last.items() if k.startswith("train/")}
        print(f"done: {trainer.state['update']} updates in {config.logging.run_dir}; last {shown}")
        if evaluation := dict(trainer.last_evaluation):
            update = int(evaluation.pop("update"))
            rates = ", ".join(f"{k.split('/')[1]} {v:.3f}" for k, v in evaluation.items()
                              if k.endswith("/success_rate"))  # fmt: skip
            print(f"evaluation at update {update} (success rate): {rates}")
            best, at = trainer.state["best_eval"], trainer.state["best_update"]
            if at is not None:
                print(f"best: {best:.3f} at update {at} (`agentgym-train plot` draws the curves)")
    trainer.parallel.shutdown()
    return 0


def _plot(argv: list[str]) -> int:
    from agentgym_train.plots import COMPARED, compare_runs, plot_run

    parser = argparse.ArgumentParser(
        prog="agentgym-train plot",
        description="One run: its learning curves. Several runs: one metric per PNG, a line "
        "per run (compare_<metric>.png), e.g. GRPO against GiGPO on the same budget.",
    )
    parser.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="run folder(s)")
    parser.add_argument(
        "--out", help="folder for the PNGs (default RUN_DIR/plots; required for several runs)"
    )
    parser.add_argument(
        "--metrics", nargs="+", default=list(COMPARED), metavar="KEY",
        help=f"several runs: the metrics.jsonl keys to compare (default: {' '.join(COMPARED)})",
    )  # fmt: skip
    parser.add_argument("--labels", nargs="+", help="several runs: a legend label per run")
    args = parser.parse_args(argv)
    if len(args.run_dirs) == 1:
        paths = plot_run(args.run_dirs[0], args.out)
    elif not args.out:
        parser.error("several runs need --out (the folder for the comparison PNGs)")
    else:
        paths = compare_runs(args.run_dirs, args.out, tuple(args.metrics), args.labels)
    for path in paths:
        print(path)
    return 0


def _export(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentgym-train export",
        description="Export a run's checkpoint: LoRA merged into a plain Hugging Face model "
        "directory (vLLM, TGI, from_pretrained), or with --adapter the adapter alone.",
    )
    parser.add_argument("run_dir")
    parser.add_argument(
        "--to", required=True, help="output folder (a plain HF model directory, or with "
        "--adapter the adapter and the run's config)",
    )  # fmt: skip
    parser.add_argument(
        "--checkpoint", default="latest",
        help="latest (default), best (the best evaluation on the rollback split), an update "
        "number or a checkpoint folder",
    )  # fmt: skip
    parser.add_argument(
        "--dtype", default="auto", choices=["auto", "float32", "bfloat16", "float16"],
        help="weights dtype (auto: the run's policy.dtype if it names one, else the base model's)",
    )  # fmt: skip
    parser.add_argument(
        "--adapter", action="store_true",
        help="write only the LoRA adapter (dtype auto: bfloat16) with the run's config.yaml: a "
        "few MB that `agentgym bench run --agent run:DIR` plays on the config's base model",
    )  # fmt: skip
    args = parser.parse_args(argv)
    from agentgym_train.export import export_adapter, export_run

    if args.adapter:
        dtype = "bfloat16" if args.dtype == "auto" else args.dtype
        print(export_adapter(args.run_dir, args.to, args.checkpoint, dtype))
    else:
        print(export_run(args.run_dir, args.to, args.checkpoint, args.dtype))
    return 0


def _config(argv: list[str]) -> int:
    from agentgym_train.config import describe

    print("\n".join(describe()))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``agentgym-train`` script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        import torch  # noqa: F401
    except ImportError:
        print("agentgym-train needs the trainer extra: pip install -e '.[train]'", file=sys.stderr)
        return 2
    handlers = {"plot": _plot, "export": _export, "config": _config}
    if argv and argv[0] in handlers:
        return handlers[argv[0]](argv[1:])
    try:
        return _train(argv)
    except (ValueError, FileNotFoundError) as exc:
        print(f"agentgym-train: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["COMMANDS", "main"]
