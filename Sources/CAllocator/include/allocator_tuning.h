/* glibc allocator settings healthd applies at startup (mallopt is in <malloc.h>, which Swift's
 * Glibc module does not export). Mechanism only: the values and why are in
 * Sources/healthd/AllocatorTuning.swift. */
#pragma once

/* mallopt(M_MMAP_THRESHOLD, mmap_threshold) and mallopt(M_TRIM_THRESHOLD, trim_threshold).
 * Returns 1 when glibc took both, 0 otherwise. */
int ohk_set_allocator_thresholds(int mmap_threshold, int trim_threshold);
