/* The points auto --slices chooses (autosweep/auto_slice_choose.h), on
 * made-up points of Qwen2.5-0.5B's 1-layer slice at s = 128: peak =
 * max(floor, forward's line + the logits' gradient). Every depth starts
 * with b = 1 and 2; a deeper one stops there; the shallowest goes to the
 * two smallest batches predicted above the knee (b = 7 and 8, as measured),
 * further when a guess lands on the floor, and stops on two points above
 * it or when the next would not fit the room. */
#include <math.h>
#include <string.h>
#include "autosweep/auto_slice_choose.h"
#include "tests/auto_fit_fixture.h"
#include "tests/observation_fixture.h"
#include "tests/check.h"

enum { S = 128 };
#define FLOOR_MIB 3343.434
#define FWD0_MIB 1728.678 /* forward's line at T = 0 */
#define FWD_A 1.2720
#define EXCESS 0.5796

static void add_sloped(struct observations *o, int b, double excess, double fwd_a)
{
    struct observation *ob = observation_fixture_add(o, b, S);
    double fwd = FWD0_MIB + fwd_a * ob->tokens;
    ob->tensor_mib = fmax(FLOOR_MIB, fwd + excess * ob->tokens);
    ob->rss_mib = ob->tensor_mib + 130;
    ob->baseline_mib = 300;
    ob->phase_mib[PF_PHASE_FORWARD] = fwd;
    ob->phase_mib[PF_PHASE_BACKWARD] = ob->tensor_mib;
    ob->phase_mib[PF_PHASE_OPTIMIZER] = FLOOR_MIB;
}

static void add(struct observations *o, int b, double excess) { add_sloped(o, b, excess, FWD_A); }

static void fit(struct observations *o, struct auto_fit *f) { auto_fit_fixture_read(o, S, f); }

int main(void)
{
    static struct observation pts[16];
    struct observations o = {.ok = pts};
    struct auto_fit f;
    struct auto_slice_goal g = {.seq_len = S, .shallowest = 1, .coarse = 2, .excess_per_token_mib = EXCESS,
                                .room_mib = 100000};
    char why[256] = "";
    int next[AUTO_SLICE_ABOVE];

    fit(&o, &f);
    CHECK(auto_slice_next(&f, &g, next, why, sizeof why) == 2 && next[0] == 1 && next[1] == 2, "b = 1 and 2 first");
    add(&o, 1, EXCESS), add(&o, 2, EXCESS);
    fit(&o, &f);
    g.shallowest = 0;
    CHECK(auto_slice_next(&f, &g, next, why, sizeof why) == 0 && strstr(why, "b = 1 and 2 give this depth's floor"),
          "a deeper slice stops at b = 2: %s", why);
    g.shallowest = 1;
    int n = auto_slice_next(&f, &g, next, why, sizeof why);
    CHECK(n == 3 && next[0] == 7 && next[1] == 8 && next[2] == 10, "the three smallest above the knee: %d (%d, %d, %d)",
          n, next[0], next[1], next[2]);

    /* The excess guessed too large (the real one 0.2): b = 7 and 8 on the
     * floor; the next guess goes half as far again past them. */
    struct observations low = {.ok = pts + 8};
    add(&low, 1, 0.2), add(&low, 2, 0.2), add(&low, 7, 0.2), add(&low, 8, 0.2);
    fit(&low, &f);
    n = auto_slice_next(&f, &g, next, why, sizeof why);
    CHECK(n == 3 && next[0] == 12 && next[1] == 15 && next[2] == 18, "past the floor's largest batch: %d (%d, %d, %d)", n,
          next[0], next[1], next[2]);

    /* Two above: one more, the third that leaves the step's line a residual. */
    add(&o, 7, EXCESS), add(&o, 8, EXCESS);
    fit(&o, &f);
    n = auto_slice_next(&f, &g, next, why, sizeof why);
    CHECK(n == 1 && next[0] == 12, "two above: the third next: %d (%d)", n, next[0]);
    /* Three above: done. */
    add(&o, 12, EXCESS);
    fit(&o, &f);
    CHECK(auto_slice_next(&f, &g, next, why, sizeof why) == 0 && !strcmp(why, "3 points above the knee: the step's "
          "rise over forward's"), "stops: %s", why);

    /* The excess known by arithmetic: a knee as near as b = 7 is measured
     * all the same; one past 8 times the coarse start's largest is not. */
    g.excess_known = 1;
    n = auto_slice_next(&f, &g, next, why, sizeof why);
    CHECK(n == 0 && strstr(why, "3 points above the knee"), "known excess, three above: %s", why);
    o.n_ok = 2;
    fit(&o, &f);
    CHECK(auto_slice_next(&f, &g, next, why, sizeof why) == 3 && next[0] == 7, "a near knee is measured");
    /* Forward rising 0.1 MiB/token under a floor 1600 MiB above it (as
     * Mistral-7B's 1-layer slice of full training): the knee past b = 18. */
    struct observations far = {.ok = pts + 12};
    struct auto_fit ff;
    add_sloped(&far, 1, 0.122, 0.1), add_sloped(&far, 2, 0.122, 0.1);
    fit(&far, &ff);
    CHECK(auto_slice_next(&ff, &g, next, why, sizeof why) == 0 &&
          !strcmp(why, "the knee is past b = 18, over 8 times the largest batch here: backward's rise over forward is "
                       "taken by arithmetic (the logits' gradient, vocabulary x 4 bytes a token)"), "far knee: %s", why);
    g.excess_known = 0;
    CHECK(auto_slice_next(&ff, &g, next, why, sizeof why) == 3, "a far knee with no known excess is measured");
    /* Two depths only: b = 1, 2 and 3 at each. */
    g.coarse = 3;
    CHECK(auto_slice_next(&f, &g, next, why, sizeof why) == 1 && next[0] == 3, "b = 3 with two depths");
    g.coarse = 2;

    /* b = 1 failed: b = 2 is the floor the others are counted against,
     * not a failed point's 0 MiB (which counted every point above it). */
    static struct observation b1[1];
    struct observations failed = {.ok = pts + 14, .failed = b1, .n_failed = 1};
    b1[0] = (struct observation){.batch = 1, .seq_len = S, .tokens = S};
    strcpy(b1[0].model, "m"), strcpy(b1[0].device, "cpu"), strcpy(b1[0].technique, "full");
    strcpy(b1[0].attention, "sdpa");
    add(&failed, 2, EXCESS), add(&failed, 3, EXCESS);
    fit(&failed, &ff);
    CHECK(auto_slice_next(&ff, &g, next, why, sizeof why) == 0 && !strcmp(why, "b = 1 failed, with 0 points above "
          "the knee"), "a failed b = 1: %s", why);

    /* No room for b = 7: it says so and stops. */
    o.n_ok = 2;
    fit(&o, &f);
    g.room_mib = FLOOR_MIB + 200;
    CHECK(auto_slice_next(&f, &g, next, why, sizeof why) == 0 &&
          !strcmp(why, "b = 7, the next above the knee, would not fit the memory free here"), "no room: %s", why);
    CHECK_DONE();
}
