// SPDX-License-Identifier: MIT
// Where the test kit starts a character: a spawn by name (objects named, not classed, as maps ship them), the
// Nth of several namesakes, a point, the first spawn (of class spawn, else one named like a spawn); a missing
// spawn lists the map's spawns. Rules as text in the def and as a script's rule lines (the level loads again
// with them).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

// 8 x 4 tiles of 16 px, a floor on the bottom row (tiles of class floor, solid by their property); two points named
// "Spawn Point" (no class), a rectangle of class solid named "wall", a point named "marker".
static const char* s_map =
	"{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":8,\"height\":4,\"tilewidth\":16,\"tileheight\":16,"
	"\"tilesets\":[{\"firstgid\":1,\"name\":\"t\",\"tilewidth\":16,\"tileheight\":16,\"tilecount\":1,\"tiles\":[{"
	"\"id\":0,\"type\":\"floor\",\"properties\":[{\"name\":\"solid\",\"type\":\"bool\",\"value\":true}]}]}],"
	"\"layers\":[{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":8,\"height\":4,\"data\":[0,0,0,0,0,0,0,0,"
	"0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1]},"
	"{\"type\":\"objectgroup\",\"name\":\"things\",\"objects\":["
	"{\"id\":1,\"name\":\"Spawn Point\",\"point\":true,\"x\":24,\"y\":40},"
	"{\"id\":2,\"name\":\"Spawn Point\",\"point\":true,\"x\":88,\"y\":40},"
	"{\"id\":3,\"name\":\"wall\",\"type\":\"solid\",\"x\":112,\"y\":0,\"width\":16,\"height\":48},"
	"{\"id\":4,\"name\":\"marker\",\"point\":true,\"x\":56,\"y\":32}]}]}";

static kcc_testkit* open_map( const char* spawn, const char* rules, kcc_testkit_error* error )
{
	kcc_testkit_def def = kcc_default_testkit_def();
	def.map_json = s_map;
	def.map_size = strlen( s_map );
	def.map_name = "spawns.tmj";
	def.spawn = spawn;
	def.rules = rules;
	return kcc_testkit_create( &def, error );
}

static void test_spawns_by_name_index_and_point( void** state )
{
	(void)state;
	kcc_testkit_error error;
	kcc_testkit* t = open_map( NULL, NULL, &error );
	assert_non_null( t );
	// The first spawn: the first "Spawn Point" (named like one, so a spawn without a class).
	assert_float_equal( kcc_testkit_get_position( t ).x, 1.5f, 0.0f );
	assert_true( kcc_testkit_spawn( t, "Spawn Point[2]" ) );
	assert_float_equal( kcc_testkit_get_position( t ).x, 5.5f, 0.0f );
	assert_true( kcc_testkit_spawn( t, "Spawn Point[1]" ) );
	assert_float_equal( kcc_testkit_get_position( t ).x, 1.5f, 0.0f );
	assert_false( kcc_testkit_spawn( t, "Spawn Point[3]" ) );
	assert_false( kcc_testkit_spawn( t, "Spawn Point[0]" ) );
	// Any shapeless object by its name; never a solid.
	assert_true( kcc_testkit_spawn( t, "marker" ) );
	assert_float_equal( kcc_testkit_get_position( t ).x, 3.5f, 0.0f );
	assert_false( kcc_testkit_spawn( t, "wall" ) );
	// A point: the character's lowest point a skin above it.
	assert_true( kcc_testkit_spawn( t, "@4.25,1" ) );
	vec2s at = kcc_testkit_get_position( t );
	assert_float_equal( at.x, 4.25f, 0.0f );
	assert_float_equal( at.y, 1.0f + 0.6f + 0.01f, 1e-6f );
	assert_false( kcc_testkit_spawn( t, "@4.25" ) );
	assert_false( kcc_testkit_spawn( t, "@x,1" ) );
	testkit_script( t, "spawn Spawn Point[2]\nwait 0.5\nspawn @2,1\nwait 0.5" );
	assert_true( kcc_testkit_on_floor( t ) );
	assert_float_equal( kcc_testkit_get_position( t ).x, 2.0f, 1e-6f );
	kcc_testkit_destroy( t );

	t = open_map( "Spawn Point[2]", NULL, &error );
	assert_non_null( t );
	assert_float_equal( kcc_testkit_get_position( t ).x, 5.5f, 0.0f );
	kcc_testkit_destroy( t );
	t = open_map( "@6,2", NULL, &error );
	assert_non_null( t );
	assert_float_equal( kcc_testkit_get_position( t ).x, 6.0f, 0.0f );
	kcc_testkit_destroy( t );
}

// A missing spawn: the message lists the spawns the map has, namesakes counted.
static void test_a_missing_spawn_lists_the_spawns( void** state )
{
	(void)state;
	kcc_testkit_error error;
	assert_null( open_map( "Start", NULL, &error ) );
	assert_non_null( strstr( error.message, "spawns.tmj: no spawn named 'Start' (its spawns: 'Spawn Point' (2 of that "
											"name: 'Spawn Point[2]' is the second))" ) );
	assert_null( open_map( "@1;2", NULL, &error ) );
	assert_non_null( strstr( error.message, "spawns.tmj: spawn '@1;2' is not a point @X,Y" ) );
	kcc_testkit* t = open_map( NULL, NULL, &error );
	assert_false( kcc_testkit_run_script( t, "spawn Nowhere\n", "course.txt", &error ) );
	assert_non_null( strstr( error.message, "course.txt:1: the level has no spawn named 'Nowhere' (its spawns: 'Spawn "
											"Point'" ) );
	kcc_testkit_destroy( t );
}

// An LDtk project's player entity is the first spawn when nothing is of class spawn.
static void test_the_player_entity_is_the_first_spawn( void** state )
{
	(void)state;
	kcc_testkit* t = testkit_open( "ldtk/small.ldtk", NULL );
	assert_float_equal( kcc_testkit_get_position( t ).x, 1.5f, 0.0f );
	kcc_testkit_destroy( t );
}

// Rules as text: in the def, and a script's rule lines, which load the level again before the first frame.
static void test_rules_as_text( void** state )
{
	(void)state;
	kcc_testkit_error error;
	kcc_testkit* t = open_map( NULL, "class=floor: one_way\n", &error );
	assert_non_null( t );
	kcc_level_def def = kcc_default_level_def();
	cpSpace* space = kcc_testkit_get_space( t );
	assert_int_equal( cpShapeGetFilter( space_shape_at( space, 4.0, 0.5 ) ).categories, def.one_way_category );
	assert_int_equal( kcc_level_warning_count( kcc_testkit_get_level( t ) ), 0 );
	kcc_testkit_destroy( t );

	t = open_map( NULL, NULL, &error );
	assert_int_equal( kcc_level_warning_count( kcc_testkit_get_level( t ) ), 1 ); // floor: known to no rule
	testkit_script( t, "rule class=floor: zone\nrule name=marker, layer=things: spawn\nspawn marker\nwait 2f" );
	space = kcc_testkit_get_space( t );
	cpShape* floor = space_shape_at( space, 4.0, 0.5 );
	assert_true( cpShapeGetSensor( floor ) );
	assert_int_equal( kcc_level_find( kcc_testkit_get_level( t ), KCC_LEVEL_SPAWN, "marker" )->id, 4 );
	assert_int_equal( kcc_level_warning_count( kcc_testkit_get_level( t ) ), 0 );
	assert_int_equal( kcc_testkit_frame_count( t ), 2 );
	// After a frame a rule is too late; a malformed one names its line.
	assert_false( kcc_testkit_run_script( t, "rule class=floor: solid\n", "late.txt", &error ) );
	assert_non_null( strstr( error.message, "late.txt:1: a rule must come before the first frame" ) );
	assert_false( kcc_testkit_run_script( t, "wait 1f\nrule class=floor: wall\n", "bad.txt", &error ) );
	assert_non_null( strstr( error.message, "bad.txt:2: a rule's kind is solid, one_way" ) );
	kcc_testkit_destroy( t );

	assert_null( open_map( NULL, "class=floor: solid\ncolour=red: solid", &error ) );
	assert_non_null( strstr( error.message, "rules line 2: a rule's keys are layer, class, name and property" ) );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_spawns_by_name_index_and_point ),
		cmocka_unit_test( test_a_missing_spawn_lists_the_spawns ),
		cmocka_unit_test( test_the_player_entity_is_the_first_spawn ),
		cmocka_unit_test( test_rules_as_text ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
