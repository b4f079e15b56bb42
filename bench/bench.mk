# Benchmarks, included from the top-level Makefile (`make bench` runs both).
#
# bench-plan: the planning benchmark (bench/run.sh, docs/performance.md):
#   seeded instances from bench/gen at 20..10,000 jobs, every method, CBC on
#   the exported model.  BENCH_SIZES, BENCH_METHODS, BENCH_SCALE, ... as in
#   bench/run.sh; BENCH_FAMILY=cloud runs gen's cloud-heavy family instead.
#   Installs coinor-cbc when missing (apt-get, root).
# bench-services: nights with inference services against the LP of their
#   joint model (bench/services.sh; docs/performance.md, "Services").
# bench-fit: Ernest fits with leave-one-out CV on C3O (bench/fit_bench.c);
#   C3O_DIR points at the C3O TSVs: by default the repository's subset
#   (examples/data/c3o); the figures of docs/models.md are on the whole
#   files of dos-group/c3o-experiments (C3O_DIR=THAT_CLONE).
C3O_DIR ?= examples/data/c3o

$(BUILD)/fit_bench: bench/fit_bench.c $(BUILD)/libcapplan.a
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) $(INC_ALL) $(LDFLAGS) -o $@ $< $(BUILD)/libcapplan.a $(LIBS)

# gen and meter are stand-alone programs: no library, no generated deps.
$(BUILD)/bench/gen: bench/gen.c bench/gen_cloud.c bench/gen_sized.c bench/gen_pollux.c bench/gen_services.c bench/data/gavel.h bench/data/pollux.h
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(filter-out -MMD -MP,$(BASE_CFLAGS)) $(CFLAGS) $(LDFLAGS) -o $@ bench/gen.c -lm

$(BUILD)/bench/meter: bench/meter.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(filter-out -MMD -MP,$(BASE_CFLAGS)) $(CFLAGS) $(LDFLAGS) -o $@ bench/meter.c

.PHONY: bench-fit bench-plan bench-services bench-tools deps-bench
bench-fit: $(BUILD)/fit_bench
	@if [ -d "$(C3O_DIR)" ]; then \
	  OPENBLAS_NUM_THREADS=1 LC_ALL=C ./$(BUILD)/fit_bench $(C3O_DIR); \
	else echo "bench-fit: $(C3O_DIR) not found, skipped (set C3O_DIR)"; fi

bench-tools: $(BUILD)/capplan $(BUILD)/bench/gen $(BUILD)/bench/meter

deps-bench: deps
	@command -v cbc >/dev/null || { \
	  echo "deps-bench: installing coinor-cbc"; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq coinor-cbc >/dev/null; }

bench-plan: deps-bench
	$(MAKE) --no-print-directory bench-tools
	BUILD=$(BUILD) sh bench/run.sh

bench-services: deps-bench
	$(MAKE) --no-print-directory bench-tools
	BUILD=$(BUILD) sh bench/services.sh
