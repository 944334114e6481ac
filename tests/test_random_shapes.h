// SPDX-License-Identifier: MIT
// Random shapes of every kind for the geometry tests (distance, casts, penetration): deterministic through the
// reference's generator, sizes around `size` near a centre, sectors of the openings or random ones.
#pragma once

#include "kcc/geometry.h"
#include "assert_recorder.h"
#include "test_reference.h"

#define PI_F 3.14159265358979323846f
#define DEG ( PI_F / 180.0f )

// ---------------------------------------------------------------------------------------------------------------
// Random shapes of every kind

enum
{
	K_CIRCLE,
	K_CAPSULE,
	K_AABB,
	K_OBB,
	K_POLYGON,
	K_ROUNDED_POLYGON,
	K_ROUNDED_BOX,
	K_SECTOR,
	K_COUNT
};

/// The sector openings, in degrees: i in 0..5 gives 10, 90, 179, 181, 270, 360.
static inline float sector_opening_degrees( int i )
{
	static const float openings[6] = { 10.0f, 90.0f, 179.0f, 181.0f, 270.0f, 360.0f };
	return openings[i < 0 ? 0 : ( i > 5 ? 5 : i )];
}

/// Convex kinds: every kind but a sector wider than pi.
static inline bool is_convex_kind( const kcc_shape* s )
{
	return s->type != KCC_SHAPE_SECTOR || s->sector.angle <= PI_F;
}

/// Fails the test when got is NaN or farther than tolerance from expected.
static inline void assert_near( float got, float expected, float tolerance )
{
	if ( fabsf( got - expected ) > tolerance || got != got )
	{
		print_error( "got %.9g expected %.9g (tolerance %.3g)\n", got, expected, tolerance );
		fail();
	}
}

static inline float uniform( kcc_ref_rng* rng, float lo, float hi )
{
	return kcc_ref_uniform( rng, lo, hi );
}

static inline kcc_shape random_polygon( kcc_ref_rng* rng, vec2s c, float size, float radius )
{
	for ( ;; )
	{
		int n = kcc_ref_int( rng, 3, KCC_MAX_POLYGON_VERTICES );
		vec2s points[KCC_MAX_POLYGON_VERTICES];
		float stretch = uniform( rng, 0.3f, 1.0f );
		float spin = uniform( rng, -PI_F, PI_F );
		for ( int i = 0; i < n; ++i )
		{
			// Angles spread around the circle (jittered), radii varied: a convex hull of 3 or more points.
			float angle = 2.0f * PI_F * ( (float)i + uniform( rng, 0.0f, 0.8f ) ) / (float)n;
			float r = size * uniform( rng, 0.5f, 1.0f );
			float x = r * cosf( angle ), y = stretch * r * sinf( angle );
			points[i] = kcc_v2( c.x + cosf( spin ) * x - sinf( spin ) * y, c.y + sinf( spin ) * x + cosf( spin ) * y );
		}
		kcc_shape s = kcc_make_polygon( points, n, radius );
		if ( kcc_shape_is_valid( &s ) )
		{
			return s;
		}
	}
}

static inline kcc_shape random_shape( kcc_ref_rng* rng, int kind, vec2s c, float size )
{
	switch ( kind )
	{
		case K_CIRCLE:
			return kcc_make_circle( c, size * uniform( rng, 0.05f, 1.0f ) );
		case K_CAPSULE:
		{
			float angle = uniform( rng, -PI_F, PI_F );
			float half = kcc_ref_int( rng, 0, 9 ) == 0 ? 0.0f : size * uniform( rng, 0.05f, 1.0f );
			vec2s e = kcc_v2( half * cosf( angle ), half * sinf( angle ) );
			float radius = kcc_ref_int( rng, 0, 9 ) == 0 ? 0.0f : size * uniform( rng, 0.02f, 0.6f );
			if ( half == 0.0f && radius == 0.0f )
			{
				radius = 0.1f * size;
			}
			return kcc_make_capsule( kcc_v2( c.x - e.x, c.y - e.y ), kcc_v2( c.x + e.x, c.y + e.y ), radius );
		}
		case K_AABB:
		{
			vec2s h = kcc_v2( size * uniform( rng, 0.05f, 1.0f ), size * uniform( rng, 0.05f, 1.0f ) );
			return kcc_make_aabb( kcc_v2( c.x - h.x, c.y - h.y ), kcc_v2( c.x + h.x, c.y + h.y ) );
		}
		case K_OBB:
		{
			vec2s h = kcc_v2( size * uniform( rng, 0.05f, 1.0f ), size * uniform( rng, 0.05f, 1.0f ) );
			return kcc_make_obb( c, h, uniform( rng, -PI_F, PI_F ) );
		}
		case K_POLYGON:
			return random_polygon( rng, c, size, 0.0f );
		case K_ROUNDED_POLYGON:
			return random_polygon( rng, c, size, size * uniform( rng, 0.02f, 0.4f ) );
		case K_ROUNDED_BOX:
		{
			vec2s h = kcc_v2( size * uniform( rng, 0.05f, 0.8f ), size * uniform( rng, 0.05f, 0.8f ) );
			kcc_shape box = kcc_make_box( h, size * uniform( rng, 0.02f, 0.3f ) );
			return kcc_shape_transform( &box, c, uniform( rng, -PI_F, PI_F ) );
		}
		case K_SECTOR:
		default:
		{
			int pick = kcc_ref_int( rng, 0, 7 );
			float opening = pick < 6 ? sector_opening_degrees( pick ) * DEG : uniform( rng, 1.0f * DEG, 2.0f * PI_F );
			float angle = uniform( rng, -PI_F, PI_F );
			vec2s direction = kcc_v2( cosf( angle ), sinf( angle ) );
			float radius = size * uniform( rng, 0.3f, 1.5f );
			// The apex sits off the centre so the sector's bulk is near c.
			vec2s apex = kcc_v2( c.x - 0.5f * radius * direction.x, c.y - 0.5f * radius * direction.y );
			return kcc_make_sector( apex, direction, radius, opening );
		}
	}
}

// A shape of kind k (0 .. 7) around c, for the casts' and penetration's near-parallel tests: flat and point
// boxes, capsules, circles, boxes and hexagons, a third of them turned by a multiple of pi/2 (rotations such as
// (6.6e-7, -1)) and the capsules often off an axis by one rounding: edges nearly parallel to others.
static inline kcc_shape near_parallel_shape( kcc_ref_rng* rng, int kind, vec2s c )
{
	float w = uniform( rng, 0.1f, 1.0f ), h = uniform( rng, 0.1f, 1.0f );
	float turn = (int)uniform( rng, 0.0f, 2.999f ) == 0 ? (float)(int)uniform( rng, 0.0f, 7.999f ) * 0.5f * PI_F
														: uniform( rng, -PI_F, PI_F );
	vec2s tilt = kcc_v2( cosf( turn ), sinf( turn ) ); // a capsule along this is off an axis by one rounding
	switch ( kind )
	{
		case 0:
			return kcc_make_aabb( c, kcc_v2( c.x + w, c.y ) );
		case 1:
			return kcc_make_aabb( c, c );
		case 2:
			return kcc_make_obb( c, kcc_v2( w, 0.0f ), turn );
		case 3:
			return kcc_make_capsule( c, kcc_v2( c.x + w * tilt.x, c.y + w * tilt.y ), uniform( rng, 0.0f, 0.3f ) );
		case 4:
			return kcc_make_circle( c, uniform( rng, 0.0f, 0.5f ) );
		case 5:
			return kcc_make_obb( c, kcc_v2( w, h ), turn );
		case 6:
		{
			kcc_shape box = kcc_make_box( kcc_v2( w, h ), uniform( rng, 0.0f, 1.0f ) < 0.5f ? 0.0f : uniform( rng, 0.0f, 0.2f ) );
			return kcc_shape_transform( &box, c, turn );
		}
		default:
		{
			vec2s points[6];
			for ( int i = 0; i < 6; ++i )
			{
				float angle = turn + (float)i * PI_F / 3.0f;
				points[i] = kcc_v2( c.x + w * cosf( angle ), c.y + h * sinf( angle ) );
			}
			return kcc_make_polygon( points, 6, uniform( rng, 0.0f, 1.0f ) < 0.5f ? 0.0f : uniform( rng, 0.0f, 0.2f ) );
		}
	}
}

static inline const char* kind_name( int kind )
{
	static const char* names[K_COUNT] = { "circle",  "capsule",         "aabb",        "obb",
										  "polygon", "rounded polygon", "rounded box", "sector" };
	return kind >= 0 && kind < K_COUNT ? names[kind] : "?";
}
