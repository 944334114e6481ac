// SPDX-License-Identifier: MIT
// A box tile (a static shape with sides on the axes, kcc_static_shape.rectangle) in a move's local frame: when its
// polygon has the exact normals of a rectangle, and its corners as the sweeps cast it without converting it. Included
// by the conversion (chipmunk_shapes.c), the sweeps (sweep.c) and their tests.
#pragma once

#include "chipmunk_bridge.h"
#include "internal.h"

#include "../geometry/internal.h"

// Sides of an axis-aligned rectangle whose squares are normal floats: sqrtf( w * w ) is then |w| exactly, so the
// side's normal is exactly a unit axis.
#define KCC_EXACT_SIDE_MIN 0x1p-63f
#define KCC_EXACT_SIDE_MAX 0x1p63f

// Whether a and b, the signed lengths of two consecutive sides of an axis-aligned rectangle, are in the exact range.
static inline bool kcc_exact_sides( float a, float b )
{
	float aa = fabsf( a ), ab = fabsf( b );
	return aa >= KCC_EXACT_SIDE_MIN && aa <= KCC_EXACT_SIDE_MAX && ab >= KCC_EXACT_SIDE_MIN && ab <= KCC_EXACT_SIDE_MAX;
}

// Whether a rectangle's sides w (along x) and h (along y) are in the exact range and turn left: w then h when the
// first side is along x, h then w of the opposite sign when it is along y.
static inline bool kcc_rectangle_sides_ok( float w, float h, bool y_first )
{
	return kcc_exact_sides( w, h ) && ( ( w > 0.0f ) == ( h > 0.0f ) ) != y_first;
}

/// A candidate box tile (its source a kcc_static_shape.rectangle_in_range) in the local frame as the casts take it
/// without converting it: its lowest and highest corners, the values kcc_world_convert's polygon has. False when that
/// polygon would not be a box the casts take as it is (a side rounded out of the exact range). Its values are in range
/// (KCC_BOX_TILE_RANGE). Inline: the sweeps ask it of every box tile they cast.
KCC_ALWAYS_INLINE bool kcc_local_box( const kcc_candidate* candidate, vec2s origin, vec2s* lo, vec2s* hi )
{
	const kcc_static_shape* s = candidate->source;
	vec2s a, c;
	if ( s->corners_in_bb )
	{
		// Points 0 and 2 are corners of its bb, which the candidate's bounds hold in the local frame already.
		kcc_aabb b = candidate->bounds;
		a = kcc_v2( s->corner_right ? b.max.x : b.min.x, s->corner_top ? b.max.y : b.min.y );
		c = kcc_v2( s->corner_right ? b.min.x : b.max.x, s->corner_top ? b.min.y : b.max.y );
	}
	else
	{
		a = kcc_bridge_relative( kcc_static_shape_point( s, 0 ), origin );
		c = kcc_bridge_relative( kcc_static_shape_point( s, 2 ), origin );
	}
	// kcc_local_rectangle's test of its sides (kcc_convert_static's of its values holds in range).
	if ( kcc_rectangle_sides_ok( c.x - a.x, c.y - a.y, s->rectangle_y_first ) == false )
	{
		return false;
	}
	*lo = kcc_v2( kcc_minf( a.x, c.x ), kcc_minf( a.y, c.y ) );
	*hi = kcc_v2( kcc_maxf( a.x, c.x ), kcc_maxf( a.y, c.y ) );
	return true;
}
