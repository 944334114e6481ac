// SPDX-License-Identifier: MIT
// Hostile input to the loader, each case once a crash, a run without bound or a poor message: a read_file hook
// that says yes but gives no data, a tileset that never ends (/dev/zero), a million objects, an error inside an
// external tileset or template (named with the map and where the map refers to it), a platform speed of 1e300,
// JSON nested deeper than the parser's limit. Each gets its status and a message saying what, and the space stays
// as it was.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

#define HEAD "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":16,\"tileheight\":16,"

// Loads json as dir/m.tmj; checks the status, the message's substrings and that the space got nothing.
static void expect( const char* json, size_t size, const kcc_level_def* def, kcc_level_status status, const char* a,
					const char* b )
{
	cpSpace* space = cpSpaceNew();
	kcc_level* level = NULL;
	kcc_level_error error;
	kcc_level_status got = kcc_level_load_memory( space, json, size, "dir/m.tmj", def, &level, &error );
	bool ok = got == status && level == NULL && strstr( error.message, a ) != NULL &&
			  ( b == NULL || strstr( error.message, b ) != NULL );
	if ( ok == false )
	{
		fprintf( stderr, "status %d (expected %d): %s\n", got, status, error.message );
	}
	assert_true( ok );
	assert_int_equal( space_shape_count( space ), 0 );
	cpSpaceFree( space );
}

static bool yes_but_no_data( const char* path, void* user, char** data, size_t* size )
{
	(void)path, (void)user;
	*data = NULL;
	*size = 100;
	return true;
}

static void test_a_reader_that_gives_no_data( void** state )
{
	(void)state;
	const char* json = HEAD "\"tilesets\":[{\"firstgid\":1,\"source\":\"t.tsj\"}],\"layers\":[]}";
	kcc_level_def def = kcc_default_level_def();
	def.read_file = yes_but_no_data;
	expect( json, strlen( json ), &def, KCC_LEVEL_ERROR_IO,
			"dir/m.tmj: read_file returned true but no data for 'dir/t.tsj' (100 bytes)", "(at tilesets[0])" );
}

// A file that never ends stops at max_file_size, not at the reader's 1 GiB.
static void test_a_tileset_that_never_ends( void** state )
{
	(void)state;
	const char* json = HEAD "\"tilesets\":[{\"firstgid\":1,\"source\":\"/dev/zero\"}],\"layers\":[]}";
	kcc_level_def def = kcc_default_level_def();
	def.max_file_size = 1 << 20;
	expect( json, strlen( json ), &def, KCC_LEVEL_ERROR_LIMIT,
			"dir/m.tmj: file '/dev/zero' is larger than max_file_size (1048576 bytes)", "(at tilesets[0])" );
}

// Too many objects (a million took minutes to load) fail at once, before any is read.
static void test_a_million_objects( void** state )
{
	(void)state;
	const char* one = "{\"id\":1,\"x\":0,\"y\":0,\"width\":1,\"height\":1},";
	size_t n = 150000, size = strlen( HEAD ) + 200 + n * strlen( one );
	char* json = malloc( size );
	assert_non_null( json );
	size_t used = (size_t)snprintf( json, size, "%s\"layers\":[{\"type\":\"objectgroup\",\"name\":\"many\",\"objects\":[",
									HEAD );
	for ( size_t i = 0; i < n; ++i )
	{
		memcpy( json + used, one, strlen( one ) );
		used += strlen( one );
	}
	used -= 1; // the last comma
	used += (size_t)snprintf( json + used, size - used, "]}]}" );
	kcc_level_def def = kcc_default_level_def();
	assert_int_equal( def.max_objects, 100000 );
	expect( json, used, &def, KCC_LEVEL_ERROR_LIMIT,
			"dir/m.tmj: layer 'many': 150000 objects are more than max_objects (100000)", "(at layers[0].objects)" );
	free( json );
}

static bool read_broken( const char* path, void* user, char** data, size_t* size )
{
	(void)user;
	const char* text = NULL;
	if ( strcmp( path, "dir/broken.tsj" ) == 0 )
	{
		text = "{\"name\":\"broken\",\"tilewidth\":16,\"tileheight\":\"16\"}";
	}
	else if ( strcmp( path, "dir/broken.tj" ) == 0 )
	{
		text = "{\"type\":\"template\",\n\"object\":[]}";
	}
	if ( text == NULL )
	{
		return false;
	}
	*size = strlen( text );
	*data = malloc( *size );
	memcpy( *data, text, *size );
	return true;
}

// An error inside an external file names that file and the path in it, then the map and where it refers to it.
static void test_errors_in_external_files_name_the_map( void** state )
{
	(void)state;
	kcc_level_def def = kcc_default_level_def();
	def.read_file = read_broken;
	const char* tileset = HEAD "\"tilesets\":[{\"firstgid\":1,\"name\":\"a\",\"tilewidth\":16,\"tileheight\":16},"
							   "{\"firstgid\":5,\"source\":\"broken.tsj\"}],\"layers\":[]}";
	expect( tileset, strlen( tileset ), &def, KCC_LEVEL_ERROR_INVALID,
			"dir/broken.tsj: tileset 'broken': 'tileheight' must be a number (at tileheight)",
			"(in the tileset of dir/m.tmj at tilesets[1])" );
	const char* object = HEAD "\"layers\":[{\"type\":\"objectgroup\",\"name\":\"o\",\"objects\":[{\"id\":3,"
							  "\"template\":\"broken.tj\",\"x\":0,\"y\":0}]}]}";
	expect( object, strlen( object ), &def, KCC_LEVEL_ERROR_INVALID,
			"dir/broken.tj: layer 'o', object 3: a template must hold an 'object'",
			"(in the template of dir/m.tmj at layers[0].objects[0])" );
}

static void test_a_platform_far_too_fast( void** state )
{
	(void)state;
	const char* json = HEAD "\"layers\":[{\"type\":\"objectgroup\",\"name\":\"o\",\"objects\":["
							"{\"id\":1,\"name\":\"lift\",\"type\":\"platform\",\"x\":0,\"y\":0,\"width\":16,\"height\":4,"
							"\"properties\":[{\"name\":\"path\",\"type\":\"object\",\"value\":2},{\"name\":\"speed\","
							"\"type\":\"float\",\"value\":1e300}]},"
							"{\"id\":2,\"x\":0,\"y\":0,\"polyline\":[{\"x\":0,\"y\":0},{\"x\":16,\"y\":0}]}]}]}";
	expect( json, strlen( json ), NULL, KCC_LEVEL_ERROR_LIMIT,
			"object 1 'lift': property 'speed' is 1e+300: more than the largest platform speed", "1e+06" );
}

static void test_nesting_deeper_than_the_parser_reads( void** state )
{
	(void)state;
	size_t depth = 1200, size = strlen( HEAD ) + 2 * depth + 64;
	char* json = malloc( size );
	assert_non_null( json );
	size_t used = (size_t)snprintf( json, size, "%s\"layers\":[], \"properties\":", HEAD );
	memset( json + used, '[', depth );
	memset( json + used + depth, ']', depth );
	used += 2 * depth;
	json[used++] = '}';
	expect( json, used, NULL, KCC_LEVEL_ERROR_LIMIT, "dir/m.tmj: values nest deeper than 1000 levels", "line 1" );
	free( json );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_a_reader_that_gives_no_data ),
		cmocka_unit_test( test_a_tileset_that_never_ends ),
		cmocka_unit_test( test_a_million_objects ),
		cmocka_unit_test( test_errors_in_external_files_name_the_map ),
		cmocka_unit_test( test_a_platform_far_too_fast ),
		cmocka_unit_test( test_nesting_deeper_than_the_parser_reads ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
