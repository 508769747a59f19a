// errors.cpp: the last error message, kept per thread.
#include <cstring>
#include "guard.hpp"

static thread_local std::string last_error;

void pf_set_last_error(const std::string &message)
{
    // c10 messages carry a C++ backtrace after the first line; C callers
    // want the sentence, not the stack.
    last_error = message.substr(0, message.find("\nException raised from"));
}

pf_status pf_status_of_message(const char *message)
{
    // c10's CPU allocator reports a failed allocation as a c10::Error, not
    // std::bad_alloc.
    if (strstr(message, "not enough memory") || strstr(message, "out of memory"))
        return PF_ERR_OOM;
    return PF_ERR;
}

extern "C" const char *pf_last_error(void) { return last_error.c_str(); }
