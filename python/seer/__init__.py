"""libseer from Python: predict how long cuDNN convolutions and whole CNNs
take on a GPU, on the CPU (docs/python.md).

    import seer
    seer.net("resnet50", gpu="a100-pcie-80gb", batch=64, mode="train")["total_ms"]
    seer.net("model.onnx", gpu="h100", batch=32)
    seer.predict_conv(gpu="t4", n=32, c=256, h=28, w=28, k=256)
    seer.from_torch(torchvision.models.resnet50(), torch.randn(1, 3, 224, 224), gpu="a100-pcie-80gb")

Results are plain dicts and lists with the keys of the `seer` CLI's JSON
output (`--format json`).  Errors from the library raise SeerError (the
status name and the library's message); arguments of the wrong type or
value raise TypeError / ValueError naming the argument (an unknown GPU
name: UnknownGpuError, both a SeerError and a ValueError).

The shared library and the shipped models are bundled by
`python3 -m pip install ./python`; in a source tree the package falls back
to ../build/libseer.so and ../models (SEER_LIBRARY and SEER_MODELS
override both).
"""
import ctypes as C
import functools
import math
import os
import struct
import threading
import warnings
from typing import Any, Dict, List, Optional, Union

__all__ = ["SeerError", "UnknownGpuError", "gpus", "predict_conv", "predict_gemm", "pick_conv_algo", "net",
           "from_torch", "version"]
__version__ = "0.2.0"

_HERE = os.path.dirname(os.path.abspath(__file__))
_TREE = os.path.dirname(os.path.dirname(_HERE))  # the repository, when run from a source tree


class SeerError(Exception):
    """A libseer call failed.  `status` is the status name
    ("SEER_STATUS_UNKNOWN_GPU"), `code` its value, `message` the library's
    message naming the offending field, line or node."""

    def __init__(self, status: str, code: int, message: str):
        super().__init__("%s: %s" % (status, message))
        self.status, self.code, self.message = status, code, message


class UnknownGpuError(SeerError, ValueError):
    """A `gpu` argument naming no GPU libseer knows (status
    SEER_STATUS_UNKNOWN_GPU).  A bad argument value, so a ValueError as
    the package's other argument checks raise, and a SeerError as the
    library's refusal it is, so that either `except` catches it."""


# ---------------------------------------------------------------------------
# The library
# ---------------------------------------------------------------------------

def _find_library() -> str:
    env = os.environ.get("SEER_LIBRARY")
    for p in ([env] if env else []) + [os.path.join(_HERE, "_lib", "libseer.so"),
                                       os.path.join(_TREE, "build", "libseer.so")]:
        if p and os.path.exists(p):
            return p
    raise ImportError("seer: libseer.so not found (install with `python3 -m pip install ./python`, "
                      "or build the repository with make, or set SEER_LIBRARY)")


def _models_dir() -> str:
    env = os.environ.get("SEER_MODELS")
    if env:
        return env
    bundled = os.path.join(_HERE, "models")
    return bundled if os.path.isdir(bundled) else os.path.join(_TREE, "models")


_lib = C.CDLL(_find_library())

_ST = C.c_int
_H = C.c_void_p


class _GpuInfo(C.Structure):
    _fields_ = [("id", C.c_char * 32), ("name", C.c_char * 64), ("arch", C.c_char * 16),
                ("cc_major", C.c_int), ("cc_minor", C.c_int), ("sms", C.c_int), ("boost_mhz", C.c_double),
                ("fp32_tflops", C.c_double), ("fp16_tflops", C.c_double), ("bf16_tflops", C.c_double),
                ("tf32_tflops", C.c_double), ("fp16_simt_tflops", C.c_double), ("dram_gbps", C.c_double),
                ("dram_gib", C.c_double), ("dram_stream_gbps", C.c_double), ("l2_bytes", C.c_int), ("regs_per_sm", C.c_int),
                ("regs_per_block", C.c_int), ("max_regs_per_thread", C.c_int), ("reg_alloc_unit", C.c_int),
                ("smem_per_sm", C.c_int), ("smem_per_block", C.c_int), ("smem_reserved_per_block", C.c_int),
                ("smem_alloc_unit", C.c_int), ("threads_per_sm", C.c_int), ("threads_per_block", C.c_int),
                ("blocks_per_sm", C.c_int), ("warps_per_sm", C.c_int)]


class _ModelInfo(C.Structure):
    _fields_ = [("gpu_id", C.c_char * 32), ("format_version", C.c_uint), ("lib_version", C.c_uint),
                ("n_families", C.c_int), ("n_svm", C.c_int), ("n_rows", C.c_longlong), ("checksum", C.c_uint32),
                ("provenance", C.c_char * 512), ("transferred", C.c_int), ("source_gpus", C.c_char * 128),
                ("gemm_source_gpu", (C.c_char * 32) * 2)]


class _KernelPred(C.Structure):
    _fields_ = [("role", C.c_int), ("name", C.c_char * 48), ("grid", C.c_int * 3), ("block", C.c_int * 3),
                ("regs_per_thread", C.c_int), ("smem_bytes", C.c_int), ("flops", C.c_double),
                ("dram_bytes", C.c_double), ("blocks_per_sm", C.c_int), ("bmax", C.c_longlong),
                ("waves", C.c_double), ("last_fill", C.c_double), ("cls", C.c_int), ("time_ms", C.c_double),
                ("source", C.c_int)]


class _AlgoPerf(C.Structure):
    _fields_ = [("algo", C.c_int), ("status", C.c_int), ("time", C.c_double), ("memory", C.c_size_t),
                ("determinism", C.c_int), ("math_type", C.c_int), ("source", C.c_int)]


class _NetInfo(C.Structure):
    _fields_ = [("name", C.c_char * 48), ("n_layers", C.c_int), ("n_conv", C.c_int), ("n_fc", C.c_int),
                ("params", C.c_longlong), ("fwd_flops", C.c_double), ("in_c", C.c_int), ("in_h", C.c_int),
                ("in_w", C.c_int)]


class _LayerResult(C.Structure):
    _fields_ = [("layer", C.c_int), ("name", C.c_char * 48), ("op", C.c_int), ("direction", C.c_int),
                ("algo", C.c_int), ("n_kernels", C.c_int), ("cls", C.c_int), ("flops", C.c_double),
                ("bytes", C.c_double), ("time_ms", C.c_double), ("flags", C.c_uint)]


# seer_layer_result_t as struct sees it (checked against ctypes below).
_ROW = struct.Struct("=i48siiiiidddI4x")


class _NetOptions(C.Structure):
    _fields_ = [("batch", C.c_int), ("dtype", C.c_int), ("layout", C.c_int), ("mode", C.c_int),
                ("algo_policy", C.c_int), ("threads", C.c_int), ("dispatch_ms", C.c_double),
                ("optimizer", C.c_int), ("amp", C.c_int)]


class _NetTotals(C.Structure):
    _fields_ = [("rows", C.c_int), ("gpu_ms", C.c_double), ("conv_ms", C.c_double), ("other_ms", C.c_double),
                ("optimizer_ms", C.c_double), ("dispatch_ms", C.c_double), ("total_ms", C.c_double)]


class _NetMemory(C.Structure):
    _fields_ = [("weights", C.c_uint64), ("gradients", C.c_uint64), ("optimizer_state", C.c_uint64),
                ("activations", C.c_uint64), ("workspace", C.c_uint64), ("total", C.c_uint64)]


class _OnnxOptions(C.Structure):
    _fields_ = [("resolution", C.c_int), ("skip_unsupported", C.c_int)]


class _OnnxInfo(C.Structure):
    _fields_ = [("batch", C.c_int), ("opset", C.c_int), ("n_nodes", C.c_int), ("n_skipped", C.c_int)]


def _fn(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype, f.argtypes = restype, list(argtypes)
    return f


_P = C.POINTER
_status_string = _fn("seer_status_string", C.c_char_p, _ST)
_create = _fn("seer_create", _ST, _P(_H))
_get_last_error = _fn("seer_get_last_error", C.c_char_p, _H)
_gpu_count = _fn("seer_gpu_count", _ST, _P(C.c_int))
_gpu_get = _fn("seer_gpu_get", _ST, C.c_int, _P(_GpuInfo))
_model_open = _fn("seer_model_open", _ST, _H, C.c_char_p, C.c_char_p, _P(_H))
_model_load = _fn("seer_model_load", _ST, _H, C.c_char_p, _P(_H))
_model_info = _fn("seer_model_get_info", _ST, _H, _P(_ModelInfo))
_model_destroy = _fn("seer_model_destroy", _ST, _H)
_read_input = _fn("seer_read_input_file", _ST, _H, C.c_char_p, C.c_char_p, C.c_size_t, _P(C.c_void_p),
                  _P(C.c_size_t))
_libc_free = C.CDLL(None).free  # seer_read_input_file's buffer is malloc'ed
_libc_free.restype, _libc_free.argtypes = None, [C.c_void_p]
_NET_TEXT_MAX_BYTES = 64 << 20  # SEER_NET_TEXT_MAX_BYTES
_ONNX_MAX_BYTES = 1 << 30  # SEER_ONNX_MAX_BYTES
_model_gpu = _fn("seer_model_get_gpu", _ST, _H, _P(_GpuInfo))
_desc_create = _fn("seer_conv_desc_create", _ST, _P(_H))
_desc_destroy = _fn("seer_conv_desc_destroy", _ST, _H)
_desc_set = _fn("seer_conv_desc_set", _ST, _H, _H, C.c_int, C.c_int, *([C.c_int] * 14))
_desc_output = _fn("seer_conv_desc_get_output", _ST, _H, _P(C.c_int), _P(C.c_int))
_conv_work = _fn("seer_conv_work", _ST, _H, C.c_int, _P(C.c_double), _P(C.c_double))
_roofline = _fn("seer_roofline_conv", _ST, _H, _P(_GpuInfo), _H, C.c_int, _P(C.c_double))
_predict_conv = _fn("seer_predict_conv", _ST, _H, _H, _H, C.c_int, C.c_int, _P(C.c_double), _P(_KernelPred),
                    C.c_int, _P(C.c_int))
_pick = [_fn(n, _ST, _H, _H, _H, C.c_size_t, _P(_AlgoPerf), C.c_int, _P(C.c_int))
         for n in ("seer_pick_conv_algo", "seer_pick_conv_bwd_data_algo", "seer_pick_conv_bwd_filter_algo")]
_algo_name = _fn("seer_algo_name", C.c_char_p, C.c_int, C.c_int)
_layer_algo_name = _fn("seer_layer_algo_name", C.c_char_p, _P(_LayerResult))
_algo_from_name = _fn("seer_algo_from_name", _ST, C.c_int, C.c_char_p, _P(C.c_int))
_dtype_from_name = _fn("seer_dtype_from_name", _ST, C.c_char_p, _P(C.c_int))
_layout_from_name = _fn("seer_layout_from_name", _ST, C.c_char_p, _P(C.c_int))
_dir_from_name = _fn("seer_direction_from_name", _ST, C.c_char_p, _P(C.c_int))
_dtype_name = _fn("seer_dtype_name", C.c_char_p, C.c_int)
_layout_name = _fn("seer_layout_name", C.c_char_p, C.c_int)
_dir_name = _fn("seer_direction_name", C.c_char_p, C.c_int)
_class_name = _fn("seer_class_name", C.c_char_p, C.c_int)
_op_name = _fn("seer_op_name", C.c_char_p, C.c_int)
_zoo_name = _fn("seer_network_zoo_name", C.c_char_p, C.c_int)
_net_zoo = _fn("seer_network_create_zoo", _ST, _H, C.c_char_p, C.c_int, _P(_H))
_net_create = _fn("seer_network_create", _ST, _H, C.c_char_p, C.c_size_t, _P(_H))
_net_destroy = _fn("seer_network_destroy", _ST, _H)
_net_info = _fn("seer_network_get_info", _ST, _H, _P(_NetInfo))
_predict_net_opts = _fn("seer_predict_network_opts", _ST, _H, _H, _H, _P(_NetOptions), _P(_LayerResult), C.c_int,
                        _P(_NetTotals))
_net_memory = _fn("seer_network_memory", _ST, _H, _H, _H, _P(_NetOptions), _P(_NetMemory))
_net_fit = _fn("seer_network_fit_batch", _ST, _H, _H, _H, _P(_NetOptions), C.c_double, _P(C.c_int))
_onnx_text = _fn("seer_onnx_text", _ST, _H, C.c_char_p, C.c_size_t, _P(_OnnxOptions), C.c_char_p, C.c_size_t,
                 _P(C.c_size_t), _P(_OnnxInfo))
_version = _fn("seer_version", C.c_uint)
_gpu_find = _fn("seer_gpu_find", _ST, _H, C.c_char_p, _P(_GpuInfo))
_gpu_register_file = _fn("seer_gpu_register_file", _ST, _H, C.c_char_p, _P(_GpuInfo))
_predict_gemm = _fn("seer_predict_gemm", _ST, _H, _H, *([C.c_int] * 8), _P(C.c_double), _P(C.c_int))
_roofline_gemm = _fn("seer_roofline_gemm", _ST, _H, _P(_GpuInfo), *([C.c_int] * 5), _P(C.c_double))
_source_name = _fn("seer_source_name", C.c_char_p, C.c_int)
_pick_fastest = _fn("seer_pick_conv_fastest", _ST, _H, _H, _H, C.c_int, _P(C.c_int), _P(C.c_double))
_conv_bwd_from_fwd = _fn("seer_conv_bwd_from_fwd", _ST, _H, _H, _H, C.c_int, _P(C.c_int))
assert _ROW.size == C.sizeof(_LayerResult) and _LayerResult.flops.offset == 72, "seer_layer_result_t layout"

_SUCCESS, _UNKNOWN_GPU, _BUFFER_TOO_SMALL = 0, 7, 19
_UNSUPPORTED, _NOT_CALIBRATED, _NO_ALGORITHM, _WORKSPACE_LIMIT, _BAD_PREDICTION = 6, 17, 24, 25, 26
# an algorithm's own failure, which leaves the others to rank (as the CLI's)
_ALGO_FAILURES = (_UNSUPPORTED, _NOT_CALIBRATED, _BAD_PREDICTION)
_ALGO_AUTO, _ALGO_CUDNN = -2, -1
_ALGO_COUNT = {0: 8, 1: 6, 2: 7}  # SEER_{FWD,BWD_DATA,BWD_FILTER}_ALGO_COUNT
_ROLE_MAIN = 0
_OP_CONV, _OP_FC, _OP_OPTIMIZER, _OP_DECONV = 1, 7, 12, 18
_OPTIMIZERS = ("none", "sgd", "adam")  # seer_optimizer_t order
_FLAGS = ((0x2, "B"), (0x8, "M"), (0x1, "R"), (0x4, "X"), (0x10, "G"), (0x20, "A"), (0x40, "C"))

_tls = threading.local()


# Names of small enums, looked up once: a network result has hundreds of rows.
@functools.lru_cache(maxsize=None)
def _name_op(v: int) -> str:
    return _s(_op_name(v))


@functools.lru_cache(maxsize=None)
def _name_dir(v: int) -> str:
    return _s(_dir_name(v))


@functools.lru_cache(maxsize=None)
def _name_class(v: int) -> str:
    return _s(_class_name(v))


@functools.lru_cache(maxsize=None)
def _name_row_algo(op: int, dr: int, al: int) -> Optional[str]:
    """A result row's algorithm in the direction that ran it (a deconv's
    forward: a backward data one), None for no algorithm: the library's
    seer_layer_algo_name."""
    name = _layer_algo_name(C.byref(_LayerResult(op=op, direction=dr, algo=al)))
    return None if name is None else _s(name)


@functools.lru_cache(maxsize=None)
def _name_flags(f: int) -> str:
    return "".join(c for bit, c in _FLAGS if f & bit)


def _handle() -> C.c_void_p:
    """One handle per thread: each call's error message stays its own."""
    h = getattr(_tls, "h", None)
    if h is None:
        h = C.c_void_p()
        st = _create(C.byref(h))
        if st:
            raise SeerError(*_status(st), "seer_create failed")
        _tls.h = h
    return h


def _status(st: int):
    text = (_status_string(st) or b"SEER_STATUS_?").decode()
    return text.split(":", 1)[0], st


def _check(st: int, h=None) -> None:
    if st != _SUCCESS:
        msg = _get_last_error(h).decode(errors="replace") if h is not None else ""
        name, code = _status(st)
        raise SeerError(name, code, msg or (_status_string(st) or b"").decode())


def _s(b: bytes) -> str:
    return b.decode(errors="replace")


def _num(v: float) -> Optional[float]:
    return v if math.isfinite(v) else None


def version() -> str:
    """The linked libseer's version ("0.2.0")."""
    v = _version()
    return "%d.%d.%d" % (v // 10000, v // 100 % 100, v % 100)


# ---------------------------------------------------------------------------
# Argument checking: TypeError / ValueError naming the argument
# ---------------------------------------------------------------------------

def _int(fn: str, name: str, v: Any, lo: int = 1, hi: int = (1 << 31) - 1) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("%s(): argument '%s' must be int, not %s" % (fn, name, type(v).__name__))
    if not lo <= v <= hi:
        raise ValueError("%s(): argument '%s' must be in %d..%d, got %d" % (fn, name, lo, hi, v))
    return v


def _str(fn: str, name: str, v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError("%s(): argument '%s' must be str, not %s" % (fn, name, type(v).__name__))
    if "\0" in v:  # C would read up to it: 't4\0xyz' was taken as t4
        raise ValueError("%s(): argument '%s' holds a NUL character" % (fn, name))
    return v


def _enum(fn: str, name: str, v: Any, parse, choices: str) -> int:
    out = C.c_int()
    if parse(_str(fn, name, v).encode(), C.byref(out)) != _SUCCESS:
        raise ValueError("%s(): argument '%s': unknown value %r (%s)" % (fn, name, v, choices))
    return out.value


_DTYPES = "fp32, tf32, fp16, bf16, fp16_pseudo"
_LAYOUTS = "nchw, nhwc"
_DIRECTIONS = "fwd, bwd_data, bwd_filter"


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------

_models: Dict[Any, Any] = {}
_models_lock = threading.Lock()


def _gpu_id(h, gpu: str) -> str:
    """The table id a GPU name resolves to (an alias, the driver's device
    name), or the name itself when libseer does not know it."""
    g = _GpuInfo()
    return _s(g.id) if _gpu_find(h, gpu.encode(), C.byref(g)) == _SUCCESS else gpu


def _gpu_is_file(gpu: str) -> bool:
    """Whether gpu names a GPU description file, as the CLI's --gpu tells:
    table ids never hold a '/', and a bare name is a file only if one
    exists."""
    return "/" in gpu or os.path.isfile(gpu)


def _model(fn: str, gpu: Optional[str], model: Optional[str], models: Optional[str]):
    """A loaded model (cached: models are immutable and thread-safe), its
    info, the path it came from (None for a transferred one) and how it
    was served: "calibrated", "gemm-calibrated" (a GEMM-only file in the
    models directory, its convolutions transferred) or "transferred".
    gpu may be a GPU description file (docs/formats.md): its GPU is
    registered on this thread's handle and the model opened for its id
    (the model copies the GPU's facts, so any thread's handle predicts
    with it)."""
    if gpu is None and model is None:
        raise TypeError("%s(): argument 'gpu' (or 'model', a .seer file) is required" % fn)
    if gpu is not None:
        _str(fn, "gpu", gpu)
    if model is not None:
        _str(fn, "model", model)
    if models is not None:
        _str(fn, "models", models)
    d = models or _models_dir()
    key = (gpu, model, d)
    with _models_lock:
        m = _models.get(key)
        if m is None:
            h = _handle()
            m = C.c_void_p()
            if gpu is not None and _gpu_is_file(gpu):
                g = _GpuInfo()
                _check(_gpu_register_file(h, os.fsencode(gpu), C.byref(g)), h)
                gpu = _s(g.id)
            if model is not None:
                _check(_model_load(h, os.fsencode(model), C.byref(m)), h)  # a path: any bytes the OS allows
            else:
                st = _model_open(h, os.fsencode(d), gpu.encode(), C.byref(m))
                # the name itself unknown, not a file of the directory that
                # names a GPU this libseer does not know
                if st == _UNKNOWN_GPU and _gpu_find(h, gpu.encode(), C.byref(_GpuInfo())) != _SUCCESS:
                    raise UnknownGpuError(_status(st)[0], st, "%s(): argument 'gpu': unknown GPU %r (see seer.gpus())"
                                          % (fn, gpu))
                _check(st, h)
            info = _ModelInfo()
            _model_info(m, C.byref(info))
            if gpu is not None and model is not None and _s(info.gpu_id).lower() != _gpu_id(h, gpu).lower():
                _model_destroy(m)  # not kept: it would leak with every such call
                raise ValueError("%s(): argument 'gpu': %s does not match the model's GPU %s"
                                 % (fn, gpu, _s(info.gpu_id)))
            path = model if model is not None else os.path.join(d, _s(info.gpu_id) + ".seer")
            served = "transferred" if info.transferred else \
                "gemm-calibrated" if model is None and _gemm_only(path) else "calibrated"
            m = _models[key] = (m, info, None if info.transferred else path, served)
    return m


# ---------------------------------------------------------------------------
# seer gpus
# ---------------------------------------------------------------------------

def _gemm_only(path: str) -> bool:
    """Whether the model file holds GEMM data only (no conv families)."""
    h, m, info = _handle(), C.c_void_p(), _ModelInfo()
    if _model_load(h, os.fsencode(path), C.byref(m)) != _SUCCESS:
        return False
    try:
        return _model_info(m, C.byref(info)) == _SUCCESS and info.n_families == 0
    finally:
        _model_destroy(m)


def gpus(models: Optional[str] = None) -> List[Dict[str, Any]]:
    """The GPU table, as `seer gpus --format json` lists it ("gpus"): id,
    name, arch, cc, sms, boost_mhz, fp32/fp16/bf16/tf32_tflops, dram_gbps,
    l2_mb, and model: "calibrated" (a shipped model), "gemm-calibrated" (a
    shipped model of GEMM data only, whose convolutions are transferred),
    "transferred" (served from the calibrated ones) or None."""
    d = _models_dir() if models is None else _str("gpus", "models", models)
    any_model = os.path.isdir(d) and any(f.endswith(".seer") for f in os.listdir(d))
    n = C.c_int()
    _check(_gpu_count(C.byref(n)))
    out = []
    for i in range(n.value):
        g = _GpuInfo()
        _check(_gpu_get(i, C.byref(g)))
        gid = _s(g.id)
        f = os.path.join(d, gid + ".seer")
        kind = ("gemm-calibrated" if _gemm_only(f) else "calibrated") if os.path.isfile(f) else \
            "transferred" if any_model else None
        out.append({"id": gid, "name": _s(g.name), "arch": _s(g.arch), "cc": "%d.%d" % (g.cc_major, g.cc_minor),
                    "sms": g.sms, "boost_mhz": g.boost_mhz, "fp32_tflops": g.fp32_tflops,
                    "fp16_tflops": g.fp16_tflops, "bf16_tflops": g.bf16_tflops, "tf32_tflops": g.tf32_tflops,
                    "dram_gbps": g.dram_gbps, "l2_mb": g.l2_bytes / (1024.0 * 1024.0), "model": kind})
    return out


# ---------------------------------------------------------------------------
# One convolution
# ---------------------------------------------------------------------------

class _Desc:
    def __init__(self, fn, h, dtype, layout, n, c, hh, w, k, r, s, pad, stride, dilation, groups):
        args = [_int(fn, nm, v) for nm, v in (("n", n), ("c", c), ("h", hh), ("w", w), ("k", k), ("r", r),
                                             ("s", s))]
        stride = _int(fn, "stride", stride)
        dilation = _int(fn, "dilation", dilation)
        # None: "same" padding for odd filters, dilation * (r - 1) // 2 and (s - 1) likewise
        # (capped at C's int, as the CLI caps it: the library names the overflow)
        pads = ((_int(fn, "pad", pad, 0),) * 2 if pad is not None else
                tuple(min(dilation * (v - 1) // 2, (1 << 31) - 1) for v in (args[5], args[6])))
        groups = _int(fn, "groups", groups)
        self.d = C.c_void_p()
        _check(_desc_create(C.byref(self.d)))
        st = _desc_set(h, self.d, dtype, layout, *args, *pads, stride, stride, dilation, dilation, groups)
        if st:
            _desc_destroy(self.d)
            _check(st, h)

    def __enter__(self):
        return self.d

    def __exit__(self, *exc):
        _desc_destroy(self.d)


def _conv_common(fn, kw):
    direction = _enum(fn, "direction", kw["direction"], _dir_from_name, _DIRECTIONS)
    dtype = _enum(fn, "dtype", kw["dtype"], _dtype_from_name, _DTYPES)
    layout = _enum(fn, "layout", kw["layout"], _layout_from_name, _LAYOUTS)
    return direction, dtype, layout


def _predict_one(h, m, d, direction, algo):
    cap, t, nk = 16, C.c_double(), C.c_int()
    while True:
        ks = (_KernelPred * cap)()
        st = _predict_conv(h, m, d, direction, algo, C.byref(t), ks, cap, C.byref(nk))
        if st != _BUFFER_TOO_SMALL or nk.value <= cap or nk.value > 4096:
            break
        cap = nk.value
    if st:
        return st, None, None, None
    ks = ks[:nk.value]
    main = next((k for k in ks if k.role == _ROLE_MAIN), None) or \
        (max(ks, key=lambda k: k.time_ms) if ks else None)
    return (st, t.value, _s(_class_name(main.cls)) if main else "-",
            _s(_source_name(main.source if main else 2)))


def _bwd_from_fwd(hd, m, d, dirn) -> bool:
    """Whether predict_network takes this backward pass from the forward
    one (mark B; seer_conv_bwd_from_fwd, as the CLI's pick lines say)."""
    v = C.c_int()
    return _conv_bwd_from_fwd(hd, m, d, dirn, C.byref(v)) == _SUCCESS and v.value == 1


def predict_conv(gpu: Optional[str] = None, n: int = 1, c: int = 1, h: int = 1, w: int = 1, k: int = 1,
                 r: int = 3, s: int = 3, pad: Optional[int] = None, stride: int = 1, dilation: int = 1, groups: int = 1,
                 direction: str = "fwd", dtype: str = "fp32", layout: str = "nchw", algo: str = "auto",
                 model: Optional[str] = None, models: Optional[str] = None) -> Dict[str, Any]:
    """Predict one convolution, like `seer predict --format json`: every
    algorithm of the direction (algo="auto"; those timed from
    measurements first, then the analytical guesses, each fastest first,
    with cuDNN's choice where the model has it), or one (an algorithm
    name such as "IMPLICIT_GEMM").  Keys: gpu, model, served,
    source_gpus, direction, p, q, flops, min_bytes, roofline_ms,
    predictions [{algo, algo_id, status, time_ms, class, source}] (status
    "ok", "unsupported", "not_calibrated" or "out_of_range"), and
    with algo="auto" pick {algo, time_ms, bwd_from_fwd}:
    seer_pick_conv_fastest, what predict_network takes (bwd_from_fwd: it
    takes this backward pass from the forward one instead, mark B)."""
    fn = "predict_conv"
    dirn, dt, lay = _conv_common(fn, locals())
    _str(fn, "algo", algo)
    hd = _handle()
    if algo == "auto":
        algos = list(range(_ALGO_COUNT[dirn]))
    else:
        a = C.c_int()
        if _algo_from_name(dirn, algo.encode(), C.byref(a)) != _SUCCESS:
            raise ValueError("%s(): argument 'algo': unknown algorithm %r for %s" % (fn, algo, direction))
        algos = [a.value]
    with _Desc(fn, hd, dt, lay, n, c, h, w, k, r, s, pad, stride, dilation, groups) as d:
        m, info, path, served = _model(fn, gpu, model, models)  # after the shape's arguments are checked
        res, why = [], ""
        for a in algos:
            st, t, cls, src = _predict_one(hd, m, d, dirn, a)
            if st and (algo != "auto" or st not in _ALGO_FAILURES):
                _check(st, hd)
            if st and not why:
                why = _s(_get_last_error(hd))  # the first failure's cause, as the CLI says it
            res.append((a, st, t, cls, src))
        if not any(st == _SUCCESS for _, st, _, _, _ in res):
            # UNSUPPORTED when nothing can run it at all (bf16 on a T4), as net() says;
            # BAD_PREDICTION when a time out of range was all the model gave
            sts = [st for _, st, _, _, _ in res]
            st = (_UNSUPPORTED if all(x == _UNSUPPORTED for x in sts) else
                  _BAD_PREDICTION if _BAD_PREDICTION in sts else _NOT_CALIBRATED)
            raise SeerError(*_status(st),
                            "no algorithm of %s could be predicted by this model%s" % (direction,
                                                                                      ": " + why if why else ""))
        pick = None
        if algo == "auto":
            st, t, cls, src = _predict_one(hd, m, d, dirn, -1)  # cuDNN's choice
            if st and st not in _ALGO_FAILURES:
                _check(st, hd)
            if st == _SUCCESS and src != "analytical":
                res.append((-1, st, t, cls, src))
            pa, pt = C.c_int(), C.c_double()
            _check(_pick_fastest(hd, m, d, dirn, C.byref(pa), C.byref(pt)), hd)
            pick = {"algo": _s(_algo_name(dirn, pa.value)), "time_ms": pt.value,
                    "bwd_from_fwd": _bwd_from_fwd(hd, m, d, dirn)}
        # as seer pick ranks: from measurements, analytical, not predicted
        res.sort(key=lambda x: (2 if x[1] != _SUCCESS else x[4] == "analytical",
                                x[2] if x[1] == _SUCCESS else 0, x[0]))
        p, q = C.c_int(), C.c_int()
        _desc_output(d, C.byref(p), C.byref(q))
        flops, mbytes, roof = C.c_double(), C.c_double(), C.c_double()
        if _conv_work(d, dirn, C.byref(flops), C.byref(mbytes)):
            flops.value = mbytes.value = float("nan")
        g = _GpuInfo()
        _model_gpu(m, C.byref(g))
        if _roofline(hd, C.byref(g), d, dirn, C.byref(roof)):
            roof.value = float("nan")
    preds = []
    for a, st, t, cls, src in res:
        e = {"algo": _s(_algo_name(dirn, a)), "algo_id": a}
        if st == _SUCCESS:
            e.update({"status": "ok", "time_ms": t, "class": cls, "source": src})
        else:
            e.update({"status": _PERF_STATUS[st], "time_ms": None})
        preds.append(e)
    return {"gpu": _s(info.gpu_id), "model": path, "served": served,
            "source_gpus": _s(info.source_gpus), "direction": _s(_dir_name(dirn)), "p": p.value, "q": q.value,
            "flops": _num(flops.value), "min_bytes": _num(mbytes.value), "roofline_ms": _num(roof.value),
            "predictions": preds, **({"pick": pick} if pick else {})}


def predict_gemm(gpu: Optional[str] = None, m: int = 1, n: int = 1, k: int = 1, batch: int = 1,
                 dtype: str = "fp32", trans_a: bool = False, trans_b: bool = False, bias: bool = False,
                 model: Optional[str] = None, models: Optional[str] = None) -> Dict[str, Any]:
    """Predict batch GEMMs C[m x n] = A[m x k] B[k x n] (a linear layer:
    m = rows of the input, n = out_features, k = in_features, bias=True; a
    torch.bmm: batch), like seer_predict_gemm.  Keys: gpu, model, served,
    time_ms, class, roofline_ms."""
    fn = "predict_gemm"
    dt = _enum(fn, "dtype", dtype, _dtype_from_name, _DTYPES)
    dims = [_int(fn, name, v) for name, v in (("batch", batch), ("m", m), ("n", n), ("k", k))]
    flags = []
    for name, v in (("trans_a", trans_a), ("trans_b", trans_b), ("bias", bias)):
        if not isinstance(v, bool):
            raise TypeError("%s(): argument '%s' must be a bool, not %s" % (fn, name, type(v).__name__))
        flags.append(int(v))
    mo, info, path, served = _model(fn, gpu, model, models)
    hd = _handle()
    t, cls, roof = C.c_double(), C.c_int(), C.c_double()
    _check(_predict_gemm(hd, mo, *dims, dt, *flags, C.byref(t), C.byref(cls)), hd)
    g = _GpuInfo()
    _model_gpu(mo, C.byref(g))
    if _roofline_gemm(hd, C.byref(g), *dims, dt, C.byref(roof)):
        roof.value = float("nan")
    return {"gpu": _s(info.gpu_id), "model": path, "served": served,
            "time_ms": t.value, "class": _s(_class_name(cls.value)), "roofline_ms": _num(roof.value)}


_MATH = {1: "tensor_op", 3: "fma", 2: "tensor_op_conv"}
_PERF_STATUS = {_SUCCESS: "ok", _NOT_CALIBRATED: "not_calibrated", _WORKSPACE_LIMIT: "over_limit",
                _UNSUPPORTED: "unsupported", _BAD_PREDICTION: "out_of_range"}


def pick_conv_algo(gpu: Optional[str] = None, n: int = 1, c: int = 1, h: int = 1, w: int = 1, k: int = 1,
                   r: int = 3, s: int = 3, pad: Optional[int] = None, stride: int = 1, dilation: int = 1, groups: int = 1,
                   direction: str = "fwd", dtype: str = "fp32", layout: str = "nchw",
                   workspace_mb: Optional[float] = None, model: Optional[str] = None,
                   models: Optional[str] = None) -> Dict[str, Any]:
    """Rank the algorithms of one convolution direction like
    cudnnGetConvolution*Algorithm_v7 (`seer pick --format json`).  Keys:
    gpu, served, source_gpus, direction, workspace_limit (bytes or None),
    status, perf [{algo, algo_id, status, time_ms, workspace_bytes,
    deterministic, math_type, source}] (status "ok", "not_calibrated",
    "out_of_range", "over_limit" or "unsupported"), and when one is picked pick
    {algo, time_ms, bwd_from_fwd}: as predict_conv's."""
    fn = "pick_conv_algo"
    dirn, dt, lay = _conv_common(fn, locals())
    limit = (1 << 64) - 1
    if workspace_mb is not None:
        if isinstance(workspace_mb, bool) or not isinstance(workspace_mb, (int, float)):
            raise TypeError("%s(): argument 'workspace_mb' must be a number, not %s"
                            % (fn, type(workspace_mb).__name__))
        if not 0 <= workspace_mb <= 1e12:
            raise ValueError("%s(): argument 'workspace_mb' must be in 0..1e12 MiB, got %r" % (fn, workspace_mb))
        limit = int(workspace_mb * 1048576.0)
    limit = min(limit, C.c_size_t(-1).value)
    hd = _handle()
    perf = (_AlgoPerf * 8)()
    cnt = C.c_int()
    with _Desc(fn, hd, dt, lay, n, c, h, w, k, r, s, pad, stride, dilation, groups) as d:
        m, info, _, served = _model(fn, gpu, model, models)  # after the shape's arguments are checked
        st = _pick[dirn](hd, m, d, limit, perf, 8, C.byref(cnt))
        # what seer net and predict --data take (seer pick's second line)
        pa, pt = C.c_int(), C.c_double()
        fastest = st == _SUCCESS and _pick_fastest(hd, m, d, dirn, C.byref(pa), C.byref(pt)) == _SUCCESS
        bwd = fastest and _bwd_from_fwd(hd, m, d, dirn)
    if st not in (_SUCCESS, _NO_ALGORITHM, _NOT_CALIBRATED, _UNSUPPORTED):
        _check(st, hd)
    pick = {"pick": {"algo": _s(_algo_name(dirn, pa.value)), "time_ms": pt.value, "bwd_from_fwd": bwd}} if fastest else {}
    return {**pick, "gpu": _s(info.gpu_id), "served": served,
            "source_gpus": _s(info.source_gpus), "direction": _s(_dir_name(dirn)),
            "workspace_limit": None if workspace_mb is None else limit, "status": _s(_status_string(st)),
            "perf": [{"algo": _s(_algo_name(dirn, p.algo)), "algo_id": p.algo,
                      "status": _PERF_STATUS.get(p.status, "error"), "time_ms": p.time if p.time >= 0 else None,
                      "workspace_bytes": p.memory, "deterministic": bool(p.determinism),
                      "math_type": _MATH.get(p.math_type, "default"),
                      "source": _s(_source_name(p.source)) if p.time >= 0 else None} for p in perf[:cnt.value]]}


# ---------------------------------------------------------------------------
# Networks
# ---------------------------------------------------------------------------

class _Net:
    def __init__(self, ptr, batch, skipped, dtype=None):
        # dtype: an ONNX graph's half-precision input ("fp16", "bf16"), else None
        self.ptr, self.batch, self.skipped, self.dtype = ptr, batch, skipped, dtype
        self.rows = 0  # most result rows seen: one library call instead of count-then-fill

    def __del__(self):
        if _net_destroy is not None and self.ptr:
            _net_destroy(self.ptr)


_nets: Dict[Any, _Net] = {}
_nets_lock = threading.Lock()
_NETS_KEPT = 16


@functools.lru_cache(maxsize=None)
def _zoo_names() -> List[str]:
    out, i = [], 0
    while True:
        n = _zoo_name(i)
        if not n:
            return out
        out.append(_s(n))
        i += 1


def _open_net(fn: str, what: str, res: int, skip: bool) -> _Net:
    """A network by zoo name, ONNX file or description file; cached by
    (what, file size and mtime, res, skip), so repeated predictions do not
    parse again."""
    hd = _handle()
    zoo = what.lower() in _zoo_names()
    key: Any
    if zoo:
        key = ("zoo", what.lower(), res)
    else:
        try:
            stt = os.stat(what)
        except OSError as e:
            raise ValueError("%s(): argument 'name_or_path': %r is neither a built-in network (%s) nor a "
                             "readable file (%s)" % (fn, what, ", ".join(_zoo_names()), e.strerror)) from None
        key = ("file", os.path.abspath(what), stt.st_size, stt.st_mtime_ns, res, skip)
    with _nets_lock:
        got = _nets.get(key)
    if got is not None:
        return got
    ptr, batch, skipped, dtype = C.c_void_p(), 0, [], None
    if zoo:
        _check(_net_zoo(hd, what.encode(), res, C.byref(ptr)), hd)
    else:
        # the library's reader: a regular file only (a FIFO, a device or a
        # directory is refused before it is read: open() hung on a FIFO
        # and read /dev/zero until memory ran out), under its size limit
        onnx = what.lower().endswith(".onnx")
        p, n_read = C.c_void_p(), C.c_size_t()
        _check(_read_input(hd, os.fsencode(what), b"ONNX model" if onnx else b"network description",
                           _ONNX_MAX_BYTES if onnx else _NET_TEXT_MAX_BYTES, C.byref(p), C.byref(n_read)), hd)
        try:
            data = C.string_at(p, n_read.value)
        finally:
            _libc_free(p)
        if onnx:
            opt, info, n = _OnnxOptions(res, 1 if skip else 0), _OnnxInfo(), C.c_size_t()
            buf = C.create_string_buffer(1 << 20)  # fits any real CNN: one translation
            st = _onnx_text(hd, data, len(data), C.byref(opt), buf, len(buf), C.byref(n), C.byref(info))
            if st == _BUFFER_TOO_SMALL:
                buf = C.create_string_buffer(n.value + 1)
                st = _onnx_text(hd, data, len(data), C.byref(opt), buf, n.value + 1, C.byref(n), C.byref(info))
            _check(st, hd)
            data = buf.raw[:n.value]
            batch = info.batch
            skipped = [ln[len(b"# skipped: "):].decode(errors="replace") for ln in data.split(b"\n")
                       if ln.startswith(b"# skipped: ")]
            dtype = next((ln[len(b"# input dtype: "):].decode() for ln in data.split(b"\n")
                          if ln.startswith(b"# input dtype: ")), None)
        elif res:
            raise ValueError("%s(): argument 'res' applies to built-in networks and ONNX files only" % fn)
        _check(_net_create(hd, data, len(data), C.byref(ptr)), hd)
    net_ = _Net(ptr, batch, skipped, dtype)
    with _nets_lock:
        if len(_nets) >= _NETS_KEPT:
            _nets.pop(next(iter(_nets)))
        _nets[key] = net_
    return net_


def _policy(fn: str, algo: Any) -> int:
    if isinstance(algo, bool):
        raise TypeError("%s(): argument 'algo' must be str or int, not bool" % fn)
    if isinstance(algo, int):
        return _int(fn, "algo", algo, 0, 7)
    _str(fn, "algo", algo)
    if algo == "auto":
        return _ALGO_AUTO
    if algo == "cudnn":
        return _ALGO_CUDNN
    if algo == "fixed":
        return 0
    if algo.isascii() and algo.isdigit() and int(algo) < 8:  # not '²' or '٣'
        return int(algo)
    raise ValueError("%s(): argument 'algo': expected auto, cudnn, fixed or an index 0..7, got %r" % (fn, algo))


def net(name_or_path: Union[str, "os.PathLike[str]"], gpu: Optional[str] = None, batch: Optional[int] = None,
        mode: str = "infer", dtype: Optional[str] = None, layout: Optional[str] = None, algo: Union[str, int] = "auto",
        res: Optional[int] = None, skip_unsupported: bool = False, threads: int = 8, dispatch_us: float = 0.0,
        optimizer: Optional[str] = None, amp: bool = False, model: Optional[str] = None, models: Optional[str] = None,
        fit: Union[None, bool, float] = None) -> Dict[str, Any]:
    """Predict one forward pass (mode="infer") or training iteration
    (mode="train") of a built-in network ("resnet50"), a description file
    or an ONNX file, like `seer net ... --format json`.  batch defaults to
    an ONNX graph's fixed batch, else 64; dtype to fp32, or fp16 / bf16 for
    an ONNX graph whose input is (a model.half() export); res overrides the input
    resolution (built-in and ONNX); skip_unsupported predicts an ONNX model
    without the operators libseer cannot translate (a warning lists them);
    threads (1-8) only changes how fast the answer comes; dispatch_us is
    the host time to issue one row's work (docs/networks.md); optimizer
    ("sgd", the default, "adam" or "none") is the step a training iteration
    ends with, mode="train" only;
    amp=True is mixed precision as torch.autocast + GradScaler run it (dtype
    fp16 or bf16, default fp16; layout default nhwc); fit (True: the GPU's
    memory, or a number of bytes) adds the largest batch whose peak memory
    fits.
    Keys: network, gpu, served, source_gpus, batch, dtype, layout, mode, amp,
    algo, params, total_ms, gpu_ms, conv_ms, other_ms, optimizer_ms, dispatch_ms,
    memory {weights, gradients, optimizer_state, activations, workspace, total} (bytes),
    with fit fit_memory and fit_batch, layers [{index, layer, op, direction, algo,
    kernels, class, flops, bytes, time_ms, flags}] (slowest first), by_op
    and by_class [{op|class, rows, time_ms}]."""
    fn = "net"
    if isinstance(name_or_path, os.PathLike):
        name_or_path = os.fspath(name_or_path)
    what = _str(fn, "name_or_path", name_or_path)
    modes = ("infer", "train")
    if _str(fn, "mode", mode) not in modes:
        raise ValueError("%s(): argument 'mode' must be 'infer' or 'train', got %r" % (fn, mode))
    if not isinstance(amp, bool):
        raise TypeError("%s(): argument 'amp' must be bool, not %s" % (fn, type(amp).__name__))
    dtype_given = dtype is not None
    if dtype is None:
        dtype = "fp16" if amp else "fp32"
    if layout is None:
        layout = "nhwc" if amp else "nchw"  # AMP runs channels-last
    dt = _enum(fn, "dtype", dtype, _dtype_from_name, _DTYPES)
    if amp and dt not in (2, 3):  # SEER_DTYPE_FP16, SEER_DTYPE_BF16, any spelling
        raise ValueError("%s(): amp computes in fp16 or bf16, not dtype %r" % (fn, dtype))
    lay = _enum(fn, "layout", layout, _layout_from_name, _LAYOUTS)
    pol = _policy(fn, algo)
    # None: not given, so that an explicit optimizer with mode="infer" is
    # refused as the CLI refuses --optimizer without --mode train (it
    # would be ignored: inference has no optimizer step)
    if optimizer is not None and _str(fn, "optimizer", optimizer) not in _OPTIMIZERS:
        raise ValueError("%s(): argument 'optimizer' must be 'sgd', 'adam' or 'none', got %r" % (fn, optimizer))
    if optimizer is not None and mode != "train":
        raise ValueError("%s(): argument 'optimizer': the optimizer step is part of mode='train' only" % fn)
    if optimizer is None:
        optimizer = "sgd"
    r = 0 if res is None else _int(fn, "res", res, 1, 1 << 24)
    if not isinstance(skip_unsupported, bool):
        raise TypeError("%s(): argument 'skip_unsupported' must be bool, not %s"
                        % (fn, type(skip_unsupported).__name__))
    if batch is not None:
        _int(fn, "batch", batch, 1, 1 << 24)
    _int(fn, "threads", threads, 1, 8)
    if isinstance(dispatch_us, bool) or not isinstance(dispatch_us, (int, float)):
        raise TypeError("%s(): argument 'dispatch_us' must be a number, not %s" % (fn, type(dispatch_us).__name__))
    if not 0 <= dispatch_us <= 1e6:
        raise ValueError("%s(): argument 'dispatch_us' must be in 0..1e6, got %r" % (fn, dispatch_us))
    if fit is not None and fit is not True and (isinstance(fit, bool) or not isinstance(fit, (int, float))):
        raise TypeError("%s(): argument 'fit' must be True or a number of bytes, not %s" % (fn, type(fit).__name__))
    if fit is not None and fit is not True and not (0 < fit <= 1e18):  # as the CLI's --fit
        raise ValueError("%s(): argument 'fit' must be a number of bytes in (0, 1e18], got %r" % (fn, fit))
    m, info, _, served = _model(fn, gpu, model, models)
    nt = _open_net(fn, what, r, skip_unsupported)
    if nt.skipped:
        warnings.warn("seer.net(%r): skipped %d unsupported node(s): %s"
                      % (what, len(nt.skipped), "; ".join(nt.skipped)), stacklevel=2)
    b = batch if batch is not None else (nt.batch or 64)
    if not dtype_given and not amp and nt.dtype:  # a half-precision export runs in it, as the CLI takes it
        dtype = nt.dtype
        dt = _enum(fn, "dtype", dtype, _dtype_from_name, _DTYPES)
    hd = _handle()
    opts = _NetOptions(b, dt, lay, modes.index(mode), pol, threads, dispatch_us / 1e3,
                       _OPTIMIZERS.index(optimizer), int(amp))
    tot = _NetTotals()
    cap = nt.rows
    rows = (_LayerResult * max(cap, 1))()
    st = _predict_net_opts(hd, m, nt.ptr, C.byref(opts), rows, cap, C.byref(tot))
    if st == _BUFFER_TOO_SMALL:
        cap = nt.rows = max(nt.rows, tot.rows)
        rows = (_LayerResult * max(cap, 1))()
        st = _predict_net_opts(hd, m, nt.ptr, C.byref(opts), rows, cap, C.byref(tot))
    _check(st, hd)
    mem = _NetMemory()
    _check(_net_memory(hd, m, nt.ptr, C.byref(opts), C.byref(mem)), hd)
    extra: Dict[str, Any] = {}
    if fit is not None:
        limit = float(fit) if fit is not True else 0.0
        if fit is True:
            g = _GpuInfo()
            _check(_model_gpu(m, C.byref(g)), hd)
            limit = g.dram_gib * 1073741824.0
        fb = C.c_int()
        _check(_net_fit(hd, m, nt.ptr, C.byref(opts), limit, C.byref(fb)), hd)
        extra = {"fit_memory": round(limit), "fit_batch": fb.value}  # bytes, an integer as in the CLI's JSON
    cnt = C.c_int(tot.rows)
    ni = _NetInfo()
    _net_info(nt.ptr, C.byref(ni))
    # The rows as tuples in one pass over the raw buffer: reading ctypes
    # fields one by one costs more than the prediction itself.
    raw = C.string_at(rows, _ROW.size * cnt.value)
    rows = list(_ROW.iter_unpack(raw))
    order = sorted(range(len(rows)), key=lambda i: (-rows[i][9], i))
    ops: Dict[str, List[float]] = {}
    cls: Dict[str, List[float]] = {}
    layers = []
    for (_, _, op, dr, _, _, cl, _, _, t, fl) in rows:
        if fl & 0x10:
            key = "gradient sums"
        elif fl & 0x40:
            key = "amp casts"
        elif op == _OP_OPTIMIZER:
            key = "optimizer"
        elif op in (_OP_CONV, _OP_FC, _OP_DECONV):
            key = _name_op(op) + " " + _name_dir(dr)
        else:
            key = _name_op(op) + (" fwd" if dr == 0 else " bwd")
        g = ops.setdefault(key, [0, 0.0])
        g[0] += 1
        g[1] += t
        g = cls.setdefault(_name_class(cl), [0, 0.0])
        g[0] += 1
        g[1] += t
    fin = math.isfinite
    for i in order:
        _, name, op, dr, al, nk, cl, fl_, by, t, fl = rows[i]
        layers.append({"index": i, "layer": name.split(b"\0", 1)[0].decode(errors="replace"), "op": _name_op(op),
                       "direction": _name_dir(dr), "algo": _name_row_algo(op, dr, al),
                       "kernels": nk, "class": _name_class(cl), "flops": fl_ if fin(fl_) else None,
                       "bytes": by if fin(by) else None, "time_ms": t if fin(t) else None,
                       "flags": _name_flags(fl)})

    def groups(gd, name):
        return [{name: k, "rows": v[0], "time_ms": v[1]} for k, v in sorted(gd.items(), key=lambda kv: (-kv[1][1], kv[0]))]

    return {"network": _s(ni.name), "gpu": _s(info.gpu_id),
            "served": served, "source_gpus": _s(info.source_gpus),
            "batch": b, "dtype": _s(_dtype_name(dt)), "layout": _s(_layout_name(lay)), "mode": mode, "amp": amp,
            "algo": "auto" if pol == _ALGO_AUTO else "cudnn" if pol == _ALGO_CUDNN else "fixed",
            "params": ni.params, "total_ms": _num(tot.total_ms), "gpu_ms": _num(tot.gpu_ms),
            "conv_ms": _num(tot.conv_ms), "other_ms": _num(tot.other_ms),
            "optimizer_ms": _num(tot.optimizer_ms), "dispatch_ms": _num(tot.dispatch_ms),
            "memory": {k: getattr(mem, k) for k, _ in _NetMemory._fields_}, **extra,
            "layers": layers,
            "by_op": groups(ops, "op"), "by_class": groups(cls, "class")}


# ---------------------------------------------------------------------------
# PyTorch
# ---------------------------------------------------------------------------

def from_torch(module: Any, example_input: Any, path: Optional[str] = None, **net_options: Any) -> Dict[str, Any]:
    """Export a torch.nn.Module through torch.onnx (the TorchScript exporter,
    training mode, so BatchNormalization and Dropout stay layers instead of
    being folded into the convolutions) and predict it with net().  The
    example input's batch dimension is exported as symbolic: `batch=` (default
    64) sets it.  path keeps the .onnx file; otherwise a temporary file is
    used.  net_options go to net() (gpu, batch, mode, dtype, ...).  torch
    is imported here, not with the package."""
    try:
        import torch  # noqa: F401  (lazily: the package does not need it)
    except ImportError:
        raise ImportError("seer.from_torch needs PyTorch (pip install torch); seer.net() reads ONNX files "
                          "exported elsewhere") from None
    import tempfile
    if not isinstance(module, torch.nn.Module):
        raise TypeError("from_torch(): argument 'module' must be a torch.nn.Module, not %s" % type(module).__name__)
    inputs = example_input if isinstance(example_input, tuple) else (example_input,)
    if not inputs or not all(isinstance(t, torch.Tensor) for t in inputs):
        raise TypeError("from_torch(): argument 'example_input' must be a torch.Tensor or a tuple of them")
    if path is not None:
        _str("from_torch", "path", path)
    names = ["input%d" % i for i in range(len(inputs))]
    was_training = module.training
    tmp = None
    try:
        if path is None:
            fd, tmp = tempfile.mkstemp(suffix=".onnx")
            os.close(fd)
        out = path or tmp
        module.train()
        kwargs = dict(do_constant_folding=False, input_names=names,
                      dynamic_axes={n: {0: "batch"} for n in names},
                      training=torch.onnx.TrainingMode.TRAINING, opset_version=17)
        with warnings.catch_warnings():  # the exporter's notes on training mode are expected here
            warnings.simplefilter("ignore")
            try:
                torch.onnx.export(module, inputs, out, dynamo=False, **kwargs)
            except TypeError:  # a torch without the dynamo switch: the TorchScript exporter is the only one
                torch.onnx.export(module, inputs, out, **kwargs)
        return net(out, **net_options)
    finally:
        module.train(was_training)
        if tmp:
            try:
                os.unlink(tmp)
            except OSError:
                pass
