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
#   make -C pipelines transfer TR_NODE=my.gs   a set of your own (below)
#
# Protocols: the linear probe (gcn-embed's frozen embeddings, linprobe's
# logistic regression) with 20 labelled nodes a class (few) and 80/20
# (many) on the node sets, 10 folds on the graph sets; and fine-tuning
# (gcn-adapt) against the same network from random values: on the node
# sets of TR_TUNE with the probe's few-label split (its validation nodes
# drawn from the training nodes), on the graph sets of TR_TUNE with the
# probe's 10 folds, and on those of TR_TUNE_PAPER with gcn-adapt's own
# split (Cora's: the paper's).  Every cell is a file under $(TR);
# transfer.sh makes it, transfer-table.sh the table.  The random arm draws
# the network anew for every run.
#
# A set of your own: a word of TR_NODE (node classes: a 'label' tensor) or
# TR_GRAPH (graph classes: 'label' records) that names a file (it holds a
# '/' or ends in .gs; a relative path is taken from the directory make was
# called from) is a set whose cells are named after the file's basename.
# It gets every arm and protocol of its kind, fine-tuning included (unless
# TR_MANY or TR_TUNE is given), and its table goes to
# results/transfer-NAME.md.  transfer.sh checks its classes before anything
# runs.

TR_MODEL ?= $(abspath $(TOP)/models/gcn-pretrain.gs)
TR := $(B)/transfer
# sets of the user's: their names and files (TR_FILE_name)
tr_isfile = $(or $(findstring /,$(1)),$(filter %.gs,$(1)))
tr_name = $(if $(call tr_isfile,$(1)),$(patsubst %.gs,%,$(notdir $(1))),$(1))
tr_path = $(abspath $(if $(filter /%,$(1)),$(1),$(or $(PWD),$(CURDIR))/$(1)))
tr_names = $(foreach s,$(1),$(call tr_name,$(s)))
tr_user = $(foreach s,$(1),$(if $(call tr_isfile,$(s)),$(call tr_name,$(s))))
TR_USER_NODE := $(call tr_user,$(TR_NODE))
TR_USER_GRAPH := $(call tr_user,$(TR_GRAPH))
TR_USER := $(TR_USER_NODE) $(TR_USER_GRAPH)
ifeq ($(QUICK),1)
TR_NODE ?= roles-ba
TR_MANY ?= roles-ba $(TR_USER_NODE)
TR_GRAPH ?= mutag
TR_RUNS ?= 3
TR_TUNE ?= roles-ba $(TR_USER)
TR_TUNE_PAPER ?=
TR_TUNE_OPTS ?= --epochs 20 --patience 5 --head-width 16
else
TR_NODE ?= cora pubmed roles-ba roles-tree
# the 80/20 probe: not on Pubmed, whose 15,774 training rows of 1,536
# columns take LIBLINEAR hours a run with the CV over C
TR_MANY ?= cora roles-ba roles-tree $(TR_USER_NODE)
TR_GRAPH ?= imdb-binary imdb-multi mutag enzymes ptc-mr
TR_RUNS ?= 10
TR_TUNE ?= roles-ba roles-tree imdb-binary mutag $(TR_USER)
TR_TUNE_PAPER ?= cora
TR_TUNE_OPTS ?=
endif
TR_EMBED_OPTS ?=
export TR_MODEL TR_RUNS TR_TUNE_OPTS TR_EMBED_OPTS

# TR_USER_NODE and TR_GRAPH were read above, before their defaults: the
# user's words only.  Each file is checked (it exists, its name is free,
# it holds classes of its kind) while make reads this, so a bad one stops
# the run before any cell.
TR_BUILTIN := $(shell sh transfer.sh sets)
tr_check = $(foreach s,$(2),$(if $(call tr_isfile,$(s)),\
	$(eval TR_FILE_$(call tr_name,$(s)) := $(call tr_path,$(s)))\
	$(eval tr_msg := $(shell sh transfer.sh check $(1) $(3) '$(call tr_path,$(s))'))\
	$(if $(tr_msg),$(error $(tr_msg)))))
$(call tr_check,TR_NODE,$(TR_NODE),node)
$(call tr_check,TR_GRAPH,$(TR_GRAPH),graph)
$(if $(filter-out 1,$(foreach n,$(TR_USER),$(words $(filter $(n),$(TR_USER))))),\
	$(error TR_NODE, TR_GRAPH: two files of one name ($(TR_USER)): their cells would be one))

TR_ARMS := pre feat featlog refex
TR_NODE_N := $(call tr_names,$(TR_NODE))
TR_GRAPH_N := $(call tr_names,$(TR_GRAPH))
TR_SETS := $(TR_NODE_N) $(TR_GRAPH_N)
TR_MANY_N := $(call tr_names,$(TR_MANY))
TR_TUNE_N := $(call tr_names,$(TR_TUNE))
TR_TUNE_PAPER_N := $(call tr_names,$(TR_TUNE_PAPER))
# the random network's draws: one a run (node sets), one a fold (graph sets)
TR_DRAWS_node := $(shell seq 0 $$(($(TR_RUNS) - 1)))
TR_DRAWS_graph := 0 1 2 3 4 5 6 7 8 9
tr_draws = $(TR_DRAWS_$(if $(filter $(1),$(TR_GRAPH_N)),graph,node))
TR_PROBES := $(foreach s,$(TR_NODE_N),$(foreach a,$(TR_ARMS) rand,$(foreach p,few $(if $(filter $(s),$(TR_MANY_N)),many),$(s)--$(a)--$(p)))) \
	$(foreach s,$(TR_GRAPH_N),$(foreach a,$(TR_ARMS) rand,$(s)--$(a)--folds))
TR_TUNES := $(foreach a,pre rand,\
	$(foreach s,$(filter $(TR_TUNE_N),$(TR_NODE_N)),$(s)--$(a)--few) \
	$(foreach s,$(filter $(TR_TUNE_PAPER_N),$(TR_NODE_N)),$(s)--$(a)--paper) \
	$(foreach s,$(filter $(TR_TUNE_N),$(TR_GRAPH_N)),$(s)--$(a)--folds))
# the table's rows: the pre-trained arm's cells, probes first
TR_ROWS := $(sort $(patsubst %,pred/%.gs,$(filter %--pre--few %--pre--many %--pre--folds,$(TR_PROBES)))) \
	$(sort $(patsubst %,tune/%.gs,$(filter %--pre--few %--pre--paper %--pre--folds,$(TR_TUNES))))
# the table: results/transfer.md, or for sets of the user's
# results/transfer-NAME[-NAME...].md
TR_RESULT := $(R)/transfer$(if $(strip $(TR_USER)),-$(subst $(eval) ,-,$(strip $(TR_USER)))).md

transfer: $(TR_RESULT)

$(TR)/data/%.gs: transfer.sh $(BIN)/motif-gen
	@mkdir -p $(@D)
	sh transfer.sh data $* $@

# a set of the user's: its file, and the file's path kept in vars/ (a
# different file of the same name rebuilds the set's cells)
define TR_DATA
$$(shell mkdir -p $(B)/vars)
$$(if $$(call streq,$$(file <$(B)/vars/TR_FILE_$(1)),$(TR_FILE_$(1))),,$$(file >$(B)/vars/TR_FILE_$(1),$(TR_FILE_$(1))))
$(TR)/data/$(1).gs: $(TR_FILE_$(1)) $(B)/vars/TR_FILE_$(1) transfer.sh
	@mkdir -p $$(@D)
	sh transfer.sh data $(1) $$@ '$(TR_FILE_$(1))'
endef
$(foreach n,$(TR_USER),$(eval $(call TR_DATA,$(n))))

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

define TR_TUNE_RULE
$(TR)/tune/$(1)--$(2)--$(3).gs: $(TR)/data/$(1).gs transfer.sh $(TR_MODEL) $(BIN)/gcn-adapt $(B)/vars/SEED
	@mkdir -p $$(@D)
	@echo "gcn-adapt: $(1), $(2), $(3)" >&2
	sh transfer.sh tune $(1) $(2) $(3) $$@
endef
$(foreach c,$(TR_TUNES),$(eval $(call TR_TUNE_RULE,$(word 1,$(subst --, ,$(c))),$(word 2,$(subst --, ,$(c))),$(word 3,$(subst --, ,$(c))))))

# the table, then the record of the experiments made with it (the full
# run of the benchmark's own sets only: transfer-experiments.md, written
# by hand)
TR_EXPERIMENTS := $(if $(filter 1,$(QUICK))$(strip $(TR_USER)),,transfer-experiments.md)
$(TR_RESULT): $(TR_PROBES:%=$(TR)/pred/%.gs) $(TR_TUNES:%=$(TR)/tune/%.gs) transfer-table.sh \
		$(TR_EXPERIMENTS)
	@mkdir -p $(@D)
	BIN=$(BIN) sh transfer-table.sh $(TR) \
		"The transfer benchmark$(if $(strip $(TR_USER)), on $(strip $(TR_USER))) ($(V) run)" \
		"$(notdir $(TR_MODEL))" $(TR_ROWS) >$@.tmp
	$(if $(TR_EXPERIMENTS),{ echo; cat $(TR_EXPERIMENTS); } >>$@.tmp)
	mv $@.tmp $@
	@cat $@

.PHONY: transfer
