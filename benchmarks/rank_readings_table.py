"""Margin threshold -> taken / right / wrong, per kind of choice, from rank_readings.py output."""
import json, sys, collections
recs = {}
for f in sys.argv[1:]:
    for l in open(f):
        r = json.loads(l)
        if 'mode' in r and r['mode'] in ('whole', 'window') and r.get('frame_run') is None and False: pass
        key = (r['model'], r['set'], r['i'])
        if 'mode' not in r: recs.setdefault(key, r); continue
        if r['mode'] == 'whole' and recs.get(key, {}).get('mode') in ('window', 'frame'): continue
        recs[key] = r  # later (frame) records win
for model in sorted({k[0] for k in recs}):
    rs = [r for k, r in recs.items() if k[0] == model]
    print(f"## {model}: rows with two readings {len(rs)}, both pass guards {sum(1 for r in rs if all(r['passed']))}, scored {sum(1 for r in rs if 'margin' in r)}")
    for kinds in (('readings', 'final'), ('doubt',)):
        sc = [r for r in rs if 'margin' in r and r['kind'] in kinds]
        print(f"### {'/'.join(kinds)}: scored {len(sc)}; a right reading among them {sum(1 for r in sc if any(r['right']))}")
        print("| margin >= | taken | right | wrong | (wrong: set:row margin) |")
        print("|---|---|---|---|---|")
        for t in (0, 2, 4, 6, 8, 10, 12, 15, 20):
            tk = [r for r in sc if r['margin'] >= t]
            right = [r for r in tk if r['right'][r['best']]]
            wrong = [r for r in tk if not r['right'][r['best']]]
            print(f"| {t} | {len(tk)} | {len(right)} | {len(wrong)} | {' '.join('%s:%d@%.1f' % (r['set'][:5], r['i'], r['margin']) for r in wrong)} |")
        print()
        for r in sorted(sc, key=lambda r: -r['margin']):
            print(f"   {r['set']:18s} {r['i']:4d} {r['kind']:8s} {r.get('mode','?'):6s} right={r['right']} best={r['best']} margin={r['margin']:.2f} lines={r['lines']}")
