/* The points auto --slices chooses (autosweep/auto_slice_choose.h), on
 * made-up points of Qwen2.5-0.5B's 1-layer slice at s = 128: peak =
 * max(floor, forward's line + the logits' gradient), forward's line
 * starting at the weights and optimizer state (the gradients are not live
 * in it). A depth that does not measure the rise takes b = 1 and 2 and
 * stops; the one that does takes the two batches predicted above the knee
 * from the start (b = 7 and 8, as measured), or b = 1 first where it is
 * measured and then those from its forward peak, further when a guess
 * lands on the floor; it stops on two points above the knee or when the
 * next would not fit the room. */
#include <math.h>
#include <string.h>
#include "autosweep/auto_slice_choose.h"
#include "tests/auto_fit_fixture.h"
#include "tests/observation_fixture.h"
#include "tests/check.h"

enum { S = 128 };
#define FLOOR_MIB 3343.434
#define FWD0_MIB 1728.678 /* forward's line at T = 0: the states less the gradients */
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

static int next_is(const struct auto_fit *f, const struct auto_slice_goal *g, int n, int b0, int b1)
{
    int next[AUTO_SLICE_MAX_NEXT] = {0};
    char why[256] = "";
    int got = auto_slice_next(f, g, next, why, sizeof why);
    if (got != n || (n > 0 && next[0] != b0) || (n > 1 && next[1] != b1)) {
        fprintf(stderr, "  got %d: %d %d (%s)\n", got, next[0], next[1], why);
        return 0;
    }
    return 1;
}

static const char *stop_why(const struct auto_fit *f, const struct auto_slice_goal *g, char *why, size_t size)
{
    int next[AUTO_SLICE_MAX_NEXT];
    return auto_slice_next(f, g, next, why, size) == 0 ? why : "(not stopped)";
}

int main(void)
{
    static struct observation pts[24];
    struct auto_fit f;
    char why[256];
    /* Three depths (1, 2, 4): the rise at depth 1, predicted from the start at b = 7. */
    struct auto_slice_goal g = {.seq_len = S, .rise_depth = 1, .rise = 1, .predicted = 7, .forward_at0_mib = FWD0_MIB,
                                .excess_per_token_mib = EXCESS, .room_mib = 100000, .predicted_peak_mib = 3500};
    struct observations o = {.ok = pts};
    fit(&o, &f);
    CHECK(next_is(&f, &g, 2, 7, 8), "the two predicted above the knee, nothing below it");
    add(&o, 7, EXCESS), add(&o, 8, EXCESS);
    fit(&o, &f);
    CHECK(!strcmp(stop_why(&f, &g, why, sizeof why), "2 points above the knee: the step's rise over forward's"),
          "two above: %s", why);

    /* A depth that does not measure the rise: b = 1 and 2, then stops. */
    struct auto_slice_goal deep = g;
    deep.rise = 0, deep.predicted = 6;
    struct observations d = {.ok = pts + 4};
    fit(&d, &f);
    CHECK(next_is(&f, &deep, 2, 1, 2), "b = 1 and 2 below");
    add(&d, 1, EXCESS), add(&d, 2, EXCESS);
    fit(&d, &f);
    CHECK(!strcmp(stop_why(&f, &deep, why, sizeof why), "b = 1 and 2 give this depth's floor and forward line; the "
                  "step's rise is measured at 1 layer"), "a deeper slice stops: %s", why);

    /* Two depths: b = 1 first (the fit's residual), then the knee from its
     * forward peak and the arithmetic's T = 0: b = 7 and 8. */
    struct auto_slice_goal two = g;
    two.with_one = 1;
    struct observations w = {.ok = pts + 8};
    fit(&w, &f);
    CHECK(next_is(&f, &two, 1, 1, 0), "b = 1 alone first");
    add(&w, 1, EXCESS);
    fit(&w, &f);
    CHECK(next_is(&f, &two, 2, 7, 8), "then the two above the knee from b = 1's forward peak");
    add(&w, 7, EXCESS), add(&w, 8, EXCESS);
    fit(&w, &f);
    CHECK(!strcmp(stop_why(&f, &two, why, sizeof why), "2 points above the knee: the step's rise over forward's"),
          "three points, two above: %s", why);

    /* The rise smaller than guessed (0.2 MiB/token): b = 7 and 8 on the
     * floor; the next guess goes half as far again past them. */
    struct observations low = {.ok = pts + 12};
    add(&low, 7, 0.2), add(&low, 8, 0.2);
    fit(&low, &f);
    CHECK(next_is(&f, &g, 2, 12, 13), "past the floor's largest batch");

    /* The arithmetic does not know the step: b = 1 and 2, then the two
     * above the knee from forward's line through them. */
    struct auto_slice_goal unknown = g;
    unknown.predicted = 0, unknown.forward_at0_mib = NAN, unknown.predicted_peak_mib = 0;
    struct observations u = {.ok = pts + 14};
    fit(&u, &f);
    CHECK(next_is(&f, &unknown, 2, 1, 2), "b = 1 and 2 first");
    add(&u, 1, EXCESS), add(&u, 2, EXCESS);
    fit(&u, &f);
    CHECK(next_is(&f, &unknown, 2, 7, 8), "then above the knee");

    /* b = 1 failed: the points above the knee are counted against their
     * own optimizer step, not a failed point's 0 MiB. */
    static struct observation b1[1];
    struct observations failed = {.ok = pts + 18, .failed = b1, .n_failed = 1};
    b1[0] = (struct observation){.batch = 1, .seq_len = S, .tokens = S};
    strcpy(b1[0].model, "m"), strcpy(b1[0].device, "cpu"), strcpy(b1[0].technique, "full");
    strcpy(b1[0].attention, "sdpa");
    add(&failed, 2, EXCESS), add(&failed, 3, EXCESS);
    fit(&failed, &f);
    CHECK(!strcmp(stop_why(&f, &unknown, why, sizeof why), "b = 1 failed, with 0 points above the knee"),
          "a failed b = 1: %s", why);

    /* No room: the predicted points are not chosen from the start, and
     * past b = 1 and 2 it says why it stops. */
    struct auto_slice_goal tight = g;
    tight.room_mib = FLOOR_MIB + 200;
    struct observations t = {.ok = pts + 20};
    fit(&t, &f);
    CHECK(next_is(&f, &tight, 2, 1, 2), "no room for b = 8 by arithmetic: b = 1 and 2");
    add(&t, 1, EXCESS), add(&t, 2, EXCESS);
    fit(&t, &f);
    CHECK(!strcmp(stop_why(&f, &tight, why, sizeof why), "b = 7, the next above the knee, would not fit the memory "
                  "free here"), "no room: %s", why);
    CHECK_DONE();
}
