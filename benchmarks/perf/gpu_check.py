"""GPU check: the speed and memory a user needs to size a run, measured phase by phase.

Loads a local Hugging Face causal LM (``--model DIR``, never downloads) or builds a randomly
initialised one with the shapes of Qwen2.5-0.5B (896 wide, 24 layers, 14 query / 2 KV heads,
a 151,936-token vocabulary: the LM head and log-softmax cost what they cost there; the tokenizer
is trained locally, so only its first ids occur). Then, on WebShop-sized work (prompts of
``--prompt-tokens`` random ids, ``--candidates`` admissible actions of ``--candidate-tokens``
each: WebShop medium prompts are ~760 tokens at the median and ~1,130 at p90 with 14 / 20
admissible actions), each phase in ``--phases`` runs ``--repeats`` times after ``--warmup``
untimed runs, with the peak memory reset before it:

- ``prefill``: one forward pass over the prompts with a KV cache (no grad);
- ``decode``: ``Policy.generate`` (the trainer's sampling), and ``generate (plain)``:
  ``model.generate`` with the checkpoint's own settings on the same prompts, the baseline;
  ``vllm``: vLLM's offline engine on the same prompts when it is installed (CUDA only);
- ``score``: ``Policy.score_candidates`` (prompt once: packed with its candidates, or their
  rows on its KV cache with ``--policy policy.score_packing=false``; no grad);
- ``score+backward``: the same with gradients and a backward pass (LoRA by default), as an
  update runs it.

Last, ``--updates`` PPO updates on ``AgentGym/Toy-v0`` in score and generate mode go through
the whole trainer. ``bash scripts/gpu_check.sh`` runs it on CUDA in bf16;
``--device cpu --shape small`` is the same code in seconds on a CPU (bf16 too; the test suite
runs it). Random weights learn nothing: this measures speed, not learning.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

#: name -> Qwen2 config fields; "0.5b" is Qwen2.5-0.5B's (494M parameters, tied embeddings)
SHAPES = {
    "0.5b": {"hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24,
             "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936},
    "small": {"hidden_size": 64, "intermediate_size": 256, "num_hidden_layers": 2,
              "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 8192},
}  # fmt: skip


PHASES = ("prefill", "decode", "generate (plain)", "score", "score+backward", "vllm")


@dataclass
class Settings:
    """How the phases run: where, in which precision, with which trainer knobs."""

    device: str = "cuda"
    dtype: str = "bfloat16"
    lora: bool = True
    policy: tuple[str, ...] = ()  # policy config overrides, e.g. policy.score_chunk_size=4
    micro_batch: int = 0  # prompts per backward in score+backward (0: all)
    repeats: int = 3
    warmup: int = 1
    phases: tuple[str, ...] = PHASES


@dataclass
class Workload:
    """How much work each phase does (batch = prompts per call)."""

    batch: int = 8
    prompt_tokens: int = 1024
    candidates: int = 16
    candidate_tokens: int = 8
    new_tokens: int = 64


def build_random_model(out_dir: Path, shape: str) -> int:
    """Write a random-init Qwen2 of ``shape`` and a locally trained tokenizer; returns the
    parameter count."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from agentgym_train.tiny import env_corpus, train_tokenizer

    tokenizer = train_tokenizer(env_corpus("AgentGym/Toy-v0", episodes=60), vocab_size=4096)
    config = Qwen2Config(
        **SHAPES[shape], tie_word_embeddings=True, max_position_embeddings=32768,
        pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )  # fmt: skip
    torch.manual_seed(0)
    model = Qwen2ForCausalLM(config).to(torch.bfloat16)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return sum(p.numel() for p in model.parameters())


class PeakMemory:
    """Peak memory of a block: CUDA's allocator peak (reset at entry), or on a CPU the
    process's resident set sampled every 5 ms (the kernel's own peak cannot be reset)."""

    def __init__(self, device: str):
        self.cuda = device.startswith("cuda")
        self.peak_bytes = 0

    def __enter__(self) -> PeakMemory:
        import torch

        if self.cuda:
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
        else:
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._sample, daemon=True)
            self._thread.start()
        return self

    def _sample(self) -> None:
        page = os.sysconf("SC_PAGE_SIZE")
        while True:
            with open("/proc/self/statm") as statm:
                self.peak_bytes = max(self.peak_bytes, int(statm.read().split()[1]) * page)
            if self._stop.wait(0.005):
                return

    def __exit__(self, *exc) -> None:
        import torch

        if self.cuda:
            torch.cuda.synchronize()
            self.peak_bytes = torch.cuda.max_memory_allocated()
        else:
            self._stop.set()
            self._thread.join()


def measure(name: str, work: Callable[[], int], run: Settings) -> dict:
    """Run ``work`` (returns tokens processed) ``run.warmup`` times, then ``run.repeats`` times
    timed, with the peak memory of the timed runs."""
    import torch

    device = run.device
    for _ in range(run.warmup):
        work()
    seconds, tokens = [], 0
    with PeakMemory(device) as memory:
        for _ in range(run.repeats):
            started = time.perf_counter()
            tokens = work()
            if device.startswith("cuda"):
                torch.cuda.synchronize()
            seconds.append(time.perf_counter() - started)
    mean = statistics.fmean(seconds)
    peak = memory.peak_bytes / 2**30
    row = {"phase": name, "tokens": tokens, "seconds": round(mean, 4),
           "tokens_per_s": round(tokens / mean, 1), "peak_gib": round(peak, 3)}  # fmt: skip
    where = "GPU" if memory.cuda else "RSS"
    print(f"{name:>16}: {tokens / mean:>12,.0f} tokens/s  ({tokens:,} tokens in {mean:.3f} s)"
          f"  peak {where} {peak:.2f} GiB")  # fmt: skip
    return row


def phases(model_dir: Path, run: Settings, load: Workload) -> tuple[list[dict], list[list[int]]]:
    """Time prefill, decode (ours and plain generate), scoring and scoring + backward (those
    of them in ``run.phases``); returns the rows and the prompts used."""
    import torch

    from agentgym_train.config import load_config
    from agentgym_train.policy import Policy

    device, dtype = run.device, run.dtype
    config = load_config(
        None, [f"policy.dtype={dtype}", f"policy.lora={str(run.lora).lower()}", *run.policy]
    ).policy
    with PeakMemory(device) as memory:
        policy = Policy.load(model_dir, config, torch.device(device), reference=False)
    params = sum(p.numel() for p in policy.model.parameters())
    trainable = sum(p.numel() for p in policy.parameters() if p.requires_grad)
    print(f"loaded {params / 1e6:.0f}M parameters ({trainable / 1e6:.2f}M trainable), "
          f"weights {next(policy.model.parameters()).dtype}, compute {dtype}; "
          f"peak {memory.peak_bytes / 2**30:.2f} GiB")  # fmt: skip
    lm = policy.model
    vocab = min(len(policy.tokenizer), lm.config.get_text_config().vocab_size)
    ids = torch.Generator().manual_seed(0)

    def tokens(n: int) -> list[int]:
        return torch.randint(3, vocab, (n,), generator=ids).tolist()

    prompts = [tokens(load.prompt_tokens) for _ in range(load.batch)]
    candidates = [[tokens(load.candidate_tokens) for _ in range(load.candidates)] for _ in prompts]
    scored = load.batch * (load.prompt_tokens + load.candidates * load.candidate_tokens)
    batch = torch.tensor(prompts, device=device)

    @torch.no_grad()
    def prefill() -> int:
        with policy.compute():
            lm(input_ids=batch, use_cache=True, logits_to_keep=1)
        return batch.numel()

    @torch.no_grad()
    def decode() -> int:
        with policy.compute():
            return sum(map(len, policy.generate(prompts, load.new_tokens, temperature=1.0)))

    @torch.no_grad()
    def plain_generate() -> int:
        with policy.compute():
            out = lm.generate(input_ids=batch, attention_mask=torch.ones_like(batch),
                              max_new_tokens=load.new_tokens, do_sample=True)  # fmt: skip
        return (out.shape[1] - batch.shape[1]) * len(prompts)

    @torch.no_grad()
    def score() -> int:
        with policy.compute():
            policy.score_candidates(prompts, candidates, values=True)
        return scored

    def score_backward() -> int:
        policy.train()
        step = run.micro_batch or len(prompts)  # accumulation, as algorithm.micro_batch_size
        for at in range(0, len(prompts), step):
            with policy.compute():
                stats = policy.score_candidates(
                    prompts[at : at + step], candidates[at : at + step], values=True
                )
                loss = stats.sums().mean() + stats.values.float().pow(2).mean()
            loss.backward()
        policy.zero_grad(set_to_none=True)
        policy.eval()
        return scored

    policy.eval()
    work = {"prefill": prefill, "decode": decode, "generate (plain)": plain_generate,
            "score": score, "score+backward": score_backward}  # fmt: skip
    rows = [measure(name, work[name], run) for name in work if name in run.phases]
    return rows, prompts


def vllm_phase(model_dir: Path, run: Settings, prompts: list[list[int]], load: Workload) -> dict:
    """Decode throughput of vLLM's offline engine on the same prompts, when it is installed."""
    if importlib.util.find_spec("vllm") is None:
        print("            vllm: not installed (pip install vllm), skipped")
        return {"phase": "vllm", "skipped": "not installed"}
    from vllm import LLM, SamplingParams, TokensPrompt

    engine = LLM(model=str(model_dir), dtype="bfloat16" if run.dtype == "auto" else run.dtype,
                 gpu_memory_utilization=0.5, enforce_eager=False)  # fmt: skip
    sampling = SamplingParams(max_tokens=load.new_tokens, temperature=1.0, ignore_eos=True)
    requests = [TokensPrompt(prompt_token_ids=p) for p in prompts]

    def decode() -> int:
        outs = engine.generate(requests, sampling, use_tqdm=False)
        return sum(len(o.outputs[0].token_ids) for o in outs)

    return measure("vllm", decode, run)


def updates(model_dir: Path, device: str, dtype: str, count: int, modes: list[str],
            run_dir: Path) -> list[dict]:  # fmt: skip
    """``count`` PPO updates per action mode on Toy-v0 through the whole trainer."""
    from agentgym_train.config import load_config
    from agentgym_train.trainer import Trainer

    cuda = device.startswith("cuda")
    rows = []
    for mode in modes:
        config = load_config(None, [
            f"logging.run_dir={run_dir / mode}", f"policy.model={model_dir}",
            f"updates={count}", f"device={device}", f"rollout.action_mode={mode}",
            "logging.progress=false", "logging.tensorboard=false", "checkpoint.every=0",
            f"policy.dtype={dtype}", f"rollout.num_envs={32 if cuda else 4}",
            f"rollout.episodes_per_update={64 if cuda else 4}", "rollout.max_new_tokens=32",
            "algorithm.minibatch_size=32", "algorithm.ppo_epochs=1", "algorithm.kl_coef=0.02",
        ])  # fmt: skip
        trainer = Trainer(config)
        for _ in range(count):
            m = trainer.step()
            row = {"mode": mode, "update": trainer.state["update"], **m}
            rows.append(row)
            print(
                f"[{mode}] update {row['update']}: "
                f"generation {m['perf/gen_tokens_per_s']:,.0f} tok/s, "
                f"training {m['perf/train_tokens_per_s']:,.0f} tok/s, "
                f"rollout {m['perf/rollout_seconds']:.1f} s, "
                f"update {m['perf/update_seconds']:.1f} s"
            )
        trainer.close()
    return rows


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gpu_check", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    add = p.add_argument
    add("--device", default="cuda", help="cuda (default), cuda:N or cpu")
    add("--model", type=Path, help="a local Hugging Face model directory (default: build one)")
    add("--shape", default="0.5b", choices=sorted(SHAPES),
        help="shape of the built model when --model is not given (default 0.5b)")  # fmt: skip
    add("--dtype", default="bfloat16", choices=["bfloat16", "float32", "auto"],
        help="compute dtype (policy.dtype; default bfloat16, on a CPU too)")  # fmt: skip
    add("--no-lora", dest="lora", action="store_false",
        help="train every weight in score+backward (default: LoRA, as the configs do)")  # fmt: skip
    add("--policy", nargs="*", default=[], metavar="KEY=VALUE",
        help="more policy config overrides, e.g. policy.score_chunk_size=4 "
             "policy.gradient_checkpointing=true")  # fmt: skip
    defaults = Workload()
    for field, value in asdict(defaults).items():
        add(f"--{field.replace('_', '-')}", type=int, default=value,
            help=f"default {value}")  # fmt: skip
    add("--micro-batch", type=int, default=0,
        help="score+backward: prompts per backward (accumulated; default 0: all)")  # fmt: skip
    add("--phases", default=",".join(PHASES),
        help=f"which phases, comma-separated (default all: {','.join(PHASES)})")  # fmt: skip
    add("--repeats", type=int, default=3, help="timed runs per phase (default 3)")
    add("--warmup", type=int, default=1, help="untimed runs before them (default 1)")
    add("--updates", type=int, default=2,
        help="PPO updates per action mode through the trainer (default 2; 0: none)")  # fmt: skip
    add("--modes", default="score,generate", help="action modes of those updates (default both)")
    add("--run-dir", type=Path, help="where the model, logs and results go (default: a temp dir)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    import torch

    if args.repeats < 1:
        print("gpu_check: --repeats must be at least 1")
        return 2
    if unknown := set(args.phases.split(",")) - set(PHASES):
        print(f"gpu_check: unknown phase(s) {sorted(unknown)}; choose from {', '.join(PHASES)}")
        return 2
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print("gpu_check: CUDA is not available here; use --device cpu --shape small for a dry run")
        return 2
    if args.model is not None and not (args.model / "config.json").exists():
        print(f"gpu_check: {args.model} has no config.json: give a local model directory")
        return 2
    import agentgym_envs  # noqa: F401  (registers the envs)

    run_dir = args.run_dir or Path(tempfile.mkdtemp(prefix="agentgym_gpu_check_"))
    run_dir.mkdir(parents=True, exist_ok=True)
    model_dir = args.model
    if model_dir is None:
        model_dir = run_dir / "base_model"
        started = time.perf_counter()
        params = build_random_model(model_dir, args.shape)
        print(f"built a random {args.shape} Qwen2 ({params / 1e6:.0f}M parameters) in "
              f"{time.perf_counter() - started:.1f} s")  # fmt: skip
    load = Workload(**{f: getattr(args, f) for f in asdict(Workload())})
    print(f"device {args.device}, torch {torch.__version__}; workload {asdict(load)}")
    run = Settings(args.device, args.dtype, args.lora, tuple(args.policy), args.micro_batch,
                   args.repeats, args.warmup, tuple(args.phases.split(",")))  # fmt: skip
    result = {
        "device": torch.cuda.get_device_name(args.device) if args.device != "cpu" else "cpu",
        "model": str(model_dir), "settings": asdict(run), "workload": asdict(load),
    }  # fmt: skip
    rows, prompts = phases(model_dir, run, load)
    if args.device.startswith("cuda") and "vllm" in run.phases:  # the policy is gone by now
        torch.cuda.empty_cache()
        try:
            rows.append(vllm_phase(model_dir, run, prompts, load))
        except Exception as exc:  # an engine that cannot start must not lose the other phases
            print(f"            vllm: failed ({type(exc).__name__}: {exc}); the rest is kept")
            rows.append({"phase": "vllm", "failed": f"{type(exc).__name__}: {exc}"})
    result["phases"] = rows
    if args.updates:
        modes = args.modes.split(",")
        result["updates"] = updates(model_dir, args.device, args.dtype, args.updates, modes,
                                    run_dir)  # fmt: skip
    out = run_dir / "gpu_check.json"
    out.write_text(json.dumps(result, indent=1, default=str))
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
