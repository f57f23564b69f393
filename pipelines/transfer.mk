# transfer.mk - the transfer benchmark (issue 38), included by Makefile:
# does the pre-trained encoder hold more of a task than the same network
# with random values, than its own input features and than a hand-made
# structural set, on the same splits, with paired intervals?
#
#   make -C pipelines transfer                 results/transfer.md
#   make -C pipelines transfer QUICK=1         a small size (make test)
#   make -C pipelines transfer TR_MODEL=m.gs   another model under test
#     (TR_EMBED_OPTS: gcn-embed options its arms need, such as
#     --allow-features-command for a model trained on a feature command)
#
# Protocols: the linear probe (gcn-embed's frozen embeddings, linprobe's
# logistic regression) with 20 labelled nodes a class (few) and 80/20
# (many) on the node sets, 10 folds on the graph sets; and the paper's
# fine-tuning (gcn-adapt) against the same network from random values.
# Every cell is a file under $(TR); transfer.sh makes it, transfer-table.sh
# the table.  The random arm draws the network anew for every run.

TR_MODEL ?= $(abspath $(TOP)/models/gcn-pretrain.gs)
TR := $(B)/transfer
ifeq ($(QUICK),1)
TR_NODE ?= roles-ba
TR_MANY ?= roles-ba
TR_GRAPH ?= mutag
TR_RUNS ?= 3
TR_TUNE ?= roles-ba
TR_TUNE_OPTS ?= --epochs 20 --patience 5 --head-width 16
else
TR_NODE ?= cora pubmed roles-ba roles-tree
# the 80/20 probe: not on Pubmed, whose 15,774 training rows of 1,536
# columns take LIBLINEAR hours a run with the CV over C
TR_MANY ?= cora roles-ba roles-tree
TR_GRAPH ?= imdb-binary imdb-multi mutag enzymes ptc-mr
TR_RUNS ?= 10
TR_TUNE ?= cora imdb-binary roles-ba
TR_TUNE_OPTS ?=
endif
TR_EMBED_OPTS ?=
export TR_MODEL TR_RUNS TR_TUNE_OPTS TR_EMBED_OPTS

TR_ARMS := pre feat featlog refex
TR_SETS := $(TR_NODE) $(TR_GRAPH)
# the random network's draws: one a run (node sets), one a fold (graph sets)
TR_DRAWS_node := $(shell seq 0 $$(($(TR_RUNS) - 1)))
TR_DRAWS_graph := 0 1 2 3 4 5 6 7 8 9
tr_draws = $(TR_DRAWS_$(if $(filter $(1),$(TR_GRAPH)),graph,node))
TR_PROBES := $(foreach s,$(TR_NODE),$(foreach a,$(TR_ARMS) rand,$(foreach p,few $(if $(filter $(s),$(TR_MANY)),many),$(s)--$(a)--$(p)))) \
	$(foreach s,$(TR_GRAPH),$(foreach a,$(TR_ARMS) rand,$(s)--$(a)--folds))
TR_TUNES := $(foreach s,$(TR_TUNE),$(s)--pre $(s)--rand)

transfer: $(R)/transfer.md

$(TR)/data/%.gs: transfer.sh $(BIN)/motif-gen
	@mkdir -p $(@D)
	sh transfer.sh data $* $@

# the vectors: an arm's, or the random network's draw r (--rand-r)
define TR_VEC
$(TR)/vec/$(1)--$(2).gs: $(TR)/data/$(1).gs transfer.sh $(BIN)/gcn-embed $(BIN)/nodefeat $(if $(filter pre feat rand-%,$(2)),$(TR_MODEL))
	@mkdir -p $$(@D)
	sh transfer.sh vec $(1) $(firstword $(subst -, ,$(2))) $$@ $(word 2,$(subst -, ,$(2)))
endef
$(foreach s,$(TR_SETS),$(foreach a,$(TR_ARMS) $(patsubst %,rand-%,$(call tr_draws,$(s))),\
	$(eval $(call TR_VEC,$(s),$(a)))))

define TR_PROBE
$(TR)/pred/$(1)--$(2)--$(3).gs: $(if $(filter rand,$(2)),$(patsubst %,$(TR)/vec/$(1)--rand-%.gs,$(call tr_draws,$(1))),$(TR)/vec/$(1)--$(2).gs) \
		transfer.sh $(BIN)/linprobe $(B)/vars/SEED
	@mkdir -p $$(@D)
	@echo "linprobe: $(1), $(2), $(3)" >&2
	sh transfer.sh probe $(1) $(2) $(3) $$@
endef
$(foreach c,$(TR_PROBES),$(eval $(call TR_PROBE,$(word 1,$(subst --, ,$(c))),$(word 2,$(subst --, ,$(c))),$(word 3,$(subst --, ,$(c))))))

define TR_TUNE
$(TR)/tune/$(1)--$(2).gs: $(TR)/data/$(1).gs transfer.sh $(TR_MODEL) $(BIN)/gcn-adapt $(B)/vars/SEED
	@mkdir -p $$(@D)
	@echo "gcn-adapt: $(1), $(2), $(TR_RUNS) runs" >&2
	sh transfer.sh tune $(1) $(2) $$@
endef
$(foreach c,$(TR_TUNES),$(eval $(call TR_TUNE,$(word 1,$(subst --, ,$(c))),$(word 2,$(subst --, ,$(c))))))

# the table, then the record of the experiments made with it (the full
# run's file only: transfer-experiments.md, written by hand)
TR_EXPERIMENTS := $(if $(filter 1,$(QUICK)),,transfer-experiments.md)
$(R)/transfer.md: $(TR_PROBES:%=$(TR)/pred/%.gs) $(TR_TUNES:%=$(TR)/tune/%.gs) transfer-table.sh \
		$(TR_EXPERIMENTS)
	@mkdir -p $(@D)
	BIN=$(BIN) sh transfer-table.sh $(TR) "The transfer benchmark ($(V) run)" \
		"$(notdir $(TR_MODEL))" >$@.tmp
	$(if $(TR_EXPERIMENTS),{ echo; cat $(TR_EXPERIMENTS); } >>$@.tmp)
	mv $@.tmp $@
	@cat $@

.PHONY: transfer
