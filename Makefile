# peakfit: `make` builds bin/peakfit and bin/peakfit-worker; `make demo` sets
# up and runs the default sweep end to end; `make test` builds the test
# programs and runs every test (T=REGEX: those whose name matches; make -jN
# or J=N: N at once); `make test-unit` runs the unit tests alone.
# `make LIBTORCH=/path` builds against another libtorch (one with CUDA or
# MPS, say).

# The first rule below is venv's: without this, a bare `make` would make
# the virtual environment instead of the program.
.DEFAULT_GOAL := all

CC  ?= cc
CXX ?= g++
LIBTORCH ?=
PYTHON ?= python3
# The system built for: linux, or darwin (macOS; also the cross-build's,
# make macos-build, which runs on Linux).
PF_OS ?= $(if $(filter Darwin,$(shell uname -s)),darwin,linux)

# LIBTORCH=auto: the libtorch inside the PyTorch that $(PYTHON) imports (a
# pip wheel ships torch/include and torch/lib), and its C++ ABI.
ifeq ($(LIBTORCH),auto)
override LIBTORCH := $(shell $(PYTHON) -c 'import torch, os; print(os.path.dirname(torch.__file__))' 2>/dev/null)
ifeq ($(LIBTORCH),)
$(error LIBTORCH=auto: $(PYTHON) cannot import torch; install PyTorch (pip install torch) or give LIBTORCH=/path/to/libtorch)
endif
TORCH_ABI ?= $(shell $(PYTHON) -c 'import torch; print(int(torch._C._GLIBCXX_USE_CXX11_ABI))' 2>/dev/null)
endif

ifeq ($(LIBTORCH),)
TORCH_INC := -isystem /usr/include/torch/csrc/api/include
TORCH_LIB := -ltorch -ltorch_cpu -lc10
else
TORCH_INC := -isystem $(LIBTORCH)/include -isystem $(LIBTORCH)/include/torch/csrc/api/include
TORCH_INC += $(if $(TORCH_ABI),-D_GLIBCXX_USE_CXX11_ABI=$(TORCH_ABI))
# TORCH_RPATH: where the binaries look for libtorch's libraries at run time
# (the cross-build's are found in the user's torch, not the build machine's).
TORCH_RPATH ?= $(LIBTORCH)/lib
TORCH_LIB := -L$(LIBTORCH)/lib -Wl,-rpath,$(TORCH_RPATH) -ltorch -ltorch_cpu -lc10
# libtorch 2.14 and later refuse C++17 (an #error in ATen.h): C++20 for them.
CXX_STD := $(shell grep -qs 'C++20 or later' $(LIBTORCH)/include/ATen/ATen.h && echo c++20)
endif
CXX_STD := $(or $(CXX_STD),c++17)

# CUDA: compiled in only when the libtorch has it (libc10_cuda and
# libtorch_cuda in its lib). cudart and its headers come from the wheel's
# nvidia packages (site-packages/nvidia/cuda_runtime for CUDA 12,
# nvidia/cu13 for CUDA 13), the libtorch's own lib, or CUDA_HOME.
# PF_CUDA=0 builds without it.
CUDA_HOME ?= /usr/local/cuda
PF_CUDA ?= $(if $(LIBTORCH),$(if $(and $(wildcard $(LIBTORCH)/lib/libc10_cuda.so),$(wildcard $(LIBTORCH)/lib/libtorch_cuda.so)),1,0),0)
ifeq ($(PF_CUDA),1)
CUDA_DIRS := $(LIBTORCH)/../nvidia/cuda_runtime $(LIBTORCH)/../nvidia/cu13 $(LIBTORCH)/../nvidia/cu12 $(CUDA_HOME)
CUDART := $(firstword $(wildcard $(LIBTORCH)/lib/libcudart*.so* $(foreach d,$(CUDA_DIRS),$(d)/lib/libcudart.so* $(d)/lib64/libcudart.so*)))
CUDA_INC_DIR := $(patsubst %/cuda_runtime_api.h,%,$(firstword $(wildcard $(foreach d,$(CUDA_DIRS),$(d)/include/cuda_runtime_api.h))))
ifeq ($(CUDART),)
$(error $(LIBTORCH) has CUDA but no libcudart was found beside it or in CUDA_HOME=$(CUDA_HOME); give CUDA_HOME=/path/to/cuda, or PF_CUDA=0 to build without CUDA)
endif
ifeq ($(CUDA_INC_DIR),)
$(error $(LIBTORCH) has CUDA but no cuda_runtime_api.h was found beside it or in CUDA_HOME=$(CUDA_HOME)/include; give CUDA_HOME=/path/to/cuda, or PF_CUDA=0 to build without CUDA)
endif
# The wheel's CUDA 13 headers leave out nvcc's crt/ (cuda_runtime.h includes
# crt/host_config.h, which c10/cuda needs): take it from CUDA_HOME after them.
CUDA_CRT_DIR := $(patsubst %/crt/host_config.h,%,$(firstword $(wildcard $(CUDA_INC_DIR)/crt/host_config.h $(CUDA_HOME)/include/crt/host_config.h)))
TORCH_INC += -DPF_WITH_CUDA -isystem $(CUDA_INC_DIR) $(if $(filter-out $(CUDA_INC_DIR),$(CUDA_CRT_DIR)),-isystem $(CUDA_CRT_DIR))
# --no-as-needed: nothing calls libtorch_cuda directly, but loading it is
# what registers the CUDA kernels (toolchains that link --as-needed drop it).
# --allow-shlib-undefined: libtorch_cuda's own needs (cuDNN, NCCL, ...) are
# found at run time through its rpath into the wheel, not by this link.
TORCH_LIB += -Wl,--push-state,--no-as-needed -ltorch_cuda -lc10_cuda -Wl,--pop-state $(CUDART) -Wl,-rpath,$(dir $(CUDART))
TORCH_LIB += -Wl,--allow-shlib-undefined
endif

# B: where objects and test programs go; BIN: where peakfit goes; SHIM_B:
# where the shim's objects and library go (B's, unless a build shares
# another's shim: test-asan builds the C side again, with sanitizers, into
# build-asan, and links the default build's uninstrumented shim).
B   ?= build
BIN ?= bin
SHIM_B ?= $(B)
SANITIZE ?=

# The libraries' prefix where the compiler does not look by itself:
# Homebrew's on macOS (/opt/homebrew on Apple silicon), or the
# cross-build's (make macos-build).
DEPS_PREFIX ?= $(if $(filter darwin,$(PF_OS)),$(shell brew --prefix 2>/dev/null))
DEPS_INC := $(if $(DEPS_PREFIX),-isystem $(DEPS_PREFIX)/include)
DEPS_LIB := $(if $(DEPS_PREFIX),-L$(DEPS_PREFIX)/lib)

WARN     := -Wall -Wextra -Werror
CFLAGS   ?= -O2 -g
CXXFLAGS ?= -O2 -g
ALL_CFLAGS   := -std=c11 -D_GNU_SOURCE $(WARN) -I. -Ishim $(DEPS_INC) $(CFLAGS) $(SANITIZE)
ALL_CXXFLAGS := -std=$(CXX_STD) $(WARN) -I. -Ishim $(TORCH_INC) $(DEPS_INC) $(CXXFLAGS)
# peakfit itself links no libtorch (its start stays milliseconds);
# peakfit-worker, the test programs and the shim's users link it.
# dlopen: glibc's libdl (macOS has it in libSystem).
LIBDL := $(if $(filter linux,$(PF_OS)),-ldl)
FRONT_LDLIBS := $(LDFLAGS) $(DEPS_LIB) $(SANITIZE) -lgsl -lgslcblas -lcsv -ljansson -lcmark-gfm-extensions -lcmark-gfm -lm $(LIBDL)
LDLIBS := $(LDFLAGS) $(DEPS_LIB) $(SANITIZE) $(TORCH_LIB) -lgsl -lgslcblas -lcsv -ljansson -lcmark-gfm-extensions -lcmark-gfm -lm $(LIBDL)
SHIM_LIB := $(SHIM_B)/libpeakfit_torch.a

SHIM_SRC := $(wildcard shim/*.cpp)
# The process layer's one platform seam (proc/platform.h): the half of the
# system built for, Linux's or macOS's, and never the other.
PLATFORM_OTHER := $(filter-out proc/platform_$(PF_OS).c,proc/platform_linux.c proc/platform_darwin.c)
# The source folders in layer order (docs/layout.md), from the one list of
# them; the C library is every folder's but the shim's (C++) and the commands'.
LAYERS   := $(shell tests/tools/layout-graph.sh layers)
C_SRC    := $(filter-out $(PLATFORM_OTHER),$(wildcard $(addsuffix /*.c,$(filter-out shim src,$(LAYERS)))))
SHIM_OBJ := $(SHIM_SRC:%.cpp=$(SHIM_B)/%.o)
C_OBJ    := $(C_SRC:%.c=$(B)/%.o)
# src/: main.c and the commands that call every layer (all): peakfit;
# worker_main.c: peakfit-worker, with worker/worker.c, the shim's one caller.
WORKER_OBJ := $(B)/src/worker_main.o $(B)/worker/worker.o
SRC_OBJ  := $(filter-out $(WORKER_OBJ),$(patsubst %.c,$(B)/%.o,$(wildcard src/*.c)))
FRONT_OBJ := $(filter-out $(WORKER_OBJ),$(C_OBJ))
# The commands (src/ but its main): tests call some directly (calc_main) or
# walk their option tables.
CMD_OBJ  := $(filter-out $(B)/src/main.o,$(SRC_OBJ))
TEST_C   := $(wildcard tests/*_test.c tests/tools/*.c)
TEST_BIN := $(TEST_C:tests/%.c=$(B)/tests/%)
# The fault worker: peakfit-worker with its test hook (PEAKFIT_FAULT=segv,
# abort, kill, hang or exit makes it fail on purpose), for the tests of how
# the runner records each failure. The released one has no hook
# (tests/faults_test.sh checks).
FAULT_WORKER := $(B)/tests/tools/peakfit-worker-faults
# The tests that call the shim link libtorch; every other test links only
# the C objects, as peakfit does.
TORCH_TEST_BIN := $(addprefix $(B)/tests/,attention_test checkpoint_test family_weights_test \
    grid_test optimizer_step_test param_count_test safetensors_test saved_activations_test \
    warm_step_test)
C_TEST_BIN := $(filter-out $(TORCH_TEST_BIN),$(TEST_BIN))
# Unit tests: pure C, no libtorch, no process started, milliseconds each
# (make test-unit). The rest are integration tests: the shim's, rusage_test
# (it runs a worker) and the shell tests (they run the commands).
UNIT_TEST_BIN := $(filter-out $(B)/tests/tools/% $(B)/tests/rusage_test,$(C_TEST_BIN))
# -MMD -MP: each object's compile writes the headers it included into a .d
# file beside it, so a header change rebuilds only the objects that use it.
DEPFLAGS := -MMD -MP

# libcmark-gfm: report --html's Markdown (cmark with GitHub's tables, which
# every section of the report is); chromium: the test that renders
# report.html headless and screenshots it (tests/report_html_test.sh).
DEB_PACKAGES := g++ make python3-venv libtorch-dev libgsl-dev libcsv-dev libjansson-dev gnuplot-nox libopenblas0-pthread \
    libcmark-gfm-dev libcmark-gfm-extensions-dev chromium

.PHONY: all test-programs deps venv venv-cuda test test-unit test-asan test-heaps test-torch2 cuda-compile cuda-build macos-build leaks fuzz demo docs bench clean print-torch

# PyTorch 2 (CPU wheel), transformers and peft, every version pinned in
# requirements-torch2.txt: the torch-2 build, bench/ and examples/ use it.
VENV ?= .venv
venv: $(VENV)/.installed
$(VENV)/.installed: requirements-torch2.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r requirements-torch2.txt
	touch $@

# The CUDA build of PyTorch 2.14.1 (about 5.5 GB installed), pinned in
# requirements-cuda.txt, in a venv of its own: make cuda-compile / cuda-build.
VENV_CUDA ?= .venv-cuda
venv-cuda: $(VENV_CUDA)/.installed
$(VENV_CUDA)/.installed: requirements-cuda.txt
	python3 -m venv $(VENV_CUDA)
	$(VENV_CUDA)/bin/pip install -q --disable-pip-version-check -r requirements-cuda.txt
	touch $@

all: $(BIN)/peakfit $(BIN)/peakfit-worker

# What the tests run: the binaries, the C test programs, tests/tools and
# the fault worker.
test-programs: all $(TEST_BIN) $(FAULT_WORKER)

$(BIN)/peakfit: $(SRC_OBJ) $(FRONT_OBJ)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(FRONT_LDLIBS)

$(BIN)/peakfit-worker: $(B)/src/worker_main.o $(C_OBJ) $(SHIM_LIB)
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(LDLIBS)

$(B)/tests/worker_hooks.o: worker/worker.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DPEAKFIT_TEST_HOOKS $(DEPFLAGS) -c -o $@ $<

$(FAULT_WORKER): $(B)/src/worker_main.o $(B)/tests/worker_hooks.o $(filter-out $(B)/worker/worker.o,$(C_OBJ)) $(SHIM_LIB)
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(LDLIBS)

# Made afresh: ar only adds, and an object whose source is gone would linger.
$(SHIM_LIB): $(SHIM_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(C_TEST_BIN): $(B)/tests/%: $(B)/tests/%.o $(FRONT_OBJ) $(CMD_OBJ)
	$(CC) -o $@ $^ $(FRONT_LDLIBS)

$(TORCH_TEST_BIN): $(B)/tests/%: $(B)/tests/%.o $(C_OBJ) $(SHIM_LIB)
	$(CXX) -o $@ $^ $(LDLIBS)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# grid --peaks says how far its arithmetic was from the measured peak RSS:
# the "all" row of bench/results/arithmetic-error.txt, read at build time so
# a rerun of bench/arithmetic-error.py and the program cannot disagree.
ARITHMETIC_ERROR := bench/results/arithmetic-error.txt
ARITHMETIC_ERROR_DEFS := $(shell awk '$$1 == "all" { printf "-DPREDICT_ARITHMETIC_POINTS=%d -DPREDICT_ARITHMETIC_MIN_PCT=%.1f -DPREDICT_ARITHMETIC_MAX_PCT=%.1f", $$2, $$3, $$5 }' $(ARITHMETIC_ERROR) 2>/dev/null)
$(B)/src/grid_cmd.o: $(ARITHMETIC_ERROR)
$(B)/src/grid_cmd.o: ALL_CFLAGS += $(or $(ARITHMETIC_ERROR_DEFS),$(error $(ARITHMETIC_ERROR) has no "all" row))

# calc's process term for a Python trainer: the rows of
# bench/results/process-term/term.txt (its "As reports/process_term.c's
# rows" lines), made into a header at build time, so a rerun of
# bench/run process-term and the program cannot disagree.
PROCESS_TERM := bench/results/process-term/term.txt
$(B)/gen/process_term_rows.h: $(PROCESS_TERM)
	@mkdir -p $(@D)
	@awk '/^    X\("/ { rows = rows " \\\n" $$0 } END { if (rows == "") exit 1; print "#define PYTHON_TERM_ROWS(X)" rows }' \
	    $< >$@.tmp || { rm -f $@.tmp; echo "$<: no X(...) rows of the process term" >&2; exit 1; }
	@mv $@.tmp $@
$(B)/reports/process_term.o: $(B)/gen/process_term_rows.h
$(B)/reports/process_term.o: ALL_CFLAGS += -I$(B)/gen

$(SHIM_B)/shim/%.o: shim/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(ALL_CXXFLAGS) $(DEPFLAGS) -c -o $@ $<

-include $(wildcard $(B)/*/*.d $(B)/tests/tools/*.d $(SHIM_B)/shim/*.d)

# Installs only what is missing; OpenBLAS replaces the reference BLAS that
# libtorch would otherwise call through libblas.so.3 (minutes per step).
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "installing:" $$missing; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "deps: all installed"; fi
	@echo "deps: libblas.so.3 is $$(readlink -f /usr/lib/$$(gcc -print-multiarch)/libblas.so.3)"

# The build after deps, not beside it (make -j): it needs what deps
# installs. The venv (the Python tests': examples/, bench/) is made if it
# can be; where pip cannot reach its index, those tests skip and say so.
# T and J reach tests/run-tests.sh (and make's -j, through MAKEFLAGS).
test test-unit test-asan test-torch2: export T := $(T)
test test-unit test-asan test-torch2: export J := $(J)
test: deps
	@$(MAKE) --no-print-directory venv || echo "make test: make venv failed (above); the tests that need its Python skip where there is none"
	@$(MAKE) --no-print-directory test-programs
	@tests/run-tests.sh

test-unit: $(UNIT_TEST_BIN)
	@tests/run-tests.sh $(UNIT_TEST_BIN)

# The C side under AddressSanitizer and UBSan (the shim stays as it is:
# libtorch is not instrumented). Leak checking is `make leaks` below;
# the fault tests need the signals to reach the runner, not ASan.
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
test-asan:
	$(MAKE) B=build-asan BIN=build-asan/bin SHIM_B=build CFLAGS="-O1 -g" \
	    SANITIZE="$(ASAN_FLAGS)" test-programs
	@ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0:handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0 \
	    UBSAN_OPTIONS=print_stacktrace=1 \
	    PEAKFIT_BUILD=build-asan PEAKFIT_SANITIZED=1 tests/run-tests.sh

# The tests that measure real points (auto, verify, and fit and plan over
# the worker's rows), again under two glibc heaps that move RSS: what
# each expects is derived from what it measured, so it holds on any CPU
# and any heap. No thread cache (each free goes back to the bins: RSS
# 6-18 % lower), and a fixed 128 KiB mmap threshold (every larger block
# its own mapping, returned on free: 14-26 % lower);
# bench/results/heap-tunables.txt measures both.
MEASURING_TESTS := auto_test auto_budget_test auto_slices_test verify_test verify_outcomes_test verify_budget_test \
    demo_peaks_test holdout_test attention_fit_test small_answers_test all_output_test slice_test optimizer_setting_test
EMPTY :=
MEASURING_TESTS_RE := ^($(subst $(EMPTY) $(EMPTY),|,$(strip $(MEASURING_TESTS))))$$
HEAP_TUNABLES := glibc.malloc.tcache_count=0 glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072
test-heaps: test-programs
	@status=0; for h in $(HEAP_TUNABLES); do echo "== GLIBC_TUNABLES=$$h"; \
	    GLIBC_TUNABLES=$$h T='$(MEASURING_TESTS_RE)' tests/run-tests.sh || status=1; done; exit $$status

# The whole suite again against PyTorch 2's libtorch (the CPU wheel in
# $(VENV)), built beside the default build in build-torch2.
TORCH2_B ?= build-torch2
test-torch2: deps venv
	$(MAKE) LIBTORCH=auto PYTHON=$(abspath $(VENV))/bin/python B=$(TORCH2_B) BIN=$(TORCH2_B)/bin test-programs
	@PEAKFIT_BUILD=$(TORCH2_B) PEAKFIT_BIN=$(TORCH2_B)/bin tests/run-tests.sh

# The CUDA build against the CUDA wheel in $(VENV_CUDA): cuda-compile
# compiles every shim file with CUDA compiled in; cuda-build also links
# peakfit-worker and checks, on a machine without a GPU, that it says CUDA
# is compiled in and no device is visible, and that grid refuses a cuda sweep.
CUDA_B ?= build-cuda
CUDA_MAKE = $(MAKE) LIBTORCH=auto PYTHON=$(abspath $(VENV_CUDA))/bin/python B=$(CUDA_B) BIN=$(CUDA_B)/bin
cuda-compile: venv-cuda
	$(CUDA_MAKE) $(CUDA_B)/libpeakfit_torch.a
cuda-build: cuda-compile
	$(CUDA_MAKE) $(CUDA_B)/bin/peakfit $(CUDA_B)/bin/peakfit-worker
	@tests/cuda_build_check.sh $(CUDA_B)/bin

# macOS on Apple silicon, cross-compiled here with zig against PyTorch
# 2.13's macOS arm64 wheel and Debian's sources of the libraries, then its
# two binaries checked (Mach-O arm64, libtorch by @rpath, nothing of
# Linux's): built, not run (docs/building.md). Downloads are kept in
# MACOS_CACHE.
MACOS_B ?= build-macos
MACOS_CACHE ?= .cache/macos
macos-build: $(B)/tests/tools/macho_dylibs
	@tests/tools/macos-build.sh $(MACOS_B) $(MACOS_CACHE)

# fit, plot, report and calc under ASan + LeakSanitizer (valgrind 3.19
# stops with SIGILL on the RDTSCP in libhwy that libtorch's dependencies load).
leaks:
	@tests/leaks.sh

# libFuzzer on the sweep parser and the CSV reader, for FUZZ_SECONDS each.
FUZZ_SECONDS ?= 60
fuzz: $(SHIM_LIB)
	@tests/fuzz/run.sh $(FUZZ_SECONDS)

# DEMO_OUT: where it writes (bench/run demo: bench/results/tiny-cpu-demo).
DEMO_OUT ?= results/tiny-cpu
demo: deps
	@$(MAKE) --no-print-directory all
	bin/peakfit all sweeps/tiny-cpu.sweep -o $(DEMO_OUT)
	@echo "report: $(DEMO_OUT)/report.md (one page to share: $(DEMO_OUT)/report.html)"

# The documents generated from the code's tables and includes
# (tests/docs_test.sh and tests/layers_test.sh check that the committed
# ones are up to date).
docs: $(BIN)/peakfit
	$(BIN)/peakfit columns >docs/peaks-csv.md
	$(BIN)/peakfit keys | tests/tools/doc-splice.sh docs/sweeps.md
	$(BIN)/peakfit placeholders | tests/tools/doc-splice.sh docs/own-script.md
	tests/tools/layout-graph.sh table | tests/tools/doc-splice.sh docs/layout.md
	bench/run --list | tests/tools/doc-splice.sh docs/benchmarks.md

# One benchmark of bench/entries.tsv: make bench NAME=demo [OUT=DIR] (bench/run).
bench:
	@test -n "$(NAME)" || { echo "make bench: NAME= is required (bench/run --list lists them)" >&2; exit 2; }
	bench/run $(NAME) $(OUT)

clean:
	rm -rf build bin build-asan $(TORCH2_B) $(CUDA_B) $(MACOS_B)

# What the build uses from libtorch (checked by tests/libtorch_auto_test.sh).
print-torch:
	@echo "LIBTORCH=$(LIBTORCH)"
	@echo "TORCH_ABI=$(TORCH_ABI)"
	@echo "CXX_STD=$(CXX_STD)"
	@echo "PF_CUDA=$(PF_CUDA)"
	@echo "CUDART=$(CUDART)"
	@echo "CUDA_INC_DIR=$(CUDA_INC_DIR)"
	@echo "CUDA_CRT_DIR=$(CUDA_CRT_DIR)"
	@echo "TORCH_INC=$(strip $(TORCH_INC))"
	@echo "TORCH_LIB=$(strip $(TORCH_LIB))"
