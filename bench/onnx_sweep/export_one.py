# usage: export_one.py NAME EXPORTER(ts|dynamo) OUTFILE INFOJSON
import sys, json, time, traceback, warnings
warnings.filterwarnings("ignore")
import torch, timm
name, exp, out, info = sys.argv[1:5]
res = {"model": name, "exporter": exp}
torch.manual_seed(0)
m = timm.create_model(name, pretrained=False)
res["params"] = sum(p.numel() for p in m.parameters())
cfg = getattr(m, "pretrained_cfg", {}) or {}
sizes = [128]
if cfg.get("fixed_input_size"): sizes = [cfg["input_size"][-1]]
else:
    mn = cfg.get("min_input_size")
    if mn: sizes = [max(128, mn[-1])]
    sizes.append(cfg.get("input_size", (3, 224, 224))[-1])
size = None
for s in sizes:
    try:
        m.train()
        with torch.no_grad():
            m(torch.randn(2, 3, s, s))
        size = s; break
    except Exception as e:
        res.setdefault("fwd_err", []).append(f"{s}: {type(e).__name__}: {str(e)[:200]}")
if size is None:
    res["export"] = "FWD_FAIL"; json.dump(res, open(info, "w")); sys.exit(0)
res["size"] = size
x = torch.randn(2, 3, size, size)
def do(mode):
    if mode == "train":
        m.train(); tm = torch.onnx.TrainingMode.TRAINING
    else:
        m.eval(); tm = torch.onnx.TrainingMode.EVAL
    if exp == "ts":
        torch.onnx.export(m, x, out, dynamo=False, opset_version=17, training=tm,
                          do_constant_folding=False)
    else:
        torch.onnx.export(m, (x,), out, dynamo=True, training=tm)
t = time.time()
for mode in ("train", "eval"):
    try:
        do(mode); res["export"] = mode; break
    except Exception as e:
        res.setdefault("export_err", []).append(f"{mode}: {type(e).__name__}: {str(e).strip().splitlines()[0][:300] if str(e).strip() else ''}")
else:
    res["export"] = "EXPORT_FAIL"
res["export_s"] = round(time.time() - t, 1)
json.dump(res, open(info, "w"))
