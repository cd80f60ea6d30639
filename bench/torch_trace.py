"""The CUDA kernels of a torch.profiler session, as its Chrome trace holds
them: shared by torch_gemm.py and torch_iteration.py, which run from the
repository root (python3 bench/NAME.py) and so import it as a sibling."""
import json
import os
import tempfile


def trace_events(prof):
    """Every event of a finished profiler session's Chrome trace."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        prof.export_chrome_trace(path)
        with open(path) as f:
            trace = json.load(f)
    finally:
        os.unlink(path)
    return trace["traceEvents"] if isinstance(trace, dict) else trace


def kernel_events(events):
    """The GPU kernels among events, in launch order."""
    return sorted((e for e in events if e.get("cat") == "kernel"), key=lambda e: e.get("ts", 0))
