// SPDX-License-Identifier: MIT
// Rules and warnings: a map's own conventions (a tile class such as "jumpthrough", collision on one layer by its
// name, spawns by name, a bool property) mapped to kcc2d's kinds by the def's rules, first match before the
// built-in classes; and the warnings a load gives when what it made is likely not what the map meant (a tile layer
// that made nothing, no collision at all, a class nothing knows, an object outside the map), each naming the file
// and the layer or object. Also hidden object layers (their unclassed objects make no shape) and a solid layer
// keeping a one-way tile one-way.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

// A 4 x 2 map of 16 px tiles. Tile 0 (gid 1): class jumpthrough, no collision. Tile 1 (gid 2): no class, no
// collision. Tile 2 (gid 3): class one_way. Tile 3 (gid 4): property collides = true.
#define HEAD "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":4,\"height\":2,\"tilewidth\":16,\"tileheight\":16,"
#define TILESET                                                                                                       \
	"\"tilesets\":[{\"firstgid\":1,\"name\":\"t\",\"tilewidth\":16,\"tileheight\":16,\"tilecount\":4,\"tiles\":["     \
	"{\"id\":0,\"type\":\"jumpthrough\"},{\"id\":2,\"type\":\"one_way\"},"                                            \
	"{\"id\":3,\"properties\":[{\"name\":\"collides\",\"type\":\"bool\",\"value\":true}]}]}]"
#define MAP( layers ) HEAD TILESET ",\"layers\":[" layers "]}"
#define TILES( name, props, data )                                                                                    \
	"{\"type\":\"tilelayer\",\"name\":\"" name "\",\"width\":4,\"height\":2,\"properties\":[" props "],\"data\":" data "}"
#define SOLID_PROP "{\"name\":\"solid\",\"type\":\"bool\",\"value\":true}"

typedef struct world
{
	cpSpace* space;
	kcc_level* level;
} world;

static world load( const char* json, const kcc_level_rule* rules, int rule_count )
{
	world w = { cpSpaceNew(), NULL };
	kcc_level_def def = kcc_default_level_def();
	def.rules = rules;
	def.rule_count = rule_count;
	kcc_level_error error;
	kcc_level_status status = kcc_level_load_memory( w.space, json, strlen( json ), "maps/r.tmj", &def, &w.level,
													 &error );
	if ( status != KCC_LEVEL_OK )
	{
		fprintf( stderr, "%s\n", error.message );
	}
	assert_int_equal( status, KCC_LEVEL_OK );
	return w;
}

static void unload( world* w )
{
	kcc_level_destroy( w->level );
	cpSpaceFree( w->space );
}

// The warning holding every one of the substrings (fails the test when none does).
static void assert_warning( const kcc_level* level, const char* a, const char* b )
{
	for ( int i = 0; i < kcc_level_warning_count( level ); ++i )
	{
		const char* text = kcc_level_get_warning( level, i );
		if ( strstr( text, a ) != NULL && ( b == NULL || strstr( text, b ) != NULL ) )
		{
			return;
		}
	}
	for ( int i = 0; i < kcc_level_warning_count( level ); ++i )
	{
		fprintf( stderr, "warning: %s\n", kcc_level_get_warning( level, i ) );
	}
	fprintf( stderr, "no warning with '%s' and '%s'\n", a, b != NULL ? b : "" );
	fail();
}

static cpBitmask category_at( world* w, double x, double y )
{
	return cpShapeGetFilter( space_shape_at( w->space, x, y ) ).categories;
}

// A layer with the solid property makes every tile a box; "jumpthrough", a class kcc2d does not know, stays solid
// (and is warned about) until a rule makes it one-way.
static void test_a_rule_makes_a_tile_class_one_way( void** state )
{
	(void)state;
	const char* json = MAP( TILES( "World", SOLID_PROP, "[1, 1, 0, 0, 2, 2, 2, 2]" ) );
	world w = load( json, NULL, 0 );
	kcc_level_def def = kcc_default_level_def();
	assert_int_equal( category_at( &w, 0.5, 1.5 ), def.solid_category );
	assert_warning( w.level, "maps/r.tmj: layer 'World', cell (0, 0), gid 1: class 'jumpthrough' is known to no rule",
					"tile 0 of tileset 't'" );
	unload( &w );

	kcc_level_rule rules[] = { { NULL, "jumpthrough", NULL, NULL, KCC_LEVEL_ONE_WAY } };
	w = load( json, rules, 1 );
	assert_int_equal( category_at( &w, 0.5, 1.5 ), def.one_way_category );
	assert_int_equal( category_at( &w, 1.5, 1.5 ), def.one_way_category );
	assert_int_equal( category_at( &w, 2.5, 0.5 ), def.solid_category );
	assert_int_equal( kcc_level_warning_count( w.level ), 0 );
	assert_null( kcc_level_get_warning( w.level, 0 ) );
	assert_null( kcc_level_get_warning( w.level, -1 ) );
	unload( &w );
}

// A tile of class one_way on a layer marked solid stays one-way (the layer fills cells, the tile says how).
static void test_a_solid_layer_keeps_one_way_tiles( void** state )
{
	(void)state;
	world w = load( MAP( TILES( "World", SOLID_PROP, "[3, 0, 0, 0, 2, 2, 2, 2]" ) ), NULL, 0 );
	kcc_level_def def = kcc_default_level_def();
	assert_int_equal( category_at( &w, 0.5, 1.5 ), def.one_way_category );
	assert_int_equal( category_at( &w, 0.5, 0.5 ), def.solid_category );
	unload( &w );
}

// Phaser's way: collision on the layer "World" only, the others decoration. Without rules, every layer warns
// that it made nothing, and the map that it has no collision at all.
static void test_rules_choose_the_colliding_layer( void** state )
{
	(void)state;
	const char* json = MAP( TILES( "World", "", "[0, 0, 0, 0, 2, 2, 2, 2]" ) "," TILES( "Decor", "", "[2, 2, 0, 0, 0, 0, "
																										"0, 0]" ) );
	world w = load( json, NULL, 0 );
	assert_int_equal( kcc_level_get_info( w.level ).shape_count, 0 );
	assert_int_equal( kcc_level_warning_count( w.level ), 3 );
	assert_warning( w.level, "maps/r.tmj: layer 'World': its 4 tiles made no shape", "(at layers[0])" );
	assert_warning( w.level, "maps/r.tmj: layer 'Decor': its 2 tiles made no shape", "(at layers[1])" );
	assert_warning( w.level, "maps/r.tmj: the map made no collision at all", NULL );
	unload( &w );

	kcc_level_rule rules[] = { { "World", NULL, NULL, NULL, KCC_LEVEL_SOLID },
							   { NULL, NULL, NULL, NULL, KCC_LEVEL_OTHER } };
	w = load( json, rules, 2 );
	kcc_level_info info = kcc_level_get_info( w.level );
	assert_int_equal( info.shape_count, 1 ); // the four World cells merged into one box
	assert_int_equal( info.tile_count, 4 );
	assert_shape_box( space_shape_at( w.space, 2.0, 0.5 ), 0.0, 0.0, 4.0, 1.0, 1e-12 );
	assert_true( space_shapes_at( w.space, 0.5, 1.5 ).count == 0 );
	assert_int_equal( kcc_level_warning_count( w.level ), 0 );
	unload( &w );
}

// A rule on a tile's bool property (Phaser's setCollisionByProperty), and a rule making tiles sensors.
static void test_rules_by_property_and_zone_tiles( void** state )
{
	(void)state;
	const char* json = MAP( TILES( "Ground", "", "[4, 4, 0, 2, 0, 0, 0, 0]" ) );
	kcc_level_rule rules[] = { { NULL, NULL, NULL, "collides", KCC_LEVEL_SOLID },
							   { "Ground", NULL, NULL, NULL, KCC_LEVEL_ZONE } };
	world w = load( json, rules, 2 );
	kcc_level_def def = kcc_default_level_def();
	cpShape* box = space_shape_at( w.space, 1.0, 1.5 );
	assert_shape_box( box, 0.0, 1.0, 2.0, 2.0, 1e-12 );
	assert_int_equal( cpShapeGetFilter( box ).categories, def.solid_category );
	cpShape* zone = space_shape_at( w.space, 3.5, 1.5 );
	assert_true( cpShapeGetSensor( zone ) );
	assert_int_equal( cpShapeGetFilter( zone ).categories, def.zone_category );
	unload( &w );
}

#define OBJECTS( name, props, objects )                                                                               \
	"{\"type\":\"objectgroup\",\"name\":\"" name "\"," props "\"objects\":[" objects "]}"

// Spawns named, not classed, as many maps have them (a spawn by name built in, and by a rule); an object class
// kcc2d does not know; first match wins.
static void test_rules_for_objects( void** state )
{
	(void)state;
	const char* json = MAP( OBJECTS( "Objects", "",
									 "{\"id\":1,\"name\":\"Spawn Point\",\"point\":true,\"x\":8,\"y\":8},"
									 "{\"id\":2,\"name\":\"water\",\"type\":\"liquid\",\"x\":16,\"y\":0,\"width\":16,"
									 "\"height\":16},"
									 "{\"id\":3,\"name\":\"wall\",\"x\":32,\"y\":0,\"width\":16,\"height\":16,"
									 "\"properties\":[{\"name\":\"collides\",\"type\":\"bool\",\"value\":true}]}" ) );
	world w = load( json, NULL, 0 );
	// An object without a class named like a spawn is one (a position, never a solid box).
	assert_int_equal( kcc_level_find_object( w.level, "Spawn Point" )->kind, KCC_LEVEL_SPAWN );
	assert_int_equal( kcc_level_find_object( w.level, "water" )->kind, KCC_LEVEL_OTHER );
	assert_warning( w.level, "maps/r.tmj: layer 'Objects', object 2 'water': class 'liquid' is known to no rule",
					"(at layers[0].objects[1])" );
	unload( &w );

	kcc_level_rule rules[] = { { NULL, NULL, "Spawn Point", NULL, KCC_LEVEL_SPAWN },
							   { "Objects", "liquid", NULL, NULL, KCC_LEVEL_ZONE },
							   { NULL, NULL, NULL, "collides", KCC_LEVEL_ONE_WAY },
							   { NULL, NULL, "wall", NULL, KCC_LEVEL_CRATE } };
	w = load( json, rules, 4 );
	assert_ptr_equal( kcc_level_find( w.level, KCC_LEVEL_SPAWN, NULL ), kcc_level_find_object( w.level, "Spawn Point" ) );
	const kcc_level_object* water = kcc_level_find_object( w.level, "water" );
	assert_int_equal( water->kind, KCC_LEVEL_ZONE );
	assert_true( cpShapeGetSensor( water->shapes[0] ) );
	assert_int_equal( kcc_level_find_object( w.level, "wall" )->kind, KCC_LEVEL_ONE_WAY ); // the earlier rule
	assert_int_equal( kcc_level_warning_count( w.level ), 0 );
	unload( &w );
}

// A rule giving a shape kind to a point object fails, naming the rule.
static void test_a_rule_that_needs_a_shape( void** state )
{
	(void)state;
	const char* json = MAP( OBJECTS( "Objects", "", "{\"id\":4,\"name\":\"p\",\"point\":true,\"x\":8,\"y\":8}" ) );
	kcc_level_rule rules[] = { { NULL, NULL, "q", NULL, KCC_LEVEL_ZONE }, { NULL, NULL, "p", NULL, KCC_LEVEL_SOLID } };
	kcc_level_def def = kcc_default_level_def();
	def.rules = rules;
	def.rule_count = 2;
	cpSpace* space = cpSpaceNew();
	kcc_level* level = NULL;
	kcc_level_error error;
	assert_int_equal( kcc_level_load_memory( space, json, strlen( json ), "r.tmj", &def, &level, &error ),
					  KCC_LEVEL_ERROR_INVALID );
	assert_non_null( strstr( error.message, "r.tmj: layer 'Objects', object 4 'p': rule 1 (kind solid) needs a shape" ) );
	assert_int_equal( space_shape_count( space ), 0 );
	cpSpaceFree( space );
}

// Hidden object layers hold helpers: their objects without a class make no shape, unless the layer says
// collision = true; objects with a class keep it.
static void test_hidden_object_layers( void** state )
{
	(void)state;
	const char* json = MAP( OBJECTS( "helpers", "\"visible\":false,",
									 "{\"id\":1,\"name\":\"line\",\"x\":0,\"y\":16,\"polyline\":[{\"x\":0,\"y\":0},{"
									 "\"x\":32,\"y\":0}]},"
									 "{\"id\":2,\"name\":\"box\",\"x\":32,\"y\":0,\"width\":16,\"height\":16},"
									 "{\"id\":3,\"name\":\"lava\",\"type\":\"zone\",\"x\":48,\"y\":0,\"width\":16,"
									 "\"height\":16}" ) "," OBJECTS( "forced",
																	 "\"visible\":false,\"properties\":[{\"name\":"
																	 "\"collision\",\"type\":\"bool\",\"value\":true}],",
																	 "{\"id\":4,\"name\":\"floor\",\"x\":0,\"y\":24,"
																	 "\"width\":16,\"height\":8}" ) );
	world w = load( json, NULL, 0 );
	assert_int_equal( kcc_level_find_object( w.level, "line" )->kind, KCC_LEVEL_OTHER );
	assert_int_equal( kcc_level_find_object( w.level, "box" )->kind, KCC_LEVEL_OTHER );
	assert_int_equal( kcc_level_find_object( w.level, "lava" )->kind, KCC_LEVEL_ZONE );
	assert_int_equal( kcc_level_find_object( w.level, "floor" )->kind, KCC_LEVEL_SOLID );
	assert_int_equal( kcc_level_get_info( w.level ).shape_count, 2 );
	unload( &w );
}

// An object wholly outside the map is warned about; one touching the map's edge is not.
static void test_an_object_outside_the_map( void** state )
{
	(void)state;
	const char* json = MAP( OBJECTS( "Objects", "",
									 "{\"id\":5,\"name\":\"lost\",\"x\":100,\"y\":0,\"width\":16,\"height\":16},"
									 "{\"id\":6,\"name\":\"edge\",\"x\":64,\"y\":0,\"width\":16,\"height\":16}" ) );
	world w = load( json, NULL, 0 );
	assert_int_equal( kcc_level_warning_count( w.level ), 1 );
	assert_warning( w.level, "maps/r.tmj: layer 'Objects', object 5 'lost': the object is outside the map",
					"misses (0, 0) to (4, 2)" );
	unload( &w );
}

static void test_bad_rules_are_refused( void** state )
{
	(void)state;
	const char* json = MAP( TILES( "World", "", "[0, 0, 0, 0, 0, 0, 0, 0]" ) );
	kcc_level_rule bad[] = { { NULL, NULL, NULL, NULL, (kcc_level_object_kind)9 } };
	kcc_level_def def = kcc_default_level_def();
	cpSpace* space = cpSpaceNew();
	kcc_level* level = NULL;
	kcc_level_error error;
	def.rule_count = -1;
	assert_int_equal( kcc_level_load_memory( space, json, strlen( json ), "r.tmj", &def, &level, &error ),
					  KCC_LEVEL_ERROR_ARGUMENT );
	def.rule_count = 1;
	assert_int_equal( kcc_level_load_memory( space, json, strlen( json ), "r.tmj", &def, &level, &error ),
					  KCC_LEVEL_ERROR_ARGUMENT );
	assert_non_null( strstr( error.message, "rules" ) );
	def.rules = bad;
	assert_int_equal( kcc_level_load_memory( space, json, strlen( json ), "r.tmj", &def, &level, &error ),
					  KCC_LEVEL_ERROR_ARGUMENT );
	assert_non_null( strstr( error.message, "kind" ) );
	assert_null( level );
	assert_int_equal( kcc_level_warning_count( NULL ), 0 );
	assert_null( kcc_level_get_warning( NULL, 0 ) );
	cpSpaceFree( space );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_a_rule_makes_a_tile_class_one_way ),
		cmocka_unit_test( test_a_solid_layer_keeps_one_way_tiles ),
		cmocka_unit_test( test_rules_choose_the_colliding_layer ),
		cmocka_unit_test( test_rules_by_property_and_zone_tiles ),
		cmocka_unit_test( test_rules_for_objects ),
		cmocka_unit_test( test_a_rule_that_needs_a_shape ),
		cmocka_unit_test( test_hidden_object_layers ),
		cmocka_unit_test( test_an_object_outside_the_map ),
		cmocka_unit_test( test_bad_rules_are_refused ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
