// guard.hpp: how every C entry point turns C++ exceptions into a pf_status.
#pragma once
#include <new>
#include <string>
#include <c10/util/Exception.h>
#include "peakfit_torch.h"

// Keeps message (stack frames cut) as this thread's pf_last_error(), in a
// fixed buffer: it allocates nothing, so it is safe when memory has run out.
void pf_set_last_error(const char *message) noexcept;
inline void pf_set_last_error(const std::string &message) { pf_set_last_error(message.c_str()); }

// Records a c10::Error without its backtrace; PF_ERR_OOM when it is an
// allocation failure (recognised by its type or by the allocator that
// threw it, never by the wording of arbitrary messages), else PF_ERR.
pf_status pf_fail_c10(const c10::Error &e) noexcept;

// Every entry point's body runs inside PF_GUARD_BEGIN / PF_GUARD_END so
// that no exception crosses into C. The handlers allocate nothing.
#define PF_GUARD_BEGIN try {
#define PF_GUARD_END                                                 \
    }                                                                \
    catch (const c10::Error &e) {                                    \
        return pf_fail_c10(e);                                       \
    }                                                                \
    catch (const std::bad_alloc &) {                                 \
        pf_set_last_error("out of memory (std::bad_alloc)");         \
        return PF_ERR_OOM;                                           \
    }                                                                \
    catch (const std::exception &e) {                                \
        pf_set_last_error(e.what());                                 \
        return PF_ERR;                                               \
    }                                                                \
    catch (...) {                                                    \
        pf_set_last_error("unknown C++ exception");                  \
        return PF_ERR;                                               \
    }                                                                \
    return PF_OK;
