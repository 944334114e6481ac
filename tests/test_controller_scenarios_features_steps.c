// SPDX-License-Identifier: MIT
// Step climbing (docs/controller.md, the move, step 5) on a real cpSpace, for all three characters, walking right
// and (mirrored world) left at 6 u/s under gravity:
// - steps of 0.1, 0.2 and 0.29 with step_height 0.3 are climbed: KCC_STEPPED in the move that climbs, the height
//   gained is the step's height (1e-3), no overlap beyond 1e-3 of the character's height, the walk goes on;
// - steps of 0.31 and 0.5 are refused: the character stays down, blocked, KCC_ON_WALL;
// - a step onto a steep (non-walkable) top is refused; step_height 0 climbs nothing;
// - walking down a 0.2 ledge with snapping keeps KCC_ON_FLOOR on every move; stairs go up and down.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define WALK_SPEED 6.0f
#define DEG ( SCENE_PI / 180.0f )
#define STEP_X 3.0f // the step's face (before mirroring)

// Rounding radius of the character's bottom: a round bottom meets a step's edge on its rounded part.
static float bottom_radius( int kind )
{
	static const float radii[TEST_CHARACTER_COUNT] = { 0.4f, 0.3f, 0.05f };
	return radii[kind];
}

// Whether the step's edge, met by the character's rounded bottom, is steeper than max_floor_angle (a wall the
// character is blocked by, so climbing it is a step) or walkable (the character rolls over it like a short ramp,
// without a step). The contact normal at the edge makes angle acos( (r - h) / r ) with up for a bottom of radius r.
static bool edge_is_wall( int kind, float height, float max_floor_angle )
{
	float r = bottom_radius( kind );
	return height >= r || ( r - height ) / r < cosf( max_floor_angle ) - 0.02f;
}

// Floor of tiles with its top at 0 up to the step's face at x = STEP_X, then the upper level: one box whose top is
// at height (flat), from the face to x = STEP_X + 20.
static void build_step( scene* s, float height )
{
	scene_add_tile_row( s, -10, -1, 13 );
	scene_add_box( s, STEP_X, -1.0f, STEP_X + 20.0f, height );
}

typedef struct walk_record
{
	int stepped_moves;     // moves with KCC_STEPPED
	int wall_moves;        // moves with KCC_ON_WALL
	float highest;         // highest y reached
	float deepest;         // largest overlap
	float final_x;         // along the walk (mirrored back)
	float final_y;
	float final_gap;       // distance to the level at the end
	float late_motion;     // |x| change over the last 20 moves
	bool final_on_floor;
	bool progress_always;  // every move advanced along the walk
	float highest_step_rise; // largest rise of one climbing move
} walk_record;

// Walks for moves moves in direction dir (+1 right; -1 in the mirrored world). Each move with KCC_STEPPED must be
// on the floor, rise by at most expected_rise, move forward by no more than the input asked (no pop forward), and
// keep the velocity along the walk (the riser climbed does not clip it).
static walk_record walk( scene* s, const kcc_controller_def* def, int kind, float dir, int moves, float expected_rise,
						 const char* what )
{
	walk_record rec = { 0, 0, -FLT_MAX, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, false, true, 0.0f };
	float x_late = 0.0f;
	kcc_controller* c = scene_create_controller( s, def );
	assert_non_null( c );
	const char* name = test_character_name( kind );
	float height = test_character_height( kind );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	for ( int move = 0; move < moves; ++move )
	{
		vec2s before = kcc_controller_get_position( c );
		kcc_move_result result;
		assert_int_equal( test_gravity_step( c, &velocity, dir * WALK_SPEED, GRAVITY, DT, &result ), KCC_OK );
		SCENE_CHECK( kcc_is_valid_vec2( result.position ), "%s %s: NaN position", name, what );
		float depth = scene_overlap( s, &def->shape, result.position );
		rec.deepest = depth > rec.deepest ? depth : rec.deepest;
		SCENE_CHECK( depth <= 1e-3f * height, "%s %s move %d: overlap %g at (%.6f, %.6f), flags 0x%x", name, what, move,
					 (double)depth, (double)result.position.x, (double)result.position.y, (unsigned)result.flags );
		if ( result.flags & KCC_STEPPED )
		{
			rec.stepped_moves += 1;
			float rise = result.position.y - before.y;
			float forward = ( result.position.x - before.x ) * dir;
			SCENE_CHECK( rise > 0.0f && rise <= expected_rise + 1e-4f, "%s %s move %d: stepped up %.6f, step is %.6f",
						 name, what, move, (double)rise, (double)expected_rise );
			SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s %s move %d: stepped but not on the floor (flags 0x%x)", name,
						 what, move, (unsigned)result.flags );
			SCENE_CHECK( forward > 0.0f && forward <= WALK_SPEED * DT + 1e-5f,
						 "%s %s move %d: the climbing move went %.6f forward, the input %.6f", name, what, move,
						 (double)forward, (double)( WALK_SPEED * DT ) );
			SCENE_CHECK( velocity.x == dir * WALK_SPEED, "%s %s move %d: velocity %g after climbing, walking at %g",
						 name, what, move, (double)velocity.x, (double)( dir * WALK_SPEED ) );
			rec.highest_step_rise = rise > rec.highest_step_rise ? rise : rec.highest_step_rise;
		}
		if ( result.flags & KCC_ON_WALL )
		{
			rec.wall_moves += 1;
		}
		if ( ( result.position.x - before.x ) * dir <= 0.0f )
		{
			rec.progress_always = false;
		}
		rec.highest = result.position.y > rec.highest ? result.position.y : rec.highest;
		if ( move == moves - 21 )
		{
			x_late = result.position.x;
		}
	}
	vec2s p = kcc_controller_get_position( c );
	rec.final_x = p.x * dir;
	rec.final_y = p.y;
	rec.final_on_floor = kcc_controller_is_on_floor( c );
	rec.final_gap = scene_gap( s, &def->shape, p, 1.0f );
	rec.late_motion = fabsf( p.x - x_late );
	kcc_controller_destroy( c );
	return rec;
}

static kcc_controller_def step_def( int kind, float dir, float step_height )
{
	float half_height = test_character_half_height( kind );
	kcc_controller_def def = test_character_def( kind, kcc_v2( dir * 1.0f, half_height + 0.01f ) );
	def.step_height = step_height;
	return def;
}

static void test_steps_up_to_step_height_are_climbed( void** state )
{
	(void)state;
	static const float heights[] = { 0.1f, 0.2f, 0.29f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int hi = 0; hi < 3; ++hi )
		{
			for ( int d = 0; d < 2; ++d )
			{
				float dir = d == 0 ? 1.0f : -1.0f;
				float height = heights[hi];
				scene* s = scene_create( dir );
				build_step( s, height );
				kcc_controller_def def = step_def( kind, dir, 0.3f );
				char what[64];
				snprintf( what, sizeof( what ), "step %g dir %+d", (double)height, (int)dir );
				walk_record rec = walk( s, &def, kind, dir, 60, height, what );
				const char* name = test_character_name( kind );
				float half_height = test_character_half_height( kind );
				// On top of the step, at the skin's gap, well past the face, and walking on.
				SCENE_CHECK( fabsf( rec.final_y - ( height + half_height + def.skin ) ) <= 1e-4f,
							 "%s %s: ended at y %.6f, top of the step at %g", name, what, (double)rec.final_y,
							 (double)height );
				SCENE_CHECK( rec.final_on_floor, "%s %s: not on the floor at the end", name, what );
				SCENE_CHECK( rec.progress_always, "%s %s: a move did not advance", name, what );
				// 60 moves of 0.1 from x = 1: a climb costs at most one move's worth of distance.
				SCENE_CHECK( rec.final_x >= 1.0f + 60.0f * 0.1f - 0.2f, "%s %s: only reached x %.4f", name, what,
							 (double)rec.final_x );
				if ( edge_is_wall( kind, height, def.max_floor_angle ) )
				{
					// A flat bottom climbs in one move; a round one rolls over the edge in the moves its rounding
					// takes at the walking speed.
					int most = kind == TEST_BOX ? 1 : (int)ceilf( ( bottom_radius( kind ) + def.skin ) / ( WALK_SPEED * DT ) ) + 1;
					SCENE_CHECK( rec.stepped_moves >= 1 && rec.stepped_moves <= most,
								 "%s %s: %d moves with KCC_STEPPED, expected 1 to %d", name, what, rec.stepped_moves, most );
					SCENE_CHECK( kind != TEST_BOX || fabsf( rec.highest_step_rise - height ) <= 1e-3f,
								 "%s %s: the box rose %.6f in its climbing move, the step is %g", name, what,
								 (double)rec.highest_step_rise, (double)height );
				}
				scene_destroy( s );
			}
		}
	}
}

static void test_steps_above_step_height_are_refused( void** state )
{
	(void)state;
	static const float heights[] = { 0.31f, 0.5f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int hi = 0; hi < 2; ++hi )
		{
			for ( int d = 0; d < 2; ++d )
			{
				float dir = d == 0 ? 1.0f : -1.0f;
				float height = heights[hi];
				scene* s = scene_create( dir );
				build_step( s, height );
				kcc_controller_def def = step_def( kind, dir, 0.3f );
				char what[64];
				snprintf( what, sizeof( what ), "step %g dir %+d", (double)height, (int)dir );
				walk_record rec = walk( s, &def, kind, dir, 60, 0.0f, what );
				const char* name = test_character_name( kind );
				float half_height = test_character_half_height( kind );
				float rest_y = half_height + def.skin;
				SCENE_CHECK( rec.stepped_moves == 0, "%s %s: climbed (%d moves with KCC_STEPPED)", name, what,
							 rec.stepped_moves );
				SCENE_CHECK( rec.highest - rest_y <= 1e-3f * test_character_height( kind ),
							 "%s %s: rose to %.6f from %.6f", name, what, (double)rec.highest, (double)rest_y );
				// Blocked at the step's edge, keeping the skin (a circle taller than the step leans over it: its
				// centre may pass the flat face's line), not moving any more, pushing into it on most moves.
				SCENE_CHECK( rec.final_x < STEP_X && rec.late_motion <= 1e-5f, "%s %s: ended at x %.6f, moving %g",
							 name, what, (double)rec.final_x, (double)rec.late_motion );
				SCENE_CHECK( rec.final_gap >= 0.0f && rec.final_gap <= def.skin + 1e-4f, "%s %s: gap %g at the end",
							 name, what, (double)rec.final_gap );
				SCENE_CHECK( rec.wall_moves >= 30, "%s %s: KCC_ON_WALL on only %d moves", name, what, rec.wall_moves );
				SCENE_CHECK( rec.final_on_floor, "%s %s: not on the floor", name, what );
				scene_destroy( s );
			}
		}
	}
}

// A 0.2 step whose top rises at 60 degrees right away: the landing spot is not walkable, so no step.
static void test_step_onto_steep_top_is_refused( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int d = 0; d < 2; ++d )
		{
			float dir = d == 0 ? 1.0f : -1.0f;
			scene* s = scene_create( dir );
			scene_add_tile_row( s, -10, -1, 13 );
			float angle = 60.0f * DEG;
			vec2s points[4] = { { { STEP_X, -1.0f } }, { { STEP_X + 3.0f, -1.0f } },
								{ { STEP_X + 3.0f, 0.2f + 3.0f * tanf( angle ) } }, { { STEP_X, 0.2f } } };
			scene_add_polygon( s, points, 4, 0.0f );
			kcc_controller_def def = step_def( kind, dir, 0.3f );
			walk_record rec = walk( s, &def, kind, dir, 60, 0.0f, "steep top" );
			const char* name = test_character_name( kind );
			float rest_y = test_character_half_height( kind ) + def.skin;
			SCENE_CHECK( rec.stepped_moves == 0, "%s dir %+d: stepped onto a 60 degree top", name, (int)dir );
			SCENE_CHECK( rec.highest - rest_y <= 1e-3f * test_character_height( kind ), "%s dir %+d: rose by %.6f",
						 name, (int)dir, (double)( rec.highest - rest_y ) );
			SCENE_CHECK( rec.final_x < STEP_X && rec.late_motion <= 1e-5f, "%s dir %+d: ended at x %.6f, moving %g",
						 name, (int)dir, (double)rec.final_x, (double)rec.late_motion );
			SCENE_CHECK( rec.final_gap >= 0.0f && rec.final_gap <= def.skin + 1e-4f, "%s dir %+d: gap %g at the end",
						 name, (int)dir, (double)rec.final_gap );
			SCENE_CHECK( rec.wall_moves >= 30, "%s dir %+d: KCC_ON_WALL on only %d moves", name, (int)dir,
						 rec.wall_moves );
			scene_destroy( s );
		}
	}
}

// step_height 0 turns stepping off: steps whose edge is a wall for every character (0.2, 0.29) are not climbed.
static void test_step_height_zero_climbs_nothing( void** state )
{
	(void)state;
	static const float heights[] = { 0.2f, 0.29f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int hi = 0; hi < 2; ++hi )
		{
			scene* s = scene_create( 1.0f );
			build_step( s, heights[hi] );
			kcc_controller_def def = step_def( kind, 1.0f, 0.0f );
			walk_record rec = walk( s, &def, kind, 1.0f, 60, 0.0f, "step_height 0" );
			const char* name = test_character_name( kind );
			float rest_y = test_character_half_height( kind ) + def.skin;
			SCENE_CHECK( rec.stepped_moves == 0, "%s step %g: stepped with step_height 0", name, (double)heights[hi] );
			SCENE_CHECK( rec.highest - rest_y <= 1e-3f * test_character_height( kind ), "%s step %g: rose by %.6f",
						 name, (double)heights[hi], (double)( rec.highest - rest_y ) );
			SCENE_CHECK( rec.wall_moves >= 30, "%s step %g: KCC_ON_WALL on only %d moves", name, (double)heights[hi],
						 rec.wall_moves );
			scene_destroy( s );
		}
	}
}

// Stairs of 0.2 steps 1 unit deep: up five steps, then a plateau, then down five steps. With step_height 0.3 and
// snap_distance 0.3, the character is on the floor on every move (up by steps, down by snapping), ends on the floor
// at the bottom, and never overlaps.
static void test_stairs_up_and_down_stay_on_the_floor( void** state )
{
	(void)state;
	const float rise = 0.2f;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int d = 0; d < 2; ++d )
		{
			float dir = d == 0 ? 1.0f : -1.0f;
			scene* s = scene_create( dir );
			scene_add_tile_row( s, -10, -1, 13 ); // top at 0 up to x = 3
			for ( int i = 0; i < 5; ++i )
			{
				scene_add_box( s, 3.0f + (float)i, -1.0f, 4.0f + (float)i, rise * (float)( i + 1 ) ); // up
				scene_add_box( s, 11.0f + (float)i, -1.0f, 12.0f + (float)i, rise * (float)( 4 - i ) ); // down
			}
			scene_add_box( s, 8.0f, -1.0f, 11.0f, 5.0f * rise ); // plateau
			scene_add_tile_row( s, 16, -1, 10 );                 // bottom, top at 0
			kcc_controller_def def = step_def( kind, dir, 0.3f );
			def.snap_distance = 0.3f;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			const char* name = test_character_name( kind );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			int stepped = 0; // steps climbed: runs of moves with KCC_STEPPED
			bool stepping = false;
			float top_y = 5.0f * rise + test_character_half_height( kind ) + def.skin;
			bool reached_plateau = false;
			for ( int move = 0; move < 300; ++move )
			{
				kcc_move_result result;
				assert_int_equal( test_gravity_step( c, &velocity, dir * WALK_SPEED, GRAVITY, DT, &result ), KCC_OK );
				SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s dir %+d move %d at (%.5f, %.5f): left the floor (flags 0x%x)",
							 name, (int)dir, move, (double)result.position.x, (double)result.position.y,
							 (unsigned)result.flags );
				bool now = ( result.flags & KCC_STEPPED ) != 0;
				stepped += now && stepping == false ? 1 : 0;
				stepping = now;
				float x = result.position.x * dir;
				reached_plateau = reached_plateau || ( x > 9.0f && x < 10.0f && fabsf( result.position.y - top_y ) <= 1e-4f );
				float depth = scene_overlap( s, &def.shape, result.position );
				SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s dir %+d move %d: overlap %g", name,
							 (int)dir, move, (double)depth );
				if ( x > 20.0f )
				{
					break;
				}
			}
			vec2s p = kcc_controller_get_position( c );
			SCENE_CHECK( p.x * dir > 20.0f, "%s dir %+d: stuck at x %.5f", name, (int)dir, (double)p.x );
			SCENE_CHECK( fabsf( p.y - ( test_character_half_height( kind ) + def.skin ) ) <= 1e-4f,
						 "%s dir %+d: ended at y %.6f", name, (int)dir, (double)p.y );
			SCENE_CHECK( reached_plateau, "%s dir %+d: never stood on the plateau", name, (int)dir );
			// The capsule and the box meet every 0.2 edge as a wall (five steps); the circle may roll over some.
			SCENE_CHECK( kind == TEST_CIRCLE || stepped == 5, "%s dir %+d: %d steps climbed, expected 5", name,
						 (int)dir, stepped );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// Walking off a 0.2 ledge with snap_distance 0.3 keeps KCC_ON_FLOOR on every move and snaps down.
static void test_step_down_ledge_with_snap_keeps_floor( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int d = 0; d < 2; ++d )
		{
			float dir = d == 0 ? 1.0f : -1.0f;
			scene* s = scene_create( dir );
			scene_add_box( s, -10.0f, -1.0f, STEP_X, 0.2f ); // upper level, top at 0.2
			scene_add_tile_row( s, 3, -1, 20 );              // lower tiles, top at 0
			float half_height = test_character_half_height( kind );
			kcc_controller_def def = test_character_def( kind, kcc_v2( dir * 1.0f, 0.2f + half_height + 0.01f ) );
			def.step_height = 0.3f;
			def.snap_distance = 0.3f;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			const char* name = test_character_name( kind );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			int snapped = 0;
			for ( int move = 0; move < 60; ++move )
			{
				kcc_move_result result;
				assert_int_equal( test_gravity_step( c, &velocity, dir * WALK_SPEED, GRAVITY, DT, &result ), KCC_OK );
				SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s dir %+d move %d at x %.5f: left the floor", name,
							 (int)dir, move, (double)result.position.x );
				SCENE_CHECK( ( result.flags & KCC_STEPPED ) == 0, "%s dir %+d move %d: stepped going down", name,
							 (int)dir, move );
				snapped += ( result.flags & KCC_SNAPPED ) ? 1 : 0;
				float depth = scene_overlap( s, &def.shape, result.position );
				SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)depth );
			}
			vec2s p = kcc_controller_get_position( c );
			SCENE_CHECK( p.x * dir > 6.0f, "%s dir %+d: only reached x %.4f", name, (int)dir, (double)p.x );
			SCENE_CHECK( fabsf( p.y - ( half_height + def.skin ) ) <= 1e-4f, "%s dir %+d: ended at y %.6f", name,
						 (int)dir, (double)p.y );
			SCENE_CHECK( snapped > 0, "%s dir %+d: never snapped down the ledge", name, (int)dir );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_steps_up_to_step_height_are_climbed ),
		cmocka_unit_test( test_steps_above_step_height_are_refused ),
		cmocka_unit_test( test_step_onto_steep_top_is_refused ),
		cmocka_unit_test( test_step_height_zero_climbs_nothing ),
		cmocka_unit_test( test_stairs_up_and_down_stay_on_the_floor ),
		cmocka_unit_test( test_step_down_ledge_with_snap_keeps_floor ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_features_steps", tests, NULL, NULL );
}
