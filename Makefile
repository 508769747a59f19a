# peakfit: `make` builds bin/peakfit; `make demo` sets up and runs the default
# sweep end to end; `make test` runs every test. `make LIBTORCH=/path` builds
# against another libtorch (one with CUDA or MPS, say).

CC  ?= cc
CXX ?= g++
LIBTORCH ?=

ifeq ($(LIBTORCH),)
TORCH_INC := -isystem /usr/include/torch/csrc/api/include
TORCH_LIB := -ltorch -ltorch_cpu -lc10
else
TORCH_INC := -isystem $(LIBTORCH)/include -isystem $(LIBTORCH)/include/torch/csrc/api/include
TORCH_LIB := -L$(LIBTORCH)/lib -Wl,-rpath,$(LIBTORCH)/lib -ltorch -ltorch_cpu -lc10
endif

# B: where objects and test programs go; BIN: where peakfit goes. test-asan
# builds the C side again, with sanitizers, into build-asan.
B   ?= build
BIN ?= bin
SANITIZE ?=

WARN     := -Wall -Wextra -Werror
CFLAGS   ?= -O2 -g
CXXFLAGS ?= -O2 -g
ALL_CFLAGS   := -std=c11 -D_GNU_SOURCE $(WARN) -I. -Ishim $(CFLAGS) $(SANITIZE)
ALL_CXXFLAGS := -std=c++17 $(WARN) -Ishim $(TORCH_INC) $(CXXFLAGS)
LDLIBS := $(SANITIZE) $(TORCH_LIB) -lgsl -lgslcblas -lcsv -ljansson -lm -ldl
SHIM_LIB := build/libpeakfit_torch.a

SHIM_SRC := $(wildcard shim/*.cpp)
C_SRC    := $(wildcard util/*.c models/*.c sweeps/*.c runner/*.c fit/*.c plots/*.c reports/*.c)
SHIM_OBJ := $(SHIM_SRC:%.cpp=build/%.o)
C_OBJ    := $(C_SRC:%.c=$(B)/%.o)
# src/: main.c and the commands that call every layer (all); peakfit only.
SRC_OBJ  := $(patsubst %.c,$(B)/%.o,$(wildcard src/*.c))
TEST_C   := $(wildcard tests/*_test.c tests/tools/*.c)
TEST_BIN := $(TEST_C:tests/%.c=$(B)/tests/%)

DEB_PACKAGES := g++ make libtorch-dev libgsl-dev libcsv-dev libjansson-dev gnuplot-nox libopenblas0-pthread

.PHONY: all deps test test-asan leaks fuzz demo clean

all: $(BIN)/peakfit $(TEST_BIN)

$(BIN)/peakfit: $(SRC_OBJ) $(C_OBJ) $(SHIM_LIB)
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(LDLIBS)

$(SHIM_LIB): $(SHIM_OBJ)
	$(AR) rcs $@ $^

$(B)/tests/%: tests/%.c $(C_OBJ) $(SHIM_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@.o $<
	$(CXX) -o $@ $@.o $(C_OBJ) $(SHIM_LIB) $(LDLIBS)

$(B)/%.o: %.c $(wildcard */*.h)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

build/shim/%.o: shim/%.cpp shim/peakfit_torch.h $(wildcard shim/*.hpp)
	@mkdir -p $(@D)
	$(CXX) $(ALL_CXXFLAGS) -c -o $@ $<

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

test: deps all
	@tests/run-tests.sh

# The C side under AddressSanitizer and UBSan (the shim stays as it is:
# libtorch is not instrumented). Leak checking is `make leaks` below;
# the fault tests need the signals to reach the runner, not ASan.
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
test-asan:
	$(MAKE) B=build-asan BIN=build-asan/bin CFLAGS="-O1 -g" \
	    SANITIZE="$(ASAN_FLAGS)" all
	@ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0:handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0 \
	    UBSAN_OPTIONS=print_stacktrace=1 \
	    PEAKFIT_BUILD=build-asan tests/run-tests.sh

# fit, plot, report and calc under ASan + LeakSanitizer (valgrind 3.19
# stops with SIGILL on the RDTSCP in libhwy that libtorch's dependencies load).
leaks:
	@tests/leaks.sh

# libFuzzer on the sweep parser and the CSV reader, for FUZZ_SECONDS each.
FUZZ_SECONDS ?= 60
fuzz: $(SHIM_LIB)
	@tests/fuzz/run.sh $(FUZZ_SECONDS)

demo: deps all
	bin/peakfit all sweeps/tiny-cpu.sweep -o results/tiny-cpu
	@echo "report: results/tiny-cpu/report.md"

clean:
	rm -rf build bin
