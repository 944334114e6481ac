// SPDX-License-Identifier: MIT
// Unit tests of the slide response (controller/slide.c): clipping, classification, floors with and without
// stop_on_slope, steep walls in GROUNDED mode, ceilings, creases from 20 to 170 degrees, the Quake rule, and the
// velocity clip of move_and_slide. Pure math: no cpSpace needed.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "../controller/internal.h"

#define DEG ( 3.14159265358979323846f / 180.0f )

static float dot( vec2s a, vec2s b )
{
	return a.x * b.x + a.y * b.y;
}

static float length( vec2s v )
{
	return sqrtf( dot( v, v ) );
}

static void assert_vec2_near( vec2s a, vec2s b, float tol )
{
	if ( fabsf( a.x - b.x ) > tol || fabsf( a.y - b.y ) > tol )
	{
		print_error( "(%.9g, %.9g) != (%.9g, %.9g) within %g\n", (double)a.x, (double)a.y, (double)b.x, (double)b.y,
					 (double)tol );
		fail();
	}
}

// Unit normal of a surface at angle a from the up direction (positive: facing left, i.e. a slope rising right).
static vec2s slope_normal( float angle )
{
	return kcc_v2( -sinf( angle ), cosf( angle ) );
}

static kcc_slide_params grounded_params( void )
{
	kcc_slide_params p;
	p.up = kcc_v2( 0.0f, 1.0f );
	p.grounded = true;
	p.stop_on_slope = true;
	p.constant_speed_on_slopes = false;
	p.slide_on_ceiling = true;
	p.on_floor = false; // in the air: gravity slides down steep slopes
	p.leaving = true;   // motion going up hits floors as a jump would
	return p;
}

static kcc_slide_params floating_params( void )
{
	kcc_slide_params p = grounded_params();
	p.grounded = false;
	return p;
}

static vec2s slide_one( const kcc_slide_params* p, vec2s delta, vec2s normal, uint32_t kind )
{
	return kcc_slide_remaining( p, NULL, 0, delta, delta, normal, kind );
}

static void test_clip_vector_removes_only_the_part_into_the_plane( void** state )
{
	(void)state;
	vec2s up = kcc_v2( 0.0f, 1.0f );
	assert_vec2_near( kcc_clip_vector( kcc_v2( 1.0f, -2.0f ), up ), kcc_v2( 1.0f, 0.0f ), 0.0f );
	assert_vec2_near( kcc_clip_vector( kcc_v2( 1.0f, 2.0f ), up ), kcc_v2( 1.0f, 2.0f ), 0.0f );
	// Never leaves a residue pointing into the plane, for any direction and plane.
	uint32_t seed = 7u;
	for ( int i = 0; i < 10000; ++i )
	{
		seed = seed * 1664525u + 1013904223u;
		float a = (float)( seed >> 8 ) * ( 6.2831853f / 16777216.0f );
		seed = seed * 1664525u + 1013904223u;
		float b = (float)( seed >> 8 ) * ( 6.2831853f / 16777216.0f );
		vec2s n = kcc_v2( cosf( a ), sinf( a ) );
		vec2s v = kcc_v2( 3.0f * cosf( b ), 3.0f * sinf( b ) );
		vec2s r = kcc_clip_vector( v, n );
		assert_true( dot( r, n ) >= 0.0f );
		// The tangential part is kept exactly (to rounding).
		vec2s t = kcc_v2( -n.y, n.x );
		assert_float_equal( dot( r, t ), dot( v, t ), 1e-5f );
	}
}

static void test_classify_normal( void** state )
{
	(void)state;
	vec2s up = kcc_v2( 0.0f, 1.0f );
	float cos45 = cosf( 45.0f * DEG );
	assert_int_equal( kcc_classify_normal( up, up, cos45, KCC_MODE_GROUNDED ), KCC_KIND_FLOOR );
	// A 45 degree ramp is walkable with a 45 degree limit despite its rounded normal.
	vec2s ramp = kcc_v2( -0.70710677f, 0.70710677f );
	assert_int_equal( kcc_classify_normal( ramp, up, cos45, KCC_MODE_GROUNDED ), KCC_KIND_FLOOR );
	assert_int_equal( kcc_classify_normal( slope_normal( 46.0f * DEG ), up, cos45, KCC_MODE_GROUNDED ), KCC_KIND_WALL );
	assert_int_equal( kcc_classify_normal( kcc_v2( -1.0f, 0.0f ), up, cos45, KCC_MODE_GROUNDED ), KCC_KIND_WALL );
	assert_int_equal( kcc_classify_normal( kcc_v2( 0.0f, -1.0f ), up, cos45, KCC_MODE_GROUNDED ), KCC_KIND_CEILING );
	assert_int_equal( kcc_classify_normal( kcc_v2( 0.70710677f, -0.70710677f ), up, cos45, KCC_MODE_GROUNDED ),
					  KCC_KIND_CEILING );
	// FLOATING: every surface is a wall.
	assert_int_equal( kcc_classify_normal( up, up, cos45, KCC_MODE_FLOATING ), KCC_KIND_WALL );
	assert_int_equal( kcc_classify_normal( kcc_v2( 0.0f, -1.0f ), up, cos45, KCC_MODE_FLOATING ), KCC_KIND_WALL );
	// Another up direction (sideways gravity).
	vec2s right = kcc_v2( 1.0f, 0.0f );
	assert_int_equal( kcc_classify_normal( right, right, cos45, KCC_MODE_GROUNDED ), KCC_KIND_FLOOR );
	assert_int_equal( kcc_classify_normal( up, right, cos45, KCC_MODE_GROUNDED ), KCC_KIND_WALL );
}

static void test_flat_floor_keeps_lateral_and_absorbs_gravity( void** state )
{
	(void)state;
	kcc_slide_params p = grounded_params();
	vec2s r = slide_one( &p, kcc_v2( 0.1f, -0.05f ), kcc_v2( 0.0f, 1.0f ), KCC_KIND_FLOOR );
	assert_vec2_near( r, kcc_v2( 0.1f, 0.0f ), 0.0f );
	// Standing (gravity only): nothing remains.
	r = slide_one( &p, kcc_v2( 0.0f, -0.05f ), kcc_v2( 0.0f, 1.0f ), KCC_KIND_FLOOR );
	assert_vec2_near( r, kcc_v2( 0.0f, 0.0f ), 0.0f );
}

static void test_standing_on_slope_does_not_creep( void** state )
{
	(void)state;
	kcc_slide_params p = grounded_params();
	for ( float a = 5.0f; a <= 45.0f; a += 5.0f )
	{
		vec2s n = slope_normal( a * DEG );
		vec2s r = slide_one( &p, kcc_v2( 0.0f, -0.1f ), n, KCC_KIND_FLOOR );
		assert_vec2_near( r, kcc_v2( 0.0f, 0.0f ), 0.0f );
		// Without stop_on_slope, gravity slides it down the slope (the tangential part of the gravity motion).
		kcc_slide_params q = p;
		q.stop_on_slope = false;
		vec2s s = slide_one( &q, kcc_v2( 0.0f, -0.1f ), n, KCC_KIND_FLOOR );
		vec2s down_slope = kcc_v2( -cosf( a * DEG ), -sinf( a * DEG ) );
		assert_float_equal( dot( s, down_slope ), 0.1f * sinf( a * DEG ), 1e-6f );
		assert_float_equal( dot( s, n ), 0.0f, 1e-6f );
	}
}

static void test_walking_up_a_slope_follows_it( void** state )
{
	(void)state;
	kcc_slide_params p = grounded_params();
	float a = 30.0f * DEG;
	vec2s n = slope_normal( a );
	vec2s r = slide_one( &p, kcc_v2( 0.1f, -0.01f ), n, KCC_KIND_FLOOR );
	// Lateral 0.1 projected onto the slope: along the slope, shorter by cos^2 in x.
	assert_float_equal( dot( r, n ), 0.0f, 1e-6f );
	assert_float_equal( r.x, 0.1f * cosf( a ) * cosf( a ), 1e-6f );
	assert_true( r.y > 0.0f );
	// constant_speed_on_slopes: the same direction with the lateral input's length.
	p.constant_speed_on_slopes = true;
	vec2s c = slide_one( &p, kcc_v2( 0.1f, -0.01f ), n, KCC_KIND_FLOOR );
	assert_float_equal( length( c ), 0.1f, 1e-6f );
	assert_float_equal( dot( c, n ), 0.0f, 1e-6f );
}

static void test_walking_down_a_slope_is_not_faster( void** state )
{
	(void)state;
	kcc_slide_params p = grounded_params();
	vec2s n = slope_normal( 30.0f * DEG ); // rises to the right: walking left goes down
	vec2s r = slide_one( &p, kcc_v2( -0.1f, -0.01f ), n, KCC_KIND_FLOOR );
	// The lateral motion points away from the slope: it is kept as is (the snap brings the character down).
	assert_vec2_near( r, kcc_v2( -0.1f, 0.0f ), 0.0f );
	assert_true( length( r ) <= 0.1f );
}

static void test_steep_wall_does_not_lift_in_grounded_mode( void** state )
{
	(void)state;
	kcc_slide_params p = grounded_params();
	for ( float a = 50.0f; a <= 89.0f; a += 3.0f )
	{
		vec2s n = slope_normal( a * DEG );
		vec2s r = slide_one( &p, kcc_v2( 0.1f, -0.01f ), n, KCC_KIND_WALL );
		assert_true( r.y <= 0.0f );
		assert_true( dot( r, n ) >= -1e-7f );
		// Only sliding down remains: no progress into the wall's direction.
		assert_true( r.x <= 1e-7f );
	}
	// Moving up (a jump) along a steep wall keeps the plain projection (it may rise).
	vec2s n = slope_normal( 60.0f * DEG );
	vec2s r = slide_one( &p, kcc_v2( 0.1f, 0.1f ), n, KCC_KIND_WALL );
	assert_true( r.y > 0.0f );
	assert_float_equal( dot( r, n ), 0.0f, 1e-6f );
}

static void test_vertical_wall_keeps_exact_tangent( void** state )
{
	(void)state;
	kcc_slide_params g = grounded_params();
	kcc_slide_params f = floating_params();
	vec2s n = kcc_v2( -1.0f, 0.0f );
	// Falling along a wall while pushing into it: the vertical motion is kept exactly.
	assert_vec2_near( slide_one( &g, kcc_v2( 0.3f, -0.2f ), n, KCC_KIND_WALL ), kcc_v2( 0.0f, -0.2f ), 0.0f );
	// Jumping along it.
	assert_vec2_near( slide_one( &g, kcc_v2( 0.3f, 0.2f ), n, KCC_KIND_WALL ), kcc_v2( 0.0f, 0.2f ), 0.0f );
	// FLOATING, tilted wall: exactly the tangential part.
	vec2s m = kcc_v2( -cosf( 25.0f * DEG ), -sinf( 25.0f * DEG ) );
	vec2s t = kcc_v2( -m.y, m.x );
	vec2s delta = kcc_v2( 0.7f * t.x - 0.2f * m.x, 0.7f * t.y - 0.2f * m.y );
	vec2s r = slide_one( &f, delta, m, KCC_KIND_WALL );
	assert_float_equal( dot( r, t ), 0.7f, 1e-6f );
	assert_float_equal( dot( r, m ), 0.0f, 1e-6f );
}

static void test_ceiling( void** state )
{
	(void)state;
	kcc_slide_params p = grounded_params();
	vec2s n = kcc_v2( 0.0f, -1.0f );
	// slide_on_ceiling: the tangent is kept.
	assert_vec2_near( slide_one( &p, kcc_v2( 0.2f, 0.3f ), n, KCC_KIND_CEILING ), kcc_v2( 0.2f, 0.0f ), 0.0f );
	// Off: the move stops at the ceiling (Godot: stops, then falls).
	p.slide_on_ceiling = false;
	assert_vec2_near( slide_one( &p, kcc_v2( 0.2f, 0.3f ), n, KCC_KIND_CEILING ), kcc_v2( 0.0f, 0.0f ), 0.0f );
}

// Two planes forming a crease of opening angle theta (degrees), symmetric about up: the floor of a V valley (or
// the corner of a room for the FLOATING character). Whatever the input, the result never goes into either plane,
// never against the input, and stops when both planes block it.
static void test_creases_from_20_to_170_degrees( void** state )
{
	(void)state;
	kcc_slide_params modes[2] = { grounded_params(), floating_params() };
	for ( int mi = 0; mi < 2; ++mi )
	{
		for ( float theta = 20.0f; theta <= 170.0f; theta += 10.0f )
		{
			float half = 0.5f * ( 180.0f - theta ) * DEG; // each plane's tilt from up
			vec2s left = kcc_v2( sinf( half ), cosf( half ) );   // left wall of the V, facing up-right
			vec2s right = kcc_v2( -sinf( half ), cosf( half ) ); // right wall, facing up-left
			for ( int k = 0; k < 36; ++k )
			{
				float a = (float)k * 10.0f * DEG;
				vec2s delta = kcc_v2( 0.2f * cosf( a ), 0.2f * sinf( a ) );
				if ( dot( delta, right ) >= 0.0f )
				{
					continue; // the first plane met must block the input
				}
				uint32_t kind_r = kcc_classify_normal( right, modes[mi].up, cosf( 45.0f * DEG ),
													   mi == 0 ? KCC_MODE_GROUNDED : KCC_MODE_FLOATING );
				uint32_t kind_l = kcc_classify_normal( left, modes[mi].up, cosf( 45.0f * DEG ),
													   mi == 0 ? KCC_MODE_GROUNDED : KCC_MODE_FLOATING );
				vec2s r1 = kcc_slide_remaining( modes + mi, NULL, 0, delta, delta, right, kind_r );
				vec2s planes[1] = { right };
				vec2s r2 = r1;
				if ( dot( r1, left ) < 0.0f )
				{
					r2 = kcc_slide_remaining( modes + mi, planes, 1, delta, r1, left, kind_l );
				}
				float scale = 1e-5f * 0.2f;
				assert_true( dot( r2, left ) >= -scale );
				assert_true( dot( r2, right ) >= -scale );
				assert_true( length( r2 ) == 0.0f || dot( r2, delta ) > 0.0f );
				assert_true( length( r2 ) <= length( delta ) + 1e-6f );
				// In 2D two non-parallel planes that both block leave no direction: it stops.
				if ( dot( delta, left ) < 0.0f && dot( delta, right ) < 0.0f && theta < 90.0f )
				{
					assert_true( length( r2 ) == 0.0f || ( dot( r2, left ) >= 0.0f && dot( r2, right ) >= 0.0f ) );
				}
			}
		}
	}
}

static void test_corner_stops_motion( void** state )
{
	(void)state;
	// A floor and a wall met in one move (a 90 degree corner): pushing into both stops.
	kcc_slide_params p = floating_params();
	vec2s floor_n = kcc_v2( 0.0f, 1.0f );
	vec2s wall_n = kcc_v2( -1.0f, 0.0f );
	vec2s delta = kcc_v2( 0.3f, -0.2f );
	vec2s r1 = kcc_slide_remaining( &p, NULL, 0, delta, delta, floor_n, KCC_KIND_WALL );
	assert_vec2_near( r1, kcc_v2( 0.3f, 0.0f ), 0.0f );
	vec2s planes[1] = { floor_n };
	vec2s r2 = kcc_slide_remaining( &p, planes, 1, delta, r1, wall_n, KCC_KIND_WALL );
	assert_vec2_near( r2, kcc_v2( 0.0f, 0.0f ), 0.0f );
	// Coplanar tile seams are one plane: the second hit of the same normal keeps the slide.
	vec2s r3 = kcc_slide_remaining( &p, planes, 1, delta, r1, floor_n, KCC_KIND_WALL );
	assert_vec2_near( r3, kcc_v2( 0.3f, 0.0f ), 0.0f );
}

static void test_quake_rule_never_moves_against_the_input( void** state )
{
	(void)state;
	kcc_slide_params p = floating_params();
	// The remaining motion after an earlier slide points against the input along the new plane: stop.
	vec2s delta = kcc_v2( 1.0f, 0.0f );
	vec2s remaining = kcc_v2( -0.1f, 0.5f );
	vec2s n = kcc_v2( 0.0f, -1.0f );
	vec2s r = kcc_slide_remaining( &p, NULL, 0, delta, remaining, n, KCC_KIND_WALL );
	assert_vec2_near( r, kcc_v2( 0.0f, 0.0f ), 0.0f );
	// Head-on into a wall: nothing remains.
	r = kcc_slide_remaining( &p, NULL, 0, delta, delta, kcc_v2( -1.0f, 0.0f ), KCC_KIND_WALL );
	assert_vec2_near( r, kcc_v2( 0.0f, 0.0f ), 0.0f );
	// Random planes and inputs: the result is never against the input.
	uint32_t seed = 99u;
	for ( int i = 0; i < 5000; ++i )
	{
		seed = seed * 1664525u + 1013904223u;
		float a = (float)( seed >> 8 ) * ( 6.2831853f / 16777216.0f );
		seed = seed * 1664525u + 1013904223u;
		float b = (float)( seed >> 8 ) * ( 6.2831853f / 16777216.0f );
		vec2s d = kcc_v2( cosf( a ), sinf( a ) );
		vec2s m = kcc_v2( cosf( b ), sinf( b ) );
		if ( dot( d, m ) >= 0.0f )
		{
			continue;
		}
		// FLOATING: never against the input.
		kcc_slide_params f = floating_params();
		vec2s out = kcc_slide_remaining( &f, NULL, 0, d, d, m, KCC_KIND_WALL );
		assert_true( length( out ) == 0.0f || dot( out, d ) > 0.0f );
		assert_true( dot( out, m ) >= -1e-6f );
		// GROUNDED: never against the input, except going down while the input goes down (gravity sliding down a
		// steep slope).
		kcc_slide_params g = grounded_params();
		uint32_t kind = kcc_classify_normal( m, g.up, cosf( 45.0f * DEG ), KCC_MODE_GROUNDED );
		out = kcc_slide_remaining( &g, NULL, 0, d, d, m, kind );
		bool falling = d.y < 0.0f && out.y < 0.0f;
		assert_true( length( out ) == 0.0f || dot( out, d ) > 0.0f || falling );
		assert_true( dot( out, m ) >= -1e-6f );
	}
}

// Pushing into a 60 degree slope while falling slowly: the character slides down the slope (it used to stop: the
// wall rule's result, (-0.0076, -0.0131) for the input (0.0667, -0.0175), points back in x, and the Quake rule
// killed the fall with it, so characters stuck to steep slopes in the air).
static void test_steep_slope_is_slid_down_not_stuck_to( void** state )
{
	(void)state;
	kcc_slide_params g = grounded_params();
	vec2s n = slope_normal( 60.0f * DEG );
	vec2s delta = kcc_v2( 0.0667f, -0.0175f );
	vec2s r = slide_one( &g, delta, n, KCC_KIND_WALL );
	assert_true( r.y < 0.0f );
	assert_true( r.y >= delta.y );
	assert_float_equal( dot( r, n ), 0.0f, 1e-6f );
}

// The move's plane list made of these contacts, clipped (what move_and_slide does after a move).
static vec2s clip_against( const kcc_slide_params* p, vec2s velocity, const kcc_collision* contacts, int count,
						   bool on_floor, vec2s floor_normal )
{
	static kcc_plane_list planes;
	planes.count = count;
	for ( int i = 0; i < count; ++i )
	{
		planes.normals[i] = contacts[i].normal;
		planes.kinds[i] = contacts[i].flags;
	}
	return kcc_clip_velocity( p, velocity, &planes, on_floor, floor_normal );
}

static kcc_collision ceiling_of( float tilt )
{
	kcc_collision c = { 0 };
	c.normal = kcc_v2( -sinf( tilt ), -cosf( tilt ) );
	c.flags = KCC_ON_CEILING;
	return c;
}

static void test_velocity_clip( void** state )
{
	(void)state;
	kcc_slide_params p = grounded_params();
	kcc_collision wall = { 0 };
	wall.normal = kcc_v2( -1.0f, 0.0f );
	wall.flags = KCC_ON_WALL;
	// Pushing a wall while falling: the push is removed, the fall kept; repeated frames never build up speed.
	vec2s v = kcc_v2( 6.0f, -3.0f );
	for ( int i = 0; i < 10; ++i )
	{
		vec2s in = kcc_v2( 6.0f, v.y - 0.5f );
		v = clip_against( &p, in, &wall, 1, false, p.up );
		assert_float_equal( v.x, 0.0f, 0.0f );
		assert_float_equal( v.y, in.y, 0.0f );
	}
	// A steep wall in GROUNDED mode never turns a horizontal push into upward speed.
	kcc_collision steep = wall;
	steep.normal = slope_normal( 60.0f * DEG );
	vec2s s = clip_against( &p, kcc_v2( 6.0f, -0.5f ), &steep, 1, false, p.up );
	assert_true( s.y <= 0.0f );
	// Floor with stop_on_slope: the fall ends and the lateral part is kept whole: into an uphill slope it is lifted
	// along it (the velocity never points into a surface met, and a game keeping its momentum does not slow down),
	// never turned down it (no downhill slide while standing).
	kcc_collision floor = { 0 };
	floor.normal = slope_normal( 30.0f * DEG );
	floor.flags = KCC_ON_FLOOR;
	vec2s f = clip_against( &p, kcc_v2( 4.0f, -5.0f ), &floor, 1, true, floor.normal );
	assert_vec2_near( f, kcc_v2( 4.0f, 2.30940108f ), 1e-6f );
	assert_true( dot( f, floor.normal ) >= 0.0f );
	f = clip_against( &p, kcc_v2( 0.0f, -5.0f ), &floor, 1, true, floor.normal );
	assert_vec2_near( f, kcc_v2( 0.0f, 0.0f ), 0.0f );
	// Over a crest: the speed up the slope is not kept on the flat top (no launch).
	f = clip_against( &p, kcc_v2( 6.0f, 2.5f ), NULL, 0, true, p.up );
	assert_vec2_near( f, kcc_v2( 6.0f, 0.0f ), 0.0f );
	// Without stop_on_slope it is a projection onto the floor.
	p.stop_on_slope = false;
	f = clip_against( &p, kcc_v2( 0.0f, -5.0f ), &floor, 1, true, floor.normal );
	assert_float_equal( dot( f, floor.normal ), 0.0f, 1e-5f );
	// On the floor found by the probe only (no collision): falling speed ends.
	p.stop_on_slope = true;
	vec2s g = clip_against( &p, kcc_v2( 2.0f, -1.0f ), NULL, 0, true, p.up );
	assert_vec2_near( g, kcc_v2( 2.0f, 0.0f ), 0.0f );
	// A crease (a floor-and-ceiling wedge, a gap narrower than the character): stuck means zero, whatever the order
	// of the collisions.
	kcc_collision wedge[2] = { floor, ceiling_of( -20.0f * DEG ) };
	vec2s w = clip_against( &p, kcc_v2( 5.0f, 0.0f ), wedge, 2, false, p.up );
	assert_vec2_near( w, kcc_v2( 0.0f, 0.0f ), 0.0f );
	kcc_collision gap[2] = { wall, wall };
	gap[1].normal = kcc_v2( -0.8f, 0.6f );
	w = clip_against( &p, kcc_v2( 5.0f, 0.1f ), gap, 2, false, p.up );
	for ( int i = 0; i < 2; ++i )
	{
		assert_true( dot( w, gap[i].normal ) >= -1e-6f );
	}
	// A ceiling removes the upward speed.
	kcc_collision ceiling = { 0 };
	ceiling.normal = kcc_v2( 0.0f, -1.0f );
	ceiling.flags = KCC_ON_CEILING;
	vec2s c = clip_against( &p, kcc_v2( 1.0f, 8.0f ), &ceiling, 1, false, p.up );
	assert_vec2_near( c, kcc_v2( 1.0f, 0.0f ), 0.0f );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_clip_vector_removes_only_the_part_into_the_plane ),
		cmocka_unit_test( test_classify_normal ),
		cmocka_unit_test( test_flat_floor_keeps_lateral_and_absorbs_gravity ),
		cmocka_unit_test( test_standing_on_slope_does_not_creep ),
		cmocka_unit_test( test_walking_up_a_slope_follows_it ),
		cmocka_unit_test( test_walking_down_a_slope_is_not_faster ),
		cmocka_unit_test( test_steep_wall_does_not_lift_in_grounded_mode ),
		cmocka_unit_test( test_vertical_wall_keeps_exact_tangent ),
		cmocka_unit_test( test_ceiling ),
		cmocka_unit_test( test_creases_from_20_to_170_degrees ),
		cmocka_unit_test( test_corner_stops_motion ),
		cmocka_unit_test( test_quake_rule_never_moves_against_the_input ),
		cmocka_unit_test( test_steep_slope_is_slid_down_not_stuck_to ),
		cmocka_unit_test( test_velocity_clip ),
	};
	return cmocka_run_group_tests_name( "controller_slide", tests, NULL, NULL );
}
