// SPDX-License-Identifier: MIT
// Fuzz target for the geometry core (libFuzzer with clang; tests/fuzz_driver.c feeds it with GCC). Decodes bytes
// into shapes through every make function (absurd floats included: NaN, Inf, 1e30, denormals) and raw corrupted
// structs, calls every public geometry query, and abort()s when an output breaks the contract: NaN, a fraction
// outside [0, 1], a negative distance, a normal neither unit nor zero, an invalid shape that overlaps or is hit,
// an asymmetric overlap of convex kinds, batch indices out of order.
#include "kcc/geometry.h"

#include <float.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The libFuzzer entry point (also called by fuzz_driver.c).
int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );

typedef struct byte_reader
{
	const uint8_t* data;
	size_t size, at;
} byte_reader;

static uint8_t read_u8( byte_reader* r )
{
	return r->at < r->size ? r->data[r->at++] : 0;
}

static float read_float( byte_reader* r )
{
	static const float specials[] = { NAN,   INFINITY, -INFINITY, 0.0f,    -0.0f,   1e30f,   -1e30f,
									  1e-40f, FLT_MAX, -FLT_MAX,  FLT_MIN, 1e-30f,  6.2831855f, 3.1415927f,
									  1.0f,  -1.0f,    0.5f,      1e10f,   -1e-7f,  1e-7f };
	uint8_t mode = read_u8( r );
	if ( mode < 128 )
	{
		// small, mostly ordinary values: the interesting geometry happens near touching, not at 1e30
		int8_t v = (int8_t)read_u8( r );
		return (float)v / 16.0f + (float)( mode & 7 ) / 128.0f;
	}
	if ( mode < 192 )
	{
		return specials[read_u8( r ) % ( sizeof( specials ) / sizeof( specials[0] ) )];
	}
	uint32_t bits = 0;
	for ( int i = 0; i < 4; ++i )
	{
		bits = ( bits << 8 ) | read_u8( r );
	}
	float f;
	memcpy( &f, &bits, sizeof( f ) );
	return f;
}

static vec2s read_vec2( byte_reader* r )
{
	float x = read_float( r );
	return kcc_v2( x, read_float( r ) );
}

static kcc_shape read_shape( byte_reader* r, int depth )
{
	uint8_t kind = read_u8( r ) % 11;
	switch ( kind )
	{
		case 0:
		{
			vec2s c = read_vec2( r );
			return kcc_make_circle( c, read_float( r ) );
		}
		case 1:
		{
			vec2s a = read_vec2( r ), b = read_vec2( r );
			return kcc_make_capsule( a, b, read_float( r ) );
		}
		case 2:
		{
			vec2s a = read_vec2( r );
			return kcc_make_aabb( a, read_vec2( r ) );
		}
		case 3:
		{
			float x = read_float( r ), y = read_float( r ), w = read_float( r );
			return kcc_make_rect( x, y, w, read_float( r ) );
		}
		case 4:
		{
			vec2s c = read_vec2( r ), h = read_vec2( r );
			return kcc_make_obb( c, h, read_float( r ) );
		}
		case 5:
		{
			vec2s h = read_vec2( r );
			return kcc_make_box( h, read_float( r ) );
		}
		case 6:
		{
			vec2s points[16];
			int count = read_u8( r ) % 17;
			for ( int i = 0; i < count; ++i )
			{
				points[i] = read_vec2( r );
			}
			return kcc_make_polygon( count > 0 || ( read_u8( r ) & 1 ) ? points : NULL, count, read_float( r ) );
		}
		case 7:
		{
			vec2s apex = read_vec2( r ), direction = read_vec2( r );
			float radius = read_float( r );
			return kcc_make_sector( apex, direction, radius, read_float( r ) );
		}
		case 8:
		{
			// a raw struct: arbitrary bytes, a type that may be out of range
			kcc_shape s;
			uint8_t* bytes = (uint8_t*)&s;
			for ( size_t i = 0; i < sizeof( s ); ++i )
			{
				bytes[i] = read_u8( r );
			}
			int type = (int8_t)read_u8( r );
			s.type = (kcc_shape_type)( type % 10 );
			return s;
		}
		case 9:
		{
			// a valid shape with one field corrupted
			kcc_shape s = depth < 2 ? read_shape( r, depth + 1 ) : kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
			size_t offset = read_u8( r ) % sizeof( s );
			offset -= offset % 4;
			float f = read_float( r );
			if ( offset >= sizeof( int ) )
			{
				memcpy( (uint8_t*)&s + offset, &f, sizeof( f ) );
			}
			return s;
		}
		default:
		{
			kcc_shape s = depth < 2 ? read_shape( r, depth + 1 ) : kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
			vec2s t = read_vec2( r );
			if ( read_u8( r ) & 1 )
			{
				return kcc_shape_translate( &s, t );
			}
			return kcc_shape_transform( &s, t, read_float( r ) );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Invariants

static kcc_shape s_a, s_b;
static vec2s s_p, s_t;

static void print_shape( const char* name, const kcc_shape* s )
{
	// every float field as %a, so the repro is exact
	const float* f = (const float*)( (const char*)s + offsetof( kcc_shape, circle ) );
	size_t n = ( sizeof( kcc_shape ) - offsetof( kcc_shape, circle ) ) / sizeof( float );
	fprintf( stderr, "  %s: type %d valid %d, floats:", name, (int)s->type, kcc_shape_is_valid( s ) );
	size_t shown = s->type == KCC_SHAPE_POLYGON ? n : 12;
	for ( size_t i = 0; i < shown && i < n; ++i )
	{
		fprintf( stderr, " %a", (double)f[i] );
	}
	fprintf( stderr, "\n" );
}

static void violation( const char* what, const char* detail )
{
#if defined( KCC_FUZZ_LOG_ONLY )
	// triage builds (-DKCC_FUZZ_LOG_ONLY): report each distinct violation once and keep going
	static const char* seen[64][2];
	static int seen_count = 0;
	for ( int i = 0; i < seen_count; ++i )
	{
		if ( strcmp( seen[i][0], what ) == 0 && strcmp( seen[i][1], detail ) == 0 )
		{
			return;
		}
	}
	if ( seen_count < 64 )
	{
		seen[seen_count][0] = what;
		seen[seen_count][1] = detail;
		seen_count += 1;
	}
#endif
	fprintf( stderr, "fuzz_geometry: invariant violated: %s (%s)\n", what, detail );
	print_shape( "a", &s_a );
	print_shape( "b", &s_b );
	fprintf( stderr, "  p (%a, %a) t (%a, %a)\n", (double)s_p.x, (double)s_p.y, (double)s_t.x, (double)s_t.y );
#if !defined( KCC_FUZZ_LOG_ONLY )
	abort();
#endif
}

static void check( bool condition, const char* what, const char* detail )
{
	if ( condition == false )
	{
		violation( what, detail );
	}
}

static bool is_number( float x )
{
	return isnan( x ) == false;
}

static bool vec_is_number( vec2s v )
{
	return is_number( v.x ) && is_number( v.y );
}

static bool unit_or_zero( vec2s n )
{
	if ( n.x == 0.0f && n.y == 0.0f )
	{
		return true;
	}
	float ll = n.x * n.x + n.y * n.y;
	return fabsf( ll - 1.0f ) <= 1e-3f;
}

static void check_cast( kcc_cast_output c, bool any_invalid, const char* what )
{
	check( is_number( c.fraction ) && c.fraction >= 0.0f && c.fraction <= 1.0f, what, "fraction outside [0, 1]" );
	check( vec_is_number( c.point ) && vec_is_number( c.normal ), what, "NaN point or normal" );
	check( unit_or_zero( c.normal ), what, "normal neither unit nor zero" );
	check( c.hit || c.fraction == 1.0f, what, "a miss with fraction != 1" );
	check( any_invalid == false || c.hit == false, what, "an invalid shape was hit" );
}

static int quiet_assert( const char* message, const char* file, int line )
{
	(void)message;
	(void)file;
	(void)line;
	return 0; // bad input on purpose: take the safe release path
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	kcc_set_assert_fcn( quiet_assert );
	byte_reader reader = { data, size, 0 };
	byte_reader* r = &reader;

	kcc_shape a = read_shape( r, 0 );
	kcc_shape b = read_shape( r, 0 );
	vec2s p = read_vec2( r );
	vec2s t = read_vec2( r );
	float separation = read_float( r );
	s_a = a;
	s_b = b;
	s_p = p;
	s_t = t;

	bool va = kcc_shape_is_valid( &a ), vb = kcc_shape_is_valid( &b );
	bool any_invalid = va == false || vb == false;
	bool convex = va && vb && kcc_shape_is_convex( &a ) && kcc_shape_is_convex( &b );

	bool ab = kcc_overlap( &a, &b ), ba = kcc_overlap( &b, &a );
	check( any_invalid == false || ( ab == false && ba == false ), "kcc_overlap", "an invalid shape overlaps" );
	check( convex == false || ab == ba, "kcc_overlap", "asymmetric for convex kinds" );
	check( va || kcc_contains_point( &a, p ) == false, "kcc_contains_point", "an invalid shape contains a point" );
	(void)kcc_overlap( &a, &a );

	kcc_aabb box = kcc_shape_bounds( &a );
	check( vec_is_number( box.min ) && vec_is_number( box.max ), "kcc_shape_bounds", "NaN" );
	check( va == false || ( box.min.x <= box.max.x && box.min.y <= box.max.y ), "kcc_shape_bounds",
		   "valid shape, empty box" );
	check( va || box.min.x > box.max.x || box.min.y > box.max.y, "kcc_shape_bounds", "invalid shape, non-empty box" );
	if ( va && kcc_contains_point( &a, p ) )
	{
		// a contained point lies in the bounds, to float precision at the scale of the shape and the point
		float scale = fmaxf( fmaxf( fabsf( box.min.x ), fabsf( box.max.x ) ), fmaxf( fabsf( box.min.y ), fabsf( box.max.y ) ) );
		float tol = 1e-5f * ( 1.0f + fabsf( p.x ) + fabsf( p.y ) + scale );
		check( p.x >= box.min.x - tol && p.x <= box.max.x + tol && p.y >= box.min.y - tol && p.y <= box.max.y + tol,
			   "kcc_contains_point", "a contained point outside the bounds" );
	}

	kcc_distance_output d = kcc_distance( &a, &b );
	check( is_number( d.distance ) && d.distance >= 0.0f, "kcc_distance", "NaN or negative distance" );
	check( vec_is_number( d.point_a ) && vec_is_number( d.point_b ) && vec_is_number( d.normal ), "kcc_distance",
		   "NaN point or normal" );
	check( unit_or_zero( d.normal ), "kcc_distance", "normal neither unit nor zero" );
	check( any_invalid == false || ( d.distance == 0.0f && d.normal.x == 0.0f && d.normal.y == 0.0f ), "kcc_distance",
		   "invalid shape, non-zero output" );

	check_cast( kcc_ray_cast( &a, p, t ), va == false, "kcc_ray_cast" );
	check_cast( kcc_shape_cast( &a, t, &b ), any_invalid, "kcc_shape_cast" );
	check_cast( kcc_shape_cast_separation( &a, t, &b, separation ), any_invalid, "kcc_shape_cast_separation" );
	check_cast( kcc_shape_cast_separation( &b, t, &a, fabsf( separation ) ), any_invalid, "kcc_shape_cast_separation" );

	kcc_penetration_output pen = kcc_penetration( &a, &b );
	check( is_number( pen.depth ) && pen.depth >= 0.0f, "kcc_penetration", "NaN or negative depth" );
	check( vec_is_number( pen.normal ) && unit_or_zero( pen.normal ), "kcc_penetration", "bad normal" );
	check( any_invalid == false || pen.overlapping == false, "kcc_penetration", "an invalid shape penetrates" );

	kcc_shape moved = kcc_shape_transform( &a, t, separation );
	kcc_aabb moved_box = kcc_shape_bounds( &moved );
	check( vec_is_number( moved_box.min ) && vec_is_number( moved_box.max ), "kcc_shape_transform", "NaN bounds" );
	kcc_shape shifted = kcc_shape_translate( &b, p );
	(void)kcc_overlap( &moved, &shifted );

	// volumes
	float z0 = read_float( r ), z1 = read_float( r );
	kcc_volume volume_a = kcc_make_volume( &a, z0, z1 );
	kcc_volume volume_b = kcc_make_volume( &b, z1, z0 );
	check( va || volume_a.shape.type == KCC_SHAPE_INVALID, "kcc_make_volume", "invalid shape, valid volume" );
	bool volumes = kcc_volume_overlap( &volume_a, &volume_b );
	check( volumes == false || ( va && vb ), "kcc_volume_overlap", "invalid volume overlaps" );
	(void)kcc_volume_contains_point( &volume_a, ( vec3s ){ { p.x, p.y, z0 } } );
	kcc_volume attack = kcc_make_attack_volume( p, z0, separation, t.x, t.y, z1, read_float( r ) );
	(void)kcc_volume_overlap( &attack, &volume_b );
	(void)kcc_point_in_oriented_box( ( vec3s ){ { p.x, p.y, z0 } }, ( vec3s ){ { t.x, t.y, z1 } }, separation,
									 ( vec3s ){ { t.x, p.y, z1 } } );

	// batch: indices ascending, in range, and only for a valid shape
	vec2s centers[8];
	float radii[8];
	int indices[8];
	int count = read_u8( r ) % 9;
	for ( int i = 0; i < count; ++i )
	{
		centers[i] = read_vec2( r );
		radii[i] = read_float( r );
	}
	int hits = kcc_batch_overlap_circles( &a, centers, radii, count, indices );
	check( hits >= 0 && hits <= count, "kcc_batch_overlap_circles", "count out of range" );
	check( va || hits == 0, "kcc_batch_overlap_circles", "invalid shape hit circles" );
	for ( int i = 0; i < hits; ++i )
	{
		check( indices[i] >= 0 && indices[i] < count && ( i == 0 || indices[i] > indices[i - 1] ),
			   "kcc_batch_overlap_circles", "indices out of range or order" );
	}

	// typed fast tests on valid shapes: must not crash (answers are compared with kcc_overlap by the unit tests)
	if ( va && a.type == KCC_SHAPE_CIRCLE && vb )
	{
		switch ( b.type )
		{
			case KCC_SHAPE_CIRCLE:
				(void)kcc_circle_overlaps_circle( a.circle, b.circle );
				break;
			case KCC_SHAPE_CAPSULE:
				(void)kcc_circle_overlaps_capsule( a.circle, b.capsule );
				break;
			case KCC_SHAPE_AABB:
				(void)kcc_circle_overlaps_aabb( a.circle, b.aabb );
				break;
			case KCC_SHAPE_OBB:
				(void)kcc_circle_overlaps_obb( a.circle, b.obb );
				break;
			case KCC_SHAPE_POLYGON:
				(void)kcc_circle_overlaps_polygon( a.circle, &b.polygon );
				break;
			case KCC_SHAPE_SECTOR:
				(void)kcc_circle_overlaps_sector( a.circle, &b.sector );
				(void)kcc_sector_contains_point( &b.sector, p );
				break;
			default:
				break;
		}
	}
	(void)kcc_point_segment_distance_squared( p, t, box.min );
	return 0;
}
