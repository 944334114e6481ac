// SPDX-License-Identifier: MIT
// Real maps as they ship (tests/levels/third_party, origins and licences in its README), loaded with rules only,
// never edited: Tiled's Sticker Knight example (TMX, an image-collection .tsx, .tx templates, tile objects, a hidden
// bounds layer, collision by layer) and LDtk's sample projects (levels saved apart in .ldtkl files; IntGrid walls).
// Each loads without a warning once its rules are given, and a character run on it lands and never overlaps.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

static kcc_testkit* open_with( const char* map, const char* rules, float ppu, const char* spawn, const char* level )
{
	kcc_testkit_def def = kcc_default_testkit_def();
	def.map_path = level_path( map );
	def.rules = rules;
	def.level.pixels_per_unit = ppu;
	def.level.ldtk_level = level;
	def.spawn = spawn;
	kcc_testkit_error error;
	kcc_testkit* t = kcc_testkit_create( &def, &error );
	if ( t == NULL )
	{
		fprintf( stderr, "%s\n", error.message );
	}
	assert_non_null( t );
	const kcc_level* l = kcc_testkit_get_level( t );
	for ( int i = 0; i < kcc_level_warning_count( l ); ++i )
	{
		fprintf( stderr, "warning: %s\n", kcc_level_get_warning( l, i ) );
	}
	assert_int_equal( kcc_level_warning_count( l ), 0 );
	return t;
}

static void assert_never_overlapped( const kcc_testkit* t )
{
	assert_int_equal( kcc_testkit_flags_seen( t ) & ( KCC_DEPENETRATED | KCC_CRUSHED ), 0 );
}

// Its conventions: the layers ground and castle collide (tile objects with no collision shapes of their own: their
// rectangles), the hidden layer bounds holds the side walls, coins and the exit are zones, the hero is where the
// player starts; everything else is scenery. The hero is 160 pixels tall: 128 pixels a unit make it 1.25.
static const char* s_sticker_rules = "layer=ground: solid\nlayer=castle: solid\nlayer=bounds: solid\n"
									 "class=coin: zone\nclass=exit: zone\nclass=hero: spawn\n: other\n";

static void test_sticker_knight( void** state )
{
	(void)state;
	kcc_testkit* t = open_with( "third_party/sticker-knight/sandbox.tmx", s_sticker_rules, 128.0f, NULL, NULL );
	const kcc_level* level = kcc_testkit_get_level( t );
	kcc_level_info info = kcc_level_get_info( level );
	assert_int_equal( info.object_count, 114 );
	assert_int_equal( info.tile_count, 0 );
	assert_true( info.shape_count > 40 );
	assert_string_equal( kcc_level_find( level, KCC_LEVEL_SPAWN, NULL )->name, "hero" );
	assert_int_equal( kcc_level_find_object( level, "hero" )->id, 58 ); // a template instance
	testkit_script( t, "wait 1\nrun right 3\njump\nrun right 1" );
	assert_int_equal( kcc_testkit_count_events( t, KCC_EVENT_LAND, NULL ), 2 );
	assert_true( kcc_testkit_count_events( t, KCC_EVENT_ZONE_BEGIN, NULL ) >= 1 ); // a coin on the way
	assert_true( kcc_testkit_on_floor( t ) );
	assert_never_overlapped( t );
	kcc_testkit_destroy( t );
}

// Three levels, each in its own .ldtkl file beside the project; IntGrid value 1 is "walls".
static void test_ldtk_levels_saved_apart( void** state )
{
	(void)state;
	const char* levels[] = { "World_Level_0", "World_Level_1", "World_Level_2" };
	for ( int i = 0; i < 3; ++i )
	{
		kcc_testkit* t = open_with( "third_party/ldtk/SeparateLevelFiles.ldtk", "class=walls: solid", 0.0f, "@8,12",
									levels[i] );
		assert_string_equal( kcc_level_get_map_property( kcc_testkit_get_level( t ), "ldtk_level" )->string, levels[i] );
		assert_true( kcc_level_get_info( kcc_testkit_get_level( t ) ).tile_count > 0 );
		testkit_script( t, "wait 1" );
		assert_string_equal( kcc_testkit_get_floor_name( t ), "IntGrid" );
		assert_never_overlapped( t );
		kcc_testkit_destroy( t );
	}
}

static void test_ldtk_auto_layers( void** state )
{
	(void)state;
	kcc_testkit* t = open_with( "third_party/ldtk/AutoLayers_2_stamps.ldtk", "class=walls: solid", 0.0f, "@10,10",
								NULL );
	testkit_script( t, "wait 1\nrun right 0.25" );
	assert_true( kcc_testkit_on_floor( t ) );
	assert_never_overlapped( t );
	kcc_testkit_destroy( t );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_sticker_knight ),
		cmocka_unit_test( test_ldtk_levels_saved_apart ),
		cmocka_unit_test( test_ldtk_auto_layers ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
