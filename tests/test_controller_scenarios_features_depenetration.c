// SPDX-License-Identifier: MIT
// Depenetration, crushing and candidate overflow (docs/controller.md, the move, steps 2 and 3) on a real cpSpace,
// for all three characters:
// - a character created or teleported 0.05 or 0.3 inside a floor or a wall is pushed out within one move
//   (KCC_DEPENETRATED, no overlap beyond 1e-3 of its height after), along the direction of least penetration, to
//   the skin's gap;
// - squeezed in a gap narrower than itself (static, or a kinematic ceiling coming down) it reports KCC_CRUSHED on
//   the first such move and never produces NaN; in a gap it fits in, it is not crushed and does not overlap;
// - with max_candidates 16, long moves over a dense tile field split into sub-moves and end where the controller
//   with the default buffer ends (1e-6), without overlap; KCC_CANDIDATES_TRUNCATED when even 1/1024 of a move
//   meets more shapes than fit.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f

// ---------------------------------------------------------------------------------------------------------------
// Depenetration

// Floor: one box with its top at 0, 20 wide, so that up is the least penetration everywhere near x = 0.5; or the
// same floor of 1x1 tiles with the character centred on one tile.
static void test_started_inside_floor_is_pushed_up( void** state )
{
	(void)state;
	static const float depths[] = { 0.05f, 0.3f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int di = 0; di < 2; ++di )
		{
			for ( int variant = 0; variant < 4; ++variant )
			{
				bool tiles = ( variant & 1 ) != 0;
				bool teleport = ( variant & 2 ) != 0;
				float depth = depths[di];
				scene* s = scene_create( 1.0f );
				if ( tiles )
				{
					scene_add_tile_row( s, -10, -1, 20 );
				}
				else
				{
					scene_add_box( s, -10.0f, -5.0f, 10.0f, 0.0f );
				}
				float half_height = test_character_half_height( kind );
				vec2s inside = kcc_v2( 0.5f, half_height - depth );
				kcc_controller_def def = test_character_def( kind, teleport ? kcc_v2( 0.5f, 5.0f ) : inside );
				kcc_controller* c = scene_create_controller( s, &def );
				assert_non_null( c );
				if ( teleport )
				{
					assert_int_equal( kcc_controller_set_position( c, inside ), KCC_OK );
				}
				const char* name = test_character_name( kind );
				SCENE_CHECK( scene_overlap( s, &def.shape, inside ) >= depth - 1e-4f, "%s: the start is not %g inside",
							 name, (double)depth );
				kcc_move_result result;
				assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, 0.0f ), &result ), KCC_OK );
				SCENE_CHECK( result.flags & KCC_DEPENETRATED, "%s %g inside (variant %d): no KCC_DEPENETRATED (0x%x)",
							 name, (double)depth, variant, (unsigned)result.flags );
				SCENE_CHECK( ( result.flags & KCC_CRUSHED ) == 0, "%s %g inside: crushed", name, (double)depth );
				float after = scene_overlap( s, &def.shape, result.position );
				SCENE_CHECK( after <= 1e-3f * test_character_height( kind ), "%s %g inside (variant %d): overlap %g after",
							 name, (double)depth, variant, (double)after );
				SCENE_CHECK( result.position.x == inside.x, "%s %g inside: pushed sideways to x %.7g", name,
							 (double)depth, (double)result.position.x );
				SCENE_CHECK( fabsf( result.position.y - ( half_height + def.skin ) ) <= 1e-4f,
							 "%s %g inside (variant %d): pushed to y %.6f, expected %.6f", name, (double)depth, variant,
							 (double)result.position.y, (double)( half_height + def.skin ) );
				SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s %g inside: not on the floor after", name, (double)depth );
				// The next move is an ordinary one.
				assert_int_equal( kcc_controller_move( c, kcc_v2( 0.1f, 0.0f ), &result ), KCC_OK );
				SCENE_CHECK( ( result.flags & KCC_DEPENETRATED ) == 0 && result.position.x == inside.x + 0.1f,
							 "%s: the move after the push (flags 0x%x, x %.7g)", name, (unsigned)result.flags,
							 (double)result.position.x );
				kcc_controller_destroy( c );
				scene_destroy( s );
			}
		}
	}
}

// A wall (one tall box, face at x = 5): the least penetration is sideways; a walking move in the same call.
static void test_started_inside_wall_is_pushed_sideways( void** state )
{
	(void)state;
	static const float depths[] = { 0.05f, 0.3f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int di = 0; di < 2; ++di )
		{
			for ( int mode = 0; mode < 2; ++mode )
			{
				for ( int mirror = -1; mirror <= 1; mirror += 2 )
				{
					float depth = depths[di];
					float m = (float)mirror;
					scene* s = scene_create( m );
					scene_add_box( s, 5.0f, -10.0f, 10.0f, 10.0f );
					float half_width = test_character_half_width( kind );
					vec2s inside = kcc_v2( m * ( 5.0f - half_width + depth ), 0.0f );
					kcc_controller_def def = test_character_def( kind, inside );
					def.mode = mode == 0 ? KCC_MODE_GROUNDED : KCC_MODE_FLOATING;
					kcc_controller* c = scene_create_controller( s, &def );
					assert_non_null( c );
					const char* name = test_character_name( kind );
					kcc_move_result result;
					// Moving along the wall in the same move: pushed out first, then the move.
					assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, 0.25f ), &result ), KCC_OK );
					SCENE_CHECK( result.flags & KCC_DEPENETRATED, "%s %g inside the wall: no KCC_DEPENETRATED", name,
								 (double)depth );
					float after = scene_overlap( s, &def.shape, result.position );
					SCENE_CHECK( after <= 1e-3f * test_character_height( kind ), "%s: overlap %g after", name,
								 (double)after );
					float expected_x = m * ( 5.0f - half_width - def.skin );
					SCENE_CHECK( fabsf( result.position.x - expected_x ) <= 1e-4f && result.position.y == 0.25f,
								 "%s %g inside the wall (mode %d, mirror %d): at (%.6f, %.6f), expected (%.6f, 0.25)",
								 name, (double)depth, mode, mirror, (double)result.position.x,
								 (double)result.position.y, (double)expected_x );
					kcc_controller_destroy( c );
					scene_destroy( s );
				}
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Crushing

// A horizontal corridor whose height is a fraction of the character's, or a vertical one whose width is (FLOATING):
// KCC_CRUSHED on the first move, on every later move, finite positions that stay in the corridor's neighbourhood.
static void test_squeezed_in_a_narrow_gap_is_crushed( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int variant = 0; variant < 2; ++variant )
		{
			scene* s = scene_create( 1.0f );
			float height = test_character_height( kind );
			float width = 2.0f * test_character_half_width( kind );
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 0.0f ) );
			float gap = variant == 0 ? 0.8f * height : 0.8f * width;
			if ( variant == 0 )
			{
				scene_add_box( s, -10.0f, -3.0f, 10.0f, -0.5f * gap );
				scene_add_box( s, -10.0f, 0.5f * gap, 10.0f, 3.0f );
			}
			else
			{
				def.mode = KCC_MODE_FLOATING;
				scene_add_box( s, -3.0f, -10.0f, -0.5f * gap, 10.0f );
				scene_add_box( s, 0.5f * gap, -10.0f, 3.0f, 10.0f );
			}
			def.position = kcc_v2( 0.0f, 5.0f );
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			assert_int_equal( kcc_controller_set_position( c, kcc_v2( 0.0f, 0.0f ) ), KCC_OK );
			const char* name = test_character_name( kind );
			for ( int move = 0; move < 20; ++move )
			{
				kcc_move_result result;
				vec2s delta = move % 2 == 0 ? kcc_v2( 0.3f, -0.2f ) : kcc_v2( -0.3f, 0.2f );
				assert_int_equal( kcc_controller_move( c, delta, &result ), KCC_OK );
				SCENE_CHECK( kcc_is_valid_vec2( result.position ) && kcc_is_valid_vec2( result.displacement ),
							 "%s move %d: NaN", name, move );
				SCENE_CHECK( result.flags & KCC_CRUSHED, "%s %s gap move %d: no KCC_CRUSHED (0x%x)", name,
							 variant == 0 ? "low" : "narrow", move, (unsigned)result.flags );
				for ( int i = 0; i < result.collision_count; ++i )
				{
					SCENE_CHECK( kcc_is_valid_vec2( result.collisions[i].normal ), "%s: NaN collision normal", name );
				}
				float across = variant == 0 ? result.position.y : result.position.x;
				SCENE_CHECK( fabsf( across ) <= height, "%s move %d: pushed out of the squeeze to (%g, %g)", name, move,
							 (double)result.position.x, (double)result.position.y );
			}
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// A kinematic ceiling comes down onto a character standing on the floor, 0.05 per frame, moved by the game
// before the character (the frame order of the docs). The character fits while the gap is at least its height:
// no KCC_CRUSHED and no overlap; the first frame the gap is smaller reports KCC_CRUSHED.
static void test_ceiling_coming_down_crushes_on_the_first_frame( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = scene_create( 1.0f );
		scene_add_tile_row( s, -10, -1, 20 ); // top at 0
		float height = test_character_height( kind );
		kcc_controller_def def = test_character_def( kind, kcc_v2( 0.5f, 0.5f * height + 0.01f ) );
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		cpBody* lid = cpSpaceAddBody( s->space, cpBodyNewKinematic() );
		cpShape* lid_shape = cpSpaceAddShape( s->space, cpBoxShapeNew2( lid, cpBBNew( -5.0, 0.0, 5.0, 1.0 ), 0.0 ) );
		const char* name = test_character_name( kind );
		int first_crushed = -1;
		int expected_first = -1;
		for ( int frame = 0; frame < 12; ++frame )
		{
			// Gap from height + 0.225 down in steps of 0.05: never within 0.02 of the height (a fit or not is clear).
			float gap = height + 0.225f - 0.05f * (float)frame;
			cpBodySetPosition( lid, cpv( 0.0, gap ) );
			cpSpaceReindexShapesForBody( s->space, lid );
			kcc_move_result result;
			assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, -GRAVITY * DT * DT ), &result ), KCC_OK );
			SCENE_CHECK( kcc_is_valid_vec2( result.position ), "%s frame %d: NaN", name, frame );
			if ( expected_first < 0 && gap < height )
			{
				expected_first = frame;
			}
			if ( first_crushed < 0 && ( result.flags & KCC_CRUSHED ) )
			{
				first_crushed = frame;
			}
			if ( gap >= height )
			{
				SCENE_CHECK( ( result.flags & KCC_CRUSHED ) == 0, "%s frame %d: crushed in a gap of %g (height %g)", name,
							 frame, (double)gap, (double)height );
				float depth = scene_overlap( s, &def.shape, result.position );
				scene_place_probe( s, &def.shape, result.position );
				cpContactPointSet set = cpShapesCollide( s->probe, lid_shape );
				for ( int k = 0; k < set.count; ++k )
				{
					depth = fmaxf( depth, (float)fabs( set.points[k].distance ) );
				}
				SCENE_CHECK( depth <= 1e-3f * height, "%s frame %d (gap %g): overlap %g", name, frame, (double)gap,
							 (double)depth );
			}
			else
			{
				SCENE_CHECK( result.flags & KCC_CRUSHED, "%s frame %d: gap %g < height %g but not crushed", name, frame,
							 (double)gap, (double)height );
			}
		}
		SCENE_CHECK( first_crushed == expected_first && expected_first > 0, "%s: first crushed at frame %d, expected %d",
					 name, first_crushed, expected_first );
		kcc_controller_destroy( c );
		cpSpaceRemoveShape( s->space, lid_shape );
		cpSpaceRemoveBody( s->space, lid );
		cpShapeFree( lid_shape );
		cpBodyFree( lid );
		scene_destroy( s );
	}
}

// A gap between the character's height and its height plus twice the skin: it fits, but cannot keep the skin on
// both sides. Pushed out of the ceiling it must not be left in the floor (nor reported crushed).
static void test_tight_fit_is_not_crushed( void** state )
{
	(void)state;
	static const float slack[] = { 0.0005f, 0.005f, 0.015f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int si = 0; si < 3; ++si )
		{
			scene* s = scene_create( 1.0f );
			float height = test_character_height( kind );
			float gap = height + slack[si];
			scene_add_tile_row( s, -10, -1, 20 );                  // floor, top at 0
			scene_add_box( s, -10.0f, gap, 10.0f, gap + 1.0f );    // ceiling
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.5f, 0.5f * height + 0.02f ) ); // in the ceiling
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			const char* name = test_character_name( kind );
			for ( int move = 0; move < 5; ++move )
			{
				kcc_move_result result;
				assert_int_equal( kcc_controller_move( c, kcc_v2( 0.05f, 0.0f ), &result ), KCC_OK );
				float depth = scene_overlap( s, &def.shape, result.position );
				SCENE_CHECK( depth <= 1e-3f * height, "%s gap height + %g, move %d: overlap %g at y %.6f (flags 0x%x)",
							 name, (double)slack[si], move, (double)depth, (double)result.position.y,
							 (unsigned)result.flags );
				SCENE_CHECK( ( result.flags & KCC_CRUSHED ) == 0, "%s gap height + %g, move %d: crushed", name,
							 (double)slack[si], move );
			}
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Candidate overflow

// Number of level shapes whose bounds meet the box (the independent count of what one query would hold).
static int shapes_in_box( const scene* s, cpBB box )
{
	int count = 0;
	for ( int i = 0; i < s->count; ++i )
	{
		count += cpBBIntersects( box, cpShapeGetBB( s->shapes[i] ) ) ? 1 : 0;
	}
	return count;
}

// A dense field: rows of 0.25 x 0.25 tiles, floor top at 0 from x = -8 to 8, and a wall of them at x = 6.
static void build_dense_field( scene* s )
{
	for ( int row = 0; row < 2; ++row )
	{
		for ( int i = 0; i < 64; ++i )
		{
			float x = -8.0f + 0.25f * (float)i;
			scene_add_box( s, x, -0.25f * (float)( row + 1 ), x + 0.25f, -0.25f * (float)row );
		}
	}
	for ( int i = 0; i < 24; ++i )
	{
		scene_add_box( s, 6.0f, 0.25f * (float)i, 6.25f, 0.25f * (float)( i + 1 ) );
	}
}

// The same inputs given to a controller with the default buffer and one with 16 entries, each in its own space:
// long walks over the field, a jump straight up, a flight, a fall straight down onto the field, a walk into the
// wall, a walk back with a little gravity. Every move of the small one ends where the big one's does (1e-6;
// positions stay within 8 of the origin, where floats are spaced below 1e-6), with the same floor and wall state
// and no overlap. A move that hits a surface at an angle may end up to a skin apart (docs/controller.md: each part
// keeps the skin from what it hits on its own stretch); that is checked too.
static void test_overflowing_moves_split_and_end_in_the_same_place( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int mode = 0; mode < 2; ++mode )
		{
			scene* big_scene = scene_create( 1.0f );
			scene* small_scene = scene_create( 1.0f );
			build_dense_field( big_scene );
			build_dense_field( small_scene );
			float half_height = test_character_half_height( kind );
			kcc_controller_def def = test_character_def( kind, kcc_v2( -6.0f, half_height + 0.01f ) );
			def.mode = mode == 0 ? KCC_MODE_GROUNDED : KCC_MODE_FLOATING;
			kcc_controller* big = scene_create_controller( big_scene, &def );
			def.max_candidates = 16;
			kcc_controller* small = scene_create_controller( small_scene, &def );
			assert_non_null( big );
			assert_non_null( small );
			const char* name = test_character_name( kind );
			static const vec2s deltas[] = { { { 5.0f, 0.0f } },  { { 0.0f, 2.5f } },   { { 3.0f, 0.0f } },
											{ { 0.0f, -4.0f } }, { { 3.5f, -0.05f } }, { { -7.5f, 0.0f } },
											{ { -3.0f, -0.1f } }, { { 0.0f, 2.0f } },  { { 11.0f, -2.0f } } };
			const int count = (int)( sizeof( deltas ) / sizeof( deltas[0] ) );
			int overflowing = 0;
			for ( int i = 0; i < count; ++i )
			{
				vec2s from = kcc_controller_get_position( small );
				cpBB region = cpBBNew( fminf( from.x, from.x + deltas[i].x ) - 1.0f, fminf( from.y, from.y + deltas[i].y ) - 1.0f,
									   fmaxf( from.x, from.x + deltas[i].x ) + 1.0f, fmaxf( from.y, from.y + deltas[i].y ) + 1.0f );
				overflowing += shapes_in_box( small_scene, region ) > 16 ? 1 : 0;
				kcc_move_result a, b;
				assert_int_equal( kcc_controller_move( big, deltas[i], &a ), KCC_OK );
				assert_int_equal( kcc_controller_move( small, deltas[i], &b ), KCC_OK );
				// The last move falls diagonally into the corner of the floor and the wall.
				float tolerance = i == count - 1 ? def.skin : 1e-6f;
				SCENE_CHECK( test_vec2_difference( a.position, b.position ) <= tolerance,
							 "%s mode %d move %d: split move ended at (%.7g, %.7g), whole move at (%.7g, %.7g)", name,
							 mode, i, (double)b.position.x, (double)b.position.y, (double)a.position.x,
							 (double)a.position.y );
				if ( i == count - 1 )
				{
					print_message( "%s mode %d: the diagonal move into the corner ends %g apart\n", name, mode,
								   (double)test_vec2_difference( a.position, b.position ) );
				}
				uint32_t state_flags = KCC_ON_FLOOR | KCC_ON_WALL | KCC_ON_CEILING;
				SCENE_CHECK( ( a.flags & state_flags ) == ( b.flags & state_flags ), "%s mode %d move %d: flags 0x%x vs 0x%x",
							 name, mode, i, (unsigned)b.flags, (unsigned)a.flags );
				SCENE_CHECK( ( b.flags & KCC_CANDIDATES_TRUNCATED ) == 0 && ( a.flags & KCC_CANDIDATES_TRUNCATED ) == 0,
							 "%s move %d: truncated", name, i );
				float depth = scene_overlap( small_scene, &def.shape, b.position );
				SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s move %d: overlap %g", name, i,
							 (double)depth );
			}
			SCENE_CHECK( overflowing >= 6, "%s: only %d moves meet more than 16 shapes: the test tests little", name,
						 overflowing );
			vec2s end = kcc_controller_get_position( small );
			SCENE_CHECK( fabsf( end.x - ( 6.0f - test_character_half_width( kind ) - def.skin ) ) <= def.skin,
						 "%s mode %d: not in the corner at the end (%.6f, %.6f)", name, mode, (double)end.x, (double)end.y );
			kcc_controller_destroy( big );
			kcc_controller_destroy( small );
			scene_destroy( big_scene );
			scene_destroy( small_scene );
		}
	}
}

// 40 sensors stacked on the character: every part of any move meets them all, more than the 16 entries hold. The
// move still happens (sensors never block) and says KCC_CANDIDATES_TRUNCATED; a move away from them does not.
static void test_truncation_is_reported( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = scene_create( 1.0f );
		kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 0.0f ) );
		def.mode = KCC_MODE_FLOATING;
		def.max_candidates = 16;
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		cpShape* sensors[40];
		for ( int i = 0; i < 40; ++i )
		{
			sensors[i] = cpSpaceAddShape( s->space, cpCircleShapeNew( cpSpaceGetStaticBody( s->space ), 0.1, cpv( 0.0, 0.0 ) ) );
			cpShapeSetSensor( sensors[i], cpTrue );
		}
		kcc_space_static_changed( s->space ); // static shapes added
		const char* name = test_character_name( kind );
		kcc_move_result result;
		assert_int_equal( kcc_controller_move( c, kcc_v2( 0.01f, 0.0f ), &result ), KCC_OK );
		SCENE_CHECK( result.flags & KCC_CANDIDATES_TRUNCATED, "%s: 40 shapes in 16 entries, not reported", name );
		// Split into parts no shorter than min_move: the whole move is made (up to the rounding of the parts).
		SCENE_CHECK( fabsf( result.position.x - 0.01f ) <= 1e-6f && result.position.y == 0.0f, "%s: moved to (%g, %g)",
					 name, (double)result.position.x, (double)result.position.y );
		SCENE_CHECK( result.sensor_count >= 1 && result.sensor_count <= KCC_MAX_SENSORS, "%s: %d sensors", name,
					 result.sensor_count );
		assert_int_equal( kcc_controller_move( c, kcc_v2( 10.0f, 0.0f ), &result ), KCC_OK );
		assert_int_equal( kcc_controller_move( c, kcc_v2( 1.0f, 0.0f ), &result ), KCC_OK );
		SCENE_CHECK( ( result.flags & KCC_CANDIDATES_TRUNCATED ) == 0 && result.sensor_count == 0,
					 "%s: far from the sensors, flags 0x%x, %d sensors", name, (unsigned)result.flags, result.sensor_count );
		kcc_controller_destroy( c );
		for ( int i = 0; i < 40; ++i )
		{
			cpSpaceRemoveShape( s->space, sensors[i] );
			cpShapeFree( sensors[i] );
		}
		scene_destroy( s );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_started_inside_floor_is_pushed_up ),
		cmocka_unit_test( test_started_inside_wall_is_pushed_sideways ),
		cmocka_unit_test( test_squeezed_in_a_narrow_gap_is_crushed ),
		cmocka_unit_test( test_ceiling_coming_down_crushes_on_the_first_frame ),
		cmocka_unit_test( test_tight_fit_is_not_crushed ),
		cmocka_unit_test( test_overflowing_moves_split_and_end_in_the_same_place ),
		cmocka_unit_test( test_truncation_is_reported ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_features_depenetration", tests, NULL, NULL );
}
