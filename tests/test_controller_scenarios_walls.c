// SPDX-License-Identifier: MIT
// Quality properties 1, 2 and 6 (DESIGN.md section 5) on a real cpSpace, for a circle, a capsule and a rounded
// box: no overlap after any move and the resting gap near skin; no tunnelling through thin walls and
// zero-thickness segments; sliding keeps exactly the tangential part and move_and_slide never builds velocity
// into a wall. Overlaps are measured independently of the controller (controller_scene.h).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f

// A closed room of separate tiles, x in [-15, 15], y in [0, 12], with obstacles of every kind inside.
static void build_room( scene* s )
{
	scene_add_tile_row( s, -16, -1, 32 );    // floor, top at y = 0
	scene_add_tile_row( s, -16, 12, 32 );    // ceiling, bottom at y = 12
	scene_add_tile_column( s, -16, 0, 12 );  // left wall, face at x = -15
	scene_add_tile_column( s, 15, 0, 12 );   // right wall, face at x = 15
	scene_add_slope( s, kcc_v2( -13.0f, 0.0f ), 30.0f * SCENE_PI / 180.0f, 3.0f, 0.5f );
	scene_add_slope( s, kcc_v2( -6.0f, 0.0f ), 60.0f * SCENE_PI / 180.0f, 1.0f, 0.5f );
	scene_add_circle( s, kcc_v2( -3.0f, 0.2f ), 0.6f );
	scene_add_segment( s, kcc_v2( 0.0f, 1.0f ), kcc_v2( 2.0f, 2.5f ), 0.0f );
	scene_add_crease( s, kcc_v2( 5.0f, 0.0f ), 70.0f * SCENE_PI / 180.0f, 2.0f, 0.3f );
	scene_add_box( s, 9.0f, 0.0f, 9.02f, 4.0f );   // thin wall
	scene_add_box( s, 11.0f, 3.0f, 13.0f, 3.5f );  // floating platform
	scene_add_segment( s, kcc_v2( -10.0f, 6.0f ), kcc_v2( -4.0f, 6.0f ), 0.0f ); // zero-thickness ledge
	scene_add_circle( s, kcc_v2( 3.0f, 8.0f ), 1.0f );
	vec2s hexagon[6];
	for ( int i = 0; i < 6; ++i )
	{
		float a = (float)i * SCENE_PI / 3.0f + 0.2f;
		hexagon[i] = kcc_v2( -8.0f + 0.8f * cosf( a ), 9.0f + 0.8f * sinf( a ) );
	}
	scene_add_polygon( s, hexagon, 6, 0.05f );
}

// Property 1: random platformer and top-down motion in the room; after every move the independent overlap
// measure stays <= 1e-3 of the character height and the character stays inside the room.
static void test_no_overlap_after_any_move( void** state )
{
	(void)state;
	for ( int mode = 0; mode < 2; ++mode )
	{
		for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
		{
			scene* s = scene_create( 1.0f );
			build_room( s );
			float height = test_character_height( kind );
			kcc_controller_def def = test_character_def( kind, kcc_v2( -11.0f, 6.0f ) );
			def.mode = mode == 0 ? KCC_MODE_GROUNDED : KCC_MODE_FLOATING;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			uint32_t rng = 12345u + (uint32_t)( kind * 7 + mode );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			float vx = 0.0f;
			float deepest = 0.0f;
			for ( int step = 0; step < 1500; ++step )
			{
				kcc_move_result result;
				kcc_status status;
				if ( mode == 0 )
				{
					if ( step % 20 == 0 )
					{
						vx = test_random( &rng, -9.0f, 9.0f );
					}
					if ( kcc_controller_is_on_floor( c ) && test_random( &rng, 0.0f, 1.0f ) < 0.05f )
					{
						velocity.y = test_random( &rng, 4.0f, 14.0f );
					}
					status = test_gravity_step( c, &velocity, vx, GRAVITY, DT, &result );
				}
				else
				{
					// Top-down: random pushes of up to 2.5 units in any direction, often into walls.
					vec2s delta = kcc_v2( test_random( &rng, -2.5f, 2.5f ), test_random( &rng, -2.5f, 2.5f ) );
					status = kcc_controller_move( c, delta, &result );
				}
				SCENE_CHECK( status == KCC_OK, "%s mode %d step %d: status %d", test_character_name( kind ), mode,
							 step, (int)status );
				vec2s p = kcc_controller_get_position( c );
				SCENE_CHECK( kcc_is_valid_vec2( p ), "%s: NaN position at step %d", test_character_name( kind ), step );
				float depth = scene_overlap( s, &def.shape, p );
				deepest = depth > deepest ? depth : deepest;
				SCENE_CHECK( depth <= 1e-3f * height, "%s mode %d step %d: overlap %g at (%.6f, %.6f) (limit %g)",
							 test_character_name( kind ), mode, step, (double)depth, (double)p.x, (double)p.y,
							 (double)( 1e-3f * height ) );
				SCENE_CHECK( p.x > -15.0f && p.x < 15.0f && p.y > 0.0f && p.y < 12.0f,
							 "%s mode %d step %d: left the room at (%.6f, %.6f)", test_character_name( kind ), mode,
							 step, (double)p.x, (double)p.y );
			}
			print_message( "%s %s: largest overlap %g\n", test_character_name( kind ),
						   mode == 0 ? "grounded" : "floating", (double)deepest );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// Property 1: pushing into a wall for many steps keeps the gap to it within [0, skin + 1e-4], at several speeds,
// for a tiled wall (platformer, with gravity on a tiled floor) and for one big box (top-down).
static void test_wall_gap_after_pushing( void** state )
{
	(void)state;
	static const float speeds[] = { 0.3f, 3.0f, 6.0f, 30.0f, 300.0f }; // units per second, dt = 1/60
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		float half_width = test_character_half_width( kind );
		float half_height = test_character_half_height( kind );
		for ( int si = 0; si < (int)( sizeof( speeds ) / sizeof( speeds[0] ) ); ++si )
		{
			for ( int mode = 0; mode < 2; ++mode )
			{
				scene* s = scene_create( 1.0f );
				scene_add_tile_row( s, -10, -1, 20 );
				if ( mode == 0 )
				{
					scene_add_tile_column( s, 5, 0, 8 ); // face at x = 5
				}
				else
				{
					scene_add_box( s, 5.0f, -1.0f, 8.0f, 9.0f );
				}
				// Reach the wall around step 100 at any speed.
				float start_gap = fminf( 2.0f, speeds[si] * DT * 100.0f );
				kcc_controller_def def =
					test_character_def( kind, kcc_v2( 5.0f - start_gap - half_width, half_height + 0.01f ) );
				def.mode = mode == 0 ? KCC_MODE_GROUNDED : KCC_MODE_FLOATING;
				kcc_controller* c = scene_create_controller( s, &def );
				assert_non_null( c );
				vec2s velocity = kcc_v2( 0.0f, 0.0f );
				bool touched = false;
				for ( int step = 0; step < 240; ++step )
				{
					kcc_move_result result;
					kcc_status status = mode == 0 ? test_gravity_step( c, &velocity, speeds[si], GRAVITY, DT, &result )
												  : kcc_controller_move( c, kcc_v2( speeds[si] * DT, 0.0f ), &result );
					assert_int_equal( status, KCC_OK );
					vec2s p = kcc_controller_get_position( c );
					float gap = 5.0f - ( p.x + half_width );
					SCENE_CHECK( gap >= 0.0f, "%s speed %g mode %d step %d: inside the wall, gap %g",
								 test_character_name( kind ), (double)speeds[si], mode, step, (double)gap );
					float depth = scene_overlap( s, &def.shape, p );
					SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s step %d: overlap %g",
								 test_character_name( kind ), step, (double)depth );
					touched = touched || ( result.flags & KCC_ON_WALL ) != 0;
					if ( step >= 200 )
					{
						SCENE_CHECK( touched, "%s speed %g: never reported the wall", test_character_name( kind ),
									 (double)speeds[si] );
						SCENE_CHECK( gap <= def.skin + 1e-4f, "%s speed %g mode %d step %d: resting gap %g (skin %g)",
									 test_character_name( kind ), (double)speeds[si], mode, step, (double)gap,
									 (double)def.skin );
						if ( mode == 0 )
						{
							// And the floor gap too.
							float floor_gap = p.y - half_height;
							SCENE_CHECK( floor_gap >= 0.0f && floor_gap <= def.skin + 1e-4f,
										 "%s step %d: floor gap %g", test_character_name( kind ), step,
										 (double)floor_gap );
						}
					}
				}
				kcc_controller_destroy( c );
				scene_destroy( s );
			}
		}
	}
}

// Property 2: displacements up to 50 character heights per move never cross a 0.02 thick wall or a
// zero-thickness segment, at several angles, from both sides, in both modes. The tangential part survives.
static void test_no_tunnelling( void** state )
{
	(void)state;
	static const float multiples[] = { 0.5f, 3.0f, 12.0f, 50.0f };
	static const float angles_degrees[] = { 0.0f, 10.0f, 30.0f, 45.0f, 60.0f, 80.0f, -35.0f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		float height = test_character_height( kind );
		float half_width = test_character_half_width( kind );
		for ( int wall = 0; wall < 2; ++wall )
		{
			for ( int side = -1; side <= 1; side += 2 )
			{
				for ( int mode = 0; mode < 2; ++mode )
				{
					for ( int mi = 0; mi < (int)( sizeof( multiples ) / sizeof( multiples[0] ) ); ++mi )
					{
						for ( int ai = 0; ai < (int)( sizeof( angles_degrees ) / sizeof( angles_degrees[0] ) );
							  ++ai )
						{
							scene* s = scene_create( 1.0f );
							// The wall's face toward the character is at x = 10 (side +1: character on the left).
							if ( wall == 0 )
							{
								float x0 = side > 0 ? 10.0f : 9.98f; // the face toward the character at x = 10
								scene_add_box( s, x0, -400.0f, x0 + 0.02f, 400.0f );
							}
							else
							{
								scene_add_segment( s, kcc_v2( 10.0f, -400.0f ), kcc_v2( 10.0f, 400.0f ), 0.0f );
							}
							const float face = 10.0f;
							float start_x = face - (float)side * ( half_width + 0.5f );
							kcc_controller_def def = test_character_def( kind, kcc_v2( start_x, 0.0f ) );
							def.mode = mode == 0 ? KCC_MODE_GROUNDED : KCC_MODE_FLOATING;
							kcc_controller* c = scene_create_controller( s, &def );
							assert_non_null( c );
							float length = multiples[mi] * height;
							float a = angles_degrees[ai] * SCENE_PI / 180.0f;
							vec2s delta = kcc_v2( (float)side * length * cosf( a ), length * sinf( a ) );
							kcc_move_result result;
							assert_int_equal( kcc_controller_move( c, delta, &result ), KCC_OK );
							vec2s p = kcc_controller_get_position( c );
							float gap = (float)side * ( face - p.x ) - half_width;
							const char* what = wall == 0 ? "0.02 box" : "segment";
							SCENE_CHECK( gap >= 0.0f, "%s vs %s side %d mode %d: %g heights at %g deg crossed, gap %g",
										 test_character_name( kind ), what, side, mode, (double)multiples[mi],
										 (double)angles_degrees[ai], (double)gap );
							if ( fabsf( delta.x ) > 0.5f + 1e-3f )
							{
								SCENE_CHECK( gap <= def.skin + 1e-4f, "%s vs %s: stopped short, gap %g",
											 test_character_name( kind ), what, (double)gap );
								// GROUNDED treats the vertical wall as a wall too: the tangential part survives.
								SCENE_CHECK( fabsf( p.y - delta.y ) <= 1e-4f,
											 "%s vs %s mode %d %g heights %g deg: y %g, expected %g",
											 test_character_name( kind ), what, mode, (double)multiples[mi],
											 (double)angles_degrees[ai], (double)p.y, (double)delta.y );
							}
							float depth = scene_overlap( s, &def.shape, p );
							SCENE_CHECK( depth <= 1e-3f * height, "%s vs %s: overlap %g", test_character_name( kind ),
										 what, (double)depth );
							kcc_controller_destroy( c );
							scene_destroy( s );
						}
					}
				}
			}
		}
	}
}

// Property 6: resting against a wall, a diagonal input keeps exactly its along-wall component (1e-5) and loses
// only the part into the wall; arriving from a distance, the total along-wall travel is the input's too.
static void test_slide_keeps_tangential_part( void** state )
{
	(void)state;
	static const float tilts_degrees[] = { 0.0f, 25.0f, -40.0f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int ti = 0; ti < 3; ++ti )
		{
			// A big box rotated by tilt about (6, 0): its left face passes through (5, 0).
			float tilt = tilts_degrees[ti] * SCENE_PI / 180.0f;
			vec2s normal = kcc_v2( -cosf( tilt ), -sinf( tilt ) ); // out of the wall, toward the character
			vec2s tangent = kcc_v2( -normal.y, normal.x );
			scene* s = scene_create( 1.0f );
			vec2s corners[4];
			const float hx = 1.0f, hy = 40.0f;
			vec2s local[4] = { { { -hx, -hy } }, { { hx, -hy } }, { { hx, hy } }, { { -hx, hy } } };
			for ( int i = 0; i < 4; ++i )
			{
				float ct = cosf( tilt ), st = sinf( tilt );
				corners[i] = kcc_v2( 6.0f + ct * local[i].x - st * local[i].y, st * local[i].x + ct * local[i].y );
			}
			scene_add_polygon( s, corners, 4, 0.0f );
			kcc_controller_def def = test_character_def( kind, kcc_v2( 2.0f, 0.0f ) );
			def.mode = KCC_MODE_FLOATING;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );

			// Settle against the wall.
			for ( int i = 0; i < 60; ++i )
			{
				assert_int_equal( kcc_controller_move( c, kcc_v2( -0.2f * normal.x, -0.2f * normal.y ), NULL ), KCC_OK );
			}
			float gap0 = scene_gap( s, &def.shape, kcc_controller_get_position( c ), 1.0f );
			SCENE_CHECK( gap0 >= 0.0f && gap0 <= def.skin + 1e-4f, "%s tilt %g: resting gap %g",
						 test_character_name( kind ), (double)tilts_degrees[ti], (double)gap0 );

			static const float along[] = { 0.1f, -0.3f, 0.05f, 1.0f };
			static const float into[] = { 0.1f, 0.2f, 0.5f, 0.02f };
			for ( int k = 0; k < 4; ++k )
			{
				vec2s before = kcc_controller_get_position( c );
				vec2s delta = kcc_v2( along[k] * tangent.x - into[k] * normal.x, along[k] * tangent.y - into[k] * normal.y );
				kcc_move_result result;
				assert_int_equal( kcc_controller_move( c, delta, &result ), KCC_OK );
				vec2s moved = kcc_v2( result.position.x - before.x, result.position.y - before.y );
				float moved_along = moved.x * tangent.x + moved.y * tangent.y;
				float moved_normal = moved.x * normal.x + moved.y * normal.y;
				SCENE_CHECK( fabsf( moved_along - along[k] ) <= 1e-5f, "%s tilt %g: along-wall %g, input %g",
							 test_character_name( kind ), (double)tilts_degrees[ti], (double)moved_along,
							 (double)along[k] );
				SCENE_CHECK( fabsf( moved_normal ) <= 1e-4f, "%s tilt %g: moved %g along the normal while resting",
							 test_character_name( kind ), (double)tilts_degrees[ti], (double)moved_normal );
				SCENE_CHECK( result.collision_count >= 1, "%s: no collision reported", test_character_name( kind ) );
				SCENE_CHECK( fabsf( result.collisions[0].normal.x - normal.x ) <= 1e-4f &&
								 fabsf( result.collisions[0].normal.y - normal.y ) <= 1e-4f,
							 "%s: collision normal (%g, %g), wall normal (%g, %g)", test_character_name( kind ),
							 (double)result.collisions[0].normal.x, (double)result.collisions[0].normal.y,
							 (double)normal.x, (double)normal.y );
			}

			// From 0.3 away: the part before the hit plus the slide keep the full along-wall input.
			vec2s p = kcc_controller_get_position( c );
			assert_int_equal( kcc_controller_set_position( c, kcc_v2( p.x + 0.3f * normal.x, p.y + 0.3f * normal.y ) ),
							  KCC_OK );
			vec2s before = kcc_controller_get_position( c );
			vec2s delta = kcc_v2( 0.6f * tangent.x - 0.6f * normal.x, 0.6f * tangent.y - 0.6f * normal.y );
			assert_int_equal( kcc_controller_move( c, delta, NULL ), KCC_OK );
			vec2s after = kcc_controller_get_position( c );
			float moved_along = ( after.x - before.x ) * tangent.x + ( after.y - before.y ) * tangent.y;
			SCENE_CHECK( fabsf( moved_along - 0.6f ) <= 1e-5f, "%s tilt %g: along-wall %g after the hit, input 0.6",
						 test_character_name( kind ), (double)tilts_degrees[ti], (double)moved_along );
			float gap = scene_gap( s, &def.shape, after, 1.0f );
			SCENE_CHECK( gap >= 0.0f && gap <= def.skin + 1e-4f, "%s: gap %g after the hit", test_character_name( kind ),
						 (double)gap );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// Property 6: move_and_slide removes the velocity into the wall (and into the floor) every step, so nothing
// builds up while pushing; the free component is returned untouched.
static void test_move_and_slide_velocity_never_builds_up( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		float half_width = test_character_half_width( kind );
		float half_height = test_character_half_height( kind );
		// Platformer: run into a tiled wall on a tiled floor, with gravity.
		{
			scene* s = scene_create( 1.0f );
			scene_add_tile_row( s, -10, -1, 20 );
			scene_add_tile_column( s, 5, 0, 8 );
			kcc_controller_def def = test_character_def( kind, kcc_v2( 3.0f - half_width, half_height + 0.01f ) );
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			for ( int step = 0; step < 300; ++step )
			{
				kcc_move_result result;
				assert_int_equal( test_gravity_step( c, &velocity, 6.0f, GRAVITY, DT, &result ), KCC_OK );
				// From step 1: the spawn is at the skin gap, give the first move to settle on it.
				SCENE_CHECK( step == 0 || ( result.flags & KCC_ON_FLOOR ), "%s step %d: left the floor",
							 test_character_name( kind ), step );
				SCENE_CHECK( step == 0 || fabsf( velocity.y ) <= 1e-5f, "%s step %d: vertical velocity %g on the floor",
							 test_character_name( kind ), step, (double)velocity.y );
				float gap = 5.0f - ( result.position.x + half_width );
				if ( result.flags & KCC_ON_WALL )
				{
					SCENE_CHECK( fabsf( velocity.x ) <= 1e-5f, "%s step %d: velocity into the wall %g kept",
								 test_character_name( kind ), step, (double)velocity.x );
				}
				if ( step > 60 )
				{
					SCENE_CHECK( result.flags & KCC_ON_WALL, "%s step %d: pushing but no wall contact (gap %g)",
								 test_character_name( kind ), step, (double)gap );
					SCENE_CHECK( gap >= 0.0f && gap <= def.skin + 1e-4f, "%s step %d: gap %g",
								 test_character_name( kind ), step, (double)gap );
				}
			}
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
		// Top-down: push diagonally into a wall; the along-wall velocity and travel are kept exactly.
		{
			scene* s = scene_create( 1.0f );
			scene_add_box( s, 5.0f, -50.0f, 6.0f, 50.0f );
			kcc_controller_def def = test_character_def( kind, kcc_v2( 4.0f - half_width, 0.0f ) );
			def.mode = KCC_MODE_FLOATING;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			for ( int step = 0; step < 200; ++step )
			{
				vec2s out;
				kcc_move_result result;
				vec2s before = kcc_controller_get_position( c );
				assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( 3.0f, 2.0f ), DT, &out, &result ), KCC_OK );
				SCENE_CHECK( fabsf( out.y - 2.0f ) <= 1e-5f, "%s step %d: along-wall velocity %g, input 2",
							 test_character_name( kind ), step, (double)out.y );
				SCENE_CHECK( fabsf( ( result.position.y - before.y ) - 2.0f * DT ) <= 1e-5f,
							 "%s step %d: along-wall travel %g, input %g", test_character_name( kind ), step,
							 (double)( result.position.y - before.y ), (double)( 2.0f * DT ) );
				if ( result.flags & KCC_ON_WALL )
				{
					SCENE_CHECK( fabsf( out.x ) <= 1e-5f, "%s step %d: velocity into the wall %g",
								 test_character_name( kind ), step, (double)out.x );
				}
				else
				{
					SCENE_CHECK( fabsf( out.x - 3.0f ) <= 1e-5f, "%s step %d: free velocity changed to %g",
								 test_character_name( kind ), step, (double)out.x );
				}
				if ( step > 40 )
				{
					SCENE_CHECK( result.flags & KCC_ON_WALL, "%s step %d: no wall contact", test_character_name( kind ),
								 step );
					SCENE_CHECK( ( result.flags & ( KCC_ON_FLOOR | KCC_ON_CEILING ) ) == 0,
								 "%s: floor or ceiling flag in FLOATING mode", test_character_name( kind ) );
				}
			}
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_no_overlap_after_any_move ),
		cmocka_unit_test( test_wall_gap_after_pushing ),
		cmocka_unit_test( test_no_tunnelling ),
		cmocka_unit_test( test_slide_keeps_tangential_part ),
		cmocka_unit_test( test_move_and_slide_velocity_never_builds_up ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_walls", tests, NULL, NULL );
}
