/* capped_notes.h: messages about a file's rows on stderr, at most
 * NOTES_SHOWN of them, then one line with how many more there were, so a
 * file of a million bad rows costs one screen, not a million lines. */
#ifndef PEAKFIT_CAPPED_NOTES_H
#define PEAKFIT_CAPPED_NOTES_H

enum { NOTES_SHOWN = 20 };

struct capped_notes {
    const char *path; /* the file the notes are about */
    int shown, more;
};

/* Prints "peakfit: PATH:LINE: " and the formatted text, or counts it. */
void note_row(struct capped_notes *n, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Counts rows already past the cap elsewhere (e.g. a table's uncounted bad rows). */
void note_more(struct capped_notes *n, int count);
/* "peakfit: PATH: ... and N more (WHAT)", when some were not shown. */
void notes_end(const struct capped_notes *n, const char *what);
#endif
