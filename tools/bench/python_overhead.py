"""What seer.net adds to the library calls it makes (docs/python.md):
300 calls of seer.net("resnet50") against seer_predict_network_opts and
seer_network_memory on the same objects, median and minimum in ms.

    SEER_LIBRARY=build/libseer.so PYTHONPATH=python python3 tools/bench/python_overhead.py
"""
import time, seer, ctypes as C
from seer import _predict_net_opts,_net_memory,_NetOptions,_NetTotals,_NetMemory,_LayerResult,_handle,_open_net,_model
m,info,_=_model("x","a100-pcie-80gb",None,None)
nt=_open_net("x","resnet50",0,False)
hd=_handle()
def t(f,n=300):
    ts=[]
    for i in range(n):
        a=time.perf_counter(); f(); ts.append(time.perf_counter()-a)
    ts.sort(); return ts[n//2]*1e3, ts[0]*1e3
for mode in (0,1):
    opts=_NetOptions(64,0,0,mode,-2,8,0.0,1,0)
    tot=_NetTotals(); rows=(_LayerResult*1024)(); mem=_NetMemory()
    lib=t(lambda: (_predict_net_opts(hd,m,nt.ptr,C.byref(opts),rows,1024,C.byref(tot)), _net_memory(hd,m,nt.ptr,C.byref(opts),C.byref(mem))))
    py=t(lambda: seer.net("resnet50", gpu="a100-pcie-80gb", batch=64, mode=("infer","train")[mode]))
    print(("infer","train")[mode], tot.rows, "net() %.2f / %.2f" % py, "lib %.2f / %.2f" % lib, "added %.2f / %.2f" % (py[0]-lib[0], py[1]-lib[1]))
