// SPDX-License-Identifier: MIT
// LDtk projects (tests/levels/ldtk, written by make_ldtk.py): an IntGrid layer becomes merged tile boxes, its
// values' identifiers their classes (so rules map them: one-way platforms, ladders as zones), an Entities layer
// objects (the pivot undone, fields as properties, an EntityRef as an object reference), the level's world
// position and fields as map properties; def.ldtk_level picks the level; a level saved apart (.ldtkl) loads;
// errors name the project, the layer or entity and LDtk's own path.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

typedef struct world
{
	cpSpace* space;
	kcc_level* level;
} world;

static world load( const char* name, const kcc_level_rule* rules, int rule_count, const char* ldtk_level )
{
	world w = { cpSpaceNew(), NULL };
	kcc_level_def def = kcc_default_level_def();
	def.rules = rules;
	def.rule_count = rule_count;
	def.ldtk_level = ldtk_level;
	w.level = level_load( w.space, name, &def );
	return w;
}

static void unload( world* w )
{
	kcc_level_destroy( w->level );
	cpSpaceFree( w->space );
}

static bool has_warning( const kcc_level* level, const char* text )
{
	for ( int i = 0; i < kcc_level_warning_count( level ); ++i )
	{
		if ( strstr( kcc_level_get_warning( level, i ), text ) != NULL )
		{
			return true;
		}
	}
	return false;
}

// Without rules: every IntGrid value is a solid box (the identifiers kcc2d does not know are warned about),
// entities are records with no shape.
static void test_intgrid_and_entities_without_rules( void** state )
{
	(void)state;
	world w = load( "ldtk/small.ldtk", NULL, 0, NULL );
	kcc_level_def def = kcc_default_level_def();
	vec2s size = kcc_level_get_size( w.level );
	assert_float_equal( size.x, 8.0f, 0.0f ); // 128 x 64 pixels, 16 a cell: one cell is one unit
	assert_float_equal( size.y, 4.0f, 0.0f );
	assert_float_equal( kcc_level_get_pixels_per_unit( w.level ), 16.0f, 0.0f );
	// The floor row (y 0..1) is one box.
	cpShape* floor = space_shape_at( w.space, 4.0, 0.5 );
	assert_shape_box( floor, 0.0, 0.0, 8.0, 1.0, 1e-12 );
	assert_int_equal( cpShapeGetFilter( floor ).categories, def.solid_category );
	assert_string_equal( kcc_level_get_shape_name( w.level, floor ), "Collisions" );
	assert_int_equal( cpShapeGetFilter( space_shape_at( w.space, 2.5, 2.5 ) ).categories, def.solid_category );
	kcc_level_info info = kcc_level_get_info( w.level );
	assert_int_equal( info.tile_count, 8 + 2 + 2 + 1 );
	assert_int_equal( info.object_count, 5 );
	assert_true( has_warning( w.level, "class 'platform' is known to no rule" ) );
	assert_true( has_warning( w.level, "class 'ladder' is known to no rule" ) );
	assert_true( has_warning( w.level, "class 'Player' is known to no rule" ) );
	assert_true( has_warning( w.level, "class 'Coin' is known to no rule" ) );
	// The coin at x 200 of a 128-pixel level is outside it.
	assert_true( has_warning( w.level, "small.ldtk: layer 'Entities', object 5 'Coin': the object is outside the map" ) );

	// Entities: the pivot (0.5, 1) undone; the name a String field "name" gives, else the identifier.
	const kcc_level_object* player = kcc_level_find_object( w.level, "Player" );
	assert_non_null( player );
	assert_string_equal( player->class_name, "Player" );
	assert_string_equal( player->layer_name, "Entities" );
	assert_int_equal( player->kind, KCC_LEVEL_OTHER );
	assert_float_equal( player->bounds.min.x, 1.0f, 0.0f );
	assert_float_equal( player->bounds.max.x, 2.0f, 0.0f );
	assert_float_equal( player->bounds.min.y, 1.0f, 0.0f );
	assert_float_equal( player->bounds.max.y, 2.0f, 0.0f );
	const kcc_level_object* check = kcc_level_find_object( w.level, "start2" );
	assert_non_null( check );
	assert_string_equal( check->class_name, "Checkpoint" );
	assert_int_equal( kcc_level_get_object_property( check, "hp" )->type, KCC_PROPERTY_INT );
	assert_float_equal( kcc_level_get_object_property( check, "hp" )->number, 3.0, 0.0 );
	assert_int_equal( kcc_level_get_object_property( check, "speed" )->type, KCC_PROPERTY_FLOAT );
	assert_true( kcc_level_get_object_property( check, "open" )->boolean );
	assert_string_equal( kcc_level_get_object_property( check, "note" )->string, "a\nb" );
	assert_int_equal( kcc_level_get_object_property( check, "unset" )->type, KCC_PROPERTY_OTHER );
	assert_string_equal( kcc_level_get_object_property( player, "items" )->string, "[\"Knife\"]" );
	// An EntityRef to an entity of the level is an object reference (the ids are the entities' order).
	const kcc_level_property* path = kcc_level_get_object_property( kcc_level_find_object( w.level, "Lift" ), "path" );
	assert_int_equal( path->type, KCC_PROPERTY_OBJECT );
	assert_float_equal( path->number, (double)kcc_level_find_object( w.level, "Track" )->id, 0.0 );
	// The level's fields and its place in the world.
	assert_string_equal( kcc_level_get_map_property( w.level, "music" )->string, "forest" );
	assert_float_equal( kcc_level_get_map_property( w.level, "ldtk_world_x" )->number, 256.0, 0.0 );
	assert_float_equal( kcc_level_get_map_property( w.level, "ldtk_world_y" )->number, -64.0, 0.0 );
	assert_string_equal( kcc_level_get_map_property( w.level, "ldtk_level" )->string, "Level_0" );
	unload( &w );
}

// Rules give the identifiers their roles: one-way platforms, ladders as zones, the player as the spawn, a lift
// moving round its track.
static void test_rules_map_ldtk_identifiers( void** state )
{
	(void)state;
	kcc_level_rule rules[] = {
		{ NULL, "platform", NULL, NULL, KCC_LEVEL_ONE_WAY }, { NULL, "ladder", NULL, NULL, KCC_LEVEL_ZONE },
		{ NULL, "Player", NULL, NULL, KCC_LEVEL_SPAWN },	  { NULL, "Lift", NULL, NULL, KCC_LEVEL_PLATFORM },
		{ NULL, "Track", NULL, NULL, KCC_LEVEL_PATH },		  { "Entities", NULL, NULL, NULL, KCC_LEVEL_OTHER },
		{ NULL, "walls", NULL, NULL, KCC_LEVEL_SOLID },
	};
	world w = load( "ldtk/small.ldtk", rules, 7, NULL );
	kcc_level_def def = kcc_default_level_def();
	cpShape* platform = space_shape_at( w.space, 3.0, 2.5 );
	assert_shape_box( platform, 2.0, 2.0, 4.0, 3.0, 1e-12 );
	assert_int_equal( cpShapeGetFilter( platform ).categories, def.one_way_category );
	cpShape* ladder = space_shape_at( w.space, 6.5, 2.0 );
	assert_shape_box( ladder, 6.0, 1.0, 7.0, 3.0, 1e-12 ); // two cells merged
	assert_true( cpShapeGetSensor( ladder ) );
	assert_ptr_equal( kcc_level_find( w.level, KCC_LEVEL_SPAWN, NULL ), kcc_level_find_object( w.level, "Player" ) );
	assert_int_equal( kcc_level_platform_count( w.level ), 1 );
	const kcc_level_platform* lift = kcc_level_get_platform( w.level, 0 );
	assert_string_equal( lift->path->name, "Track" );
	assert_float_equal( lift->speed, 2.0f, 0.0f );
	assert_float_equal( lift->length, 6.0f, 1e-6f ); // round the 2 x 1 track
	assert_int_equal( kcc_level_warning_count( w.level ), 1 ); // the coin outside the level
	unload( &w );
}

static void test_choosing_a_level( void** state )
{
	(void)state;
	world w = load( "ldtk/small.ldtk", NULL, 0, "Level_1" );
	vec2s size = kcc_level_get_size( w.level );
	assert_float_equal( size.x, 4.0f, 0.0f );
	assert_float_equal( size.y, 2.0f, 0.0f );
	// The layer's offset of half a cell moves the merged box.
	assert_shape_box( space_shape_at( w.space, 2.0, 1.0 ), 0.5, 0.0, 4.5, 2.0, 1e-12 );
	assert_string_equal( kcc_level_get_map_property( w.level, "ldtk_level" )->string, "Level_1" );
	unload( &w );

	kcc_level_def def = kcc_default_level_def();
	def.ldtk_level = "Level_9";
	cpSpace* space = cpSpaceNew();
	kcc_level* level = NULL;
	kcc_level_error error;
	assert_int_equal( kcc_level_load_file( space, level_path( "ldtk/small.ldtk" ), &def, &level, &error ),
					  KCC_LEVEL_ERROR_INVALID );
	assert_non_null( strstr( error.message, "small.ldtk: the LDtk project has no level 'Level_9' (def.ldtk_level; "
											"its levels: Level_0, Level_1)" ) );
	assert_int_equal( space_shape_count( space ), 0 );
	cpSpaceFree( space );
}

// A project saved with its levels apart: the level's layers come from its .ldtkl file.
static void test_a_level_in_its_own_file( void** state )
{
	(void)state;
	world w = load( "ldtk/apart.ldtk", NULL, 0, "Level_A" );
	assert_shape_box( space_shape_at( w.space, 2.0, 1.0 ), 0.5, 0.0, 4.5, 2.0, 1e-12 );
	assert_string_equal( kcc_level_get_map_property( w.level, "ldtk_level" )->string, "Level_A" );
	unload( &w );
}

// Errors name the project, the layer or entity, and the path in LDtk's members.
static void test_errors_name_ldtk_paths( void** state )
{
	(void)state;
	size_t size = 0;
	char* text = level_read_text( "ldtk/small.ldtk", &size );
	// Level_0's IntGrid cell 5 (row 0) made 9, a value the layer does not have.
	char* cells = strstr( text, "\"intGridCsv\": [\n      7,\n      0,\n      0,\n      0,\n      0,\n      0" );
	assert_non_null( cells );
	char* sixth = cells + strlen( "\"intGridCsv\": [\n      7,\n      0,\n      0,\n      0,\n      0,\n      " );
	*sixth = '9';
	cpSpace* space = cpSpaceNew();
	kcc_level* level = NULL;
	kcc_level_error error;
	assert_int_equal( kcc_level_load_memory( space, text, size, "maps/small.ldtk", NULL, &level, &error ),
					  KCC_LEVEL_ERROR_INVALID );
	assert_non_null( strstr( error.message, "maps/small.ldtk: layer 'Collisions': cell (5, 0): the value is not one of "
											"the layer's IntGrid values (at levels[0].layerInstances[1].intGridCsv[5])" ) );
	*sixth = '0';
	// A lift whose speed is 0: the loader's own check on the object it became, named with LDtk's path.
	char* speed = strstr( text, "\"__value\": 2.0" );
	assert_non_null( speed );
	memcpy( speed, "\"__value\": 0.0", strlen( "\"__value\": 0.0" ) );
	kcc_level_rule rules[] = { { NULL, "Lift", NULL, NULL, KCC_LEVEL_PLATFORM } };
	kcc_level_def def = kcc_default_level_def();
	def.rules = rules;
	def.rule_count = 1;
	assert_int_equal( kcc_level_load_memory( space, text, size, "maps/small.ldtk", &def, &level, &error ),
					  KCC_LEVEL_ERROR_INVALID );
	assert_non_null( strstr( error.message, "maps/small.ldtk: layer 'Entities', object 3 'Lift': a platform needs a "
											"property 'speed'" ) );
	assert_non_null( strstr( error.message, "(at levels[0].layerInstances[0].entityInstances[2])" ) );
	assert_int_equal( space_shape_count( space ), 0 );
	cpSpaceFree( space );
	free( text );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_intgrid_and_entities_without_rules ),
		cmocka_unit_test( test_rules_map_ldtk_identifiers ),
		cmocka_unit_test( test_choosing_a_level ),
		cmocka_unit_test( test_a_level_in_its_own_file ),
		cmocka_unit_test( test_errors_name_ldtk_paths ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
