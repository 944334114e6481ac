// SPDX-License-Identifier: MIT
// Counts heap allocations made by code linked into the test executable (our static libraries included): the
// tests link with -Wl,--wrap=malloc,calloc,realloc,free, so every call lands in alloc_count.c first.
#pragma once

#include <stdint.h>

/// Allocations (malloc, calloc, realloc) since the program started.
uint64_t kcc_test_allocation_count( void );
