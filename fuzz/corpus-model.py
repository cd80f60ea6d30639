#!/usr/bin/env python3
"""Regenerate fuzz/corpus/model from a shipped model (run after make models):
the model itself and one file per way a model file can be broken."""
import struct, sys, zlib, pathlib
src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "models/gtx1080ti.seer").read_bytes()
out = pathlib.Path("fuzz/corpus/model")
head, payload = src[:24], src[24:]
def with_crc(p): return head[:20] + struct.pack("<I", zlib.crc32(p)) + p
flipped = bytearray(payload); flipped[len(flipped) // 2] ^= 0x5A
files = {
    "gtx1080ti.seer": src,
    "empty": b"",
    "truncated-header": src[:20],
    "truncated-payload": src[: 24 + len(payload) // 2],
    "bad-magic": b"SEERMODX" + src[8:],
    "bad-version": src[:8] + struct.pack("<I", 99) + src[12:],
    "bad-crc": head[:20] + struct.pack("<I", zlib.crc32(payload) ^ 1) + payload,
    "corrupt-fixed-crc": with_crc(bytes(flipped)),
}
for name, data in files.items():
    (out / name).write_bytes(data)
