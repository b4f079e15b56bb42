# bench-fit: Ernest fits with leave-one-out CV on all of C3O (bench/fit_bench.c).
# Included from the top-level Makefile; C3O_DIR points at the C3O TSVs.
C3O_DIR ?= /work/shared/data/c3o

$(BUILD)/fit_bench: bench/fit_bench.c $(BUILD)/libcapplan.a
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libcapplan.a $(LIBS)

.PHONY: bench-fit
bench-fit: $(BUILD)/fit_bench
	OPENBLAS_NUM_THREADS=1 LC_ALL=C ./$(BUILD)/fit_bench $(C3O_DIR)
