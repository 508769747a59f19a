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

WARN     := -Wall -Wextra -Werror
CFLAGS   ?= -O2 -g
CXXFLAGS ?= -O2 -g
ALL_CFLAGS   := -std=c11 -D_GNU_SOURCE $(WARN) -I. -Ishim $(CFLAGS)
ALL_CXXFLAGS := -std=c++17 $(WARN) -Ishim $(TORCH_INC) $(CXXFLAGS)
LDLIBS := $(TORCH_LIB) -lgsl -lgslcblas -lcsv -lm -ldl

SHIM_SRC := $(wildcard shim/*.cpp)
C_SRC    := $(wildcard util/*.c sweeps/*.c runner/*.c fit/*.c plots/*.c reports/*.c)
SHIM_OBJ := $(SHIM_SRC:%.cpp=build/%.o)
C_OBJ    := $(C_SRC:%.c=build/%.o)
TEST_C   := $(wildcard tests/*_test.c tests/tools/*.c)
TEST_BIN := $(TEST_C:tests/%.c=build/tests/%)

DEB_PACKAGES := g++ make libtorch-dev libgsl-dev libcsv-dev gnuplot-nox libopenblas0-pthread

.PHONY: all deps test demo clean

all: bin/peakfit $(TEST_BIN)

bin/peakfit: build/src/main.o $(C_OBJ) build/libpeakfit_torch.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(LDLIBS)

build/libpeakfit_torch.a: $(SHIM_OBJ)
	$(AR) rcs $@ $^

build/tests/%: tests/%.c $(C_OBJ) build/libpeakfit_torch.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@.o $<
	$(CXX) -o $@ $@.o $(C_OBJ) build/libpeakfit_torch.a $(LDLIBS)

build/%.o: %.c $(wildcard */*.h)
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

test: all
	@tests/run-tests.sh

demo: deps all
	bin/peakfit all sweeps/tiny-cpu.sweep -o results/tiny-cpu
	@echo "report: results/tiny-cpu/report.md"

clean:
	rm -rf build bin
