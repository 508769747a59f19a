// errors.cpp: the last error message, kept per thread in a fixed buffer,
// and which exceptions are allocation failures.
#include <cstring>
#include "guard.hpp"
#include "torch_compat.hpp"

static thread_local char last_error[1024];

void pf_set_last_error(const char *message) noexcept
{
    // c10 messages may carry a C++ backtrace after the sentence; C callers
    // want the sentence, not the stack.
    size_t n = strlen(message);
    for (const char *frames : {"\nException raised from", "\nframe #"}) {
        const char *at = strstr(message, frames);
        if (at && (size_t)(at - message) < n)
            n = (size_t)(at - message);
    }
    if (n >= sizeof last_error)
        n = sizeof last_error - 1;
    memmove(last_error, message, n);
    last_error[n] = '\0';
}

static bool is_allocation_failure(const c10::Error &e) noexcept
{
    // What the CUDA caching allocator throws.
    if (pf_compat::is_out_of_memory_error(e))
        return true;
    // libtorch's CPU allocator fails with a plain c10::Error from its
    // CAFFE_ENFORCE, whose message starts with that check's source location.
    static const char cpu_allocator[] = "[enforce fail at alloc_cpu.cpp:";
    // MPS's allocator refuses with a plain c10::Error from its TORCH_CHECK
    // (Python sees a RuntimeError, not torch.OutOfMemoryError), whose
    // message starts so (not yet seen on a Mac: docs/building.md).
    static const char mps_allocator[] = "MPS backend out of memory";
    const char *msg = e.msg().c_str();
    return strncmp(msg, cpu_allocator, sizeof cpu_allocator - 1) == 0 ||
           strncmp(msg, mps_allocator, sizeof mps_allocator - 1) == 0;
}

pf_status pf_fail_c10(const c10::Error &e) noexcept
{
    pf_set_last_error(e.what_without_backtrace());
    return is_allocation_failure(e) ? PF_ERR_OOM : PF_ERR;
}

extern "C" const char *pf_last_error(void) { return last_error; }
