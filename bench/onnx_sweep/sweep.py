"""Export timm CNNs to ONNX and translate each with seer net (docs/networks.md,
"timm"): which import, with what parameter count against PyTorch's.

usage: sweep.py LISTFILE RESULTS.jsonl   (LISTFILE lines: "timm_model ts|dynamo")
env:   PY (a python with torch, timm, onnx; default python3), SEER (default
       build/seer), SEER_MODELS (default models), WORK (default /tmp/onnx-sweep)
Run from the repository root; results are appended, done models skipped."""
import sys, json, subprocess, os, collections
from concurrent.futures import ThreadPoolExecutor
HERE = os.path.dirname(os.path.abspath(__file__))
SEER = os.path.abspath(os.environ.get("SEER", "build/seer"))
WORK = os.environ.get("WORK", "/tmp/onnx-sweep")
os.makedirs(WORK, exist_ok=True)
BASE = [SEER, "net", None, "--models", os.path.abspath(os.environ.get("SEER_MODELS", "models")), "--gpu",
        "a100-pcie-80gb", "--mode", "train", "--format", "json"]
PY = os.environ.get("PY", "python3")
jobs = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
outp = sys.argv[2]
done = set()
if os.path.exists(outp):
    for l in open(outp):
        r = json.loads(l); done.add((r["model"], r["exporter"]))
def ops_of(f):
    import onnx
    m = onnx.load(f, load_external_data=False)
    c = collections.Counter(n.op_type for n in m.graph.node)
    for fn in m.functions:
        pass
    return dict(c), [f.name for f in m.functions]
def one(job):
    name, exp = job
    if (name, exp) in done: return None
    f = f"{WORK}/{name}.{exp}.onnx"; info = f + ".json"
    try:
        subprocess.run([PY, os.path.join(HERE, "export_one.py"), name, exp, f, info], timeout=600,
                       capture_output=True, text=True, cwd=WORK)
        r = json.load(open(info))
    except subprocess.TimeoutExpired:
        r = {"model": name, "exporter": exp, "export": "EXPORT_TIMEOUT"}
    except Exception as e:
        r = {"model": name, "exporter": exp, "export": "EXPORT_CRASH", "err": str(e)[:200]}
    if os.path.exists(f) and r.get("export") in ("train", "eval"):
        try:
            r["ops"], r["functions"] = ops_of(f)
        except Exception as e:
            r["ops_err"] = str(e)[:200]
        cmd = list(BASE); cmd[2] = f
        try:
            p = subprocess.run(cmd, timeout=300, capture_output=True, text=True)
            r["rc"] = p.returncode
            r["stderr"] = p.stderr.strip()[:2000]
            if p.returncode == 0:
                try:
                    j = json.loads(p.stdout); r["seer_params"] = j["params"]; r["seer_ms"] = j["total_ms"]
                    r["seer_nlayers"] = len(j["layers"])
                except Exception as e:
                    r["json_err"] = str(e)[:200]
                r["result"] = "OK"
            else:
                r["result"] = "FAIL"
                p2 = subprocess.run(cmd + ["--skip-unsupported"], timeout=300, capture_output=True, text=True)
                r["skip_rc"] = p2.returncode; r["skip_stderr"] = p2.stderr.strip()[:2000]
                if p2.returncode == 0:
                    try:
                        j = json.loads(p2.stdout); r["skip_params"] = j["params"]
                    except Exception: pass
        except subprocess.TimeoutExpired:
            r["result"] = "SEER_TIMEOUT"
    else:
        r["result"] = "NOEXPORT"
    for g in (f, f + ".data", info):
        if os.path.exists(g): os.remove(g)
    # any leftover external data files
    for g in os.listdir(WORK):
        if g.startswith(f"{name}.{exp}.onnx"): os.remove(os.path.join(WORK, g))
    return r
with ThreadPoolExecutor(2) as ex:
    for r in ex.map(one, jobs):
        if r is None: continue
        with open(outp, "a") as fo: fo.write(json.dumps(r) + "\n")
        print(r["model"], r["exporter"], r.get("export"), r.get("result"), (r.get("stderr") or "").splitlines()[:1], r.get("params"), r.get("seer_params"), flush=True)
