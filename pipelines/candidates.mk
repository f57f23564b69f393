# candidates.mk - issue 47's candidate pre-trainings and their screen,
# included by Makefile (transfer-experiments.md, 10. and on, says what each
# gave):
#
#   make -C pipelines cand-NAME      train candidate NAME and screen it:
#                                    $(B)/cand/NAME/screen.md
#   make -C pipelines candidates     every candidate (days on two cores)
#
# A candidate is a corpus (a stage file), a feature stage and a list of
# objectives (gcn-train --tasks): CAND_CORPUS_NAME and CAND_OPTS_NAME
# below.  The screen is the transfer benchmark's few-label node probes and
# graph folds (TR_MANY and TR_TUNE empty, TR_NODE = CAND_NODE) at the
# candidates' width CAND_WIDTH (d = 128: a step costs about a sixteenth of
# d = 512's products), every candidate for CAND_EPOCHS epochs; each cell
# pairs with the same cell of every other candidate (the same splits and
# seeds).  The arms that do not depend on the pre-trained values (the
# random network, the features, the hand-made set) are the same for every
# candidate of one width and feature stage: a candidate takes them from
# its CAND_REF_NAME's screen instead of computing them again (candidates.sh
# links them), and its table adds its paired difference to that reference
# model.  Each pre-training checkpoints every epoch and resumes, as the
# pipeline's others do; a screen's cells are files, so an interrupted
# screen redoes only the cell in flight.

CAND := $(B)/cand
CAND_WIDTH ?= 128
CAND_EPOCHS ?= 40
CAND_NODE ?= cora roles-ba roles-tree
export CAND_NODE

# ---- corpora ----

# the pipeline's labelled DCBM graphs with two more kinds of targets: each
# node's hand-made set as a node target (nodefeat --set refex: the four
# features log-scaled and their 1- and 2-hop means and maxima, 20 columns,
# named refex) and each graph's statistics (graphstat)
$(B)/targets.gs: $(B)/labelled.gs $(BIN)/nodefeat $(BIN)/graphstat
	$(BIN)/nodefeat -q -j $(THREADS) --set refex --name refex $(B)/labelled.gs | \
		$(BIN)/graphstat -q -j $(THREADS) -o $@

# the mixed corpus (corpus.mk: DCBM graphs beside graph-gen's families,
# small graphs among them), with the same targets
$(B)/mix-targets.gs: $(B)/corpus-mix.gs $(BIN)/nodefeat $(BIN)/graphstat
	$(BIN)/nodefeat -q -j $(THREADS) --set refex --name refex $(B)/corpus-mix.gs | \
		$(BIN)/graphstat -q -j $(THREADS) -o $@

# transfer-experiments.md 9.'s corpus: 512 small DCBM graphs (10..100
# nodes) before the 1,024, the same 124 validation graphs last
$(B)/small512.gs: $(BIN)/dcbm-gen $(BIN)/centrality
	$(BIN)/dcbm-gen -q --count 512 --first-id 5000 --nodes 10..100 --clusters 2..4 \
		--mean-degree 2..12 -s 7 | $(BIN)/centrality -q -j $(THREADS) -o $@
$(B)/small-targets.gs: $(B)/small512.gs $(BIN)/nodefeat $(BIN)/graphstat
	$(BIN)/nodefeat -q -j $(THREADS) --set refex --name refex $(B)/small512.gs | \
		$(BIN)/graphstat -q -j $(THREADS) -o $@

# ---- the candidates: corpus files, gcn-train options, reference ----

W := --hidden $(CAND_WIDTH) --epochs $(CAND_EPOCHS) --precision fp32
PAPER_TASKS := rec,rank,cluster
REFEX_OBJ := refex(kind=node target=refex)

# the paper's configuration at the screen's width: every screen's reference
CAND_CORPUS_paper := $(B)/labelled.gs
CAND_OPTS_paper := $(W)
# its inputs and corpus as transfer-experiments.md 8. and 9. (calibration)
CAND_CORPUS_both := $(B)/labelled.gs
CAND_OPTS_both := $(W) --features both
CAND_CORPUS_small := $(B)/small512.gs $(B)/labelled.gs
CAND_OPTS_small := $(W) --validation 124
CAND_REF_small := paper
# the objectives beside the paper's tasks, one at a time
CAND_CORPUS_refex := $(B)/targets.gs
CAND_OPTS_refex := $(W) --tasks '$(PAPER_TASKS),$(REFEX_OBJ)'
CAND_REF_refex := paper
CAND_CORPUS_graphstat := $(B)/targets.gs
CAND_OPTS_graphstat := $(W) --tasks '$(PAPER_TASKS),graphstat'
CAND_REF_graphstat := paper
CAND_CORPUS_graphmae := $(B)/labelled.gs
CAND_OPTS_graphmae := $(W) --tasks '$(PAPER_TASKS),graphmae'
CAND_REF_graphmae := paper
CAND_CORPUS_graphcl := $(B)/labelled.gs
CAND_OPTS_graphcl := $(W) --tasks '$(PAPER_TASKS),graphcl'
CAND_REF_graphcl := paper
CAND_CORPUS_gcc := $(B)/labelled.gs
CAND_OPTS_gcc := $(W) --tasks '$(PAPER_TASKS),gcc'
CAND_REF_gcc := paper

# the mixed corpus, with the paper's tasks and with every objective that
# reads a target or a view
ALL_OBJ := $(PAPER_TASKS),$(REFEX_OBJ),graphstat,graphmae,graphcl
CAND_CORPUS_mix := $(B)/corpus-mix.gs
CAND_OPTS_mix := $(W)
CAND_REF_mix := paper
CAND_CORPUS_all := $(B)/targets.gs
CAND_OPTS_all := $(W) --tasks '$(ALL_OBJ)'
CAND_REF_all := paper
CAND_CORPUS_mixall := $(B)/mix-targets.gs
CAND_OPTS_mixall := $(W) --tasks '$(ALL_OBJ)'
CAND_REF_mixall := paper
# the inputs that keep a graph's scale (transfer-experiments.md 8.) with
# every objective, against the both candidate's random network
CAND_CORPUS_bothall := $(B)/mix-targets.gs
CAND_OPTS_bothall := $(W) --features both --tasks '$(ALL_OBJ)'
CAND_REF_bothall := both

# 8.'s inputs with the one objective that gained beside the paper's tasks
# (gcc, 14.), against the both candidate's random network
CAND_CORPUS_bothgcc := $(B)/labelled.gs
CAND_OPTS_bothgcc := $(W) --features both --tasks '$(PAPER_TASKS),gcc'
CAND_REF_bothgcc := both
CANDIDATES := paper both small refex graphstat graphmae graphcl gcc mix all mixall bothall bothgcc

# One candidate: its model (checkpointed every epoch, resumed from a
# checkpoint newer than everything it depends on; a stopped run's best
# model so far goes to model.stopped.gs, never to the stage file) and its
# screen.
define CANDIDATE
$(CAND)/$(1)/model.gs: $(CAND_CORPUS_$(1)) $(TRAIN_CONFIG) $(BIN)/gcn-train
	@mkdir -p $$(@D); ck=$(CAND)/$(1)/ckpt.gs; r=; \
	if [ -s $$$$ck ] && [ -z "$$$$(find $$^ -newer $$$$ck)" ]; then \
		echo "gcn-train: $(1): resuming from $$$$ck" >&2; r="--resume $$$$ck"; \
	fi; \
	$(BIN)/gcn-train -q -j $(THREADS) --config $(TRAIN_CONFIG) $(CAND_OPTS_$(1)) \
		--log $(CAND)/$(1)/train.tsv --checkpoint $$$$ck $$$$r \
		-o $(CAND)/$(1)/model.stopped.gs $(CAND_CORPUS_$(1)) && \
		mv -f $(CAND)/$(1)/model.stopped.gs $$@ && rm -f $$$$ck
$(CAND)/$(1)/screen.md: $(CAND)/$(1)/model.gs candidates.sh transfer.sh transfer-table.sh \
		$(if $(CAND_REF_$(1)),$(CAND)/$(CAND_REF_$(1))/screen.md)
	MAKE="$(MAKE)" sh candidates.sh screen $(CAND) $(1) $(CAND_REF_$(1))
cand-$(1): $(CAND)/$(1)/screen.md
.PHONY: cand-$(1)
endef
$(foreach c,$(CANDIDATES),$(eval $(call CANDIDATE,$(c))))

candidates: $(CANDIDATES:%=cand-%)
.PHONY: candidates
