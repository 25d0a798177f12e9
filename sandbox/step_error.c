/* GNU strerror_r, which returns the message. */
#define _GNU_SOURCE

#include "step_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ohk_step_fail(char *err, size_t err_len, const char *step, int errnum,
                  const char *what_format, ...) {
    if (err == NULL || err_len == 0) {
        return -1;
    }
    char what[512];
    va_list args;
    va_start(args, what_format);
    vsnprintf(what, sizeof what, what_format, args);
    va_end(args);

    if (errnum != 0) {
        /* strerror_r (GNU variant) may return a static string instead of
           filling buf, so use its return value. */
        char buf[128];
        const char *reason = strerror_r(errnum, buf, sizeof buf);
        snprintf(err, err_len, "%s: %s: %s", step, what, reason);
    } else {
        snprintf(err, err_len, "%s: %s", step, what);
    }
    return -1;
}
