"""Data parallelism across processes started by ``accelerate launch`` (or ``torchrun``): which
share of the work this process owns, and the few collectives that keep every process's weights
identical (averaged gradients, global statistics, gathered episodes).

Every process plays its own share of the episodes and averages gradients before each optimizer
step. With ``sharding: none`` every process holds a full copy of the policy and ranks stay
bit-identical without DDP wrappers (the policy has custom forward paths: candidate scoring
through a KV cache, generation); with ``sharding: fsdp`` each holds a shard of the LM's weights,
gradients and optimizer state (``agentgym_train.sharding``). A run started
without a launcher (``WORLD_SIZE`` unset or 1) gets a single-process object with the same API
whose collectives do nothing, so it needs no process group and its numbers do not change.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Iterable, Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import numpy as np
import torch

from agentgym_train.sharding import (
    ShardedPolicy,
    full_copy,
    full_optimizer_state,
    sharded_parameters,
)

if TYPE_CHECKING:
    from torch.distributed.tensor import DTensor

T = TypeVar("T")


class _Grouped(Protocol):
    group: int


G = TypeVar("G", bound=_Grouped)
log = logging.getLogger("agentgym_train")
#: in a data-parallel checkpoint: every rank's RNG states (``rng.pt`` holds rank 0's)
RANK_RNG = "rng_ranks.pt"
#: in the run directory: every rank's trainable-weight fingerprint at the last checkpoint
RANKS_FILE = "ranks.json"
#: gradients are all-reduced in flat buckets of about this size (one collective per bucket)
BUCKET_BYTES = 32 * 2**20
#: elements per step of the weight checksum (its temporaries: ~32 bytes per element, 128 MiB)
CHECKSUM_CHUNK = 2**22
#: how long a collective waits for the slowest rank (config: distributed_timeout_minutes)
TIMEOUT_MINUTES = 30.0


def launched_world_size() -> int:
    """Processes the launcher started (1 without a launcher)."""
    return int(os.environ.get("WORLD_SIZE", "1") or 1)


class DataParallel:
    """This process's rank, device and the collectives of data-parallel training."""

    def __init__(self, rank: int = 0, world_size: int = 1, device: torch.device | None = None):
        self.rank = rank
        self.world_size = world_size
        #: the device this rank must use; None in a single process (the config decides)
        self.device = device
        self._state: Any = None
        #: the policy's sharded LM under ``sharding: fsdp`` (None: every rank holds it whole)
        self.sharded: ShardedPolicy | None = None

    @classmethod
    def from_environment(
        cls, cpu: bool = False, timeout_minutes: float = TIMEOUT_MINUTES
    ) -> DataParallel:
        """Join the launcher's process group, or a single-process object when there is none.

        ``cpu`` asks for the gloo backend on CPU even where CUDA exists (``device=cpu``);
        ``timeout_minutes`` bounds every collective's wait for the slowest rank.
        """
        if launched_world_size() <= 1:
            return cls()
        from accelerate import PartialState

        state = PartialState(cpu=cpu, timeout=timedelta(minutes=timeout_minutes))
        if state.num_processes <= 1:
            raise RuntimeError(
                f"WORLD_SIZE={launched_world_size()} but accelerate set up no process group; "
                "start the run with `accelerate launch --multi_gpu --num_processes N` or torchrun"
            )
        parallel = cls(state.process_index, state.num_processes, state.device)
        parallel._state = state
        return parallel

    @classmethod
    def for_run(
        cls,
        device: str,
        episodes: int,
        group_size: int | None,
        timeout_minutes: float = TIMEOUT_MINUTES,
    ) -> DataParallel:
        """The process group of a training run, its work split checked (``check_world_size``).

        Uses gloo on CPU when ``device=cpu``, under ``accelerate launch --cpu`` or without CUDA.
        """
        cpu = (
            device == "cpu"
            or os.environ.get("ACCELERATE_USE_CPU", "").lower() in ("1", "true", "yes")
            or not torch.cuda.is_available()
        )
        parallel = cls.from_environment(cpu=cpu, timeout_minutes=timeout_minutes)
        check_world_size(parallel.world_size, episodes, group_size)
        return parallel

    def rank_device(self, wanted: str) -> torch.device | None:
        """The launcher's device for this rank (None in a single process: the config decides);
        a config device that contradicts it is an error."""
        if self.device is None:
            return None
        own = torch.device(self.device)
        if own.type == "cpu":
            own = torch.device("cpu")  # accelerate says cpu:0, which torch.load cannot map to
        if wanted != "auto":
            asked = torch.device(wanted)
            if asked.type != own.type or asked.index not in (None, own.index):
                raise ValueError(
                    f"device={wanted!r} conflicts with rank {self.rank}'s device {own} under a "
                    "multi-process launch; use device=auto (or cpu / cuda without an index)"
                )
        return own

    # ---- facts -------------------------------------------------------------------------------
    @property
    def is_distributed(self) -> bool:
        return self.world_size > 1

    @property
    def is_main(self) -> bool:
        """The rank that writes logs, checkpoints and plots."""
        return self.rank == 0

    def shard(self, items: Sequence[T]) -> list[T]:
        """This rank's contiguous share of ``items`` (sizes differ by at most one)."""
        start = len(items) * self.rank // self.world_size
        end = len(items) * (self.rank + 1) // self.world_size
        return list(items[start:end])

    def shard_groups(self, items: Sequence[G]) -> list[G]:
        """This rank's share of items carrying a ``.group``: consecutive items of one group stay
        together (a GRPO group is never split across ranks)."""
        groups: list[list[G]] = []
        for item in items:
            if groups and groups[-1][0].group == item.group:
                groups[-1].append(item)
            else:
                groups.append([item])
        return [item for group in self.shard(groups) for item in group]

    # ---- sharded weights ---------------------------------------------------------------------
    def shard_policy(self, policy, sharding: str) -> None:
        """Shard the policy's LM over the ranks when ``sharding`` is 'fsdp' (after the ranks
        agreed on its starting weights); a single process keeps it whole."""
        if sharding == "fsdp" and self.is_distributed:
            self.sharded = ShardedPolicy(policy, self.world_size)
        elif sharding == "fsdp":
            log.info("sharding=fsdp has nothing to shard in a single process; ignored")

    def gathered(self, reference: bool = True) -> contextlib.AbstractContextManager:
        """The block sees full weights on every rank (a rollout or an evaluation); a no-op
        unless sharded. Every rank must enter it together."""
        if self.sharded is None:
            return contextlib.nullcontext()
        return self.sharded.gathered(reference)

    @contextlib.contextmanager
    def synced_gradients(self, params: Sequence[torch.nn.Parameter]) -> Iterator[None]:
        """Backward passes in the block accumulate this rank's gradients; on leaving, every
        rank holds the mean over the ranks (of its own shard, when sharded). Every rank must
        enter it, also one with nothing to learn from (it adds zeros)."""
        if self.sharded is None:
            yield
            self.mean_gradients(params)
            return
        with self.sharded.gathered(reference=False):
            yield
            self.sharded.reduce_gradients()
        self.mean_gradients(sharded_parameters(params)[1])

    def clip_gradients(self, params: Sequence[torch.nn.Parameter], max_norm: float) -> float:
        """``clip_grad_norm_`` over all ranks' shards: returns the total norm before clipping."""
        sharded, replicated = sharded_parameters(params)
        if not sharded:
            return float(torch.nn.utils.clip_grad_norm_(replicated, max_norm))
        from torch.nn.utils import clip_grads_with_norm_, get_total_norm

        grads = [p.grad for p in sharded if p.grad is not None]
        squared = cast("DTensor", get_total_norm(grads)).full_tensor().float() ** 2
        rest = [p.grad for p in replicated if p.grad is not None]
        if rest:
            squared = squared + get_total_norm(rest).to(squared.device).float() ** 2
        total = squared.sqrt()
        for group in (sharded, replicated):
            clip_grads_with_norm_(group, max_norm, total)
        return float(total)

    def checkpoint_state(self, policy, optimizer: torch.optim.Optimizer):
        """``(trainable weights, optimizer state)`` to save: the live tensors and None (the
        optimizer's own ``state_dict``), or when sharded the whole tensors assembled from every
        rank's shard, on rank 0's CPU (other ranks get None: only rank 0 writes)."""
        trainable = policy.trainable_state(copy=False)
        if self.sharded is None:
            return trainable, None
        keep = self.is_main
        whole = {name: full_copy(tensor, keep) for name, tensor in trainable.items()}
        return (whole if keep else None), full_optimizer_state(optimizer, keep)

    # ---- collectives (no-ops in a single process) --------------------------------------------
    def gather(self, items: Sequence[T]) -> list[T]:
        """Every rank's ``items`` concatenated in rank order, on every rank (pickled objects)."""
        if not self.is_distributed:
            return list(items)
        from accelerate.utils import gather_object

        return gather_object(list(items))

    def sum_floats(self, values: Iterable[float]) -> np.ndarray:
        """Element-wise sum over ranks, in float64."""
        local = np.asarray(list(values), dtype=np.float64)
        if not self.is_distributed:
            return local
        tensor = torch.as_tensor(local, device=self.device)
        torch.distributed.all_reduce(tensor)
        return tensor.cpu().numpy()

    def max_int(self, value: int) -> int:
        """The largest ``value`` over ranks."""
        if not self.is_distributed:
            return int(value)
        tensor = torch.tensor([int(value)], dtype=torch.int64, device=self.device)
        torch.distributed.all_reduce(tensor, op=torch.distributed.ReduceOp.MAX)
        return int(tensor.item())

    def broadcast_object(self, value: T) -> T:
        """Rank 0's ``value`` on every rank (for decisions that only rank 0 can see)."""
        if not self.is_distributed:
            return value
        from accelerate.utils import broadcast_object_list

        return broadcast_object_list([value], from_process=0)[0]

    def barrier(self) -> None:
        if self.is_distributed:
            torch.distributed.barrier()

    @contextlib.contextmanager
    def main_first(self) -> Iterator[None]:
        """Rank 0 runs the block first (e.g. builds a cached model), then the others."""
        if not self.is_distributed:
            yield
            return
        with self._state.main_process_first():
            yield

    def mean_gradients(self, params: Iterable[torch.nn.Parameter]) -> None:
        """Replace every ``.grad`` by its mean over ranks.

        A rank whose minibatch was empty (or did not touch a parameter) contributes zeros, so all
        ranks issue the same collectives; a parameter without a gradient on every rank keeps
        ``grad=None``, as a single process would (AdamW then skips it).
        """
        if not self.is_distributed:
            return
        params = list(params)
        present = torch.tensor(
            [p.grad is not None for p in params], dtype=torch.float32, device=self.device
        )
        torch.distributed.all_reduce(present)
        live = [p for p, count in zip(params, present.tolist(), strict=True) if count > 0]
        for param in live:
            if param.grad is None:
                param.grad = torch.zeros_like(param)
        for bucket in _buckets([p.grad for p in live if p.grad is not None]):
            flat = torch.cat([g.reshape(-1) for g in bucket])
            torch.distributed.all_reduce(flat)
            flat /= self.world_size
            offset = 0
            for grad in bucket:
                grad.copy_(flat[offset : offset + grad.numel()].view_as(grad))
                offset += grad.numel()

    def broadcast_parameters(self, params: Iterable[torch.nn.Parameter]) -> None:
        """Copy rank 0's values into every rank's ``params`` (same start everywhere)."""
        if not self.is_distributed:
            return
        with torch.no_grad():
            for bucket in _buckets([p.data for p in params]):
                flat = torch.cat([t.reshape(-1) for t in bucket])
                torch.distributed.broadcast(flat, src=0)
                offset = 0
                for tensor in bucket:
                    tensor.copy_(flat[offset : offset + tensor.numel()].view_as(tensor))
                    offset += tensor.numel()

    # ---- checkpoints -------------------------------------------------------------------------
    def checkpoint_extras(self, trainable: dict[str, torch.Tensor] | None):
        """``(extra files, fingerprints)`` of a checkpoint: every rank's RNG states (saved inside
        the checkpoint) and every rank's weight fingerprint; ``(None, [])`` in one process.
        Sharded ranks hold different shards by design: no fingerprints to compare."""
        if not self.is_distributed:
            return None, []
        from agentgym_train.checkpoint import rng_state

        rngs = {RANK_RNG: self.gather([rng_state()])}
        if self.sharded is not None or trainable is None:
            return rngs, []
        return rngs, self.gather([fingerprint(trainable)])

    def confirm_checkpoint(self, run_dir: Path, update: int, prints: list[str]) -> None:
        """After rank 0 saved: record the fingerprints, wait for the files, stop on a mismatch."""
        if not self.is_distributed:
            return
        if self.is_main:
            summary = {
                "update": update,
                "world_size": self.world_size,
                "sharding": "none" if self.sharded is None else "fsdp",
                "trainable": prints,
            }
            (Path(run_dir) / RANKS_FILE).write_text(json.dumps(summary, indent=1))
        self.barrier()
        if len(set(prints)) > 1:
            raise RuntimeError(
                f"data-parallel ranks hold different weights at update {update} "
                f"(fingerprints {prints}); this is a bug, please report it"
            )

    def restore_rng(self, checkpoint: Path, seed: int, update: int) -> None:
        """This rank's own RNG states; exact only when resuming with the same world size."""
        from agentgym_train.checkpoint import set_rng_state

        file = Path(checkpoint) / RANK_RNG
        # no file: a single-process checkpoint, whose rng.pt load_checkpoint already restored
        states: list[dict[str, Any] | None] = (
            torch.load(file, weights_only=False) if file.exists() else [None]
        )
        if len(states) == self.world_size:
            own = states[self.rank]
            if own is not None:
                set_rng_state(own)
            return
        log.warning(
            "%s was written by %d process(es), this run has %d: the run continues, but not "
            "exactly as the original would have (exact resume needs the same process count)",
            checkpoint,
            len(states),
            self.world_size,
        )
        if self.is_distributed:
            torch.manual_seed(seed + self.rank + 1_000 * update)

    def shutdown(self) -> None:
        """Leave the process group together: without it gloo can abort at interpreter exit
        ('terminate called without an active exception'), NCCL warns."""
        if self.is_distributed and torch.distributed.is_initialized():
            torch.distributed.barrier()  # nobody tears down while a peer still talks
            self._state.destroy_process_group()


def _buckets(tensors: list[torch.Tensor]) -> Iterator[list[torch.Tensor]]:
    """Consecutive runs of tensors sharing dtype and device, each up to ``BUCKET_BYTES``."""
    bucket: list[torch.Tensor] = []
    size = 0
    for tensor in tensors:
        nbytes = tensor.numel() * tensor.element_size()
        same_kind = not bucket or (
            tensor.dtype == bucket[0].dtype and tensor.device == bucket[0].device
        )
        if bucket and (not same_kind or size + nbytes > BUCKET_BYTES):
            yield bucket
            bucket, size = [], 0
        bucket.append(tensor)
        size += nbytes
    if bucket:
        yield bucket


def fingerprint(state: dict[str, torch.Tensor]) -> str:
    """A hash of named tensors' exact bits: equal for bit-identical weights; one changed element
    always changes it, other differences collide with probability ~2^-64. Each tensor is
    reduced where it lives to one sum of its bit patterns times odd, position-dependent weights
    (integer sums wrap and are order-free, so every rank gets the same value), in chunks: no
    host copy of the weights and no second copy on the device, which for a full fine-tune would
    stall the ranks at every checkpoint."""
    digest = hashlib.sha256()
    for name in sorted(state):
        tensor = state[name].detach()
        digest.update(f"{name}|{tensor.dtype}|{tuple(tensor.shape)}|".encode())
        digest.update(str(_bit_checksum(tensor)).encode())
    return digest.hexdigest()


def _bit_checksum(tensor: torch.Tensor) -> int:
    bits = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[tensor.element_size()]
    flat = tensor.reshape(-1).view(bits)
    total = torch.zeros((), dtype=torch.int64, device=tensor.device)
    for start in range(0, flat.numel(), CHECKSUM_CHUNK):
        part = flat[start : start + CHECKSUM_CHUNK].to(torch.int64)
        position = torch.arange(start, start + part.numel(), device=tensor.device)
        odd = position * -0x61C8864680B583EB * 2 + 1  # odd: invertible mod 2^64
        total += (part * odd).sum()
    return int(total)


def check_world_size(world_size: int, episodes: int, group_size: int | None) -> None:
    """Each rank must get the same number of episodes (and of whole GRPO groups)."""
    if world_size <= 1:
        return
    if episodes % world_size:
        raise ValueError(
            f"rollout.episodes_per_update={episodes} must be divisible by the {world_size} "
            f"processes; use a multiple of {world_size}"
        )
    if group_size and (episodes // group_size) % world_size:
        raise ValueError(
            f"the {episodes // group_size} groups per update (episodes_per_update / "
            f"group_size) must be divisible by the {world_size} processes; use "
            f"rollout.episodes_per_update={group_size * world_size} or a "
            "multiple of it"
        )


__all__ = [
    "RANKS_FILE",
    "RANK_RNG",
    "DataParallel",
    "check_world_size",
    "fingerprint",
    "launched_world_size",
]
