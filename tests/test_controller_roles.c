// SPDX-License-Identifier: MIT
// Roles need an explicit category: a shape in every category (Chipmunk's default filter) is a plain solid whatever
// the def's one_way_categories and pushable_categories, and a character is never one-way or pushable to another.
// The trap this guards (found by a new user following docs/controller.md): floor in category 1,
// def.one_way_categories = 2, def.filter left at its default; two characters walking toward each other from
// x = -4 and x = 4 ended at x = 4 and x = -4 (each was a one-way shape to the other, so passed from the side), and
// a wall left with Chipmunk's default filter was walked through. For the circle, the capsule and the rounded box.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define SPEED 4.0f

#define LEVEL_CATEGORY 1u
#define ONE_WAY_CATEGORY 2u
#define PUSHABLE_CATEGORY 4u

// A floor of tiles in LEVEL_CATEGORY, top at y = 0, from x = -20 to 20.
static scene* floor_scene( void )
{
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -20, -1, 40 );
	for ( int i = 0; i < s->count; ++i )
	{
		cpShapeSetFilter( s->shapes[i], cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, CP_ALL_CATEGORIES ) );
	}
	return s;
}

static kcc_controller_def standing_def( int kind, float x )
{
	kcc_controller_def def = test_character_def( kind, kcc_v2( x, test_character_half_height( kind ) + 0.01f ) );
	def.one_way_categories = ONE_WAY_CATEGORY;
	def.pushable_categories = PUSHABLE_CATEGORY;
	return def;
}

// Two characters of the same def (but x) walk toward each other for 3 s: the left one never gets past the right
// one, and at the end they are stopped against each other, the skin apart.
static void walk_toward_each_other( int kind, cpShapeFilter filter )
{
	scene* s = floor_scene();
	scene_commit( s, 0 );
	kcc_controller_def left_def = standing_def( kind, -4.0f );
	left_def.filter = filter;
	kcc_controller_def right_def = left_def;
	right_def.position.x = 4.0f;
	kcc_controller* left = kcc_controller_create( s->space, &left_def );
	kcc_controller* right = kcc_controller_create( s->space, &right_def );
	assert_non_null( left );
	assert_non_null( right );
	vec2s left_velocity = kcc_v2( 0.0f, 0.0f ), right_velocity = kcc_v2( 0.0f, 0.0f );
	float width = 2.0f * test_character_half_width( kind );
	for ( int frame = 0; frame < 180; ++frame )
	{
		kcc_move_result result;
		assert_int_equal( test_gravity_step( left, &left_velocity, SPEED, GRAVITY, DT, &result ), KCC_OK );
		assert_int_equal( test_gravity_step( right, &right_velocity, -SPEED, GRAVITY, DT, &result ), KCC_OK );
		float gap = kcc_controller_get_position( right ).x - kcc_controller_get_position( left ).x - width;
		SCENE_CHECK( gap > -1.0e-3f, "%s, frame %d: the characters overlap by %g (left at %g, right at %g)",
					 test_character_name( kind ), frame, (double)-gap, (double)kcc_controller_get_position( left ).x,
					 (double)kcc_controller_get_position( right ).x );
	}
	float gap = kcc_controller_get_position( right ).x - kcc_controller_get_position( left ).x - width;
	SCENE_CHECK( gap < 4.0f * left_def.skin, "%s: the characters did not meet (gap %g)", test_character_name( kind ),
				 (double)gap );
	assert_true( kcc_controller_get_flags( left ) & KCC_ON_WALL );
	assert_true( kcc_controller_get_flags( right ) & KCC_ON_WALL );
	kcc_controller_destroy( left );
	kcc_controller_destroy( right );
	scene_destroy( s );
}

static void test_characters_with_the_default_filter_block_each_other( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		walk_toward_each_other( kind, kcc_default_controller_def().filter );
	}
}

// Characters whose own category is a role's bit are still never one-way or pushable to each other.
static void test_characters_in_a_role_category_block_each_other( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		walk_toward_each_other( kind, cpShapeFilterNew( CP_NO_GROUP, ONE_WAY_CATEGORY | PUSHABLE_CATEGORY,
													   CP_ALL_CATEGORIES ) );
	}
}

// Walks right for 3 s into what stands at x = 2; returns the character's final x.
static float walk_right_into( scene* s, int kind )
{
	kcc_controller_def def = standing_def( kind, 0.0f );
	kcc_controller* c = kcc_controller_create( s->space, &def );
	assert_non_null( c );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	for ( int frame = 0; frame < 180; ++frame )
	{
		kcc_move_result result;
		assert_int_equal( test_gravity_step( c, &velocity, SPEED, GRAVITY, DT, &result ), KCC_OK );
	}
	float x = kcc_controller_get_position( c ).x;
	kcc_controller_destroy( c );
	return x;
}

// A static wall and a crate on a kinematic body, both left with Chipmunk's default filter (every category): plain
// solids, the character stops a skin before them and the crate does not move.
static void test_default_filter_shapes_are_plain_solids( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		float stop = 2.0f - test_character_half_width( kind ) - 0.01f;
		scene* s = floor_scene();
		scene_add_box( s, 2.0f, 0.0f, 2.5f, 3.0f ); // the scene's default: Chipmunk's default filter
		scene_commit( s, 0 );
		assert_true( cpShapeGetFilter( s->shapes[s->count - 1] ).categories == CP_ALL_CATEGORIES );
		float x = walk_right_into( s, kind );
		SCENE_CHECK( fabsf( x - stop ) < 2.0e-3f, "%s: stopped at x = %g by a default-filter wall, expected %g",
					 test_character_name( kind ), (double)x, (double)stop );
		scene_destroy( s );

		s = floor_scene();
		scene_commit( s, 0 );
		cpShape* crate = scene_add_body_box( s, kcc_v2( 2.5f, 0.5f ), kcc_v2( 0.5f, 0.5f ), 0.0f, 0.0f,
											 CP_ALL_CATEGORIES );
		x = walk_right_into( s, kind );
		SCENE_CHECK( fabsf( x - stop ) < 2.0e-3f, "%s: stopped at x = %g by a default-filter crate, expected %g",
					 test_character_name( kind ), (double)x, (double)stop );
		vec2s crate_at = scene_body_position( crate );
		assert_true( crate_at.x == 2.5f && crate_at.y == 0.5f );
		scene_destroy( s );
	}
}

// The roles still work for shapes given their own category: a one-way ledge in ONE_WAY_CATEGORY is passed from the
// side and below, and a crate in PUSHABLE_CATEGORY is pushed.
static void test_explicit_categories_keep_their_roles( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = floor_scene();
		cpShape* ledge = scene_add_box( s, 2.0f, 0.0f, 2.5f, 3.0f );
		cpShapeSetFilter( ledge, cpShapeFilterNew( CP_NO_GROUP, ONE_WAY_CATEGORY, CP_ALL_CATEGORIES ) );
		scene_commit( s, 0 );
		float x = walk_right_into( s, kind );
		SCENE_CHECK( x > 5.0f, "%s: a one-way ledge stopped the character at x = %g", test_character_name( kind ),
					 (double)x );
		scene_destroy( s );

		s = floor_scene();
		scene_commit( s, 0 );
		cpShape* crate = scene_add_body_box( s, kcc_v2( 2.5f, 0.5f ), kcc_v2( 0.5f, 0.5f ), 0.0f, 0.0f,
											 PUSHABLE_CATEGORY );
		walk_right_into( s, kind );
		SCENE_CHECK( scene_body_position( crate ).x > 5.0f, "%s: the crate was not pushed (x = %g)",
					 test_character_name( kind ), (double)scene_body_position( crate ).x );
		scene_destroy( s );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_characters_with_the_default_filter_block_each_other ),
		cmocka_unit_test( test_characters_in_a_role_category_block_each_other ),
		cmocka_unit_test( test_default_filter_shapes_are_plain_solids ),
		cmocka_unit_test( test_explicit_categories_keep_their_roles ),
	};
	return cmocka_run_group_tests_name( "controller_roles", tests, NULL, NULL );
}
