// SPDX-License-Identifier: MIT
// The test kit's top-down character on tests/levels/room.tmj (a room of wall tiles, an inner wall with a gap under
// it where a door zone is, a round pillar): no gravity, walls stop it within a skin, the door zone reports begin
// and end as it walks through the gap, the pillar deflects it round its side, diagonal input is no faster than
// straight input, and "floor" never appears.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

#define SKIN 0.01f
#define HALF_WIDTH 0.3f

static kcc_testkit* room( void )
{
	kcc_testkit* t = testkit_open( "room.tmj", "start" );
	testkit_script( t, "mode top-down" );
	assert_int_equal( kcc_character_get_def( kcc_testkit_get_character( t ) )->mode, KCC_CHARACTER_TOP_DOWN );
	return t;
}

static void test_walls_and_the_door( void** state )
{
	(void)state;
	kcc_testkit* t = room();
	// Top-down, the spawn is the character's centre.
	assert_float_equal( kcc_testkit_get_position( t ).x, 4.0f, 0.0f );
	assert_float_equal( kcc_testkit_get_position( t ).y, 7.0f, 0.0f );
	testkit_script( t, "run right 1.5" );
	// The inner wall's face is at x = 10.
	float right = kcc_testkit_get_position( t ).x + HALF_WIDTH;
	assert_true( right <= 10.0f && right >= 10.0f - SKIN - 1e-4f );
	assert_true( kcc_testkit_get_flags( t ) & KCC_ON_WALL );
	assert_float_equal( kcc_testkit_get_position( t ).y, 7.0f, 0.0f ); // no gravity
	testkit_script( t, "run down 0.5\nrun right 0.5" ); // through the gap under the wall, short of the pillar
	assert_float_equal( kcc_testkit_get_position( t ).y, 4.0f, 1e-5 );
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_ZONE_BEGIN, "door" ), 1 );
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_ZONE_END, "door" ), 1 );
	assert_false( kcc_testkit_in_zone( t, "door" ) );
	assert_true( kcc_testkit_get_position( t ).x > 11.0f + HALF_WIDTH );
	const kcc_level_object* door = kcc_level_find( kcc_testkit_get_level( t ), KCC_LEVEL_ZONE, "door" );
	assert_string_equal( kcc_level_get_object_property( door, "leads_to" )->string, "hall" );
	// Top-down there is no floor, no landing.
	const kcc_testkit_frame* frames = kcc_testkit_get_frames( t );
	for ( int i = 0; i < kcc_testkit_frame_count( t ); ++i )
	{
		assert_false( frames[i].flags & KCC_ON_FLOOR );
		assert_null( frames[i].floor );
	}
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_LAND, NULL ), 0 );
	assert_false( kcc_testkit_flags_seen( t ) & ( KCC_DEPENETRATED | KCC_CRUSHED ) );
	kcc_testkit_destroy( t );
}

static void test_the_pillar_deflects( void** state )
{
	(void)state;
	kcc_testkit* t = room();
	// Line up a little above the pillar's centre (15, 3), radius 1, and walk right into it.
	testkit_script( t, "run down 0.6\nrun right 0.8" );
	vec2s before = kcc_testkit_get_position( t );
	assert_float_equal( before.y, 7.0f - 3.6f, 1e-5 );
	testkit_script( t, "run right 2.5" );
	vec2s after = kcc_testkit_get_position( t );
	// Past the pillar, deflected up round its side, never inside it.
	assert_true( after.x > 15.0f );
	assert_true( after.y > before.y + 0.5f );
	const kcc_testkit_frame* frames = kcc_testkit_get_frames( t );
	for ( int i = 0; i < kcc_testkit_frame_count( t ); ++i )
	{
		// The capsule's core is the segment from y - 0.3 to y + 0.3; it stays a radius from the pillar's disc.
		float dx = frames[i].position.x - 15.0f;
		float dy = frames[i].position.y - 3.0f;
		dy = dy > 0.3f ? dy - 0.3f : dy < -0.3f ? dy + 0.3f : 0.0f;
		assert_true( sqrtf( dx * dx + dy * dy ) >= 1.0f + HALF_WIDTH - 1e-4f );
	}
	kcc_testkit_destroy( t );
}

static void test_diagonal_speed( void** state )
{
	(void)state;
	kcc_testkit* t = room();
	testkit_script( t, "move 1 -1 0.25" );
	vec2s v = kcc_testkit_get_velocity( t );
	assert_float_equal( sqrtf( v.x * v.x + v.y * v.y ), 6.0f, 1e-4 );
	assert_float_equal( v.x, -v.y, 1e-5 );
	vec2s p = kcc_testkit_get_position( t );
	assert_float_equal( p.x - 4.0f, 1.5f / sqrtf( 2.0f ), 1e-4 );
	testkit_script( t, "move 0.5 0 0.5" ); // half a stick: half speed
	assert_float_equal( kcc_testkit_get_velocity( t ).x, 3.0f, 1e-5 );
	kcc_testkit_destroy( t );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_walls_and_the_door ),
		cmocka_unit_test( test_the_pillar_deflects ),
		cmocka_unit_test( test_diagonal_speed ),
	};
	return cmocka_run_group_tests_name( "test kit, top-down", tests, NULL, NULL );
}
