#include "allocator_tuning.h"

#include <malloc.h>

int ohk_set_allocator_thresholds(int mmap_threshold, int trim_threshold) {
    int mmap_taken = mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    int trim_taken = mallopt(M_TRIM_THRESHOLD, trim_threshold);
    return mmap_taken == 1 && trim_taken == 1;
}
