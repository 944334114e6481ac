// SPDX-License-Identifier: MIT
// The test kit as a game uses it, on tests/levels/run.tmj (a platformer course: a floor of full tiles merged into
// one box, platforms 1 to 3, a checkpoint zone, a lift on a path, a one-way ledge, a ramp, a tunnel, a crate, a
// wall), with the default character (60 Hz, gravity 30, walk 6, jump 13, the default capsule, step 0.3, snap 0.2):
// - running on the merged floor covers the commanded distance, stays on "ground" and never reports a wall (also
//   with merging off: separate tiles);
// - from the spawn, running right for 2 s then jumping lands on "platform 3";
// - the checkpoint zone reports its begin and end in the frames the character's shape starts and stops overlapping it,
//   and both, in order, in the one frame of a dash through it;
// - riding the lift keeps the character's place on it; jumping off reports the jump and leaving the platform;
// - drop makes it fall through the one-way ledge to the ground; a wall stops it within a skin;
// - crouched it crawls through a tunnel too low to stand in, stays crouched under the ceiling, stands up after;
// - it pushes the crate to the wall and stays behind it; a reset puts the crate back;
// - the same script gives bit-identical frames in two test kits and after a reset;
// - script errors name the line and run nothing; create errors name the map.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

#define SKIN 0.01f
#define HALF_WIDTH 0.3f  // the default capsule
#define HALF_HEIGHT 0.6f
#define FLOOR_TOP 2.0f   // run.tmj's floor

static kcc_testkit* course( const char* spawn )
{
	return testkit_open( "run.tmj", spawn );
}

static void check_floor_run( kcc_testkit* t )
{
	vec2s start = kcc_testkit_get_position( t );
	assert_float_equal( start.y, FLOOR_TOP + HALF_HEIGHT + SKIN, 1e-6 );
	testkit_script( t, "run right 2.0" );
	assert_int_equal( kcc_testkit_frame_count( t ), 120 );
	const kcc_testkit_frame* frames = kcc_testkit_get_frames( t );
	for ( int i = 0; i < 120; ++i )
	{
		assert_true( frames[i].flags & KCC_ON_FLOOR );
		assert_false( frames[i].flags & ( KCC_ON_WALL | KCC_ON_CEILING | KCC_DEPENETRATED | KCC_CRUSHED ) );
		assert_string_equal( frames[i].floor, "ground" );
		assert_float_equal( frames[i].position.y, start.y, 1e-6 );
		assert_float_equal( frames[i].velocity.x, 6.0f, 1e-6 );
	}
	vec2s end = kcc_testkit_get_position( t );
	assert_float_equal( end.x - start.x, 12.0f, 1e-4 ); // 6 units/s for 2 s
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_LAND, "ground" ), 1 );
	assert_int_equal( kcc_testkit_find_event( t, KCC_EVENT_LAND, NULL )->frame, 1 );
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_LEAVE_FLOOR, NULL ), 0 );
}

static void test_running_on_the_merged_floor( void** state )
{
	(void)state;
	kcc_testkit* t = course( "start" );
	check_floor_run( t );
	assert_int_equal( kcc_level_get_info( kcc_testkit_get_level( t ) ).tile_shape_count, 2 ); // floor and wall boxes
	kcc_testkit_destroy( t );
}

static void test_running_on_separate_tiles( void** state )
{
	(void)state;
	kcc_testkit_def def = kcc_default_testkit_def();
	def.map_path = level_path( "run.tmj" );
	def.level.merge_tiles = false;
	kcc_testkit_error error;
	kcc_testkit* t = kcc_testkit_create( &def, &error );
	assert_non_null( t );
	assert_int_equal( kcc_level_get_info( kcc_testkit_get_level( t ) ).tile_shape_count, 208 );
	check_floor_run( t );
	kcc_testkit_destroy( t );
}

static void test_a_jump_lands_on_platform_3( void** state )
{
	(void)state;
	kcc_testkit* t = course( NULL ); // the first spawn: "start"
	testkit_script( t, "# from the spawn point, run right for 2 s, then jump while still running\n"
				   "run right 2.0\n"
				   "jump\n"
				   "run right 0.6\n"
				   "wait 0.5\n" );
	assert_true( kcc_testkit_on_floor( t ) );
	assert_string_equal( kcc_testkit_get_floor_name( t ), "platform 3" );
	const kcc_level_object* p3 = kcc_testkit_get_floor_object( t );
	assert_non_null( p3 );
	assert_int_equal( p3->kind, KCC_LEVEL_ONE_WAY );
	// Standing on its top, a skin above it.
	vec2s p = kcc_testkit_get_position( t );
	assert_float_equal( p.y - HALF_HEIGHT, p3->bounds.max.y + SKIN, 1e-4 );
	assert_true( p.x > p3->bounds.min.x && p.x < p3->bounds.max.x );
	const kcc_testkit_event* jump = kcc_testkit_find_event( t, KCC_EVENT_JUMP, "ground" );
	assert_non_null( jump );
	assert_int_equal( jump->frame, 121 );
	const kcc_testkit_event* land = kcc_testkit_find_event( t, KCC_EVENT_LAND, "platform 3" );
	assert_non_null( land );
	assert_true( land->frame > jump->frame );
	// In the air between the jump and the landing, on the floor after.
	const kcc_testkit_frame* frames = kcc_testkit_get_frames( t );
	for ( int i = jump->frame - 1; i < kcc_testkit_frame_count( t ); ++i )
	{
		assert_true( ( ( frames[i].flags & KCC_ON_FLOOR ) != 0 ) == ( frames[i].frame >= land->frame ) );
	}
	assert_false( kcc_testkit_flags_seen( t ) & ( KCC_DEPENETRATED | KCC_CRUSHED ) );
	kcc_testkit_destroy( t );
}

static void test_the_checkpoint_zone_begins_and_ends( void** state )
{
	(void)state;
	kcc_testkit* t = course( "start" );
	const kcc_level_object* zone = kcc_level_find( kcc_testkit_get_level( t ), KCC_LEVEL_ZONE, "checkpoint" );
	assert_non_null( zone );
	testkit_script( t, "run right 4.5" );
	assert_false( kcc_testkit_in_zone( t, "checkpoint" ) );
	testkit_script( t, "run right 0.15" );
	assert_true( kcc_testkit_in_zone( t, "checkpoint" ) );
	testkit_script( t, "run right 1" );
	assert_false( kcc_testkit_in_zone( t, "checkpoint" ) );
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_ZONE_BEGIN, "checkpoint" ), 1 );
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_ZONE_END, "checkpoint" ), 1 );
	const kcc_testkit_event* begin = kcc_testkit_find_event( t, KCC_EVENT_ZONE_BEGIN, NULL );
	const kcc_testkit_event* end = kcc_testkit_find_event( t, KCC_EVENT_ZONE_END, NULL );
	assert_true( begin < end );
	// The frames: the capsule's right side reaches the zone in the begin frame (not before), its left side is
	// past the zone in the end frame (not before).
	const kcc_testkit_frame* frames = kcc_testkit_get_frames( t );
	const kcc_testkit_frame* b = frames + begin->frame - 1;
	const kcc_testkit_frame* e = frames + end->frame - 1;
	assert_true( b->position.x + HALF_WIDTH >= zone->bounds.min.x );
	assert_true( b[-1].position.x + HALF_WIDTH < zone->bounds.min.x );
	assert_true( e->position.x - HALF_WIDTH > zone->bounds.max.x );
	assert_true( e[-1].position.x - HALF_WIDTH <= zone->bounds.max.x );
	assert_int_equal( b->event_count, 1 );
	assert_int_equal( kcc_testkit_get_events( t )[b->first_event].type, KCC_EVENT_ZONE_BEGIN );
	kcc_testkit_destroy( t );
}

static void test_a_dash_through_the_zone_reports_both_events( void** state )
{
	(void)state;
	// At 150 units/s a frame moves 2.5 units: from x = 29.5 to 32 the capsule (0.6 wide) passes the whole
	// 0.25-wide checkpoint at x = 30 within one move, overlapping it at neither end.
	kcc_character_def character = kcc_default_character_def();
	character.walk_speed = 150.0f;
	kcc_testkit_error error;
	kcc_testkit* t = kcc_testkit_create_from_file( level_path( "run.tmj" ), "start", &character, &error );
	assert_non_null( t );
	testkit_script( t, "run right 0.5" );
	const kcc_testkit_event* begin = kcc_testkit_find_event( t, KCC_EVENT_ZONE_BEGIN, "checkpoint" );
	const kcc_testkit_event* end = kcc_testkit_find_event( t, KCC_EVENT_ZONE_END, "checkpoint" );
	assert_non_null( begin );
	assert_non_null( end );
	assert_int_equal( begin->frame, 12 );
	assert_int_equal( end->frame, 12 );
	assert_true( begin < end ); // in path order
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_ZONE_BEGIN, NULL ), 1 );
	assert_false( kcc_testkit_in_zone( t, "checkpoint" ) );
	kcc_testkit_destroy( t );
}

static void test_riding_and_leaving_the_lift( void** state )
{
	(void)state;
	kcc_testkit* t = course( "lift spawn" );
	const kcc_level_platform* lift = kcc_level_find_platform( kcc_testkit_get_level( t ), "lift" );
	testkit_script( t, "wait 1" );
	const kcc_testkit_frame* frames = kcc_testkit_get_frames( t );
	// On the lift every frame, and carried from the second frame on (the first move finds the lift under it):
	// its place on the lift (the lift moves right at 2 units/s from x = 41.5) does not change.
	double offset = frames[1].position.x - ( 41.5 + 2.0 * frames[1].time );
	for ( int i = 0; i < 60; ++i )
	{
		assert_string_equal( frames[i].floor, "lift" );
		assert_false( frames[i].flags & ( KCC_DEPENETRATED | KCC_CRUSHED ) );
		assert_float_equal( frames[i].position.y, 4.0f + HALF_HEIGHT + SKIN, 1e-4 );
		if ( i >= 1 )
		{
			assert_float_equal( frames[i].position.x - ( 41.5 + 2.0 * frames[i].time ), offset, 1e-4 );
		}
	}
	assert_float_equal( cpBodyGetPosition( lift->body ).x, 41.5 + 2.0, 1e-4 );
	testkit_script( t, "jump\nwait 0.3" );
	const kcc_testkit_event* jump = kcc_testkit_find_event( t, KCC_EVENT_JUMP, "lift" );
	const kcc_testkit_event* left = kcc_testkit_find_event( t, KCC_EVENT_LEAVE_PLATFORM, "lift" );
	assert_non_null( jump );
	assert_non_null( left );
	assert_int_equal( jump->frame, 61 );
	assert_int_equal( left->frame, 61 );
	assert_false( kcc_testkit_on_floor( t ) );
	assert_true( kcc_testkit_get_position( t ).y > 4.0f + HALF_HEIGHT + 2.0f );
	kcc_testkit_destroy( t );
}

static void test_drop_through_the_ledge( void** state )
{
	(void)state;
	kcc_testkit* t = course( "ledge spawn" );
	testkit_script( t, "wait 0.2" );
	assert_string_equal( kcc_testkit_get_floor_name( t ), "ledge" );
	testkit_script( t, "drop\nwait 1" );
	assert_string_equal( kcc_testkit_get_floor_name( t ), "ground" );
	assert_float_equal( kcc_testkit_get_position( t ).y, FLOOR_TOP + HALF_HEIGHT + SKIN, 1e-4 );
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_LEAVE_FLOOR, "ledge" ), 1 );
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_LAND, "ground" ), 1 );
	// Without drop it stays.
	kcc_testkit_reset( t );
	testkit_script( t, "wait 1.2" );
	assert_string_equal( kcc_testkit_get_floor_name( t ), "ledge" );
	kcc_testkit_destroy( t );
}

static void test_the_wall_stops_it( void** state )
{
	(void)state;
	kcc_testkit* t = course( "wall spawn" );
	testkit_script( t, "run right 2" );
	// The wall's face is at x = 99: stopped there, not in it, within a skin of it.
	float right = kcc_testkit_get_position( t ).x + HALF_WIDTH;
	assert_true( right <= 99.0f && right >= 99.0f - SKIN - 1e-4f );
	assert_true( kcc_testkit_get_flags( t ) & KCC_ON_WALL );
	assert_true( kcc_testkit_get_flags( t ) & KCC_ON_FLOOR );
	assert_float_equal( kcc_testkit_get_velocity( t ).x, 0.0f, 0.0f ); // no speed builds up against it
	kcc_testkit_destroy( t );
}

static void test_the_ramp_is_walked_up( void** state )
{
	(void)state;
	kcc_testkit* t = course( "start" );
	assert_true( kcc_testkit_spawn( t, "ramp spawn" ) );
	assert_false( kcc_testkit_spawn( t, "nowhere" ) );
	assert_false( kcc_testkit_spawn( t, "ramp" ) ); // an object of class solid is no spawn
	testkit_script( t, "run right 1" ); // from x = 60 on the ground; the ramp rises 1 in 2 from x = 62
	assert_string_equal( kcc_testkit_get_floor_name( t ), "ramp" );
	const kcc_testkit_frame* frames = kcc_testkit_get_frames( t );
	float previous = 0.0f;
	for ( int i = 0; i < kcc_testkit_frame_count( t ); ++i )
	{
		assert_true( frames[i].flags & KCC_ON_FLOOR ); // never off the floor where the ramp starts
		assert_true( frames[i].position.y >= previous );
		previous = frames[i].position.y;
	}
	assert_true( kcc_testkit_get_position( t ).y > FLOOR_TOP + HALF_HEIGHT + 1.0f );
	kcc_testkit_destroy( t );
}

static void test_crouching_through_the_tunnel( void** state )
{
	(void)state;
	// The tunnel's ceiling is 0.8 above the floor (x from 80 to 86): the 1.2-tall capsule does not fit, the 0.6-tall
	// crouch circle does.
	kcc_testkit* t = course( "tunnel spawn" );
	testkit_script( t, "run right 1" );
	float right = kcc_testkit_get_position( t ).x + HALF_WIDTH;
	assert_true( right <= 80.0f && right >= 80.0f - SKIN - 1e-4f );
	assert_false( kcc_character_is_crouching( kcc_testkit_get_character( t ) ) );
	testkit_script( t, "crouch right 1.5" );
	vec2s inside = kcc_testkit_get_position( t );
	assert_true( inside.x > 82.0f && inside.x < 86.0f );
	assert_true( kcc_character_is_crouching( kcc_testkit_get_character( t ) ) );
	assert_float_equal( kcc_testkit_get_velocity( t ).x, 3.0f, 1e-5 ); // crouch speed
	// Crouch released under the ceiling: standing up does not fit, it stays crouched and moves at crouch speed.
	testkit_script( t, "run right 0.2" );
	assert_true( kcc_character_is_crouching( kcc_testkit_get_character( t ) ) );
	assert_float_equal( kcc_testkit_get_position( t ).x - inside.x, 3.0f * 0.2f, 1e-4 );
	testkit_script( t, "crouch right 1\nwait 0.1" );
	assert_true( kcc_testkit_get_position( t ).x > 86.0f + HALF_WIDTH );
	assert_false( kcc_character_is_crouching( kcc_testkit_get_character( t ) ) ); // out of the tunnel: standing again
	const kcc_testkit_frame* frames = kcc_testkit_get_frames( t );
	for ( int i = 0; i < kcc_testkit_frame_count( t ); ++i )
	{
		assert_true( frames[i].flags & KCC_ON_FLOOR );
		assert_float_equal( frames[i].position.y, FLOOR_TOP + HALF_HEIGHT + SKIN, 1e-4 ); // feet stay on the floor
		// Crouched exactly while under the tunnel's ceiling (and from the crouch command on).
		if ( frames[i].position.x + HALF_WIDTH > 80.0f && frames[i].position.x - HALF_WIDTH < 86.0f )
		{
			assert_true( frames[i].crouching );
		}
	}
	assert_false( kcc_testkit_flags_seen( t ) & ( KCC_DEPENETRATED | KCC_CRUSHED ) );
	kcc_testkit_destroy( t );
}

static void test_pushing_the_crate( void** state )
{
	(void)state;
	// The crate (class crate: a pushable kinematic body, 1 x 1 at x = 90) is pushed to the wall at x = 99.
	kcc_testkit* t = course( "crate spawn" );
	const kcc_level_object* crate = kcc_level_find( kcc_testkit_get_level( t ), KCC_LEVEL_CRATE, "crate" );
	assert_non_null( crate );
	assert_float_equal( cpBodyGetPosition( crate->body ).x, 90.5, 0.0 );
	testkit_script( t, "run right 3" );
	double crate_x = cpBodyGetPosition( crate->body ).x;
	assert_true( crate_x + 0.5 <= 99.0 && crate_x + 0.5 >= 99.0 - SKIN - 1e-4 ); // against the wall, not in it
	float right = kcc_testkit_get_position( t ).x + HALF_WIDTH;
	assert_true( right <= crate_x - 0.5 && right >= crate_x - 0.5 - SKIN - 1e-4 ); // behind the crate
	assert_float_equal( cpBodyGetPosition( crate->body ).y, 2.5, 1e-6 ); // slid along the floor
	assert_false( kcc_testkit_flags_seen( t ) & ( KCC_DEPENETRATED | KCC_CRUSHED ) );
	kcc_testkit_reset( t ); // the crate goes back where the map drew it
	assert_float_equal( cpBodyGetPosition( crate->body ).x, 90.5, 0.0 );
	kcc_testkit_destroy( t );
}

static void test_runs_are_bit_identical( void** state )
{
	(void)state;
	const char* script = "run right 2\njump\nrun right 0.6\nwait 0.5\nrun left 1\njump\nwait 1\nrun right 8\n";
	kcc_testkit* a = course( "start" );
	kcc_testkit* b = course( "start" );
	testkit_script( a, script );
	testkit_script( b, script );
	int n = kcc_testkit_frame_count( a );
	assert_int_equal( n, kcc_testkit_frame_count( b ) );
	const kcc_testkit_frame* fa = kcc_testkit_get_frames( a );
	const kcc_testkit_frame* fb = kcc_testkit_get_frames( b );
	for ( int i = 0; i < n; ++i )
	{
		assert_memory_equal( &fa[i].position, &fb[i].position, sizeof( vec2s ) );
		assert_memory_equal( &fa[i].velocity, &fb[i].velocity, sizeof( vec2s ) );
		assert_int_equal( fa[i].flags, fb[i].flags );
	}
	// After a reset, the same again.
	vec2s* first = malloc( (size_t)n * sizeof( vec2s ) );
	for ( int i = 0; i < n; ++i )
	{
		first[i] = fa[i].position;
	}
	kcc_testkit_reset( a );
	assert_int_equal( kcc_testkit_frame_count( a ), 0 );
	assert_int_equal( kcc_testkit_event_count( a ), 0 );
	testkit_script( a, script );
	fa = kcc_testkit_get_frames( a );
	for ( int i = 0; i < n; ++i )
	{
		assert_memory_equal( &fa[i].position, first + i, sizeof( vec2s ) );
	}
	free( first );
	kcc_testkit_destroy( a );
	kcc_testkit_destroy( b );
}

static void test_stepping_inputs_directly( void** state )
{
	(void)state;
	kcc_testkit* t = course( "start" );
	kcc_input input = { { { 1.0f, 0.0f } }, false, false, false };
	assert_int_equal( kcc_testkit_run( t, input, 30 ), KCC_OK );
	assert_float_equal( kcc_testkit_get_position( t ).x, 2.0f + 3.0f, 1e-5 );
	input.jump = true;
	assert_int_equal( kcc_testkit_step( t, input ), KCC_OK );
	assert_float_equal( kcc_testkit_get_velocity( t ).y, 13.0f - 0.0f, 1e-5 );
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_JUMP, NULL ), 1 );
	// A press held down is one press: the jump in run() is pressed on its first frame only.
	input.jump = true;
	assert_int_equal( kcc_testkit_run( t, input, 10 ), KCC_OK );
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_JUMP, NULL ), 1 );
	input.move = kcc_v2( NAN, 0.0f );
	assert_int_equal( kcc_testkit_step( t, input ), KCC_ERROR_NOT_FINITE );
	assert_int_equal( kcc_testkit_frame_count( t ), 41 );
	kcc_testkit_destroy( t );
}

static void test_script_errors_name_the_line( void** state )
{
	(void)state;
	static const struct
	{
		const char* script;
		const char* message;
	} cases[] = {
		{ "run right 1\n\n  jmup\n", "course.txt:3: unknown command 'jmup'" },
		{ "run sideways 1", "course.txt:1: run takes left, right, up or down" },
		{ "wait -1", "course.txt:1: '-1' is not a duration" },
		{ "wait 1 2", "course.txt:1: wait takes a duration" },
		{ "wait 2h", "course.txt:1: '2h' is not a duration" },
		{ "move 2 0 1", "course.txt:1: move takes x and y in [-1, 1]" },
		{ "jump now", "course.txt:1: jump takes nothing after it (found 'now')" },
		{ "crouch", "course.txt:1: crouch takes a duration, and a direction before it to crawl" },
		{ "crouch sideways 1", "course.txt:1: crouch takes left, right, up or down and a duration" },
		{ "mode sideways", "course.txt:1: mode is 'mode platformer' or 'mode top-down'" },
		{ "wait 1\nmode top-down", "course.txt:2: mode must come before the first frame" },
		{ "# fine\nrun right 1\nspawn nowhere", "course.txt:3: the level has no spawn named 'nowhere'" },
		{ "spawn", "course.txt:1: spawn needs the name of a spawn point" },
		{ "wait 100000", "course.txt:1: '100000' is not a duration" },
		{ "wait 3000\nwait 1000", "course.txt:2: the script runs more than" },
	};
	kcc_testkit* t = course( "start" );
	for ( size_t i = 0; i < sizeof( cases ) / sizeof( cases[0] ); ++i )
	{
		kcc_testkit_error error;
		assert_false( kcc_testkit_run_script( t, cases[i].script, "course.txt", &error ) );
		if ( strstr( error.message, cases[i].message ) == NULL )
		{
			fprintf( stderr, "case %zu: \"%s\"\n", i, error.message );
		}
		assert_non_null( strstr( error.message, cases[i].message ) );
		assert_int_equal( kcc_testkit_frame_count( t ), 0 ); // nothing ran
	}
	kcc_testkit_error error;
	assert_false( kcc_testkit_run_script( t, NULL, NULL, &error ) );
	assert_non_null( strstr( error.message, "script:0: no script" ) );
	// Comments, blank lines, frames as a duration, a spawn name with spaces, a press at the very end.
	testkit_script( t, "  # a comment\r\n\nwait 3f   # three frames\nspawn lift spawn\njump" );
	assert_int_equal( kcc_testkit_frame_count( t ), 4 );
	kcc_testkit_destroy( t );
}

static void test_create_errors( void** state )
{
	(void)state;
	kcc_testkit_error error;
	assert_null( kcc_testkit_create_from_file( level_path( "missing.tmj" ), NULL, NULL, &error ) );
	assert_non_null( strstr( error.message, "missing.tmj: cannot read file" ) );
	assert_null( kcc_testkit_create_from_file( level_path( "run.tmj" ), "nowhere", NULL, &error ) );
	assert_non_null( strstr( error.message, "no spawn named 'nowhere'" ) );
	kcc_character_def character = kcc_default_character_def();
	character.controller.skin = -1.0f;
	assert_null( kcc_testkit_create_from_file( level_path( "run.tmj" ), NULL, &character, &error ) );
	assert_non_null( strstr( error.message, "the character def is refused: " ) );
	kcc_testkit_def def = kcc_default_testkit_def();
	assert_null( kcc_testkit_create( &def, &error ) ); // no map
	def.internal_cookie = 0;
	def.map_path = level_path( "run.tmj" );
	assert_null( kcc_testkit_create( &def, &error ) );
	assert_null( kcc_testkit_create( NULL, &error ) );
	kcc_testkit_destroy( NULL );
	// A map in memory.
	size_t size = 0;
	char* text = level_read_text( "room.tmj", &size );
	def = kcc_default_testkit_def();
	def.map_json = text;
	def.map_size = size;
	def.map_name = "room.tmj";
	kcc_testkit* t = kcc_testkit_create( &def, &error );
	assert_non_null( t );
	assert_string_equal( kcc_level_find( kcc_testkit_get_level( t ), KCC_LEVEL_SPAWN, NULL )->name, "start" );
	kcc_testkit_destroy( t );
	// Its errors name it, and a spawn must be an object of class spawn.
	def.spawn = "door";
	assert_null( kcc_testkit_create( &def, &error ) );
	assert_non_null( strstr( error.message, "room.tmj: no spawn named 'door'" ) );
	free( text );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_running_on_the_merged_floor ),
		cmocka_unit_test( test_running_on_separate_tiles ),
		cmocka_unit_test( test_a_jump_lands_on_platform_3 ),
		cmocka_unit_test( test_the_checkpoint_zone_begins_and_ends ),
		cmocka_unit_test( test_a_dash_through_the_zone_reports_both_events ),
		cmocka_unit_test( test_riding_and_leaving_the_lift ),
		cmocka_unit_test( test_drop_through_the_ledge ),
		cmocka_unit_test( test_the_wall_stops_it ),
		cmocka_unit_test( test_the_ramp_is_walked_up ),
		cmocka_unit_test( test_crouching_through_the_tunnel ),
		cmocka_unit_test( test_pushing_the_crate ),
		cmocka_unit_test( test_runs_are_bit_identical ),
		cmocka_unit_test( test_stepping_inputs_directly ),
		cmocka_unit_test( test_script_errors_name_the_line ),
		cmocka_unit_test( test_create_errors ),
	};
	return cmocka_run_group_tests_name( "test kit, platformer", tests, NULL, NULL );
}
