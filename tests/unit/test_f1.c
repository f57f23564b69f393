/*
 * test_f1.c - F1 scores against values computed by hand.
 */
#include <math.h>

#include <criterion/criterion.h>

#include "f1.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-12)

Test(f1, binary_by_hand)
{
	/* y: 1 1 1 0 0, p: 1 0 1 1 0 -> class 1: tp 2 fp 1 fn 1, F1 = 4/6;
	 * class 0: tp 1 fp 1 fn 1, F1 = 2/4; micro = 3/5 */
	int32_t y[] = { 1, 1, 1, 0, 0 }, p[] = { 1, 0, 1, 1, 0 };
	struct f1 f;
	int64_t bad;
	f1_init(&f);
	cr_assert(f1_compute(&f, y, p, 5, 2, &bad) == 0);
	cr_expect(NEAR(f.per_class[1], 4.0 / 6));
	cr_expect(NEAR(f.per_class[0], 0.5));
	cr_expect(NEAR(f.micro, 0.6));
	cr_expect(NEAR(f.macro, (4.0 / 6 + 0.5) / 2));
	cr_expect(f1_conf(&f, 0, 1) == 1 && f1_conf(&f, 1, 0) == 1 && f1_conf(&f, 1, 1) == 2 &&
		  f1_conf(&f, 0, 0) == 1);
	f1_free(&f);
}

Test(f1, multiclass_micro_and_macro_differ)
{
	/* 3 classes, 8 items.
	 * y: 0 0 0 0 1 1 2 2
	 * p: 0 0 0 1 1 2 2 0
	 * class 0: tp 3, fp 1 (item 7), fn 1 (item 3): F1 = 6/8 = 0.75
	 * class 1: tp 1, fp 1 (item 3), fn 1 (item 5): F1 = 2/4 = 0.5
	 * class 2: tp 1, fp 1 (item 5), fn 1 (item 7): F1 = 0.5
	 * micro = 5/8 = 0.625, macro = (0.75 + 0.5 + 0.5)/3 = 0.58333 */
	int32_t y[] = { 0, 0, 0, 0, 1, 1, 2, 2 }, p[] = { 0, 0, 0, 1, 1, 2, 2, 0 };
	struct f1 f;
	int64_t bad;
	f1_init(&f);
	cr_assert(f1_compute(&f, y, p, 8, 3, &bad) == 0);
	cr_expect(NEAR(f.micro, 0.625));
	cr_expect(NEAR(f.macro, 1.75 / 3));
	cr_expect(NEAR(f.per_class[0], 0.75) && NEAR(f.per_class[2], 0.5));
	cr_expect(f.present == 3);
	f1_free(&f);
}

Test(f1, absent_classes_leave_the_macro_average)
{
	/* 4 classes, class 3 never true nor predicted, class 2 predicted only:
	 * y: 0 1 1, p: 0 1 2 -> class 0: F1 1; class 1: tp 1 fn 1: 2/3;
	 * class 2: fp 1: 0; class 3 absent.  macro = (1 + 2/3 + 0)/3 */
	int32_t y[] = { 0, 1, 1 }, p[] = { 0, 1, 2 };
	struct f1 f;
	int64_t bad;
	f1_init(&f);
	cr_assert(f1_compute(&f, y, p, 3, 4, &bad) == 0);
	cr_expect(f.present == 3 && isnan(f.per_class[3]));
	cr_expect(NEAR(f.macro, (1 + 2.0 / 3) / 3));
	cr_expect(NEAR(f.micro, 2.0 / 3));
	f1_free(&f);
}

Test(f1, bad_labels_and_empty_input)
{
	int32_t y[] = { 0, 1, 5 }, p[] = { 0, 1, 1 };
	struct f1 f;
	int64_t bad;
	f1_init(&f);
	cr_expect(f1_compute(&f, y, p, 3, 3, &bad) == -1 && bad == 2);
	cr_expect(f1_compute(&f, y, p, 0, 3, &bad) == -1 && bad == -1);
	int32_t yn[] = { -1 };
	cr_expect(f1_compute(&f, yn, p, 1, 3, &bad) == -1 && bad == 0);
	f1_free(&f);
	f1_free(NULL);
}

Test(f1, mean_and_sample_std)
{
	double x[] = { 0.6, 0.7, 0.8 }, m, s;
	f1_mean_std(x, 3, &m, &s);
	cr_expect(NEAR(m, 0.7) && NEAR(s, 0.1));
	f1_mean_std(x, 1, &m, &s);
	cr_expect(NEAR(m, 0.6) && s == 0);
}

Test(f1, unknown_true_classes_are_left_out)
{
	/* items 1 and 4 have no true class (-1, -3): the others keep their
	 * order, and the scores are those of the three alone */
	int32_t y[] = { 0, -1, 1, 1, -3 }, p[] = { 0, 1, 1, 0, 0 };
	struct f1 f;
	int64_t bad, n = f1_known(y, p, 5);
	cr_assert_eq(n, 3);
	cr_expect(y[0] == 0 && y[1] == 1 && y[2] == 1);
	cr_expect(p[0] == 0 && p[1] == 1 && p[2] == 0);
	f1_init(&f);
	cr_assert(f1_compute(&f, y, p, n, 2, &bad) == 0);
	cr_expect(NEAR(f.micro, 2.0 / 3));
	f1_free(&f);
	int32_t z[] = { -1, -1 }, q[] = { 0, 1 };
	cr_expect_eq(f1_known(z, q, 2), 0, "no known class: nothing kept");
}

Test(f1, paired_interval_by_hand)
{
	/* differences 0.1 0.2 0.1: mean 2/15, sd sqrt(1/300), t(0.975, 2)
	 * = 4.302653 (tables): half-width 4.302653 / 30 = 0.143422, the
	 * interval [-0.010088, 0.276755] holds 0: no gain */
	double a[] = { 0.5, 0.6, 0.7 }, b[] = { 0.4, 0.4, 0.6 };
	struct f1_paired p;
	f1_paired(a, b, 3, &p);
	cr_expect(p.n == 3 && NEAR(p.mean_a, 0.6) && fabs(p.mean_b - 1.4 / 3) < 1e-12);
	cr_expect(fabs(p.mean - 2.0 / 15) < 1e-12 && fabs(p.sd - sqrt(1.0 / 300)) < 1e-12);
	cr_expect(fabs(p.lo - (2.0 / 15 - 4.302653 / 30)) < 1e-6, "lo %.7f", p.lo);
	cr_expect(fabs(p.hi - (2.0 / 15 + 4.302653 / 30)) < 1e-6, "hi %.7f", p.hi);
	cr_expect(p.gain == 0);
	/* five runs, each 0.02 or 0.04 better: mean 0.028, sd sqrt(0.00048/4)
	 * = 0.0109545, t(0.975, 4) = 2.776445 (tables): half-width 0.0136018,
	 * [0.0143982, 0.0416018], a gain */
	double c[] = { 0.52, 0.54, 0.52, 0.54, 0.52 }, e[] = { 0.5, 0.5, 0.5, 0.5, 0.5 };
	f1_paired(c, e, 5, &p);
	cr_expect(fabs(p.sd - sqrt(0.00012)) < 1e-12, "sd %.7f", p.sd);
	cr_expect(fabs(p.lo - 0.0143982) < 1e-6 && fabs(p.hi - 0.0416018) < 1e-6, "[%.7f, %.7f]",
		  p.lo, p.hi);
	cr_expect(p.gain == 1);
	/* one run: the difference, no interval */
	f1_paired(c, e, 1, &p);
	cr_expect(fabs(p.mean - 0.02) < 1e-12 && isnan(p.sd) && isnan(p.lo) && isnan(p.hi));
	cr_expect(p.gain == 0);
}
