/*
 * stream_bin.c - the binary form of gnnstream records (gnnstream(5),
 * "Binary form"): a header line after its 32-bit length, then the body's
 * arrays as raw little-endian values.  Reading and writing; the header
 * grammar is stream_header.c's, the file object and the checks
 * stream_file.c's, the choice of a segment's form stream_rw.c's.
 */
#include <stdint.h>
#include <string.h>

#include "err.h"
#include "stream.h"
#include "stream_int.h"

/*
 * Read the u and v arrays of a graph or pairs record.  u grows as data
 * arrives (gsi_read_array); once it is complete, v is sized to match.
 */
static int
read_ids(gs_file *fp, gs_rec *rec)
{
	size_t nb = (size_t)rec->m * 4, capu = rec->u ? rec->cap_m * 4 : 0;
	int rc;

	if ((rc = gsi_read_array(fp, (void **)&rec->u, &capu, nb)))
		return rc;
	if (capu / 4 > rec->cap_m || rec->v == NULL) {
		rec->v = xrealloc(rec->v, capu ? capu : 1);
		rec->cap_m = capu / 4;
	}
	return gsi_read_bytes(fp, rec->v, nb);
}

int
gsi_read_bin_header(gs_file *fp, int *got)
{
	uint32_t hlen;
	int rc;

	*got = 0;
	rc = gsi_fill(fp, 4);
	if (rc)
		return rc;
	if (fp->pos == fp->len)
		return 0;
	if ((rc = gsi_read_bytes(fp, &hlen, 4)))
		return rc;
	if (hlen == 0 || hlen > MAX_HEADER)
		return gsi_fail(fp, -2, "corrupt record (header length %u)", hlen);
	if (hlen + 1 > fp->hdr_cap) {
		fp->hdr_cap = hlen + 1;
		fp->hdr = xrealloc(fp->hdr, fp->hdr_cap);
	}
	if ((rc = gsi_read_bytes(fp, fp->hdr, hlen)))
		return rc;
	fp->hdr[hlen] = '\0';
	if (memchr(fp->hdr, '\0', hlen))
		return gsi_fail(fp, -2, "corrupt record header (NUL byte)");
	*got = 1;
	return 0;
}

int
gsi_read_bin_body(gs_file *fp, gs_rec *rec)
{
	int rc, i;
	size_t nb;

	switch (rec->kind) {
	case GS_GRAPH:
	case GS_PAIRS:
		if ((rc = read_ids(fp, rec)))
			return rc;
		if (rec->ltype != GS_NONE &&
		    (rc = gsi_read_array(fp, &rec->lab, &rec->cap_lab,
					 (size_t)rec->m * gs_dtype_size(rec->ltype))))
			return rc;
		return gsi_check_pairs(fp, rec);
	case GS_TENSOR:
		nb = (size_t)(rec->rows * rec->cols) * gs_dtype_size(rec->dtype);
		if ((rc = gsi_read_array(fp, &rec->data, &rec->cap_data, nb)))
			return rc;
		return gsi_check_finite(fp, rec->data, rec->dtype, 0, rec->rows * rec->cols,
					rec->name);
	case GS_NAMES:
		nb = rec->names_len;
		if ((rc = gsi_read_array(fp, (void **)&rec->names, &rec->cap_names, nb)))
			return rc;
		gsi_grow((void **)&rec->names, &rec->cap_names, nb + 1);
		rec->names[nb] = '\0';
		return gsi_check_names(fp, rec);
	case GS_MODEL: {
		int np = rec->nparams;
		if ((rc = gsi_read_config(fp, rec)))
			return rc;
		for (i = 0; i < np; i++) {
			gs_param *p = &rec->params[i];
			gs_rec tmp;
			int got, k;
			int64_t er, ec;
			if ((rc = gsi_read_bin_header(fp, &got)))
				return rc;
			if (!got)
				return gsi_fail(fp, -2,
						"truncated stream (model parameter %d missing)", i);
			gs_rec_init(&tmp);
			k = gsi_parse_header(fp, fp->hdr, &tmp, &er, &ec, 1);
			if (k != GS_TENSOR) {
				gs_rec_free(&tmp);
				return k < 0 ? k
					     : gsi_fail(fp, -2,
							"model parameter %d: "
							"expected a param header",
							i);
			}
			gsi_set_name(p->name, tmp.name);
			p->rows = tmp.rows;
			p->cols = tmp.cols;
			p->dtype = tmp.dtype;
			gs_rec_free(&tmp);
			nb = (size_t)(p->rows * p->cols) * gs_dtype_size(p->dtype);
			if ((rc = gsi_read_array(fp, &p->data, &p->cap, nb)))
				return rc;
			if ((rc = gsi_check_finite(fp, p->data, p->dtype, 0, p->rows * p->cols,
						   p->name)))
				return rc;
		}
		return 0;
	}
	}
	return 0;
}
void
gsi_bin_put_header(gs_file *fp, const char *h)
{
	uint32_t n = (uint32_t)strlen(h);

	gsi_wput(fp, &n, 4);
	gsi_wput(fp, h, n);
}

void
gsi_bin_put_matrix(gs_file *fp, const void *data, int dtype, int64_t rows, int64_t cols)
{
	gsi_wput(fp, data, (size_t)(rows * cols) * gs_dtype_size(dtype));
}

void
gsi_bin_put_pairs(gs_file *fp, const gs_rec *r)
{
	gsi_wput(fp, r->u, (size_t)r->m * 4);
	gsi_wput(fp, r->v, (size_t)r->m * 4);
	if (r->ltype != GS_NONE)
		gsi_wput(fp, r->lab, (size_t)r->m * gs_dtype_size(r->ltype));
}
