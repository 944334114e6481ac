// SPDX-License-Identifier: MIT
// kcc_separated_trusted (the depenetration's cheap test before the penetration): never true where
// kcc_penetration_trusted finds an overlap, also a few roundings either side of touching and far from the frame's
// origin; and true wherever the shapes are apart by more than a small gap, beside a face or beyond a corner.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../geometry/internal.h"
#include "kcc/geometry.h"
#include "test_reference.h"

#include <stdio.h>

#include "test_random_shapes.h"

// A circle or a capsule (any way turned, upright a third of the time) of about size.
static kcc_shape random_round( kcc_ref_rng* rng, float size )
{
	float radius = size * uniform( rng, 0.05f, 0.6f );
	if ( kcc_ref_int( rng, 0, 2 ) == 0 )
	{
		return kcc_make_circle( kcc_v2( 0.0f, 0.0f ), radius );
	}
	float angle = kcc_ref_int( rng, 0, 2 ) == 0 ? 0.5f * PI_F : uniform( rng, -PI_F, PI_F );
	float half = size * uniform( rng, 0.05f, 1.0f );
	vec2s e = kcc_v2( half * cosf( angle ), half * sinf( angle ) );
	return kcc_make_capsule( kcc_v2( -e.x, -e.y ), e, radius );
}

// A polygon around at of about size: a box with sides on the axes (a tile) a third of the time, else a random polygon,
// rounded or not, or a turned rounded box.
static kcc_shape random_sharp( kcc_ref_rng* rng, vec2s at, float size )
{
	static const int kinds[] = { K_POLYGON, K_ROUNDED_POLYGON, K_ROUNDED_BOX };
	if ( kcc_ref_int( rng, 0, 2 ) == 0 )
	{
		vec2s h = kcc_v2( size * uniform( rng, 0.05f, 1.0f ), size * uniform( rng, 0.05f, 1.0f ) );
		vec2s corners[4] = { kcc_v2( at.x - h.x, at.y - h.y ), kcc_v2( at.x + h.x, at.y - h.y ),
							 kcc_v2( at.x + h.x, at.y + h.y ), kcc_v2( at.x - h.x, at.y + h.y ) };
		return kcc_make_polygon( corners, 4, kcc_ref_int( rng, 0, 1 ) == 0 ? 0.0f : 0.05f * size );
	}
	return random_shape( rng, kinds[kcc_ref_int( rng, 0, 2 )], at, size );
}

static void test_separated_agrees_with_penetration( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 2024 };
	// Gaps between the rounded surfaces, relative to the shapes' size: overlapping, touching within a few roundings,
	// a character's skin, apart.
	const float gaps[] = { -0.02f, -1.0e-4f, -3.0e-7f, -6.0e-8f, 0.0f, 6.0e-8f, 1.2e-7f, 3.0e-7f, 1.0e-6f, 1.0e-5f,
						   1.0e-4f, 1.0e-3f, 0.01f, 0.3f };
	const int gap_count = (int)( sizeof( gaps ) / sizeof( gaps[0] ) );
	const float offsets[] = { 0.0f, 7.0f, 1000.0f, 60000.0f };
	int tested = 0, separated = 0, near = 0, overlapping = 0, far_apart = 0;
	for ( int i = 0; i < 200000; ++i )
	{
		float size = uniform( &rng, 0.2f, 2.0f );
		float offset = offsets[kcc_ref_int( &rng, 0, 3 )];
		vec2s at = kcc_v2( offset * uniform( &rng, -1.0f, 1.0f ), offset * uniform( &rng, -1.0f, 1.0f ) );
		kcc_shape polygon = random_sharp( &rng, at, size );
		assert_true( polygon.type == KCC_SHAPE_POLYGON );
		kcc_shape round = random_round( &rng, size );
		// Somewhere around the polygon, then along the closest points' normal to the gap wanted.
		float angle = uniform( &rng, -PI_F, PI_F );
		vec2s place = kcc_v2( at.x + 2.0f * size * cosf( angle ), at.y + 2.0f * size * sinf( angle ) );
		round = kcc_shape_translate( &round, place );
		kcc_distance_output d = kcc_distance( &polygon, &round );
		if ( d.distance <= 0.0f )
		{
			continue;
		}
		float gap = size * gaps[kcc_ref_int( &rng, 0, gap_count - 1 )];
		round = kcc_shape_translate( &round, glms_vec2_scale( d.normal, gap - d.distance ) );
		tested += 1;
		bool apart = kcc_separated_trusted( &polygon, &round );
		assert_true( apart == kcc_separated_trusted( &round, &polygon ) );
		kcc_penetration_output p = kcc_penetration_trusted( &polygon, &round );
		if ( apart && p.overlapping )
		{
			print_error( "separated, but the penetration finds an overlap of %.9g (gap asked %.9g, at %g %g)\n",
						 p.depth, gap, at.x, at.y );
			fail();
		}
		overlapping += p.overlapping ? 1 : 0;
		separated += apart ? 1 : 0;
		near += fabsf( gap ) <= 3.0e-7f * size ? 1 : 0;
		// Apart by more than a small gap: a face or the corner's axis shows it.
		float distance = kcc_distance( &polygon, &round ).distance;
		if ( distance > 1.0e-4f * ( size + offset ) )
		{
			far_apart += 1;
			if ( apart == false )
			{
				print_error( "apart by %.9g but not separated (size %g, at %g %g)\n", distance, size, at.x, at.y );
				fail();
			}
		}
	}
	printf( "separated: %d of %d pairs (%d within a few roundings of touching), %d overlapping, %d clearly apart\n",
			separated, tested, near, overlapping, far_apart );
	assert_true( tested > 100000 && separated > 20000 && near > 30000 && overlapping > 40000 && far_apart > 20000 );
}

// Other kinds (two polygons, two round shapes, a sector) are left to the penetration.
static void test_separated_other_kinds( void** state )
{
	(void)state;
	const vec2s corners[4] = { { { 0.0f, 0.0f } }, { { 1.0f, 0.0f } }, { { 1.0f, 1.0f } }, { { 0.0f, 1.0f } } };
	kcc_shape box = kcc_make_polygon( corners, 4, 0.0f );
	kcc_shape far_box = kcc_shape_translate( &box, kcc_v2( 5.0f, 0.0f ) );
	kcc_shape aabb = kcc_make_aabb( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 1.0f ) );
	kcc_shape circle = kcc_make_circle( kcc_v2( 5.0f, 0.5f ), 0.5f );
	kcc_shape capsule = kcc_make_capsule( kcc_v2( 9.0f, 0.0f ), kcc_v2( 9.0f, 1.0f ), 0.25f );
	kcc_shape sector = kcc_make_sector( kcc_v2( 9.0f, 9.0f ), kcc_v2( 1.0f, 0.0f ), 1.0f, 1.0f );
	assert_true( kcc_separated_trusted( &box, &circle ) );
	assert_true( kcc_separated_trusted( &capsule, &box ) );
	assert_false( kcc_separated_trusted( &box, &far_box ) );
	assert_false( kcc_separated_trusted( &circle, &capsule ) );
	assert_false( kcc_separated_trusted( &box, &sector ) );
	assert_false( kcc_separated_trusted( &aabb, &circle ) ); // not a polygon
	// Touching: the penetration decides.
	kcc_shape touching = kcc_make_circle( kcc_v2( 1.5f, 0.5f ), 0.5f );
	assert_false( kcc_separated_trusted( &box, &touching ) );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_separated_agrees_with_penetration ),
		cmocka_unit_test( test_separated_other_kinds ),
	};
	return cmocka_run_group_tests_name( "geometry_separated", tests, NULL, NULL );
}
