// SPDX-License-Identifier: MIT
// One level in every format the loader reads (tests/levels/formats, written by make_formats.py the way Tiled writes
// each): the JSON map with its .tsj tileset and .tj template, and TMX maps with CSV, base64, base64 with zlib, gzip
// and zstd, and <tile> elements, with a .tsx tileset and a .tx template; an infinite map's chunks in JSON and TMX.
// Each must make exactly the same Chipmunk shapes and the same objects (names, classes, kinds, boxes, properties)
// as the JSON map. A shape is compared by everything Chipmunk's public API tells of it, every double with all its
// digits: its body, filter and sensor flag, bounding box, area, centre of gravity and the point query's distance
// and closest point at probes around it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

#define MAX_LINES 256

typedef struct lines
{
	char* items[MAX_LINES];
	int count;
} lines;

static void add_line( lines* out, const char* format, ... )
{
	assert_true( out->count < MAX_LINES );
	char buffer[2048];
	va_list args;
	va_start( args, format );
	vsnprintf( buffer, sizeof( buffer ), format, args );
	va_end( args );
	out->items[out->count] = malloc( strlen( buffer ) + 1 );
	assert_non_null( out->items[out->count] );
	strcpy( out->items[out->count++], buffer );
}

static void describe_shape( cpShape* shape, void* data )
{
	lines* out = data;
	cpBody* body = cpShapeGetBody( shape );
	cpVect at = cpBodyGetPosition( body );
	cpShapeFilter filter = cpShapeGetFilter( shape );
	cpBB bb = cpShapeGetBB( shape );
	cpVect cog = cpShapeGetCenterOfGravity( shape );
	char probes[1200];
	int used = 0;
	for ( int i = 0; i < 8; ++i )
	{
		double angle = 0.4 + i * 0.785;
		cpVect p = cpv( 0.5 * ( bb.l + bb.r ) + 3.0 * cos( angle ), 0.5 * ( bb.b + bb.t ) + 3.0 * sin( angle ) );
		cpPointQueryInfo info;
		double d = cpShapePointQuery( shape, p, &info );
		used += snprintf( probes + used, sizeof( probes ) - (size_t)used, " %.17g@(%.17g,%.17g)", d, info.point.x,
						  info.point.y );
	}
	add_line( out, "body %d (%.17g, %.17g) cat %llu sensor %d bb %.17g %.17g %.17g %.17g area %.17g cog %.17g %.17g%s",
			  (int)cpBodyGetType( body ), at.x, at.y, (unsigned long long)filter.categories,
			  (int)cpShapeGetSensor( shape ), bb.l, bb.b, bb.r, bb.t, cpShapeGetArea( shape ), cog.x, cog.y, probes );
}

static void describe_objects( const kcc_level* level, lines* out )
{
	for ( int i = 0; i < kcc_level_object_count( level ); ++i )
	{
		const kcc_level_object* o = kcc_level_get_object( level, i );
		add_line( out, "object %d '%s' class '%s' layer '%s' kind %d at (%.9g, %.9g) box %.9g %.9g %.9g %.9g shapes %d",
				  o->id, o->name, o->class_name, o->layer_name, (int)o->kind, o->position.x, o->position.y,
				  o->bounds.min.x, o->bounds.min.y, o->bounds.max.x, o->bounds.max.y, o->shape_count );
		for ( int k = 0; k < o->property_count; ++k )
		{
			const kcc_level_property* p = o->properties + k;
			add_line( out, "  property '%s' type %d '%s' %.17g %d", p->name, (int)p->type, p->string, p->number,
					  (int)p->boolean );
		}
	}
	for ( int i = 0; i < kcc_level_platform_count( level ); ++i )
	{
		const kcc_level_platform* p = kcc_level_get_platform( level, i );
		add_line( out, "platform '%s' path '%s' points %d length %.9g speed %.9g mode %d", p->object->name,
				  p->path->name, p->point_count, p->length, p->speed, (int)p->mode );
	}
	for ( int i = 0; i < kcc_level_warning_count( level ); ++i )
	{
		// The file name differs between formats: compare what follows it.
		const char* w = kcc_level_get_warning( level, i );
		const char* rest = strstr( w, ": " );
		add_line( out, "warning %s", rest != NULL ? rest : w );
	}
}

static int compare_lines( const void* a, const void* b )
{
	return strcmp( *(char* const*)a, *(char* const*)b );
}

// Everything a load made, as sorted lines (the shapes in any order, the objects in the map's order).
static lines load_lines( const char* name, kcc_level_info* info )
{
	cpSpace* space = cpSpaceNew();
	kcc_level* level = level_load( space, name, NULL );
	lines shapes, objects;
	memset( &shapes, 0, sizeof( shapes ) );
	memset( &objects, 0, sizeof( objects ) );
	cpSpaceEachShape( space, describe_shape, &shapes );
	qsort( shapes.items, (size_t)shapes.count, sizeof( char* ), compare_lines );
	describe_objects( level, &objects );
	for ( int i = 0; i < objects.count; ++i )
	{
		add_line( &shapes, "%s", objects.items[i] );
		free( objects.items[i] );
	}
	*info = kcc_level_get_info( level );
	kcc_level_destroy( level );
	cpSpaceFree( space );
	return shapes;
}

static void free_lines( lines* l )
{
	for ( int i = 0; i < l->count; ++i )
	{
		free( l->items[i] );
	}
	l->count = 0;
}

static void assert_same( const char* reference, const char* other )
{
	kcc_level_info a, b;
	lines expected = load_lines( reference, &a );
	lines got = load_lines( other, &b );
	for ( int i = 0; i < expected.count && i < got.count; ++i )
	{
		if ( strcmp( expected.items[i], got.items[i] ) != 0 )
		{
			fprintf( stderr, "%s line %d:\n  %s\n%s:\n  %s\n", reference, i, expected.items[i], other, got.items[i] );
			fail();
		}
	}
	assert_int_equal( expected.count, got.count );
	assert_memory_equal( &a, &b, sizeof( a ) );
	free_lines( &expected );
	free_lines( &got );
}

// The reference itself: what the level is, so that a comparison of two empty loads cannot pass.
static void test_the_json_map_loads_everything( void** state )
{
	(void)state;
	kcc_level_info info;
	lines l = load_lines( "formats/eq_map.tmj", &info );
	// ground: floor row merged, 4 one-way cells merged, slope, half tile, circle tile, wall cell; float: half tile
	assert_int_equal( info.tile_count, 12 + 4 + 4 + 1 );
	assert_int_equal( info.object_count, 12 );
	assert_int_equal( info.body_count, 2 ); // the lift and the crate
	assert_true( info.shape_count > 15 );
	bool class_property = false, multi_line = false, crate_mass = false;
	for ( int i = 0; i < l.count; ++i )
	{
		class_property = class_property || strstr( l.items[i], "property 'damage' type 5 '{\"amount\":5}'" ) != NULL;
		multi_line = multi_line || strstr( l.items[i], "property 'note' type 0 'two\nlines'" ) != NULL;
		crate_mass = crate_mass || strstr( l.items[i], "property 'mass' type 2 '' 3.5" ) != NULL;
	}
	assert_true( class_property && multi_line && crate_mass );
	free_lines( &l );
}

static void test_tmx_csv( void** state )
{
	(void)state;
	assert_same( "formats/eq_map.tmj", "formats/eq_csv.tmx" );
}

static void test_tmx_base64( void** state )
{
	(void)state;
	assert_same( "formats/eq_map.tmj", "formats/eq_base64.tmx" );
}

static void test_tmx_zlib( void** state )
{
	(void)state;
	assert_same( "formats/eq_map.tmj", "formats/eq_zlib.tmx" );
}

static void test_tmx_gzip( void** state )
{
	(void)state;
	assert_same( "formats/eq_map.tmj", "formats/eq_gzip.tmx" );
}

static void test_tmx_zstd( void** state )
{
	(void)state;
	assert_same( "formats/eq_map.tmj", "formats/eq_zstd.tmx" );
}

static void test_tmx_tile_elements( void** state )
{
	(void)state;
	assert_same( "formats/eq_map.tmj", "formats/eq_xml.tmx" );
}

// Tilesets and templates in either format, whatever the map's: the JSON map with the .tsx and the .tx.
static void test_json_map_with_xml_tileset_and_template( void** state )
{
	(void)state;
	assert_same( "formats/eq_map.tmj", "formats/eq_map_xml_refs.tmj" );
}

static void test_infinite_chunks( void** state )
{
	(void)state;
	kcc_level_info info;
	lines l = load_lines( "formats/eq_infinite.tmj", &info );
	assert_int_equal( info.tile_count, 2 * 16 + 2 );
	free_lines( &l );
	assert_same( "formats/eq_infinite.tmj", "formats/eq_infinite_csv.tmx" );
	assert_same( "formats/eq_infinite.tmj", "formats/eq_infinite_zstd.tmx" );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_the_json_map_loads_everything ),
		cmocka_unit_test( test_tmx_csv ),
		cmocka_unit_test( test_tmx_base64 ),
		cmocka_unit_test( test_tmx_zlib ),
		cmocka_unit_test( test_tmx_gzip ),
		cmocka_unit_test( test_tmx_zstd ),
		cmocka_unit_test( test_tmx_tile_elements ),
		cmocka_unit_test( test_json_map_with_xml_tileset_and_template ),
		cmocka_unit_test( test_infinite_chunks ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
