// SPDX-License-Identifier: MIT
// What the cast tests (test_geometry_cast.c, test_geometry_cast_fast.c) judge a cast by, written once: the distance
// after a move, the closest approach along a path, the tolerance on a fraction, and a shape's printout.
#pragma once

#include "kcc/geometry.h"

#include <math.h>
#include <stddef.h>

static inline void print_shape( const kcc_shape* s )
{
	const float* f = (const float*)&s->circle;
	int n = (int)( ( sizeof( kcc_shape ) - offsetof( kcc_shape, circle ) ) / sizeof( float ) );
	print_error( "shape type %d:", s->type );
	for ( int i = 0; i < n && i < 40; ++i )
	{
		print_error( " %.9g", f[i] );
	}
	print_error( "\n" );
}

// The distance between the target and the moving shape moved by offset.
static inline float distance_after( const kcc_shape* moving, vec2s offset, const kcc_shape* target )
{
	kcc_shape moved = kcc_shape_translate( moving, offset );
	return kcc_distance( &moved, target ).distance;
}

// The same at fraction t of translation.
static inline float distance_at( const kcc_shape* moving, vec2s translation, float t, const kcc_shape* target )
{
	return distance_after( moving, kcc_v2( t * translation.x, t * translation.y ), target );
}

// The smallest distance along the path: convex in t for convex shapes, so a ternary search finds it (the ends
// checked too).
static inline float closest_approach( const kcc_shape* a, vec2s d, const kcc_shape* b )
{
	double lo = 0.0, hi = 1.0;
	for ( int k = 0; k < 80; ++k )
	{
		double m1 = lo + ( hi - lo ) / 3.0, m2 = hi - ( hi - lo ) / 3.0;
		if ( distance_at( a, d, (float)m1, b ) <= distance_at( a, d, (float)m2, b ) )
		{
			hi = m2;
		}
		else
		{
			lo = m1;
		}
	}
	float lowest = distance_at( a, d, (float)( 0.5 * ( lo + hi ) ), b );
	lowest = fminf( lowest, distance_at( a, d, 0.0f, b ) );
	return fminf( lowest, distance_at( a, d, 1.0f, b ) );
}

// The same hit, at fractions within 2 tolerance + tolerance / closing speed (the reference's normal against the
// motion, at least 1e-3): a glancing contact's fraction is ill-conditioned.
static inline bool fraction_agrees( vec2s d, kcc_cast_output fast, kcc_cast_output exact, float tolerance )
{
	if ( fast.hit != exact.hit )
	{
		return false;
	}
	float closing = -( exact.normal.x * d.x + exact.normal.y * d.y );
	float allowed = 2.0f * tolerance + tolerance / ( closing > 1.0e-3f ? closing : 1.0e-3f );
	return fast.hit == false || fabsf( fast.fraction - exact.fraction ) <= allowed;
}
