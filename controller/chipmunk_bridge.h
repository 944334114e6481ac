// SPDX-License-Identifier: MIT
// The one place where Chipmunk's double (cpFloat) meets cglm's float. Nothing else in kcc2d converts between them.
// Replays must be bit-identical and the controller's float position exactly what Chipmunk sees, so every narrowing
// rounds once, here; tests/test_controller_bridge.c checks the rounding bit by bit in every build type.
#pragma once

#include "kcc/base.h"

#include <chipmunk/chipmunk.h>

/// double -> float, rounded to nearest.
static inline float kcc_bridge_to_float( double x )
{
	return (float)x;
}

/// float -> double (exact).
static inline double kcc_bridge_to_double( float x )
{
	return (double)x;
}

/// cpVect -> vec2s with each component rounded.
static inline vec2s kcc_bridge_from_cpv( cpVect v )
{
	vec2s r = { { kcc_bridge_to_float( v.x ), kcc_bridge_to_float( v.y ) } };
	return r;
}

/// vec2s -> cpVect (exact).
static inline cpVect kcc_bridge_to_cpv( vec2s v )
{
	return cpv( kcc_bridge_to_double( v.x ), kcc_bridge_to_double( v.y ) );
}

/// World point (double) relative to a float origin, rounded once: the controller works in a frame centred on the
/// character so that float precision is spent near the character, not on the distance to the world origin.
static inline vec2s kcc_bridge_relative( cpVect world, vec2s origin )
{
	vec2s r = { { kcc_bridge_to_float( world.x - (double)origin.x ), kcc_bridge_to_float( world.y - (double)origin.y ) } };
	return r;
}

/// origin + local as a Chipmunk point (double, not rounded).
static inline cpVect kcc_bridge_world( vec2s origin, vec2s local )
{
	return cpv( (double)origin.x + (double)local.x, (double)origin.y + (double)local.y );
}

/// origin + local, computed in double and rounded once (the character's new float position).
static inline vec2s kcc_bridge_offset( vec2s origin, vec2s local )
{
	vec2s r = { { kcc_bridge_to_float( (double)origin.x + (double)local.x ),
				  kcc_bridge_to_float( (double)origin.y + (double)local.y ) } };
	return r;
}
