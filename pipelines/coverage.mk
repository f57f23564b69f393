# coverage.mk - does the pre-training corpus cover the downstream sets
# (issue 47)? Included by Makefile:
#   make -C pipelines coverage                 results/coverage.md
#   make -C pipelines coverage CORPUS=my.gs    another corpus (any stream
#                                              of graphs)
#   make -C pipelines coverage QUICK=1         the quick corpus, two sets
# graphstat's statistics of every graph (nodes, density, mean degree,
# degree CV, clustering, assortativity) and the pooled degree
# distribution of the corpus and of each set of the transfer benchmark
# (coverage.sh stats), then where each set lies against the corpus
# (coverage.sh table, which says how coverage is measured).

CORPUS ?= $(B)/labelled.gs
ifeq ($(QUICK),1)
COV_SETS ?= roles-ba mutag
else
COV_SETS ?= cora pubmed roles-ba roles-tree imdb-binary imdb-multi mutag enzymes ptc-mr
endif
COV := $(B)/coverage

# CORPUS swaps the corpus: its value is kept in BUILD/vars/CORPUS as the
# Makefile keeps the others' (VARS), so that a corpus older than the
# statistics still replaces them
ifneq ($(filter-out clean clean-quick times status,$(or $(MAKECMDGOALS),all)),)
$(if $(and $(wildcard $(B)/vars/CORPUS),$(call streq,$(file <$(B)/vars/CORPUS),$(strip $(CORPUS)))),,\
	$(file >$(B)/vars/CORPUS,$(strip $(CORPUS))))
endif

coverage: $(R)/coverage.md

$(COV)/corpus.txt: $(CORPUS) $(B)/vars/CORPUS coverage.sh $(BIN)/graphstat
	@mkdir -p $(@D)
	sh coverage.sh stats $(CORPUS) $@

$(COV)/%.txt: $(TR)/data/%.gs coverage.sh $(BIN)/graphstat
	@mkdir -p $(@D)
	sh coverage.sh stats $< $@

$(R)/coverage.md: $(COV)/corpus.txt $(COV_SETS:%=$(COV)/%.txt) coverage.sh prov.sh
	@mkdir -p $(@D)
	sh coverage.sh table $(COV) "Coverage of the dev sets by the pre-training corpus ($(V) run)" \
		$(CORPUS) $(TR)/data $(COV_SETS) >$@.tmp && mv $@.tmp $@
	@cat $@

.PHONY: coverage
