/* One way to report a failed confinement step: "<step>: <what>[: <strerror>]". */
#ifndef OHK_STEP_ERROR_H
#define OHK_STEP_ERROR_H

#include <stddef.h>

/* Writes the message into err (when err is not NULL) and returns -1, so a
   failing step can `return ohk_step_fail(...)`. errnum 0 means no errno part. */
int ohk_step_fail(char *err, size_t err_len, const char *step, int errnum,
                  const char *what_format, ...)
    __attribute__((format(printf, 5, 6)));

#endif
