#!/usr/bin/env bash
# Train the SmolLM2-135M-Instruct baselines on this machine's CPU and export each adapter for the
# board: LoRA, behaviour cloning from the oracle, then RL (configs/smollm2/<env>.yaml).
#
#   bash scripts/train_baseline.sh [toy] [toy-grpo] [miniwob] [miniwob-grpo] [webshop]
#                                  [webshop-grpo]   (default: all six)
#
# The *-grpo runs are RL (configs/smollm2/<env>-grpo.yaml; Toy's is GiGPO) from the adapter that
# toy, miniwob or webshop exports; the best evaluated checkpoint of each is exported, to
# leaderboards/agents/smollm2-135m-<env>-grpo/.
#
# Each run writes runs/smollm2-<env>/ (checkpoints, metrics.jsonl, evaluations, plots) and exports
# its adapter (bf16, with the run's config) to leaderboards/agents/smollm2-135m-<env>/, which
# `agentgym bench run --agent run:leaderboards/agents/smollm2-135m-<env>` plays. A run stopped
# part way resumes from its latest checkpoint when the command is run again (one is written
# right after behaviour cloning; cloning cut short is redone). Wall time and peak memory of each
# run are printed at its end (GNU time). Extra `section.field=value` overrides after `--` go to
# every run, e.g. `-- torch_threads=4`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
envs=()
overrides=()
while (($#)); do
  case "$1" in
    --) shift; overrides=("$@"); break ;;
    toy|toy-grpo|miniwob|miniwob-grpo|webshop|webshop-grpo) envs+=("$1"); shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "train_baseline: unknown env '$1' (toy, toy-grpo, miniwob, miniwob-grpo, webshop or webshop-grpo)" >&2; exit 2 ;;
  esac
done
((${#envs[@]})) || envs=(toy toy-grpo miniwob miniwob-grpo webshop webshop-grpo)
if [ ! -x .venv/bin/agentgym-train ]; then
  echo "train_baseline: run 'bash scripts/setup.sh' first (it installs the trainer and SmolLM2)" >&2
  exit 1
fi
timer=()
if [ -x /usr/bin/time ]; then timer=(/usr/bin/time -f "[baseline] %e s wall, %M KiB peak RSS"); fi
for env in "${envs[@]}"; do
  echo "[baseline] training SmolLM2-135M-Instruct on $env (configs/smollm2/$env.yaml)"
  "${timer[@]}" .venv/bin/agentgym-train --config "configs/smollm2/$env.yaml" "${overrides[@]}"
  .venv/bin/agentgym-train plot "runs/smollm2-$env" >/dev/null
  checkpoint=latest
  if [[ "$env" == *-grpo ]]; then checkpoint=best; fi  # RL: the best greedy evaluation
  .venv/bin/agentgym-train export "runs/smollm2-$env" --adapter --checkpoint "$checkpoint" \
    --to "leaderboards/agents/smollm2-135m-$env"
done
echo "[baseline] done; play one on a suite with:"
echo "  .venv/bin/agentgym bench run --suite standard --agent run:leaderboards/agents/smollm2-135m-${envs[0]} --env AgentGym/<Env>-v0"
