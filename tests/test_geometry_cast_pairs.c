// SPDX-License-Identifier: MIT
// The controller's cast pairs: a circle or capsule against a polygon of 3 or 4 vertices or a box. Random pairs made
// to reach every case of the cast (entry on a target face, on a mover's face, past a face's end, exact corner-to-
// corner ties, starts within the target distance, triangles, rounded targets, point cores) are checked against the
// exact reference in double (ref_cast, test_cast_reference.h) at the tolerances test_geometry_cast.c uses; where the
// two report different normals at the same fraction (a corner), the cast's must be a separating direction at the
// contact. Bad and out-of-range values give a miss and never a NaN, and the trusted entry answers as the public one.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../geometry/internal.h"
#include "kcc/geometry.h"
#include "test_reference.h"

#include <stdio.h>
#include <string.h>

#include "test_cast_reference.h"
#include "test_random_shapes.h"

static bool finite_cast( kcc_cast_output c )
{
	return kcc_is_valid_float( c.fraction ) && kcc_is_valid_vec2( c.normal ) && kcc_is_valid_vec2( c.point );
}

static float snap( float x, bool grid )
{
	return grid ? roundf( x * 8.0f ) / 8.0f : x;
}

// A circle or capsule (a point core one time in eight), on a 1/8 grid when grid is set (exact parallel edges and
// corner-to-corner contacts).
static kcc_shape random_mover( kcc_ref_rng* rng, bool grid )
{
	vec2s c = kcc_v2( snap( uniform( rng, -3.0f, 3.0f ), grid ), snap( uniform( rng, -3.0f, 3.0f ), grid ) );
	float radius = kcc_ref_int( rng, 0, 5 ) == 0 ? 0.0f : snap( uniform( rng, 0.05f, 0.8f ), grid );
	int kind = kcc_ref_int( rng, 0, 7 );
	if ( kind == 0 )
	{
		return kcc_make_circle( c, radius > 0.0f ? radius : 0.25f );
	}
	if ( kind == 1 )
	{
		return kcc_make_capsule( c, c, radius > 0.0f ? radius : 0.25f );
	}
	float half = snap( uniform( rng, 0.125f, 1.0f ), grid );
	vec2s e;
	if ( kind <= 4 )
	{
		e = kind <= 3 ? kcc_v2( 0.0f, half ) : kcc_v2( half, 0.0f ); // upright and lying characters
	}
	else
	{
		float angle = uniform( rng, -PI_F, PI_F );
		e = kcc_v2( snap( half * cosf( angle ), grid ), snap( half * sinf( angle ), grid ) );
		if ( e.x == 0.0f && e.y == 0.0f )
		{
			e.y = 0.125f;
		}
	}
	return kcc_make_capsule( kcc_v2( c.x - e.x, c.y - e.y ), kcc_v2( c.x + e.x, c.y + e.y ), radius );
}

// A target of 3 or 4 vertices: a box polygon (kcc_make_box, turned; a right angle half the time), a triangle or
// quad from random points, an AABB or an OBB; rounded now and then.
static kcc_shape random_target( kcc_ref_rng* rng, bool grid )
{
	vec2s c = kcc_v2( snap( uniform( rng, -1.5f, 1.5f ), grid ), snap( uniform( rng, -1.5f, 1.5f ), grid ) );
	vec2s h = kcc_v2( snap( uniform( rng, 0.25f, 1.5f ), grid ), snap( uniform( rng, 0.25f, 1.5f ), grid ) );
	float radius = kcc_ref_int( rng, 0, 3 ) == 0 ? snap( uniform( rng, 0.0f, 0.4f ), grid ) : 0.0f;
	float angle = kcc_ref_int( rng, 0, 1 ) == 0 ? (float)kcc_ref_int( rng, -2, 2 ) * 0.5f * PI_F
												: uniform( rng, -PI_F, PI_F );
	switch ( kcc_ref_int( rng, 0, 5 ) )
	{
		case 0:
		case 1:
		{
			kcc_shape box = kcc_make_box( h, radius );
			return kcc_shape_transform( &box, c, angle );
		}
		case 2:
			return kcc_make_aabb( kcc_v2( c.x - h.x, c.y - h.y ), kcc_v2( c.x + h.x, c.y + h.y ) );
		case 3:
			return kcc_make_obb( c, h, angle );
		default:
		{
			for ( ;; )
			{
				int n = kcc_ref_int( rng, 3, 4 );
				vec2s points[4];
				for ( int i = 0; i < n; ++i )
				{
					points[i] = kcc_v2( snap( c.x + uniform( rng, -1.5f, 1.5f ), grid ),
										snap( c.y + uniform( rng, -1.5f, 1.5f ), grid ) );
				}
				// Collinear picks are refused (and asserted in debug builds): record, retry.
				kcc_set_assert_fcn( record_assert );
				kcc_shape s = kcc_make_polygon( points, n, radius );
				kcc_set_assert_fcn( NULL );
				if ( kcc_shape_is_valid( &s ) && s.polygon.count >= 3 && s.polygon.count <= 4 )
				{
					return s;
				}
			}
		}
	}
}

static vec2s target_corner( kcc_ref_rng* rng, const kcc_shape* s )
{
	if ( s->type == KCC_SHAPE_POLYGON )
	{
		return s->polygon.vertices[kcc_ref_int( rng, 0, s->polygon.count - 1 )];
	}
	if ( s->type == KCC_SHAPE_AABB )
	{
		return kcc_ref_int( rng, 0, 1 ) == 0 ? s->aabb.min : s->aabb.max;
	}
	const kcc_obb* b = &s->obb;
	float sx = kcc_ref_int( rng, 0, 1 ) == 0 ? -1.0f : 1.0f, sy = kcc_ref_int( rng, 0, 1 ) == 0 ? -1.0f : 1.0f;
	vec2s ex = kcc_v2( b->rotation.x * b->half_extents.x, b->rotation.y * b->half_extents.x );
	vec2s ey = kcc_v2( -b->rotation.y * b->half_extents.y, b->rotation.x * b->half_extents.y );
	return kcc_v2( b->center.x + sx * ex.x + sy * ey.x, b->center.y + sx * ex.y + sy * ey.y );
}

static vec2s mover_end( kcc_ref_rng* rng, const kcc_shape* s )
{
	if ( s->type == KCC_SHAPE_CIRCLE )
	{
		return s->circle.center;
	}
	return kcc_ref_int( rng, 0, 1 ) == 0 ? s->capsule.a : s->capsule.b;
}

// A translation that reaches the kernel's paths: random, along an axis (faces run along the ray), or from an end
// of the mover's core through a corner of the target's core (corner-to-corner, and the ties that come with it).
static vec2s random_translation( kcc_ref_rng* rng, const kcc_shape* a, const kcc_shape* b, bool grid )
{
	int kind = kcc_ref_int( rng, 0, 5 );
	if ( kind <= 1 )
	{
		vec2s to = target_corner( rng, b ), from = mover_end( rng, a );
		float reach = kind == 0 ? 1.5f : uniform( rng, 1.05f, 2.0f ); // the contact within the path, not at its end
		return kcc_v2( reach * ( to.x - from.x ), reach * ( to.y - from.y ) );
	}
	if ( kind == 2 )
	{
		float length = snap( uniform( rng, -5.0f, 5.0f ), grid );
		return kcc_ref_int( rng, 0, 1 ) == 0 ? kcc_v2( length, 0.0f ) : kcc_v2( 0.0f, length );
	}
	return kcc_v2( snap( uniform( rng, -5.0f, 5.0f ), grid ), snap( uniform( rng, -5.0f, 5.0f ), grid ) );
}

// n is a separating direction at the contact: moving the mover 1e-3 further along it opens the gap by 1e-3 (n is in
// the normal cone of the touching features).
static bool normal_separates( const kcc_shape* a, vec2s d, float fraction, const kcc_shape* b, float separation,
							  vec2s n )
{
	const float step = 1.0e-3f;
	vec2s at = kcc_v2( fraction * d.x, fraction * d.y );
	float before = distance_after( a, at, b );
	float after = distance_after( a, kcc_v2( at.x + step * n.x, at.y + step * n.y ), b );
	return fabsf( before - separation ) <= 1.0e-4f && fabsf( after - before - step ) <= 2.0e-5f;
}

// At the start: moving the mover 1e-3 along n opens the gap by 1e-3.
static bool normal_opens( const kcc_shape* a, const kcc_shape* b, vec2s n )
{
	float before = distance_after( a, kcc_v2( 0.0f, 0.0f ), b );
	float after = distance_after( a, kcc_v2( 1.0e-3f * n.x, 1.0e-3f * n.y ), b );
	return fabsf( after - before - 1.0e-3f ) <= 2.0e-5f;
}

static void test_round_pairs_match_exact_reference( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 77031 };
	int compared = 0, hits = 0, starts = 0, entries = 0, grazing = 0, corners = 0, triangles = 0, points = 0;
	for ( int n = 0; n < 60000; ++n )
	{
		bool grid = n % 2 == 0;
		kcc_shape a = random_mover( &rng, grid );
		kcc_shape b = random_target( &rng, grid );
		vec2s d = random_translation( &rng, &a, &b, grid );
		float separation = n % 3 == 0 ? snap( uniform( &rng, 0.0f, 0.3f ), grid ) : 0.0f;
		kcc_cast_output fast = kcc_shape_cast_separation( &a, d, &b, separation );
		kcc_cast_output exact = ref_cast( &a, d, &b, separation );
		compared += 1;
		triangles += b.type == KCC_SHAPE_POLYGON && b.polygon.count == 3 ? 1 : 0;
		points += a.type == KCC_SHAPE_CIRCLE || ( a.capsule.a.x == a.capsule.b.x && a.capsule.a.y == a.capsule.b.y );
		assert_true( finite_cast( fast ) );
		assert_true( same_cast( fast, kcc_shape_cast_trusted( &a, d, &b, separation ) ) );
		if ( separation == 0.0f )
		{
			assert_true( same_cast( fast, kcc_shape_cast( &a, d, &b ) ) );
		}
		if ( fast.hit != exact.hit )
		{
			// Only a path grazing the target distance may differ.
			float lowest = closest_approach( &a, d, &b );
			if ( fabsf( lowest - separation ) > 1.0e-4f )
			{
				print_shape( &a );
				print_shape( &b );
				print_error( "case %d: d (%.9g %.9g) sep %.9g fast hit %d (%.9g) exact hit %d (%.9g), closest approach - "
							 "target %.9g\n",
							 n, d.x, d.y, separation, fast.hit, fast.fraction, exact.hit, exact.fraction,
							 lowest - separation );
				fail();
			}
			grazing += 1;
			continue;
		}
		if ( fast.hit == false )
		{
			assert_true( fast.fraction == 1.0f && fast.normal.x == 0.0f && fast.normal.y == 0.0f );
			continue;
		}
		bool start_fast = fast.fraction == 0.0f, start_exact = exact.fraction == 0.0f;
		bool zero_fast = fast.normal.x == 0.0f && fast.normal.y == 0.0f;
		bool zero_exact = exact.normal.x == 0.0f && exact.normal.y == 0.0f;
		bool ok = fraction_agrees( d, fast, exact, 1.0e-6f );
		bool same_normal = fast.normal.x * exact.normal.x + fast.normal.y * exact.normal.y > 0.9999f;
		if ( ok && start_fast && start_exact )
		{
			// Starting within the target distance: the same class (overlapping or not), the same normal.
			starts += 1;
			ok = zero_fast == zero_exact || fabsf( distance_after( &a, kcc_v2( 0.0f, 0.0f ), &b ) ) <= 1.0e-5f;
			// Touching within rounding, the normal is ill-conditioned: the cast's must then open the gap.
			ok = ok && ( zero_fast || zero_exact || same_normal ||
						 ( fabsf( distance_after( &a, kcc_v2( 0.0f, 0.0f ), &b ) ) <= 1.0e-5f &&
						   normal_opens( &a, &b, fast.normal ) ) );
		}
		else if ( ok )
		{
			hits += 1;
			entries += fast.fraction > 0.0f ? 1 : 0;
			if ( same_normal == false && fast.fraction >= 1.0e-4f )
			{
				// A corner: the cast's normal must separate the shapes at the contact (the reference's may be another
				// direction of the corner's normal cone). Sharp cores with separation 0 included: the contact is then
				// a point (a radius-0 disc) at a vertex of M, reported with the normal of a face ending there.
				ok = normal_separates( &a, d, fast.fraction, &b, separation, fast.normal );
				corners += 1;
			}
		}
		if ( ok == false && fabsf( closest_approach( &a, d, &b ) - separation ) <= 1.0e-4f )
		{
			// A path grazing the target distance (along a face line at exactly that distance): the fraction is
			// ill-conditioned. The cast's answer must then be certified on its own: the distance at the fraction
			// is the target, never smaller before it, and the normal opens the gap.
			vec2s reached = kcc_v2( fast.fraction * d.x, fast.fraction * d.y );
			float at = distance_after( &a, reached, &b );
			float before = fast.fraction > 0.0f ? closest_approach( &a, reached, &b ) : at;
			ok = fabsf( at - separation ) <= 1.0e-4f && before >= separation - 1.0e-4f &&
				 ( zero_fast || normal_separates( &a, d, fast.fraction, &b, separation, fast.normal ) ||
				   fast.fraction < 1.0e-4f );
			grazing += 1;
		}
		if ( ok == false )
		{
			print_shape( &a );
			print_shape( &b );
			print_error( "case %d: mover %d, target %d, d (%.9g %.9g) sep %.9g: fast %.9g (%.6g %.6g) exact %.9g "
						 "(%.6g %.6g)\n",
						 n, a.type, b.type, d.x, d.y, separation, fast.fraction, fast.normal.x, fast.normal.y,
						 exact.fraction, exact.normal.x, exact.normal.y );
			fail();
		}
	}
	printf( "round pairs vs exact reference: %d pairs, %d hits (%d entering later), %d starting within the target, %d "
			"grazing, %d corners with two normals, %d triangles, %d point cores\n",
			compared, hits, entries, starts, grazing, corners, triangles, points );
	assert_true( hits > 10000 && entries > 8000 && starts > 5000 && triangles > 5000 && points > 5000 );
	assert_true( grazing < compared / 100 );
}

// Bad values (NaN, infinities, beyond KCC_MAX_MAGNITUDE, a negative radius or separation, non-unit normals) and
// coordinates far out (within the limit, their sums not): the public cast misses every invalid shape and never returns
// a NaN; the trusted one never crashes, never returns a NaN, and answers as the public one for valid shapes. A
// triangle's unused fourth slot is never read as a face.
static void test_round_pair_bad_and_far_values( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 9110 };
	const float bad[] = { NAN, INFINITY, -INFINITY, 2.0e9f, -1.0f, 1.0e-40f, -0.0f, 6.0e8f };
	const int bad_count = (int)( sizeof( bad ) / sizeof( bad[0] ) );
	int invalid = 0, refused_hits = 0, far_hits = 0;
	for ( int n = 0; n < 20000; ++n )
	{
		kcc_shape a = random_mover( &rng, n % 2 == 0 );
		kcc_shape b = random_target( &rng, n % 2 == 0 );
		kcc_set_assert_fcn( record_assert ); // random_target restores the default handler
		vec2s d = random_translation( &rng, &a, &b, false );
		float separation = n % 3 == 0 ? uniform( &rng, 0.0f, 0.3f ) : 0.0f;
		float value = bad[kcc_ref_int( &rng, 0, bad_count - 1 )];
		int where = kcc_ref_int( &rng, 0, 5 );
		if ( where == 0 )
		{
			// The mover's ends and radius: circle centre x, y, radius; capsule a.x .. b.y, radius.
			float* f = a.type == KCC_SHAPE_CIRCLE ? &a.circle.center.x : &a.capsule.a.x;
			f[kcc_ref_int( &rng, 0, a.type == KCC_SHAPE_CIRCLE ? 2 : 4 )] = value;
		}
		else if ( where == 1 && b.type == KCC_SHAPE_POLYGON )
		{
			int i = kcc_ref_int( &rng, 0, b.polygon.count - 1 );
			switch ( kcc_ref_int( &rng, 0, 2 ) )
			{
				case 0:
					b.polygon.vertices[i].x = value;
					break;
				case 1:
					b.polygon.normals[i].y = value;
					break;
				default:
					b.polygon.radius = value;
					break;
			}
		}
		else if ( where == 1 )
		{
			float* f = b.type == KCC_SHAPE_AABB ? &b.aabb.min.x : &b.obb.center.x;
			f[kcc_ref_int( &rng, 0, b.type == KCC_SHAPE_AABB ? 3 : 6 )] = value;
		}
		else if ( where == 2 )
		{
			d.x = value;
		}
		else if ( where == 3 )
		{
			separation = value;
		}
		else if ( where == 4 && b.type == KCC_SHAPE_POLYGON && b.polygon.count == 3 )
		{
			// Garbage past the count changes nothing.
			kcc_cast_output clean = kcc_shape_cast_separation( &a, d, &b, separation );
			b.polygon.vertices[3] = kcc_v2( value, -value );
			b.polygon.normals[3] = kcc_v2( value, value );
			assert_true( same_cast( clean, kcc_shape_cast_separation( &a, d, &b, separation ) ) );
			assert_true( same_cast( clean, kcc_shape_cast_trusted( &a, d, &b, separation ) ) );
			continue;
		}
		else
		{
			// Far from the origin, in range: the sums of coordinates the kernel checks are not.
			vec2s far = kcc_v2( 6.0e8f, -6.0e8f ); // |x| + |y| beyond KCC_MAX_MAGNITUDE, each within it
			a = kcc_shape_translate( &a, far );
			b = kcc_shape_translate( &b, far );
		}
		kcc_cast_output fast = kcc_shape_cast_separation( &a, d, &b, separation );
		kcc_cast_output trusted = kcc_shape_cast_trusted( &a, d, &b, separation );
		assert_true( finite_cast( fast ) && finite_cast( trusted ) );
		bool usable = kcc_shape_is_valid( &a ) && kcc_shape_is_valid( &b ) && kcc_is_valid_vec2( d ) &&
					  kcc_is_valid_float( separation ) && separation >= 0.0f;
		if ( usable && same_cast( fast, trusted ) == false )
		{
			print_error( "case %d (where %d, value %g): public hit %d %.9g, trusted hit %d %.9g\n", n, where, value,
						 fast.hit, fast.fraction, trusted.hit, trusted.fraction );
			fail();
		}
		far_hits += where == 5 && fast.hit ? 1 : 0;
		if ( usable == false )
		{
			invalid += 1;
			refused_hits += fast.hit ? 1 : 0;
		}
	}
	kcc_set_assert_fcn( NULL );
	printf( "bad and far values: %d invalid inputs, all misses; %d hits far away\n", invalid, far_hits );
	assert_int_equal( refused_hits, 0 );
	assert_true( invalid > 3000 && far_hits > 100 );
}

// Hand-made cases for each kind of contact, with exact answers.
static void test_round_pair_paths( void** state )
{
	(void)state;
	kcc_shape box = kcc_make_box( kcc_v2( 1.0f, 0.5f ), 0.0f ); // [-1, 1] x [-0.5, 0.5], a polygon
	kcc_shape character = kcc_make_capsule( kcc_v2( 0.0f, 2.0f ), kcc_v2( 0.0f, 3.0f ), 0.25f );

	// Falling onto the top face: the target's face, entered on its extent.
	kcc_cast_output c = kcc_shape_cast( &character, kcc_v2( 0.0f, -2.0f ), &box );
	assert_true( c.hit && c.fraction == 0.625f && c.normal.x == 0.0f && c.normal.y == 1.0f );
	assert_true( c.point.x == 0.0f && c.point.y == 0.5f );

	// Lying capsule sliding sideways into the box's corner: the mover's end disc against the right face.
	kcc_shape lying = kcc_make_capsule( kcc_v2( 2.0f, 0.0f ), kcc_v2( 3.0f, 0.0f ), 0.25f );
	c = kcc_shape_cast( &lying, kcc_v2( -2.0f, 0.0f ), &box );
	assert_true( c.hit && c.fraction == 0.375f && c.normal.x == 1.0f && c.normal.y == 0.0f );

	// A tilted segment whose side meets the box's corner: the mover's face.
	kcc_shape tilted = kcc_make_capsule( kcc_v2( 1.5f, 1.0f ), kcc_v2( 2.5f, 0.0f ), 0.0f );
	c = kcc_shape_cast( &tilted, kcc_v2( -2.0f, 0.0f ), &box );
	// The side x + y = 2.5 reaches the corner (1, 0.5) after moving 1: its normal, reversed, out of the box.
	assert_true( c.hit && fabsf( c.fraction - 0.5f ) <= 1.0e-6f );
	assert_true( fabsf( c.normal.x - sqrtf( 0.5f ) ) <= 1.0e-6f && fabsf( c.normal.y - sqrtf( 0.5f ) ) <= 1.0e-6f );
	assert_true( fabsf( c.point.x - 1.0f ) <= 1.0e-6f && fabsf( c.point.y - 0.5f ) <= 1.0e-6f );

	// Past a corner of a rounded box: the disc of the corner (-1, 0.5), radius 0.5, decides (a hit), or is missed
	// just above it.
	kcc_shape rounded = kcc_make_box( kcc_v2( 1.0f, 0.5f ), 0.5f );
	kcc_shape dot = kcc_make_circle( kcc_v2( -3.0f, 0.75f ), 0.0f );
	c = kcc_shape_cast( &dot, kcc_v2( 6.0f, 0.0f ), &rounded );
	float expected = ( 2.0f - sqrtf( 0.25f - 0.0625f ) ) / 6.0f;
	assert_true( c.hit && fabsf( c.fraction - expected ) <= 1.0e-6f );
	assert_true( fabsf( c.normal.x + sqrtf( 0.75f ) ) <= 1.0e-5f && fabsf( c.normal.y - 0.5f ) <= 1.0e-5f );
	dot = kcc_make_circle( kcc_v2( -3.0f, 1.001f ), 0.0f );
	assert_false( kcc_shape_cast( &dot, kcc_v2( 6.0f, 0.0f ), &rounded ).hit );

	// Starting overlapped: fraction 0, normal 0. Starting within the separation: the separating normal.
	kcc_shape inside = kcc_make_capsule( kcc_v2( 0.5f, 0.0f ), kcc_v2( 0.5f, 0.25f ), 0.1f );
	c = kcc_shape_cast( &inside, kcc_v2( 1.0f, 1.0f ), &box );
	assert_true( c.hit && c.fraction == 0.0f && c.normal.x == 0.0f && c.normal.y == 0.0f );
	kcc_shape above = kcc_make_capsule( kcc_v2( 0.0f, 0.8f ), kcc_v2( 0.0f, 1.5f ), 0.25f );
	c = kcc_shape_cast_separation( &above, kcc_v2( 1.0f, 0.0f ), &box, 0.1f );
	assert_true( c.hit && c.fraction == 0.0f && c.normal.x == 0.0f && c.normal.y == 1.0f );
	c = kcc_shape_cast_separation( &above, kcc_v2( 0.0f, -1.0f ), &box, 0.01f );
	assert_true( c.hit && fabsf( c.fraction - 0.04f ) <= 1.0e-6f && c.normal.y == 1.0f );

	// A triangle (the fourth lane unused): a ball falling onto its apex meets the apex's disc; beside it, a miss.
	vec2s tri[3] = { { { -1.0f, 0.0f } }, { { 1.0f, 0.0f } }, { { 0.0f, 1.0f } } };
	kcc_shape slope = kcc_make_polygon( tri, 3, 0.0f );
	kcc_shape ball = kcc_make_circle( kcc_v2( 0.0f, 3.0f ), 0.5f );
	c = kcc_shape_cast( &ball, kcc_v2( 0.0f, -3.0f ), &slope );
	assert_true( c.hit && fabsf( c.fraction - 0.5f ) <= 1.0e-6f && fabsf( c.normal.y - 1.0f ) <= 1.0e-6f );
	assert_true( fabsf( c.point.x ) <= 1.0e-6f && fabsf( c.point.y - 1.0f ) <= 1.0e-6f );
	// Off to the side, onto the right slope: the face, at its normal.
	ball = kcc_make_circle( kcc_v2( 0.5f, 3.0f ), 0.5f );
	c = kcc_shape_cast( &ball, kcc_v2( 0.0f, -3.0f ), &slope );
	float drop = 3.0f - ( 1.0f - 0.5f ) - 0.5f * sqrtf( 2.0f ); // the centre stops 0.5 above the face x + y = 1
	assert_true( c.hit && fabsf( c.fraction - drop / 3.0f ) <= 1.0e-6f );
	assert_true( fabsf( c.normal.x - sqrtf( 0.5f ) ) <= 1.0e-6f && fabsf( c.normal.y - sqrtf( 0.5f ) ) <= 1.0e-6f );
	c = kcc_shape_cast( &ball, kcc_v2( 3.0f, 0.0f ), &slope );
	assert_false( c.hit );

	// Touching at the start (the closed sets overlap): a hit at 0 whichever way the mover goes.
	kcc_shape resting = kcc_make_capsule( kcc_v2( 0.0f, 0.75f ), kcc_v2( 0.0f, 1.75f ), 0.25f );
	c = kcc_shape_cast( &resting, kcc_v2( 0.0f, 1.0f ), &box );
	assert_true( c.hit && c.fraction == 0.0f );
	c = kcc_shape_cast( &resting, kcc_v2( 1.0f, 0.0f ), &box );
	assert_true( c.hit && c.fraction == 0.0f );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_round_pairs_match_exact_reference ),
		cmocka_unit_test( test_round_pair_bad_and_far_values ),
		cmocka_unit_test( test_round_pair_paths ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
