# libseer - one Makefile.  `make help` lists the targets.
PREFIX  ?= /usr/local
CC      ?= cc
CLANG   ?= clang
NVCC    ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUDA    ?= /usr/local/cuda
OPT     ?= -O2 -g
SAN     ?=
CFLAGS  ?=
LDFLAGS ?=
B       ?= build

# 0.x: every minor release may break the ABI, so the soname carries it.
SONAME_MAJOR = 0.2
VERSION = $(shell sed -n 's/^\#define SEER_VERSION_STRING "\(.*\)"/\1/p' include/seer.h)

WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
ALLFLAGS = $(WARN) $(OPT) $(SAN) -D_POSIX_C_SOURCE=200809L -Iinclude -Ilibseer \
           -isystem /usr/include/libsvm $(CFLAGS)
LIBCFLAGS = $(ALLFLAGS) -fPIC -fvisibility=hidden -DSEER_BUILDING -I$(B)/gen
LIBS     = -lsvm -lprotobuf-c -lz -lm -lpthread

# The ONNX reader's protobuf-c code is generated at build time from the
# onnx.proto Debian's libonnx-dev installs (docs/networks.md says why), in
# package seer_onnx: libseer.a exports its names, and an application with
# its own ONNX protobuf-c code (package onnx) must still link with it.
ONNX_PROTO ?= /usr/include/onnx/onnx.proto
PROTOC_C   ?= protoc-c

LIB_SRC  = $(sort $(wildcard libseer/*.c))
LIB_OBJ  = $(LIB_SRC:%.c=$(B)/%.o) $(B)/gen/onnx.pb-c.o
TOOL_SRC = $(sort $(wildcard tools/*.c))
TOOL_OBJ = $(TOOL_SRC:%.c=$(B)/%.o)
TEST_SRC = $(sort $(wildcard tests/*.c))
FUZZ_SRC = $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_NAMES = $(patsubst fuzz/fuzz_%.c,%,$(FUZZ_SRC))
TEST_OBJ = $(TEST_SRC:%.c=$(B)/%.o) $(FUZZ_SRC:%.c=$(B)/%.o)

SHLIB = $(B)/libseer.so.$(VERSION)
STLIB = $(B)/libseer.a
SEER  = $(B)/seer
RUNNER = $(B)/seer-tests
MODELS = a100-pcie-80gb v100-pcie-32gb t4 v100-sxm2-16gb gtx1080ti
GEMM_MODELS = h100-sxm5-80gb h200-sxm-141gb
DATA  ?= ../shared/data

.PHONY: cudnn-header all lib test bench eval models install uninstall clean asan ubsan fuzz help bench-gpu test-gpu
all: lib $(SEER) $(B)/seer.pc gpu-tools

lib: $(SHLIB) $(STLIB)

$(B)/libseer/%.o: libseer/%.c include/seer.h $(wildcard libseer/*.h) | $(B)/libseer
	$(CC) $(LIBCFLAGS) -c $< -o $@
# The ONNX modules (and their tests) include the generated header.
ONNX_OBJ = $(patsubst %.c,$(B)/%.o,$(wildcard libseer/onnx*.c tests/test_onnx*.c))
$(ONNX_OBJ): $(B)/gen/onnx.pb-c.h
$(B)/gen/onnx%pb-c.c $(B)/gen/onnx%pb-c.h: $(B)/gen/proto/onnx.proto
	$(PROTOC_C) --c_out=$(B)/gen -I$(B)/gen/proto $<
# The package is renamed only in a copy; the wire format does not name it.
$(B)/gen/proto/onnx.proto: $(ONNX_PROTO) | $(B)/gen/proto
	sed 's/^package onnx;/package seer_onnx;/' $< > $@.tmp
	grep -q '^package seer_onnx;' $@.tmp || { echo "$<: no 'package onnx;' line" >&2; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@
$(B)/gen/onnx.pb-c.o: $(B)/gen/onnx.pb-c.c
	$(CC) $(LIBCFLAGS) -c $< -o $@
# The CLI sees the public header and the CSV reader only (cli.h names it
# by path): without -Ilibseer any other internal header fails to build.
$(B)/tools/%.o: tools/%.c include/seer.h $(wildcard tools/*.h libseer/*.h) | $(B)/tools
	$(CC) $(filter-out -Ilibseer,$(ALLFLAGS)) -c $< -o $@
$(B)/tests/%.o: tests/%.c include/seer.h $(wildcard tests/*.h libseer/*.h) | $(B)/tests
	$(CC) $(ALLFLAGS) -Itests -I$(B)/gen -c $< -o $@
$(B)/fuzz/%.o: fuzz/%.c $(wildcard fuzz/*.h) include/seer.h $(wildcard libseer/*.h tools/*.h) | $(B)/fuzz
	$(CC) $(ALLFLAGS) -c $< -o $@

$(B)/libseer $(B)/tools $(B)/tests $(B)/fuzz $(B)/gen $(B)/gen/proto:
	mkdir -p $@

$(SHLIB): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libseer.so.$(SONAME_MAJOR) $(SAN) $(LDFLAGS) -o $@ $^ $(LIBS)
	ln -sf libseer.so.$(VERSION) $(B)/libseer.so.$(SONAME_MAJOR)
	ln -sf libseer.so.$(SONAME_MAJOR) $(B)/libseer.so
$(STLIB): $(LIB_OBJ)
	rm -f $@; ar rcs $@ $^

# The CLI and the tests link the static library: no rpath games, and the
# tests can reach internal functions.
$(SEER): $(TOOL_OBJ) $(STLIB)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(STLIB) $(LIBS)
# --wrap: tests/test_alloc.c injects allocation failures into libseer.a;
# fuzz/fuzz_cli.c replays the CLI's option parser: it links tools/cli.c.
$(RUNNER): $(TEST_OBJ) $(B)/tools/cli.o $(STLIB)
	$(CC) $(SAN) $(LDFLAGS) -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc -o $@ $(TEST_OBJ) $(B)/tools/cli.o $(STLIB) $(LIBS)

# seer.pc for PREFIX; install writes it again for the PREFIX it installs to.
SEER_PC = printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: seer\nDescription: GPU kernel time prediction for cuDNN convolutions\nVersion: %s\nLibs: -L$${libdir} -lseer\nLibs.private: -lsvm -lstdc++ -lprotobuf-c -lz -lm -lpthread\nCflags: -I$${includedir}\n' '$(PREFIX)' '$(VERSION)'
$(B)/seer.pc: Makefile include/seer.h
	@mkdir -p $(B)
	$(SEER_PC) > $@

# gpu-tools: seer-bench must build wherever nvcc exists (CI included); its
# tests run it without a GPU and skip when it could not be built.
# SEER_LIB: the shared library the Python package's tests load.
test: $(RUNNER) $(SEER) $(SHLIB) $(B)/example gpu-tools cudnn-header
	SEER_DATA=$(DATA) SEER_BIN=$(SEER) SEER_EXAMPLE_BIN=$(B)/example SEER_BENCH_BIN=$(B)/seer-bench SEER_BENCH_SIM=$(B)/seer-bench-sim \
	  SEER_LIB=$(abspath $(SHLIB)) SEER_SANITIZE="$(SAN)" $(RUNNER)

# The documented examples build with the project's own warnings: docs/example.c
# (run by tests/test_docs.c) and include/seer_cudnn.h, compiled where cudnn.h is;
# seer.h compiled as C++11 where a C++ compiler is.
$(B)/example: docs/example.c include/seer.h $(STLIB)
	$(CC) $(ALLFLAGS) $(SAN) -o $@ docs/example.c $(STLIB) $(LIBS)
cudnn-header: include/seer_cudnn.h include/seer.h | $(B)/tests
	@if [ -f $(CUDA)/include/cudnn.h ]; then \
	  echo '#include "seer_cudnn.h"' | $(CC) $(WARN) -Iinclude -isystem $(CUDA)/include -x c -c - -o $(B)/tests/seer_cudnn_h.o; \
	else echo "cudnn-header: $(CUDA)/include/cudnn.h not found; seer_cudnn.h not compiled"; fi
	@# seer.h is C++ too (extern "C"), before C++20: no designated initializers
	@if command -v c++ >/dev/null; then \
	  printf '#include "seer.h"\nseer_conv_shape_t s = SEER_CONV_SHAPE_INIT;\nseer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;\nseer_onnx_options_t x = SEER_ONNX_OPTIONS_DEFAULT;\n' | \
	  c++ -std=c++11 -Wall -Wextra -Werror -pedantic-errors -Iinclude -x c++ -fsyntax-only -; \
	else echo "cudnn-header: no c++: seer.h not compiled as C++"; fi

asan:
	$(MAKE) B=build-asan SAN="-fsanitize=address -fno-omit-frame-pointer" OPT="-O1 -g" test
ubsan:
	$(MAKE) B=build-ubsan SAN="-fsanitize=undefined -fno-sanitize-recover=all" OPT="-O1 -g" test

# libFuzzer targets (clang).  make fuzz FUZZ_SECONDS=60 runs each for that long;
# a target with a fuzz/NAME.dict (its format's keywords) gets it as -dict.
# -fno-sanitize-recover=undefined: a UBSan report stops the run and fails
# make fuzz, as an ASan one does (by default UBSan only prints and goes on).
# The objects' rules do not see flags: a library built with other ones is
# built again (build-fuzz/fuzz-san records them; the corpora stay).
FUZZ_SECONDS ?= 30
FUZZ_SAN = -fno-sanitize-recover=undefined
fuzz:
	@mkdir -p build-fuzz; [ "$$(cat build-fuzz/fuzz-san 2>/dev/null)" = "$(FUZZ_SAN)" ] || \
	  rm -f build-fuzz/libseer/*.o build-fuzz/gen/*.o; echo "$(FUZZ_SAN)" > build-fuzz/fuzz-san
	$(MAKE) B=build-fuzz CC=$(CLANG) SAN="-fsanitize=fuzzer-no-link,address,undefined $(FUZZ_SAN)" OPT="-O1 -g" lib
	@set -e; for f in $(FUZZ_NAMES); do \
	  $(CLANG) $(WARN) -O1 -g -fsanitize=fuzzer,address,undefined $(FUZZ_SAN) -DSEER_LIBFUZZER -D_POSIX_C_SOURCE=200809L -Iinclude -Ilibseer \
	    -isystem /usr/include/libsvm fuzz/fuzz_$$f.c $$([ $$f = cli ] && echo tools/cli.c) \
	    build-fuzz/libseer.a $(LIBS) -o build-fuzz/fuzz_$$f; \
	  mkdir -p build-fuzz/corpus-$$f; \
	  build-fuzz/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) $$([ -f fuzz/$$f.dict ] && echo -dict=fuzz/$$f.dict) \
	    build-fuzz/corpus-$$f fuzz/corpus/$$f; \
	done

# Each GPU's conv rows and GEMM rows (the A100 80GB takes the 40GB card's
# GEMM rows: same chip, SMs and clock; libseer/gemm.c documents the rule).
models: $(SEER)
	@for g in $(MODELS); do \
	  gm=$$g; [ $$g = a100-pcie-80gb ] && gm=a100-pcie-40gb; \
	  echo "train $$g"; \
	  $(SEER) train --holdout --gpu $$g --data $(DATA)/conv/$$g.csv $(DATA)/gemm/$$gm.csv \
	    --out models/$$g.seer || exit 1; \
	done
	@# GEMM-only models from this project's own Hopper measurements (data/):
	@# their convs transfer, which scored better than the sweeps' own fits,
	@# scaled per kernel family to the sweep's conv rows (--conv-scales,
	@# against the models above: docs/transfer.md), and so do tensor-core
	@# GEMMs: the sweeps' sizes are random, so their FP16/BF16 rows ran
	@# cuBLAS's unaligned kernels, 5-8x slower than the aligned ones
	@# layers use (docs/accuracy.md, "Measured on Hopper").  The FP32 rows
	@# (dtype, the third column: torch_gemm.py quotes nothing)
	@for g in $(GEMM_MODELS); do \
	  echo "train $$g (FP32 GEMMs, conv scales)"; \
	  awk -F, 'NR == 1 || $$3 == "fp32"' data/$$g/gemm.csv > $(B)/$$g-gemm-fp32.csv && \
	  $(SEER) train --holdout --gpu $$g --data $(B)/$$g-gemm-fp32.csv \
	    --conv-scales data/$$g/bench/layers.csv --models models --out models/$$g.seer || exit 1; \
	done

eval: $(SEER) $(B)/seer-physics
	{ sh tools/eval.sh $(SEER) $(DATA) && sh tools/physics.sh $(B)/seer-physics; } > docs/accuracy.md
	@echo "wrote docs/accuracy.md"

bench: $(B)/seer-speed $(SEER)
	$(B)/seer-speed models/*.seer
	$(B)/seer-speed --open models a100-pcie-80gb t4 h100-sxm5-80gb l4
	@echo "ResNet-50 training iteration, picker over every algorithm and direction:"
	$(SEER) net resnet50 --gpu a100-pcie-80gb --batch 64 --mode train --bench 200
$(B)/seer-physics: tools/bench/physics.c tests/physics_shapes.h $(STLIB)
	$(CC) $(ALLFLAGS) -o $@ $< $(STLIB) $(LIBS)
$(B)/seer-speed: tools/bench/speed.c $(STLIB)
	$(CC) $(ALLFLAGS) -o $@ $< $(STLIB) $(LIBS)

# What install puts in place, named once: uninstall removes exactly these
# (a model a user added to share/seer/models stays, and so does an older
# version's libseer.so.X), then libseer's own directories, deepest first,
# those left empty only.
P            = $(DESTDIR)$(PREFIX)
INST_HEADERS = include/seer.h include/seer_cudnn.h
INST_LIBS    = libseer.so.$(VERSION) libseer.so.$(SONAME_MAJOR) libseer.so libseer.a pkgconfig/seer.pc
INST_BINS    = seer seer-bench
INST_MODELS  = $(sort $(wildcard models/*.seer))
INST_DIRS    = share/seer/models share/seer lib/pkgconfig

install: all
	install -d $(P)/include $(P)/lib/pkgconfig $(P)/bin $(P)/share/seer/models
	install -m 644 $(INST_HEADERS) $(P)/include/
	install -m 755 $(SHLIB) $(P)/lib/
	ln -sf libseer.so.$(VERSION) $(P)/lib/libseer.so.$(SONAME_MAJOR)
	ln -sf libseer.so.$(SONAME_MAJOR) $(P)/lib/libseer.so
	install -m 644 $(STLIB) $(P)/lib/
	$(SEER_PC) > $(P)/lib/pkgconfig/seer.pc
	install -m 755 $(SEER) $(P)/bin/
	install -m 644 $(INST_MODELS) $(P)/share/seer/models/
	@# seer-bench exists only where nvcc built it; a machine without one
	@# installs the rest without a make error
	if [ -x $(B)/seer-bench ]; then install -m 755 $(B)/seer-bench $(P)/bin/; fi

uninstall:
	rm -f $(addprefix $(P)/include/,$(notdir $(INST_HEADERS))) $(addprefix $(P)/lib/,$(INST_LIBS)) \
	  $(addprefix $(P)/bin/,$(INST_BINS)) $(addprefix $(P)/share/seer/models/,$(notdir $(INST_MODELS)))
	@# only libseer's own directories, when empty (rmdir refuses others): a
	@# prefix's bin, lib, include and share may have been there before
	@rmdir $(addprefix $(P)/,$(INST_DIRS)) 2>/dev/null || true

clean:
	rm -rf build build-asan build-ubsan build-fuzz

# ---- GPU side (kernels/, bench/): built only where nvcc exists -------------
# BEGIN GPU SECTION (owned by seer-bench)
# seer-bench: C host code in bench/ (C11, same warnings), CUDA in kernels/.
# Links cudart, cuDNN, CUPTI and cuBLAS from $(CUDA); never -lcuda.
BENCH       = $(B)/seer-bench
BENCH_CSRC  = $(sort $(wildcard bench/*.c))
BENCH_CU    = $(sort $(wildcard kernels/*.cu))
BENCH_OBJ   = $(BENCH_CSRC:%.c=$(B)/%.o) $(BENCH_CU:%.cu=$(B)/%.cu.o)
BENCH_CFLAGS = $(WARN) $(OPT) -D_POSIX_C_SOURCE=200809L -Iinclude -Ibench -Ikernels \
               -Ibench/shim -isystem $(CUDA)/include $(CFLAGS)
# CUDA 13 targets Turing and newer; the PTX of the last one JITs on later GPUs.
NVCC_ARCH  ?= -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
              -gencode arch=compute_86,code=sm_86 -gencode arch=compute_89,code=sm_89 \
              -gencode arch=compute_90,code=[sm_90,compute_90]
NVCCFLAGS  ?= -O3 -std=c++17 $(NVCC_ARCH) -Xcompiler -Wall,-Wextra,-Werror -Werror all-warnings
BENCH_LIBS  = -L$(CUDA)/lib64 -Wl,-rpath,$(CUDA)/lib64 -lcudnn -lcublas -lcupti -lcudart \
              -lstdc++ -lm -lpthread -ldl
BENCH_OUT  ?= $(B)/seer-bench-out

# seer-bench-sim: the same host code linked against bench/sim/cuda_sim.c, a
# pretend GPU, so tests/test_bench.c can drive the sweep without one.
BENCH_SIM   = $(B)/seer-bench-sim
BENCH_COBJ  = $(BENCH_CSRC:%.c=$(B)/%.o)

ifneq ($(strip $(NVCC)),)
gpu-tools: $(BENCH) $(BENCH_SIM)
else
gpu-tools:
	@echo "gpu-tools: nvcc not found (CUDA=$(CUDA)); seer-bench not built"
endif

$(B)/bench/%.o: bench/%.c bench/bench.h bench/gpu.h kernels/micro.h include/seer.h libseer/csv_field.h | $(B)/bench
	$(CC) $(BENCH_CFLAGS) -c $< -o $@
$(B)/kernels/%.cu.o: kernels/%.cu kernels/micro.h | $(B)/kernels
	$(NVCC) $(NVCCFLAGS) -Ikernels -c $< -o $@
$(B)/bench/sim/%.o: bench/sim/%.c kernels/micro.h | $(B)/bench/sim
	$(CC) $(BENCH_CFLAGS) -c $< -o $@
$(B)/bench $(B)/kernels $(B)/bench/sim:
	mkdir -p $@
$(BENCH): $(BENCH_OBJ)
	$(CC) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(BENCH_LIBS)
$(BENCH_SIM): $(BENCH_COBJ) $(B)/bench/sim/cuda_sim.o
	$(CC) $(LDFLAGS) -o $@ $(BENCH_COBJ) $(B)/bench/sim/cuda_sim.o -lstdc++ -lm -lpthread -ldl

# On a machine with a GPU only (never in CI): microbenchmark sanity, CUPTI
# kernel sums against CUDA events, kill-and-resume equivalence.  SEER_BIN:
# the datasheet table of this tree's CLI when built (not a prerequisite:
# gpu-tools builds without libseer; the script has a built-in copy).
test-gpu: gpu-tools
	SEER_BIN=$(SEER) sh bench/test-gpu.sh $(BENCH)

# The default calibration (about 10 minutes on an H100) into $(BENCH_OUT).
bench-gpu: gpu-tools
	$(BENCH) --out $(BENCH_OUT)
# END GPU SECTION

help:
	@echo "targets: all test bench eval models install uninstall clean asan ubsan fuzz test-gpu"
