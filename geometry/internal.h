// SPDX-License-Identifier: MIT
// Internal interfaces shared by the geometry files (not installed).
#pragma once

#include "kcc/geometry.h"

// Overlap of two valid shapes by GJK distance (touching within KCC_LINEAR_SLOP counts). Any kinds, sectors wider
// than pi included (split into two convex halves). Used by kcc_overlap for pairs without an analytic test.
// Defined in gjk.c.
bool kcc_gjk_overlap( const kcc_shape* a, const kcc_shape* b );

// Circle against any valid shape, exact (closest point). Defined in overlap.c; used by the batch queries.
bool kcc_circle_overlaps_shape( kcc_circle c, const kcc_shape* s );
