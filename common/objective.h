/*
 * objective.h - the pre-training objectives (gcn-train(1), OBJECTIVES): the
 * list a model is trained on, written as gcn-train's --tasks or the
 * config's `tasks`, parsed, given its defaults, checked and written back.
 *
 * Ownership: a struct objlist is plain data (no pointers): copy it freely.
 *
 * The list is words and items with settings, separated by commas:
 *
 *	rec,rank,cluster                         the paper's three tasks
 *	rec,rank(weight=0.5),graphstat           a weight; a preset (below)
 *	sizes(kind=graph target=stats loss=mse)  an objective of one's own
 *
 * An item is NAME or NAME(KEY=VALUE ...); NAME names the objective's
 * tensors (mix.NAME.alpha, NAME.W1...) and its log and val.* columns.  The
 * paper's tasks are the names rec, rank and cluster, each at most once:
 * their heads are the paper's (model.h), and of their settings only the
 * weight (and rank's and cluster's target) may be given.  Any other name
 * is an objective with a head built from its kind and its target's shape:
 *
 *   kind=node      target: a node tensor of the input (rows = nodes),
 *                  loss=mse (each column standardised over the training
 *                  graphs), xent (an integer class per node, -1 none) or
 *                  rank (RankNet on the rec task's pairs, as rank)
 *   kind=graph     target: a per-graph tensor (graphstat(1): one row),
 *                  loss=mse; the graph's node vectors pooled by mean and
 *                  maximum, then the head
 *   kind=contrast  level=graph: two views of every graph (each drops a
 *                  share `drop` of its edges, the first being the masked
 *                  graph of the rec task), pooled by mean and maximum,
 *                  projected and contrasted with InfoNCE at temperature
 *                  tau against the batch's other graphs (GraphCL);
 *                  level=node: `nodes` nodes of each graph in both views,
 *                  each node's two vectors a positive pair, the graph's
 *                  other drawn nodes in both views its negatives (GCC's
 *                  instance discrimination on the two views' ego-nets)
 *   kind=mask      a share `rate` of each graph's nodes has its input
 *                  features replaced by a learnt token; the head
 *                  reconstructs them (standardised over the batch) from
 *                  the node's vector, loss sce ((1 - cos)^gamma,
 *                  GraphMAE) or mse
 *
 * Presets: the names graphstat, graphcl, gcc and graphmae give kind,
 * target, loss and level (their defaults in objective.c), so
 * `--tasks rec,rank,cluster,graphmae` is enough.
 */
#ifndef GNN_OBJECTIVE_H
#define GNN_OBJECTIVE_H

#include <stddef.h>

#define OBJ_MAX 8	/* objectives besides the paper's three */
#define OBJ_NAME_MAX 24 /* bytes of a name, its end included */
#define OBJ_TARGET_MAX 64

enum obj_kind { OBJ_NODE = 1, OBJ_GRAPH, OBJ_CONTRAST, OBJ_MASK };
enum obj_loss { OBJ_MSE = 1, OBJ_XENT, OBJ_RANK, OBJ_NCE, OBJ_SCE };
enum obj_level { OBJ_LEVEL_GRAPH = 1, OBJ_LEVEL_NODE };

/* One objective besides the paper's tasks. */
struct objective {
	char name[OBJ_NAME_MAX];
	int kind, loss, level;
	char target[OBJ_TARGET_MAX]; /* the input's record (node, graph kinds) */
	int width;		     /* target columns or classes (0: from the data); the
			 * projection's width (contrast); the input's (mask) */
	int hidden;		     /* the head's hidden width */
	double weight;		     /* the loss's weight in the sum */
	double tau;		     /* contrast: temperature */
	double drop;		     /* contrast: share of edges each view drops */
	int nodes;		     /* contrast, level node: nodes drawn per graph */
	double rate;		     /* mask: share of each graph's nodes masked */
	double gamma;		     /* mask, loss sce: the exponent */
};

/* A parsed list: the paper's tasks (a bit 1 << TASK_x each, model.h's
 * order rec, rank, cluster), their weights and targets, and the others in
 * the order given. */
struct objlist {
	int tasks;
	double task_w[3];
	char task_target[3][OBJ_TARGET_MAX]; /* rank: centrality, cluster: cluster */
	int n;
	struct objective o[OBJ_MAX];
};

/*
 * Parse list into l, each objective given its defaults (hidden: half of
 * d, at least 16); widths stay 0 where the data must give them.  Returns
 * 0, or -1 with msg ("tasks: ...: what", one line).  A list with no
 * objective at all is an error.  Time complexity: O(length of list).
 */
int objlist_parse(struct objlist *l, const char *list, int d, char *msg, size_t msglen);

/*
 * The list l as text that objlist_parse() reads back to l: the paper's
 * tasks as their words (rank(weight=W) when a weight or target is not the
 * default), then every other objective with all its settings.  Returns a
 * new string (caller frees).
 */
char *objlist_format(const struct objlist *l);

/* The index of the objective named name in l->o, or -1. */
int objlist_find(const struct objlist *l, const char *name);

/* Whether l is the paper's words alone, each with its defaults (a model
 * then records the list as it was given, as before objectives). */
int objlist_plain(const struct objlist *l);

/* Whether some objective of l needs a second view of every graph (a
 * contrast), or masks input features. */
int objlist_views(const struct objlist *l);
int objlist_masks(const struct objlist *l);

/* "node", "graph", ... and "mse", "xent", ...: names for messages. */
const char *obj_kind_name(int kind);
const char *obj_loss_name(int loss);

#endif
