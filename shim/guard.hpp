// guard.hpp: how every C entry point turns C++ exceptions into a pf_status.
#pragma once
#include <string>
#include "peakfit_torch.h"

void pf_set_last_error(const std::string &message);
pf_status pf_status_of_message(const char *message);

// Every entry point's body runs inside PF_GUARD_BEGIN / PF_GUARD_END so
// that no exception crosses into C; an allocation failure becomes PF_ERR_OOM.
#define PF_GUARD_BEGIN try {
#define PF_GUARD_END                                                 \
    }                                                                \
    catch (const std::bad_alloc &) {                                 \
        pf_set_last_error("out of memory (std::bad_alloc)");         \
        return PF_ERR_OOM;                                           \
    }                                                                \
    catch (const std::exception &e) {                                \
        pf_set_last_error(e.what());                                 \
        return pf_status_of_message(e.what());                       \
    }                                                                \
    catch (...) {                                                    \
        pf_set_last_error("unknown C++ exception");                  \
        return PF_ERR;                                               \
    }                                                                \
    return PF_OK;
