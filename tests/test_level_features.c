// SPDX-License-Identifier: MIT
// The Tiled loader on tests/levels/features.tmj, a map with one of every feature, checked in the cpSpace it builds
// through Chipmunk's own queries (which shapes contain a point, their boxes, filters, sensors, bodies):
// - units and the y flip: 16 px tiles, one tile = 1 world unit, the map's bottom-left at the origin;
// - tile collision from the solid property, a full-tile rectangle, the class solid, polygons, half tiles, an
//   ellipse tile (a circle), an external .tsj tileset; flips (horizontal, vertical, diagonal) of their shapes;
// - full tiles merged into boxes (a 40 x 2 floor from three different tiles, a 1 x 4 wall on it);
// - base64 data, a hidden layer (loaded, or skipped on request), collision = false, a one_way layer, a group
//   layer's offset, an image layer ignored;
// - objects: rectangles (rotated too), a concave polygon split into convex pieces, a polyline as segments, round
//   and long ellipses, one-way shapes, moving platforms on their paths, zones as sensors with their properties,
//   spawns, a crate on its own kinematic body, tile objects, points, text, unknown classes, a layer's class.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

typedef struct fixture
{
	cpSpace* space;
	kcc_level* level;
} fixture;

static int setup( void** state )
{
	fixture* f = calloc( 1, sizeof( fixture ) );
	f->space = cpSpaceNew();
	kcc_level_def def = kcc_default_level_def();
	kcc_level_error error;
	if ( kcc_level_load_file( f->space, level_path( "features.tmj" ), &def, &f->level, &error ) != KCC_LEVEL_OK )
	{
		fprintf( stderr, "%s\n", error.message );
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown( void** state )
{
	fixture* f = *state;
	kcc_level_destroy( f->level );
	cpSpaceFree( f->space );
	free( f );
	return 0;
}

static const char* name_at( fixture* f, double x, double y )
{
	return kcc_level_get_shape_name( f->level, space_shape_at( f->space, x, y ) );
}

static bool empty_at( fixture* f, double x, double y )
{
	return space_shapes_at( f->space, x, y ).count == 0;
}

static void test_map_units_and_counts( void** state )
{
	fixture* f = *state;
	vec2s size = kcc_level_get_size( f->level );
	assert_float_equal( size.x, 40.0f, 0.0f );
	assert_float_equal( size.y, 12.0f, 0.0f );
	assert_float_equal( kcc_level_get_pixels_per_unit( f->level ), 16.0f, 0.0f );
	vec2s tile = kcc_level_get_tile_size( f->level );
	assert_float_equal( tile.x, 1.0f, 0.0f );
	assert_float_equal( tile.y, 1.0f, 0.0f );
	kcc_level_info info = kcc_level_get_info( f->level );
	// ground 92 (80 floor, 4 wall, 8 others), base64 3, hidden 1, ledges 4, the group's 1
	assert_int_equal( info.tile_count, 101 );
	assert_int_equal( info.merged_tile_count, 93 );
	// floor, wall, 2 slopes, 3 half tiles, circle, L (2 pieces), one-way half, base64 row, hidden, ledges, group
	assert_int_equal( info.tile_shape_count, 15 );
	assert_int_equal( info.object_count, 24 );
	assert_int_equal( info.body_count, 3 );
	assert_int_equal( info.layer_count, 12 ); // the group and the image layer counted
	assert_int_equal( space_shape_count( f->space ), info.shape_count );
	assert_int_equal( space_body_count( f->space ), 3 );
	const kcc_level_property* title = kcc_level_get_map_property( f->level, "title" );
	assert_non_null( title );
	assert_string_equal( title->string, "features" );
	assert_int_equal( kcc_level_get_map_property( f->level, "gravity" )->type, KCC_PROPERTY_FLOAT );
	assert_null( kcc_level_get_map_property( f->level, "nothing" ) );
}

static void test_full_tiles_merge_into_boxes( void** state )
{
	fixture* f = *state;
	// The floor: rows of three different full tiles (solid property, full rectangle, class solid): one box.
	cpShape* floor = space_shape_at( f->space, 20.0, 1.0 );
	assert_shape_box( floor, 0.0, 0.0, 40.0, 2.0, 0.0 );
	assert_string_equal( kcc_level_get_shape_name( f->level, floor ), "ground" );
	assert_null( kcc_level_object_of_shape( f->level, floor ) );
	// The wall standing on it: its own 1 x 4 box (rows are merged only where the runs are the same).
	assert_shape_box( space_shape_at( f->space, 0.5, 4.0 ), 0.0, 2.0, 1.0, 6.0, 0.0 );
	assert_true( space_shape_at( f->space, 0.5, 1.0 ) == floor );
	assert_true( cpShapeGetFilter( floor ).categories == ( (cpBitmask)1 << 0 ) );
	assert_false( cpShapeGetSensor( floor ) );
}

static void test_tile_shapes_and_flips( void** state )
{
	fixture* f = *state;
	// Slope tile at column 4 rises to the right: (4, 2), (5, 3), (5, 2).
	assert_string_equal( name_at( f, 4.8, 2.5 ), "ground" );
	assert_true( empty_at( f, 4.2, 2.8 ) );
	// Flipped horizontally at column 6: rises to the left.
	assert_string_equal( name_at( f, 6.2, 2.5 ), "ground" );
	assert_true( empty_at( f, 6.8, 2.8 ) );
	// Half tile (bottom half) at column 8, flipped vertically (top half) at 9, diagonally (right half) at 10.
	assert_shape_box( space_shape_at( f->space, 8.5, 2.25 ), 8.0, 2.0, 9.0, 2.5, 1e-12 );
	assert_true( empty_at( f, 8.5, 2.75 ) );
	assert_shape_box( space_shape_at( f->space, 9.5, 2.75 ), 9.0, 2.5, 10.0, 3.0, 1e-12 );
	assert_shape_box( space_shape_at( f->space, 10.75, 2.5 ), 10.5, 2.0, 11.0, 3.0, 1e-12 );
	assert_true( empty_at( f, 10.25, 2.5 ) );
	// Ellipse tile (12 px round at 2 px from the corner): a circle of radius 0.375 at the tile's centre.
	cpShape* round = space_shape_at( f->space, 12.5, 2.5 );
	assert_float_equal( cpCircleShapeGetRadius( round ), 0.375, 1e-12 );
	assert_float_equal( cpCircleShapeGetOffset( round ).x, 12.5, 1e-12 );
	assert_float_equal( cpCircleShapeGetOffset( round ).y, 2.5, 1e-12 );
	// A tile without collision (decoration) makes nothing.
	assert_true( empty_at( f, 14.5, 2.5 ) );
	// The external tileset's L tile at (16, 3): top-left quarter and bottom half, its inner corner open.
	assert_string_equal( name_at( f, 16.25, 3.75 ), "ground" );
	assert_string_equal( name_at( f, 16.75, 3.25 ), "ground" );
	assert_true( empty_at( f, 16.75, 3.75 ) );
	// Its one-way tile (a collision object of class one_way): top half, in the one-way category.
	cpShape* one_way = space_shape_at( f->space, 18.5, 2.75 );
	assert_shape_box( one_way, 18.0, 2.5, 19.0, 3.0, 1e-12 );
	assert_true( cpShapeGetFilter( one_way ).categories == ( (cpBitmask)1 << 1 ) );
}

static void test_layer_kinds( void** state )
{
	fixture* f = *state;
	// base64 data: three full tiles, one box.
	cpShape* row = space_shape_at( f->space, 21.5, 4.5 );
	assert_shape_box( row, 20.0, 4.0, 23.0, 5.0, 0.0 );
	assert_string_equal( kcc_level_get_shape_name( f->level, row ), "base64 row" );
	// The hidden layer loads by default.
	assert_string_equal( name_at( f, 25.5, 2.5 ), "hidden" );
	// collision = false: nothing.
	assert_true( empty_at( f, 27.5, 2.5 ) );
	// one_way = true: decoration tiles become a one-way box (merged along the row only).
	cpShape* ledges = space_shape_at( f->space, 31.0, 5.5 );
	assert_shape_box( ledges, 30.0, 5.0, 34.0, 6.0, 0.0 );
	assert_true( cpShapeGetFilter( ledges ).categories == ( (cpBitmask)1 << 1 ) );
	// The group's offset (16, -8) px moves its layer's tile by (1, 0.5) units.
	cpShape* shifted = space_shape_at( f->space, 35.5, 3.0 );
	assert_shape_box( shifted, 35.0, 2.5, 36.0, 3.5, 0.0 );
	assert_string_equal( kcc_level_get_shape_name( f->level, shifted ), "shifted" );
	// An object layer in the group: the group's offset plus its own (0, 8) px, (1, 0) units in all.
	const kcc_level_object* box = kcc_level_find_object( f->level, "shifted box" );
	assert_non_null( box );
	assert_string_equal( box->layer_name, "shifted objects" );
	assert_shape_box( box->shapes[0], 37.0, 9.0, 38.0, 10.0, 0.0 );
}

static void test_hidden_layers_can_be_skipped( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level_def def = kcc_default_level_def();
	def.skip_invisible_layers = true;
	kcc_level* level = level_load( space, "features.tmj", &def );
	assert_int_equal( space_shapes_at( space, 25.5, 2.5 ).count, 0 );
	assert_int_equal( kcc_level_get_info( level ).tile_count, 100 );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

static const kcc_level_object* object( fixture* f, const char* name )
{
	const kcc_level_object* o = kcc_level_find_object( f->level, name );
	if ( o == NULL )
	{
		fprintf( stderr, "no object '%s'\n", name );
	}
	assert_non_null( o );
	return o;
}

static void test_static_objects( void** state )
{
	fixture* f = *state;
	const kcc_level_object* block = object( f, "block" );
	assert_int_equal( block->id, 20 );
	assert_int_equal( block->kind, KCC_LEVEL_SOLID );
	assert_string_equal( block->layer_name, "objects" );
	assert_int_equal( block->shape_count, 1 );
	assert_shape_box( block->shapes[0], 2.0, 5.0, 4.0, 6.0, 0.0 );
	assert_true( block->body == cpSpaceGetStaticBody( f->space ) );
	assert_float_equal( block->position.x, 3.0f, 0.0f );
	assert_float_equal( block->position.y, 5.5f, 0.0f );
	assert_true( kcc_level_object_of_shape( f->level, block->shapes[0] ) == block );
	// Rotated 30 degrees clockwise on screen about its top-left corner (6, 8): the far top corner goes down.
	const kcc_level_object* tilted = object( f, "tilted" );
	double c = cos( 30.0 * 3.14159265358979323846 / 180.0 );
	assert_shape_box( tilted->shapes[0], 6.0 - 0.5 * 0.5, 8.0 - 2.0 * 0.5 - 0.5 * c, 6.0 + 2.0 * c, 8.0, 1e-9 );
	// The concave polygon (an arch) in convex pieces of at most 8 points; its opening is empty.
	const kcc_level_object* cave = object( f, "cave" );
	assert_true( cave->shape_count >= 3 );
	for ( int i = 0; i < cave->shape_count; ++i )
	{
		assert_true( cpPolyShapeGetCount( cave->shapes[i] ) <= KCC_MAX_POLYGON_VERTICES );
	}
	assert_true( empty_at( f, 9.5, 8.5 ) );
	assert_string_equal( name_at( f, 8.5, 8.5 ), "cave" );
	assert_string_equal( name_at( f, 9.5, 9.5 ), "cave" );
	assert_string_equal( name_at( f, 10.5, 8.5 ), "cave" );
	// The polyline: one segment per edge.
	const kcc_level_object* rail = object( f, "rail" );
	assert_int_equal( rail->shape_count, 2 );
	assert_float_equal( cpSegmentShapeGetA( rail->shapes[0] ).x, 12.5, 1e-12 );
	assert_float_equal( cpSegmentShapeGetA( rail->shapes[0] ).y, 9.5, 1e-12 );
	assert_float_equal( cpSegmentShapeGetB( rail->shapes[1] ).x, 15.5, 1e-12 );
	assert_float_equal( cpSegmentShapeGetB( rail->shapes[1] ).y, 8.5, 1e-12 );
	// A round ellipse is a circle; a long one a 16-point polygon.
	const kcc_level_object* ball = object( f, "ball" );
	assert_float_equal( cpCircleShapeGetRadius( ball->shapes[0] ), 0.5, 1e-12 );
	assert_float_equal( cpCircleShapeGetOffset( ball->shapes[0] ).x, 16.5, 1e-12 );
	const kcc_level_object* egg = object( f, "egg" );
	assert_int_equal( cpPolyShapeGetCount( egg->shapes[0] ), 16 );
	assert_shape_box( egg->shapes[0], 18.0, 9.0, 20.0, 10.0, 1e-12 );
	// One-way: class one_way, and the layer whose class is one_way.
	const kcc_level_object* ledge = object( f, "ledge" );
	assert_int_equal( ledge->kind, KCC_LEVEL_ONE_WAY );
	assert_true( cpShapeGetFilter( ledge->shapes[0] ).categories == ( (cpBitmask)1 << 1 ) );
	const kcc_level_object* shelf = object( f, "shelf" );
	assert_int_equal( shelf->kind, KCC_LEVEL_ONE_WAY );
	assert_string_equal( shelf->class_name, "one_way" );
	// A tile object: the tile's collision (the slope) where the object is drawn (bottom-left anchor).
	const kcc_level_object* slope = object( f, "slope object" );
	assert_int_equal( slope->kind, KCC_LEVEL_SOLID );
	assert_int_equal( slope->shape_count, 1 );
	assert_shape_box( slope->shapes[0], 35.0, 1.0, 36.0, 2.0, 1e-12 );
	assert_int_equal( cpPolyShapeGetCount( slope->shapes[0] ), 3 );
}

static void test_objects_without_shapes( void** state )
{
	fixture* f = *state;
	const char* names[] = { "marker", "label", "goblin", "flower", "note box" };
	for ( size_t i = 0; i < sizeof( names ) / sizeof( names[0] ); ++i )
	{
		const kcc_level_object* o = object( f, names[i] );
		assert_int_equal( o->kind, KCC_LEVEL_OTHER );
		assert_int_equal( o->shape_count, 0 );
	}
	const kcc_level_object* marker = object( f, "marker" );
	assert_float_equal( marker->position.x, 37.5f, 0.0f );
	assert_float_equal( marker->position.y, 10.75f, 0.0f );
	const kcc_level_object* goblin = object( f, "goblin" );
	assert_string_equal( goblin->class_name, "enemy" );
	assert_int_equal( (int)kcc_level_get_object_property( goblin, "hp" )->number, 3 );
	// Two spawns: a point (its position) and a rectangle (its centre and bounds).
	const kcc_level_object* start = kcc_level_find( f->level, KCC_LEVEL_SPAWN, NULL );
	assert_string_equal( start->name, "start" );
	assert_float_equal( start->position.x, 1.5f, 0.0f );
	assert_float_equal( start->position.y, 2.0f, 0.0f );
	const kcc_level_object* alt = kcc_level_find( f->level, KCC_LEVEL_SPAWN, "alt" );
	assert_float_equal( alt->position.x, 4.0f, 0.0f );
	assert_float_equal( alt->position.y, 2.5f, 0.0f );
	assert_float_equal( alt->bounds.min.y, 2.0f, 0.0f );
	assert_null( kcc_level_find( f->level, KCC_LEVEL_SPAWN, "marker" ) );
}

static void test_zones( void** state )
{
	fixture* f = *state;
	const kcc_level_object* cp = object( f, "checkpoint" );
	assert_int_equal( cp->kind, KCC_LEVEL_ZONE );
	assert_int_equal( cp->shape_count, 1 );
	assert_true( cpShapeGetSensor( cp->shapes[0] ) );
	assert_true( cpShapeGetFilter( cp->shapes[0] ).categories == ( (cpBitmask)1 << 3 ) );
	assert_shape_box( cp->shapes[0], 32.0, 2.0, 33.0, 5.0, 0.0 );
	assert_int_equal( cp->property_count, 7 );
	const kcc_level_property* p = kcc_level_get_object_property( cp, "id" );
	assert_int_equal( p->type, KCC_PROPERTY_STRING );
	assert_string_equal( p->string, "cp1" );
	p = kcc_level_get_object_property( cp, "order" );
	assert_int_equal( p->type, KCC_PROPERTY_INT );
	assert_float_equal( p->number, 2.0, 0.0 );
	p = kcc_level_get_object_property( cp, "slow" );
	assert_int_equal( p->type, KCC_PROPERTY_FLOAT );
	assert_float_equal( p->number, 0.5, 0.0 );
	p = kcc_level_get_object_property( cp, "active" );
	assert_int_equal( p->type, KCC_PROPERTY_BOOL );
	assert_true( p->boolean );
	assert_string_equal( kcc_level_get_object_property( cp, "tint" )->string, "#ff00ff00" );
	assert_string_equal( kcc_level_get_object_property( cp, "sound" )->string, "ding.wav" );
	p = kcc_level_get_object_property( cp, "target" );
	assert_int_equal( p->type, KCC_PROPERTY_OBJECT );
	assert_float_equal( p->number, 32.0, 0.0 );
	// A concave zone: several sensors, all of it; its notch is outside.
	const kcc_level_object* water = object( f, "water" );
	assert_true( water->shape_count >= 3 );
	for ( int i = 0; i < water->shape_count; ++i )
	{
		assert_true( cpShapeGetSensor( water->shapes[i] ) );
	}
	assert_string_equal( name_at( f, 36.5, 8.25 ), "water" );
	assert_string_equal( name_at( f, 39.5, 8.25 ), "water" );
	assert_string_equal( name_at( f, 38.0, 7.25 ), "water" );
	assert_true( empty_at( f, 38.0, 8.25 ) );
}

static void test_platforms_and_crates( void** state )
{
	fixture* f = *state;
	assert_int_equal( kcc_level_platform_count( f->level ), 2 );
	const kcc_level_platform* lift = kcc_level_find_platform( f->level, "lift" );
	assert_non_null( lift );
	assert_true( kcc_level_get_platform( f->level, 0 ) == lift );
	assert_int_equal( cpBodyGetType( lift->body ), CP_BODY_TYPE_KINEMATIC );
	assert_true( lift->object->body == lift->body );
	assert_string_equal( lift->path->name, "lift path" );
	assert_int_equal( lift->path->kind, KCC_LEVEL_PATH );
	assert_int_equal( lift->path->shape_count, 0 );
	assert_int_equal( lift->mode, KCC_PATH_PING_PONG );
	assert_float_equal( lift->speed, 2.0f, 0.0f );
	assert_float_equal( lift->length, 4.0f, 0.0f );
	assert_int_equal( lift->point_count, 2 );
	assert_float_equal( lift->start.x, 25.0f, 0.0f );
	assert_float_equal( lift->start.y, 3.75f, 0.0f );
	assert_shape_box( lift->object->shapes[0], 24.0, 3.5, 26.0, 4.0, 1e-12 );
	assert_true( cpShapeGetFilter( lift->object->shapes[0] ).categories == ( (cpBitmask)1 << 0 ) );
	const kcc_level_platform* carousel = kcc_level_get_platform( f->level, 1 );
	assert_string_equal( carousel->object->name, "carousel" );
	assert_int_equal( carousel->mode, KCC_PATH_LOOP );
	assert_int_equal( carousel->point_count, 5 ); // a closed path repeats its first point
	assert_float_equal( carousel->length, 8.0f, 0.0f );
	assert_float_equal( carousel->speed, 3.0f, 0.0f );
	assert_true( cpShapeGetFilter( carousel->object->shapes[0] ).categories == ( (cpBitmask)1 << 1 ) );
	const kcc_level_object* crate = object( f, "crate" );
	assert_int_equal( crate->kind, KCC_LEVEL_CRATE );
	assert_int_equal( cpBodyGetType( crate->body ), CP_BODY_TYPE_KINEMATIC );
	assert_true( cpShapeGetFilter( crate->shapes[0] ).categories == ( (cpBitmask)1 << 2 ) );
	assert_shape_box( crate->shapes[0], 5.0, 2.0, 6.0, 3.0, 1e-12 );
	assert_float_equal( cpBodyGetPosition( crate->body ).x, 5.5, 0.0 );
	assert_float_equal( cpBodyGetPosition( crate->body ).y, 2.5, 0.0 );
}

static void test_categories_follow_the_def( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level_def def = kcc_default_level_def();
	def.solid_category = 1u << 4;
	def.one_way_category = 1u << 5;
	def.pushable_category = 1u << 6;
	def.zone_category = 1u << 7;
	def.pixels_per_unit = 32.0f; // one tile = half a unit
	kcc_level* level = level_load( space, "features.tmj", &def );
	assert_true( cpShapeGetFilter( space_shape_at( space, 10.0, 0.5 ) ).categories == ( 1u << 4 ) );
	const kcc_level_object* ledge = kcc_level_find_object( level, "ledge" );
	assert_true( cpShapeGetFilter( ledge->shapes[0] ).categories == ( 1u << 5 ) );
	assert_shape_box( ledge->shapes[0], 10.0, 3.25, 11.5, 3.5, 0.0 );
	assert_true( cpShapeGetFilter( kcc_level_find_object( level, "crate" )->shapes[0] ).categories == ( 1u << 6 ) );
	assert_true( cpShapeGetFilter( kcc_level_find_object( level, "checkpoint" )->shapes[0] ).categories == ( 1u << 7 ) );
	assert_float_equal( kcc_level_get_size( level ).x, 20.0f, 0.0f );
	assert_float_equal( kcc_level_get_tile_size( level ).y, 0.5f, 0.0f );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

static void test_merging_can_be_turned_off( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level_def def = kcc_default_level_def();
	def.merge_tiles = false;
	kcc_level* level = level_load( space, "features.tmj", &def );
	kcc_level_info info = kcc_level_get_info( level );
	assert_int_equal( info.merged_tile_count, 0 );
	assert_int_equal( info.tile_shape_count, 15 - 6 + 93 ); // every full tile its own box
	assert_shape_box( space_shape_at( space, 20.5, 1.5 ), 20.0, 1.0, 21.0, 2.0, 0.0 );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

static void test_both_encodings_build_the_same_world( void** state )
{
	(void)state;
	cpSpace* a = cpSpaceNew();
	cpSpace* b = cpSpaceNew();
	kcc_level* csv = level_load( a, "small_csv.tmj", NULL );
	kcc_level* b64 = level_load( b, "small_base64.tmj", NULL );
	assert_int_equal( kcc_level_get_info( csv ).shape_count, kcc_level_get_info( b64 ).shape_count );
	assert_int_equal( kcc_level_get_info( csv ).shape_count, 5 );
	// Sample both worlds on a fine grid: the same shapes contain the same points.
	for ( int i = 0; i <= 60; ++i )
	{
		for ( int j = 0; j <= 40; ++j )
		{
			double x = 0.05 + 0.1 * i - 0.05 * ( i == 60 ), y = 0.05 + 0.1 * j - 0.05 * ( j == 40 );
			assert_int_equal( space_shapes_at( a, x, y ).count, space_shapes_at( b, x, y ).count );
		}
	}
	kcc_level_destroy( csv );
	kcc_level_destroy( b64 );
	cpSpaceFree( a );
	cpSpaceFree( b );
}

static void test_infinite_map_chunks_merge( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level* level = level_load( space, "infinite.tmj", NULL );
	// Two 16 x 16 chunks side by side (x from -16 to 16): their bottom rows are one 32-wide box.
	cpShape* floor = space_shape_at( space, 0.0, 0.5 );
	assert_shape_box( floor, -16.0, 0.0, 16.0, 1.0, 0.0 );
	assert_shape_box( space_shape_at( space, 0.5, 1.5 ), 0.0, 1.0, 1.0, 2.0, 0.0 );
	assert_int_equal( kcc_level_get_info( level ).shape_count, 2 );
	const kcc_level_object* start = kcc_level_find( level, KCC_LEVEL_SPAWN, "start" );
	assert_float_equal( start->position.x, -12.5f, 0.0f );
	assert_float_equal( start->position.y, 1.0f, 0.0f );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

static void test_destroy_leaves_the_space_as_it_was( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	cpShape* own = cpSpaceAddShape( space, cpCircleShapeNew( cpSpaceGetStaticBody( space ), 1.0, cpv( 0, 0 ) ) );
	kcc_level* level = level_load( space, "features.tmj", NULL );
	assert_int_equal( space_shape_count( space ), 1 + kcc_level_get_info( level ).shape_count );
	kcc_level_destroy( level );
	assert_int_equal( space_shape_count( space ), 1 );
	assert_int_equal( space_body_count( space ), 0 );
	kcc_level_destroy( NULL );
	cpSpaceRemoveShape( space, own );
	cpShapeFree( own );
	cpSpaceFree( space );
}

static void test_loads_are_deterministic( void** state )
{
	(void)state;
	// Two loads of the same map give the same shapes in the same order (Chipmunk numbers them as they are added).
	cpSpace* a = cpSpaceNew();
	cpSpace* b = cpSpaceNew();
	kcc_level* la = level_load( a, "features.tmj", NULL );
	kcc_level* lb = level_load( b, "features.tmj", NULL );
	for ( int i = 0; i < kcc_level_object_count( la ); ++i )
	{
		const kcc_level_object* x = kcc_level_get_object( la, i );
		const kcc_level_object* y = kcc_level_get_object( lb, i );
		assert_int_equal( x->shape_count, y->shape_count );
		assert_memory_equal( &x->bounds, &y->bounds, sizeof( x->bounds ) );
		for ( int k = 0; k < x->shape_count; ++k )
		{
			cpBB p = cpShapeGetBB( x->shapes[k] ), q = cpShapeGetBB( y->shapes[k] );
			assert_memory_equal( &p, &q, sizeof( p ) );
		}
	}
	kcc_level_destroy( la );
	kcc_level_destroy( lb );
	cpSpaceFree( a );
	cpSpaceFree( b );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_map_units_and_counts ),
		cmocka_unit_test( test_full_tiles_merge_into_boxes ),
		cmocka_unit_test( test_tile_shapes_and_flips ),
		cmocka_unit_test( test_layer_kinds ),
		cmocka_unit_test( test_hidden_layers_can_be_skipped ),
		cmocka_unit_test( test_static_objects ),
		cmocka_unit_test( test_objects_without_shapes ),
		cmocka_unit_test( test_zones ),
		cmocka_unit_test( test_platforms_and_crates ),
		cmocka_unit_test( test_categories_follow_the_def ),
		cmocka_unit_test( test_merging_can_be_turned_off ),
		cmocka_unit_test( test_both_encodings_build_the_same_world ),
		cmocka_unit_test( test_infinite_map_chunks_merge ),
		cmocka_unit_test( test_destroy_leaves_the_space_as_it_was ),
		cmocka_unit_test( test_loads_are_deterministic ),
	};
	return cmocka_run_group_tests_name( "level features", tests, setup, teardown );
}
