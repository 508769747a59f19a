/* The automated sweep's choices on made-up points with a known floor, knee
 * and slope: floor points do not pull A; it doubles above the knee while
 * the room holds, fills the widest gap when it does not, stops at the
 * target; in budget mode it steps from the largest measured point (at
 * most 8x before a line exists) and stops one sample short of the budget. */
#include <math.h>
#include <string.h>
#include "autosweep/auto_choose.h"
#include "tests/auto_fit_fixture.h"
#include "tests/observation_fixture.h"
#include "tests/check.h"

enum { S = 256 };
#define FLOOR_MIB 2268.5
#define C_MIB 1539.0
#define A_MIB 1.845
#define BASE_MIB 300.0

/* A point of SmolLM2's shape: peak = max(floor, C + A*T), RSS 10% more. */
static void add(struct observations *o, int b)
{
    struct observation *ob = observation_fixture_add(o, b, S);
    double line = C_MIB + A_MIB * ob->tokens;
    ob->tensor_mib = fmax(FLOOR_MIB, line);
    ob->rss_mib = 1.1 * ob->tensor_mib;
    ob->baseline_mib = BASE_MIB;
    ob->phase_mib[PF_PHASE_FORWARD] = 0.5 * line;
    ob->phase_mib[PF_PHASE_BACKWARD] = ob->tensor_mib;
    ob->phase_mib[PF_PHASE_OPTIMIZER] = FLOOR_MIB;
}

static void fit(struct observations *o, struct auto_fit *f) { auto_fit_fixture_read(o, S, f); }

int main(void)
{
    static struct observation pts[24];
    struct observations o = {.ok = pts};
    struct auto_fit f;
    struct auto_goal g = {.target = 0.02, .room_mib = 100000, .seq_len = S};
    char why[256] = "";
    int coarse[AUTO_N_COARSE];

    fit(&o, &f);
    CHECK(auto_coarse_missing(&f, &g, coarse) == 3 && coarse[0] == 1 && coarse[2] == 4, "the coarse start");
    add(&o, 1), add(&o, 2), add(&o, 4);
    fit(&o, &f);
    CHECK(f.n_above == 2 && f.knee_tokens == S, "b = 1 on the floor, 2 and 4 above: %d, knee %g", f.n_above, f.knee_tokens);
    CHECK(fabs(f.a - A_MIB) < 1e-9, "A from the points above the knee only: %g", f.a);
    CHECK(auto_next_batch(&f, &g, why, sizeof why) == 8, "doubling above the knee");

    /* Room for b = 6 but not 7 (RSS above baseline; a line through two
     * points has no interval: its estimate + 10%): the largest that fits. */
    g.room_mib = 1.1 * 1.1 * (C_MIB + A_MIB * 6.5 * S);
    add(&o, 8);
    o.n_ok--; /* not measured yet */
    fit(&o, &f);
    int b = auto_next_batch(&f, &g, why, sizeof why);
    CHECK(b == 6, "the largest batch whose prediction fits the room: %d", b);

    /* Nothing larger fits: the widest gap above the knee is halved. */
    g.room_mib = 1.1 * 1.1 * (C_MIB + A_MIB * 4.5 * S);
    b = auto_next_batch(&f, &g, why, sizeof why);
    CHECK(b == 3, "the gap between 2 and 4: %d", b);

    /* Three points above the knee on an exact line: the target is met. */
    g.room_mib = 100000;
    add(&o, 8);
    fit(&o, &f);
    CHECK(f.n_above == 3 && f.a_rel < 0.001, "A's interval: %g with %d points", f.a_rel, f.n_above);
    CHECK(auto_next_batch(&f, &g, why, sizeof why) == 0 && strstr(why, "within the target"), "stops: %s", why);

    /* Budget mode: from b = 1 alone, by arithmetic (the true slope, state
     * as the floor), then from the measured points; never over the budget. */
    struct observations ob = {.ok = pts + 8};
    struct auto_goal bg = {.budget_mib = BASE_MIB + 1.1 * (C_MIB + A_MIB * 12.5 * S), .room_mib = 100000, .seq_len = S,
                           .arith_fixed_mib = FLOOR_MIB, .arith_per_token_mib = A_MIB};
    fit(&ob, &f);
    CHECK(auto_coarse_missing(&f, &bg, coarse) == 1 && coarse[0] == 1, "budget mode starts at b = 1 alone");
    add(&ob, 1);
    int runs = 1;
    for (fit(&ob, &f); (b = auto_next_batch(&f, &bg, why, sizeof why)) > 0 && runs < 10; fit(&ob, &f)) {
        CHECK(BASE_MIB + 1.1 * fmax(FLOOR_MIB, C_MIB + A_MIB * b * S) <= bg.budget_mib, "b = %d is over the budget", b);
        add(&ob, b);
        runs++;
    }
    double peak;
    CHECK(auto_largest_within(&f, bg.budget_mib, &peak) == 12, "the largest within the budget: %d (%s)",
          auto_largest_within(&f, bg.budget_mib, &peak), why);
    CHECK(runs <= 5, "%d runs", runs);

    /* A budget far above b = 1: the arithmetic alone, unchecked by a line,
     * steps up (at most 8x), never straight to the edge (24 GiB once
     * jumped from b = 1 to 5206). */
    struct observations big = {.ok = pts + 20};
    bg.budget_mib = BASE_MIB + 1.1 * (C_MIB + A_MIB * 5000.5 * S);
    bg.room_mib = bg.budget_mib;
    add(&big, 1);
    fit(&big, &f);
    b = auto_next_batch(&f, &bg, why, sizeof why);
    CHECK(b == 8, "a step up from b = 1 without a line: %d (%s)", b, why);
    CHECK_DONE();
}
