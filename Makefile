# capplan — one plain Makefile. `make` builds build/capplan and
# build/libcapplan.a; `make test` and `make demo` first install missing
# Debian packages (target deps), so a fresh machine needs nothing else.

CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
V       ?= 0

PKGS := yaml-0.1 openblas lapacke
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lyaml -lopenblas -llapacke)

WARN := -Wall -Wextra -pedantic -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
        -Wvla -Wformat=2 -Wno-format-nonliteral
ifeq ($(CI),true)
WARN += -Werror
endif
ifeq ($(WERROR),1)
WARN += -Werror
endif
OPT ?= -O2 -g
BASE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) $(OPT) \
               $(PKG_CFLAGS) -MMD -MP
ALL_CFLAGS := $(BASE_CFLAGS) $(CFLAGS)

# Layers (docs/architecture.md): each folder compiles with its own and the
# lower layers' -I flags only, so an #include of a higher layer's header
# fails the build. planner -> solvers -> models -> models/base.
INC_models/base      := -Imodels/base
INC_models/formats   := -Imodels/formats $(INC_models/base)
INC_models/fit       := -Imodels/fit $(INC_models/formats)
INC_models           := -Imodels $(INC_models/fit)
INC_solvers          := -Isolvers $(INC_models)
INC_solvers/methods  := -Isolvers/methods $(INC_solvers)
INC_planner/import   := -Iplanner/import $(INC_models)
INC_planner/verify   := -Iplanner/verify $(INC_models)
INC_planner/export   := -Iplanner/export $(INC_models)
INC_planner/whatif   := -Iplanner/whatif $(INC_solvers/methods)
INC_planner/report   := -Iplanner/report -Iplanner/whatif -Iplanner/verify $(INC_solvers/methods)
INC_planner/cmd      := -Iplanner/cmd -Iplanner -Iplanner/import -Iplanner/report \
                        -Iplanner/whatif -Iplanner/verify -Iplanner/export $(INC_solvers/methods)
INC_planner          := -Iplanner $(INC_models/base)
# tests, fuzzers and benchmarks see every layer
INC_ALL              := $(INC_planner/cmd)
INC_tests/unit       := $(INC_ALL)
INC_tests/gen        := $(INC_ALL)
# the -I flags of source file $(1)'s folder; a folder without a layer is an error
layer_inc = $(or $(INC_$(patsubst %/,%,$(dir $(1)))),$(error $(1): its folder has no layer in the Makefile))
LAYERS := models/base models/formats models/fit models solvers solvers/methods \
          planner/import planner/verify planner/export planner/whatif planner/report planner/cmd
LIBS := -lglpk $(PKG_LIBS) -lcsv -lm -lpthread

ifeq ($(V),0)
Q := @
say = @printf '  %-6s %s\n' $(1) $(2);
else
Q :=
say =
endif

LIB_SRC := $(filter-out planner/main.c,$(wildcard planner/*.c)) $(foreach l,$(LAYERS),$(wildcard $(l)/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)

.PHONY: all check test demo deps slurm-deps browser-deps check-layers print-inc asan valgrind valgrind-deps fuzz fuzz-deps fuzz-build bench lint format install clean check-deps golden-update test-coretypes

all: $(BUILD)/capplan

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(ALL_CFLAGS) $(call layer_inc,$<) -c $< -o $@

$(BUILD)/libcapplan.a: $(LIB_OBJ)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(BUILD)/capplan: $(BUILD)/planner/main.o $(BUILD)/libcapplan.a
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/unit_tests: $(UNIT_OBJ) $(BUILD)/libcapplan.a
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# the exhaustive-search oracle of tests/suite_property.sh (loader and modes
# from the library, no solver)
$(BUILD)/enumerate: $(BUILD)/tests/gen/enumerate.o $(BUILD)/libcapplan.a
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# Every header compiles on its own with only its folder's layer flags: a
# header that needs a higher layer (or one it does not include itself)
# fails here even when no .c file of its folder includes it. The unit is
# the header and one typedef, as a header of macros alone (cp_limits.h)
# is an empty translation unit, which -pedantic -Werror (CI) refuses.
check-layers:
	$(Q)$(foreach d,planner $(LAYERS),for h in $(wildcard $(d)/*.h); do \
	  printf '#include "%s"\ntypedef int check_layers_unit;\n' "$$h" | \
	  $(CC) $(filter-out -MMD -MP,$(BASE_CFLAGS)) $(CFLAGS) $(INC_$(d)) -fsyntax-only -x c - \
	  || { echo "check-layers: $$h does not compile with the flags of $(d)"; exit 1; }; done;) \
	echo "check-layers: every header compiles with its layer's flags alone"

# The -I flags of one layer (tests/suite_arch.sh): make print-inc LAYER=models
print-inc:
	@echo $(INC_$(LAYER))

# Installs the Debian packages the build and the tests need, only when
# something is missing (apt-get needs root; CI and fresh machines are root).
DEB_PKGS := build-essential pkg-config libglpk-dev libyaml-dev libopenblas-dev \
            liblapacke-dev libcsv-dev libxml2-utils glpk-utils coinor-cbc \
            man-db groff-base python3-yaml
deps:
	@missing=0; \
	for h in glpk.h yaml.h lapacke.h csv.h; do \
	  [ -f /usr/include/$$h ] || [ -f /usr/include/x86_64-linux-gnu/$$h ] || missing=1; done; \
	pkg-config --exists openblas || missing=1; \
	command -v xmllint >/dev/null || missing=1; \
	command -v glpsol >/dev/null || missing=1; \
	command -v cbc >/dev/null || missing=1; \
	command -v man >/dev/null || missing=1; \
	command -v groff >/dev/null || missing=1; \
	python3 -c 'import yaml' 2>/dev/null || missing=1; \
	if [ $$missing = 1 ]; then \
	  echo "deps: installing $(DEB_PKGS)"; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(DEB_PKGS) >/dev/null || exit 1; \
	fi

# The one-node Slurm of tests/suite_slurm.sh (docs/execution.md): Debian's
# daemons and clients, installed when one is missing (root, like deps).
# The suite starts its own munged, slurmctld and slurmd from a generated
# slurm.conf; it never uses the system's services or /etc/slurm.
SLURM_PKGS := slurmctld slurmd slurm-client munge
slurm-deps:
	@missing=0; \
	for c in slurmctld slurmd sbatch scontrol squeue scancel munged munge unmunge; do \
	  command -v $$c >/dev/null || [ -x /usr/sbin/$$c ] || missing=1; done; \
	if [ $$missing = 1 ]; then \
	  echo "slurm-deps: installing $(SLURM_PKGS)"; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(SLURM_PKGS) >/dev/null || exit 1; \
	fi

# Headless Chromium for the report suite's browser test (root, like deps).
browser-deps:
	@if ! command -v chromium >/dev/null; then \
	  echo "browser-deps: installing chromium"; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null || exit 1; \
	fi

# The test tiers (docs/testing.md).
# `make check`: the unit tests and every suite in the check tier
# (CP_TIER=check): nothing installed, no root, no network, no daemon, no
# browser; the checks that need one are counted as skipped, as are those
# whose tools are missing. CP_QUICK=1 and CHECK_KNOBS cut the largest
# searches, so it runs in about a minute on 2 cores.
# `make test`: every prerequisite installed first, every check at full
# size, and a skip is a failure (CP_NO_SKIP=1): the whole suite, two
# suites at a time (TEST_JOBS; the suites are CPU-bound and independent).
TEST_JOBS ?= 2
CHECK_KNOBS ?= CP_TIER=check CP_QUICK=1 CP_SEEDS=3 CP_DET_SEEDS=2 CP_PROP_SEEDS=12 CP_PROP_SVC_SEEDS=2 \
               CP_SIGNAL_RUNS=10 \
               CP_SUITE_JOBS=2
check:
	$(MAKE) --no-print-directory $(BUILD)/capplan $(BUILD)/unit_tests $(BUILD)/enumerate
	LC_ALL=C OPENBLAS_NUM_THREADS=1 CAPPLAN=$(BUILD)/capplan UNIT=$(BUILD)/unit_tests \
	  ENUMERATE=$(BUILD)/enumerate $(CHECK_KNOBS) sh tests/run.sh

test: deps slurm-deps browser-deps
	$(MAKE) --no-print-directory $(BUILD)/capplan $(BUILD)/unit_tests $(BUILD)/enumerate
	LC_ALL=C OPENBLAS_NUM_THREADS=1 CAPPLAN=$(BUILD)/capplan UNIT=$(BUILD)/unit_tests \
	  ENUMERATE=$(BUILD)/enumerate CP_NO_SKIP=1 CP_SUITE_JOBS=$(TEST_JOBS) sh tests/run.sh

DEMO_OUT ?= $(BUILD)/demo
demo: deps
	$(MAKE) --no-print-directory $(BUILD)/capplan
	@mkdir -p $(DEMO_OUT)
	@echo "== capplan check examples/nightly/*.yaml"
	./$(BUILD)/capplan check examples/nightly/*.yaml
	@echo "== capplan plan examples/nightly/*.yaml -o $(DEMO_OUT)/nightly-plan.yaml"
	./$(BUILD)/capplan plan --progress --time-limit 60 -o $(DEMO_OUT)/nightly-plan.yaml examples/nightly/*.yaml
	@echo "== capplan verify --plan $(DEMO_OUT)/nightly-plan.yaml examples/nightly/*.yaml"
	./$(BUILD)/capplan verify --plan $(DEMO_OUT)/nightly-plan.yaml examples/nightly/*.yaml
	@echo "== capplan report $(DEMO_OUT)/nightly-plan.yaml examples/nightly/*.yaml -o $(DEMO_OUT)/report.html"
	./$(BUILD)/capplan report $(DEMO_OUT)/nightly-plan.yaml examples/nightly/*.yaml -o $(DEMO_OUT)/report.html
	@echo "== capplan whatif --scenarios examples/nightly-whatif.yaml -j 2 --node-limit 500 examples/nightly/*.yaml"
	./$(BUILD)/capplan whatif --scenarios examples/nightly-whatif.yaml -j 2 --node-limit 500 --quiet \
	  -o $(DEMO_OUT)/whatif.md --report $(DEMO_OUT)/whatif.html examples/nightly/*.yaml
	@cat $(DEMO_OUT)/whatif.md
	@echo "== examples/pipeline/run.sh: public data -> imports -> fit -> plan -> verify -> report"
	sh examples/pipeline/run.sh $(BUILD)/capplan $(DEMO_OUT)/pipeline

# float-cast-overflow: a double past an integer (C11 6.3.1.4), which
# "undefined" leaves out; every such conversion goes through models/base/cp_num.h
SAN := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
# The suite under ASan + UBSan. ASan adds about a factor of 2-3 to every
# run, so `make asan` cuts the searches that only repeat the same code on
# more seeds or larger nights (ASAN_KNOBS, docs/reliability.md section 2);
# ASAN_KNOBS= runs everything at full size.
ASAN_KNOBS ?= CP_QUICK=1 CP_SEEDS=4 CP_DET_SEEDS=2 CP_PROP_SEEDS=40 CP_SIGNAL_RUNS=10 \
              CP_TEST_TIMEOUT=300 CP_SUITE_JOBS=2
asan-build: deps
	$(MAKE) --no-print-directory BUILD=build-asan OPT="-O1 -g" CFLAGS="$(SAN)" LDFLAGS="$(SAN)" \
	  build-asan/capplan build-asan/unit_tests build-asan/enumerate

asan: asan-build slurm-deps
	LC_ALL=C OPENBLAS_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  CAPPLAN=build-asan/capplan UNIT=build-asan/unit_tests ENUMERATE=build-asan/enumerate \
	  $(ASAN_KNOBS) sh tests/run.sh

# A representative subset of the suite under memcheck: valgrind runs
# 30-50 times slower, so `make valgrind` runs the suites that between
# them reach every command, reader, writer and method on small inputs
# (VALGRIND_SUITES) with the searches cut (VALGRIND_KNOBS); the suites
# left out repeat the same code on more seeds and larger nights, and run
# under `make asan` (docs/reliability.md section 2 says what each knob
# and the subset leave out). VALGRIND_SUITES= VALGRIND_KNOBS= runs the
# whole suite at full size.
VG := valgrind -q --error-exitcode=1 --leak-check=full
VALGRIND_KNOBS ?= CP_VALGRIND=1 CP_SEEDS=2 CP_DET_SEEDS=1 CP_PROP_SEEDS=6 CP_SIGNAL_RUNS=4 \
                  CP_TEST_TIMEOUT=900 CP_SUITE_JOBS=2
VALGRIND_SUITES ?= tests/suite_bad.sh tests/suite_io.sh tests/suite_costs.sh tests/suite_verify.sh \
                   tests/suite_whatif.sh tests/suite_import.sh tests/suite_execution.sh \
                   tests/suite_hostile.sh tests/suite_fuzzregress.sh
valgrind-deps: deps
	@if ! command -v valgrind >/dev/null; then \
	  echo "valgrind-deps: installing valgrind"; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq valgrind >/dev/null || exit 1; \
	fi

valgrind: valgrind-deps slurm-deps
	$(MAKE) --no-print-directory $(BUILD)/capplan $(BUILD)/unit_tests $(BUILD)/enumerate
	LC_ALL=C OPENBLAS_NUM_THREADS=1 ENUMERATE=$(BUILD)/enumerate CAPPLAN="$(VG) $(BUILD)/capplan" \
	  UNIT="$(VG) $(BUILD)/unit_tests" $(VALGRIND_KNOBS) sh tests/run.sh $(VALGRIND_SUITES)

# libFuzzer harnesses (fuzz/fuzz_*.c, docs/reliability.md): the library is
# rebuilt with clang and the sanitizers in $(FUZZ_BUILD); `make fuzz`
# runs each harness FUZZ_SECONDS seconds on its seed corpus and fails on
# any crash, leak or sanitizer report (the input is left in $(FUZZ_BUILD)).
# fuzz_opts takes the commands' calls to cp_cli_parse (--wrap): it parses
# each command's own table and the command ends there.
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZERS      := $(patsubst fuzz/%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_SAN     := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
fuzz-deps: deps
	@if ! command -v clang >/dev/null || ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}' | \
	  clang -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null; then \
	  echo "fuzz-deps: installing clang libclang-rt-dev"; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq clang libclang-rt-dev >/dev/null || exit 1; \
	fi

fuzz-build: fuzz-deps
	$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang OPT="-O1 -g" WARN="-Wall -Wextra" \
	  CFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" $(FUZZ_BUILD)/libcapplan.a
	@for f in $(FUZZERS); do \
	  echo "  LINK   $(FUZZ_BUILD)/$$f"; \
	  case $$f in fuzz_opts) wrap=-Wl,--wrap=cp_cli_parse ;; *) wrap= ;; esac; \
	  clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -O1 -g \
	    $(INC_ALL) $(PKG_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer fuzz/$$f.c $$wrap \
	    $(FUZZ_BUILD)/libcapplan.a $(LIBS) -o $(FUZZ_BUILD)/$$f || exit 1; done

fuzz: fuzz-build
	OPENBLAS_NUM_THREADS=1 sh fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZERS)

# Rewrites the expected files that differ from this build's output: the
# suites that compare goldens (test_cmp or test_cmp_num of tests/lib.sh)
# run with CP_GOLDEN_UPDATE=1, and each file rewritten is named
# ("updated FILE"). Read `git diff` before committing (docs/testing.md).
GOLDEN_SUITES = $(filter-out tests/suite_lib.sh,$(shell grep -l 'test_cmp' tests/suite_*.sh))
golden-update: deps slurm-deps
	$(MAKE) --no-print-directory $(BUILD)/capplan $(BUILD)/unit_tests
	@status=0; for s in $(GOLDEN_SUITES); do \
	  CP_GOLDEN_UPDATE=1 LC_ALL=C OPENBLAS_NUM_THREADS=1 CAPPLAN=$(BUILD)/capplan \
	    UNIT=$(BUILD)/unit_tests sh $$s || status=1; done; exit $$status

# The unit tests and the suites that run OpenBLAS/LAPACK (those calling
# `capplan fit` or `capplan import`), once for each OpenBLAS kernel family
# of CORETYPES (OPENBLAS_CORETYPE): a golden or a tolerance that holds
# for one CPU's kernels only fails here before it fails on a user's
# machine. .ci/run runs it after `make test`; about 10 s a kernel.
CORETYPES ?= Haswell SkylakeX Prescott
BLAS_SUITES = $(shell grep -lE 'fit (dataflow|training)|import (skypilot|gavel|c3o)' tests/suite_*.sh)
test-coretypes: deps
	$(MAKE) --no-print-directory $(BUILD)/capplan $(BUILD)/unit_tests
	@status=0; for c in $(CORETYPES); do \
	  core=$$(OPENBLAS_CORETYPE=$$c OPENBLAS_VERBOSE=2 $(BUILD)/capplan --version 2>&1 | sed -n 's/^Core: //p'); \
	  echo "== OPENBLAS_CORETYPE=$$c: OpenBLAS runs its $${core:-(unknown)} kernels"; \
	  [ "$$core" = "$$c" ] || echo "note: not the $$c kernels (this CPU or this OpenBLAS build lacks them)"; \
	  for t in unit $(BLAS_SUITES); do \
	    if [ $$t = unit ]; then set -- $(BUILD)/unit_tests; else set -- sh $$t; fi; \
	    OPENBLAS_CORETYPE=$$c LC_ALL=C OPENBLAS_NUM_THREADS=1 CAPPLAN=$(BUILD)/capplan \
	      UNIT=$(BUILD)/unit_tests "$$@" >$(BUILD)/coretype.log 2>&1 || { status=1; cat $(BUILD)/coretype.log; continue; }; \
	    grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' $(BUILD)/coretype.log; \
	  done; \
	done; \
	if [ $$status = 0 ]; then echo "test-coretypes: passed under $(CORETYPES)"; \
	else echo "test-coretypes: FAILED (above)"; fi; \
	exit $$status

lint:
	cppcheck --quiet --enable=warning,performance,portability --error-exitcode=1 \
	  --suppress=missingIncludeSystem $(INC_ALL) planner models solvers

format:
	clang-format -i planner/*.[ch] $(foreach l,$(LAYERS),$(l)/*.[ch]) tests/unit/*.[ch]

# the binary and both man pages: `man capplan` (commands) and
# `man 5 capplan` (the input and plan file formats)
install: $(BUILD)/capplan
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(BUILD)/capplan $(DESTDIR)$(PREFIX)/bin/capplan
	install -m 644 capplan.1 $(DESTDIR)$(PREFIX)/share/man/man1/capplan.1
	install -m 644 capplan.5 $(DESTDIR)$(PREFIX)/share/man/man5/capplan.5

clean:
	rm -rf build build-asan build-fuzz

bench: bench-fit bench-plan bench-services

include bench/bench.mk

-include $(LIB_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(BUILD)/planner/main.d $(BUILD)/tests/gen/enumerate.d
