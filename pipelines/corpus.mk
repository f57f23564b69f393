# corpus.mk - the mixed pre-training corpus (issue 47), included by
# Makefile: the paper's DCBM graphs beside graph-gen's families, large and
# small, mixed as MIX (corpus.yaml) says, numbered in turn, each part's
# validation graphs at the end, labelled by centrality (corpus.sh).
#
#   make -C pipelines corpus                  build/full/corpus-mix.gs
#   make -C pipelines corpus MIX=my.yaml      another mix
#
# (MIX, not CORPUS: coverage.mk's CORPUS is the stream whose coverage it
# measures, and both are kept in BUILD/vars.)
#
# gcn-train reads it as it is, for the tasks without clusters (not every
# family has them: corpus.yaml says which):
#   gcn-train --config pretrain.yaml --tasks rec,rank build/full/corpus-mix.gs
# As GRAPHS of the paper's stages (make table1 GRAPHS=...), centrality runs
# on it again (it replaces its own tensors), and model-all's cluster task
# refuses a graph without a cluster label.

MIX ?= corpus.yaml
# a new MIX remakes the corpus, as the Makefile's VARS do
ifneq ($(filter-out clean clean-quick times status,$(or $(MAKECMDGOALS),all)),)
$(if $(and $(wildcard $(B)/vars/MIX),$(call streq,$(file <$(B)/vars/MIX),$(strip $(MIX)))),,\
	$(file >$(B)/vars/MIX,$(strip $(MIX))))
endif

$(B)/corpus-mix.gs: $(MIX) $(B)/vars/MIX corpus.sh $(shell sh corpus.sh files $(MIX) 2>/dev/null) \
		$(BIN)/dcbm-gen $(BIN)/graph-gen $(BIN)/centrality
	@mkdir -p $(@D)
	sh corpus.sh build $(MIX) $@

corpus: $(B)/corpus-mix.gs

.PHONY: corpus
