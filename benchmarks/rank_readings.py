"""Rank the two readings of every instant-merge refusal that has them (MergeResult.alternatives),
as `auto` does (rewrite/readings.py: the undecided window when both readings keep the text around
it, else the whole file), and append one JSON line per row: kind, which reading is right, which
pass the answer guards, the scores, margin and best. Summarise with --table.

    PYTHONPATH=. nice -n 5 python benchmarks/rank_readings.py --model fastapply-135m-v2 \
        --out benchmarks/rank-readings-fastapply-135m-v2.jsonl ../shared/data/planner-dev.jsonl SET ...
    python benchmarks/rank_readings.py --table benchmarks/rank-readings-fastapply-135m-v2.jsonl
"""
import json, sys, time, argparse
from fastapply import models
from fastapply.merge import instant
from fastapply.merge.gate import guards
from fastapply.merge.text import syntax
from fastapply.rewrite.rank import rank_candidates
from fastapply.rewrite.readings import framed

ap = argparse.ArgumentParser()
ap.add_argument('--model'); ap.add_argument('--out'); ap.add_argument('--max-lines', type=int, default=300)
ap.add_argument('--skip', default='')
ap.add_argument('--table', action='store_true', help='summarise the JSONL files given instead')
ap.add_argument('sets', nargs='+')
a = ap.parse_args()
if a.table:
    import runpy, sys as _s
    _s.argv = ['table'] + a.sets
    runpy.run_path(__file__.replace('rank_readings.py', 'rank_readings_table.py'))
    raise SystemExit
def norm(t): return t.rstrip('\n')
loaded = models.load(a.model)
out = open(a.out, 'a')
for path in a.sets:
    rows = [json.loads(l) for l in open(path)]
    for i, r in enumerate(rows):
        if r['original'].count('\n') > a.max_lines: continue
        if a.skip and f"{path.split('/')[-1]}:{i}" in a.skip: continue
        res = instant.instant_merge(r['original'], r['snippet'], language=r.get('language'), path=r.get('path'))
        if res.merged or not res.alternatives: continue
        lang = syntax.normalize_language(r.get('language')) or syntax.detect_language(r.get('path'), r['original'])
        alts = list(res.alternatives)
        passed = [guards.check_answer(r['original'], r['snippet'], x, language=lang) is None for x in alts]
        right = [norm(x) == norm(r['expected']) for x in alts]
        kind = "doubt" if "new line or a change" in res.refused_reason or "no marker while" in res.refused_reason else ("final" if "final block" in res.refused_reason else "readings")
        rec = dict(set=path.split('/')[-1], i=i, kind=kind, right=right, passed=passed, model=a.model,
                   lines=r['original'].count('\n'))
        if not all(passed):
            out.write(json.dumps(rec) + '\n'); out.flush(); continue
        for _ in (0,):
            orig, cands, window = framed(r['original'], alts, res.regions)
            mode = 'window' if window else 'frame'
            t0 = time.perf_counter()
            rk = rank_candidates(loaded, orig, r['snippet'], r.get('instruction'), cands)
            rec2 = dict(rec, mode=mode, scores=rk.scores, margin=rk.margin, best=rk.best,
                        prompt_tokens=rk.prompt_tokens, scored=rk.scored_tokens, s=time.perf_counter() - t0)
            out.write(json.dumps(rec2) + '\n'); out.flush()
            print(rec2['set'], i, kind, mode, right, 'best', rk.best, 'margin %.2f' % rk.margin, '%.1fs' % rec2['s'], flush=True)
