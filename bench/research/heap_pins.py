#!/usr/bin/env python3
"""bench/research/heap_pins.py: what keeps the free holes of a process's main heap apart (bench only).

    python3 bench/research/heap_pins.py ALLOCS_LOG [--gap BYTES]

ALLOCS_LOG is an rss_trace.c allocation log (RSS_TRACE_ALLOCS=1: every block,
"a|f chunk_bytes address mmapped thread [callers]"). Replays it and prints:

1. the forward's allocations: from the first 4.5 MiB block (SmolLM2's
   [8, 256, 576] fp32 activation, 4718608 bytes or more) to the first block
   over 400 MB (the logits), counted by size, on each thread;
2. at the replay's peak of (main heap's extent + live mmapped bytes), a
   stand-in for RSS: the heap's extent, live bytes in it, its holes of at
   least --gap bytes (default 512 KiB), and the small blocks (under 4 KiB)
   that sit between two such holes or beside one, by size and by callers
   (RSS_TRACE_BT=2's names), most frequent first.

The main heap is the brk heap (addresses below 0x700000000000, not mmapped).
Blocks a process made before rss_trace.so's constructor ran (a C++
program's libraries' static initialisers) are not in the log: the extent
counts them as holes."""
import collections
import sys

FORWARD_FIRST = 4718608
LOGITS = 400_000_000


def events(path):
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split(" ")
            if len(p) >= 5:
                yield p[0], int(p[1]), int(p[2], 16), p[3] == "1", p[4] == "1", " ".join(p[5:])


def in_brk(ptr, mmapped):
    return not mmapped and ptr < 0x700000000000


def forward_counts(path):
    started = False
    sizes = collections.Counter()
    threads = collections.Counter()
    for op, size, _ptr, _mm, other, _callers in events(path):
        if op != "a":
            continue
        if not started and size >= FORWARD_FIRST and size < 2 * FORWARD_FIRST:
            started = True
        if not started:
            continue
        if size > LOGITS:
            break
        sizes[size if size < 4096 else "4 KiB or more"] += 1
        threads["other" if other else "main"] += 1
    return sizes, threads


def peak_event(path):
    live, top, start, live_brk, live_all, best, n = {}, 0, None, 0, 0, (-1, 0), 0
    for op, size, ptr, mm, _other, _callers in events(path):
        n += 1
        if op == "a":
            live[ptr] = (size, mm)
            live_all += size
            if in_brk(ptr, mm):
                live_brk += size
                top = max(top, ptr + size)
                start = ptr if start is None else min(start, ptr)
        elif ptr in live:
            s, m = live.pop(ptr)
            live_all -= s
            if in_brk(ptr, m):
                live_brk -= s
        if start is not None and (top - start) + (live_all - live_brk) > best[0]:
            best = ((top - start) + (live_all - live_brk), n)
    return best[1]


def heap_at(path, stop):
    live, n = {}, 0
    for op, size, ptr, mm, _other, callers in events(path):
        n += 1
        if op == "a":
            live[ptr] = (size, mm, callers)
        else:
            live.pop(ptr, None)
        if n >= stop:
            break
    brk = sorted((p, v) for p, v in live.items() if in_brk(p, v[1]))
    mmapped = sum(v[0] for p, v in live.items() if not in_brk(p, v[1]))
    return brk, mmapped


def main():
    args = sys.argv[1:]
    gap = 512 * 1024
    if "--gap" in args:
        i = args.index("--gap")
        gap = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    path = args[0]
    sizes, threads = forward_counts(path)
    print(f"forward: {sum(threads.values())} allocations ({threads['main']} main thread, "
          f"{threads['other']} others); by chunk size, most frequent:")
    print("  " + ", ".join(f"{k}: {v}" for k, v in sizes.most_common(8)))
    stop = peak_event(path)
    brk, mmapped = heap_at(path, stop)
    extent = (brk[-1][0] + brk[-1][1][0]) - brk[0][0]
    live = sum(v[0] for _p, v in brk)
    holes, between, beside = [], collections.Counter(), collections.Counter()
    ends = [(p - 16, p - 16 + v[0]) for p, v in brk]  # chunk start, end
    room = [ends[i + 1][0] - ends[i][1] for i in range(len(ends) - 1)]  # free after chunk i
    holes = [r for r in room if r >= gap]
    for i in range(1, len(brk) - 1):
        size, _mm, callers = brk[i][1]
        if size >= 4096:
            continue
        key = (size, " ".join(callers.split(" ")[1:6]) or "(no callers logged)")
        lo, hi = room[i - 1] >= gap, room[i] >= gap
        if lo and hi:
            between[key] += 1
        elif lo or hi:
            beside[key] += 1
    mib = 1 / 1048576
    print(f"peak (event {stop}): main heap extent {extent * mib:.1f} MiB, live in it {live * mib:.1f} MiB, "
          f"live mmapped {mmapped * mib:.1f} MiB")
    print(f"holes of {gap} bytes or more: {len(holes)}, {sum(holes) * mib:.1f} MiB")
    for title, counts in (("small blocks between two holes", between), ("small blocks beside one hole", beside)):
        print(f"{title}: {sum(counts.values())}")
        for (size, callers), c in counts.most_common(8):
            print(f"  {c} x {size} bytes: {callers}")


if __name__ == "__main__":
    main()
