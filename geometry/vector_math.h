// SPDX-License-Identifier: MIT
// Small vec2s helpers for the geometry files (not installed): plain float arithmetic the compiler inlines.
#pragma once

#include "kcc/base.h"

static inline vec2s kcc_sub( vec2s a, vec2s b )
{
	return kcc_v2( a.x - b.x, a.y - b.y );
}

static inline vec2s kcc_add( vec2s a, vec2s b )
{
	return kcc_v2( a.x + b.x, a.y + b.y );
}

static inline vec2s kcc_scale( vec2s a, float s )
{
	return kcc_v2( a.x * s, a.y * s );
}

static inline float kcc_dot( vec2s a, vec2s b )
{
	return a.x * b.x + a.y * b.y;
}

static inline float kcc_cross( vec2s a, vec2s b )
{
	return a.x * b.y - a.y * b.x;
}
