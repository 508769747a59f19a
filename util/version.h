/* version.h: peakfit's version, written once: `peakfit --version` prints
 * it (with libtorch's), and anything that records which peakfit made a
 * file takes it from here. */
#ifndef PEAKFIT_VERSION_H
#define PEAKFIT_VERSION_H

#define PEAKFIT_VERSION "0.3.0"
#endif
