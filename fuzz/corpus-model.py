#!/usr/bin/env python3
"""Regenerate the model seeds of fuzz/corpus/model and fuzz/corpus/roundtrip
from a shipped model (run after make models): the model itself, the same
model as formats 4 and 3 (the oldest format libseer reads, so they stay covered),
one file per way a model file can be broken, and one per value the loader
range-checks behind a valid header and checksum.

The value seeds are written in the current format, checksums right: a
seed the header check refuses (an old format version) never reaches the
check it is named for.  The payload is walked as libseer/model_io.c
writes it (docs/model-format.md) to find each value's offset."""
import struct, sys, zlib, pathlib

src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "models/gtx1080ti.seer").read_bytes()
head, payload = src[:24], src[24:]
magic, version, plen, _ = struct.unpack("<8sIQI", head)
if magic != b"SEERMODL" or version != 5 or plen != len(payload):
    sys.exit("corpus-model.py: expects a format-5 model (this script writes format 5 seeds)")


class Walk:
    """Offsets into the payload of what model_io.c reads, in its order."""

    def __init__(self, p):
        self.p, self.o, self.at = p, 0, {}

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.p, self.o)
        self.o += struct.calcsize("<" + fmt)
        return v[0] if len(v) == 1 else v

    def mark(self, name):
        self.at.setdefault(name, self.o)  # the first one of its kind

    def string(self):
        n = self.take("I")
        self.o += n

    def svm(self, name):
        if not self.take("I"):
            return
        svm_type = self.take("i")
        self.take("ii")  # kernel, degree
        self.mark(name + " gamma")
        self.take("dd")  # gamma, coef0
        k, l = self.take("ii")
        self.take("%dd" % (k * (k - 1) // 2))  # rho
        if svm_type in (0, 1):  # C_SVC, NU_SVC: labels and counts
            self.take("%di" % (2 * k))
        self.take("%dd" % ((k - 1) * l))  # coefficients
        for _ in range(l):
            self.take("%dd" % self.take("i"))  # a dense support vector

    def model(self):
        self.string()  # gpu id
        self.take("I")  # library version
        self.string()  # provenance
        self.take("Q")  # rows
        self.mark("kernel coefficient")
        self.take("21d")
        self.take("i")  # transferred
        for _ in range(self.take("i")):
            self.string()  # source GPUs
        for _ in range(self.take("I")):  # families
            nvar = self.take("7i")[6]
            for _ in range(nvar):
                self.string()
                self.take("5i")
                for _ in range(4):
                    self.take("i")
                    self.mark("coefficient")
                    self.take("7d")
            self.take("14d")  # feature means
            self.mark("feature scale")
            self.take("14d")
            self.svm("variant svm")
            self.svm("class svm")
            self.svm("svr")
        self.gemm = []
        for _ in range(4):  # GEMM fits
            self.gemm.append(self.o)
            self.take("4i5di")
            self.string()
        self.gemm.append(self.o)
        self.mark("scales")
        n = self.take("I")
        self.o += 24 * n
        self.mark("gemm2")
        for _ in range(4):  # second GEMM fits (format 5)
            self.take("4i5di")
            self.string()
        assert self.o == len(self.p), "payload walk out of step with model_io.c"
        return self


w = Walk(payload).model()


def model(version, p):
    return struct.pack("<8sIQI", b"SEERMODL", version, len(p), zlib.crc32(p)) + p


def with_f64(name, value):
    p = bytearray(payload)
    struct.pack_into("<d", p, w.at[name], value)
    return model(5, bytes(p))


flipped = bytearray(payload); flipped[len(flipped) // 2] ^= 0x5A
files = {
    "gtx1080ti.seer": src,
    "empty": b"",
    "truncated-header": src[:20],
    "truncated-payload": src[: 24 + len(payload) // 2],
    "bad-magic": b"SEERMODX" + src[8:],
    "bad-version": src[:8] + struct.pack("<I", 99) + src[12:],
    "bad-crc": head[:20] + struct.pack("<I", zlib.crc32(payload) ^ 1) + payload,
    "corrupt-fixed-crc": model(5, bytes(flipped)),
    # each value out of its range (libseer/svmio.h, model_io.c)
    "coefficient-1e300": with_f64("coefficient", 1e300),
    "feature-scale-huge": with_f64("feature scale", 1e300),
    "kernel-coefficient-huge": with_f64("kernel coefficient", 1e300),
    "negative-svr-gamma": with_f64("svr gamma", -0.5),
}
# format 4 is format 5 without the second GEMM fits, format 3 without
# the conv scales too
if payload[w.at["scales"]:w.at["gemm2"]] == b"\0\0\0\0":
    files["gtx1080ti-format4.seer"] = model(4, payload[: w.at["gemm2"]])
    files["gtx1080ti-format3.seer"] = model(3, payload[: w.at["scales"]])
else:
    sys.exit("corpus-model.py: the model has conv scales, which format 3 cannot hold")
# format 5's second GEMM fits: each the same as the first (a model timed
# by two fits), and one present where the first is not (corrupt)
rec = [payload[w.gemm[i]:w.gemm[i + 1]] for i in range(4)]
if payload[w.at["gemm2"]:] != b"\0" * (4 * 64):  # four absent records
    sys.exit("corpus-model.py: the model has second GEMM fits already")
files["gtx1080ti-gemm2.seer"] = model(5, payload[: w.at["gemm2"]] + b"".join(rec))
files["gemm2-without-first"] = model(5, payload[: w.at["gemm2"]] + rec[0] + rec[0] + rec[2] + rec[3])
roundtrip = ["gtx1080ti.seer", "gtx1080ti-format4.seer", "gtx1080ti-format3.seer", "gtx1080ti-gemm2.seer",
             "corrupt-fixed-crc", "truncated-payload"]
for name, data in files.items():
    pathlib.Path("fuzz/corpus/model", name).write_bytes(data)
    if name in roundtrip:
        pathlib.Path("fuzz/corpus/roundtrip", name).write_bytes(data)
