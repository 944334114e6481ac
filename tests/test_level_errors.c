// SPDX-License-Identifier: MIT
// Malformed maps: each case gets the status it should, a message that names the file, the object (layer, object
// id and name, tile gid, tileset) and the JSON path, and leaves the space exactly as it was (a shape and a body
// the game had added stay, nothing of the map arrives). Also the arguments and defs the loader refuses, and the
// older JSON forms it accepts (tiles and properties as objects, Tiled < 1.2).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

#define HEAD "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":16,\"tileheight\":16,"
#define TILESET                                                                                                       \
	"\"tilesets\":[{\"firstgid\":1,\"name\":\"t\",\"tilewidth\":16,\"tileheight\":16,\"tilecount\":2,\"tiles\":[{"    \
	"\"id\":0,\"properties\":[{\"name\":\"solid\",\"type\":\"bool\",\"value\":true}]}]}]"
#define TILES( data ) "{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":2,\"height\":2,\"data\":" data "}"
#define OBJECTS( objects ) "{\"type\":\"objectgroup\",\"name\":\"things\",\"objects\":[" objects "]}"
#define MAP( layers ) HEAD TILESET ",\"layers\":[" layers "]}"

typedef struct error_case
{
	const char* json;
	kcc_level_status status;
	const char* expect[3]; // substrings of the message
} error_case;

static const error_case s_cases[] = {
	{ "{\"type\":\"map\",\n \"width\": 2,,}", KCC_LEVEL_ERROR_SYNTAX, { "not valid JSON at line 2, column", NULL } },
	{ "", KCC_LEVEL_ERROR_SYNTAX, { "empty", NULL } },
	{ "{} x", KCC_LEVEL_ERROR_SYNTAX, { "line 1, column 4", NULL } },
	{ "[1, 2]", KCC_LEVEL_ERROR_INVALID, { "a map must be a JSON object", NULL } },
	{ "{\"type\":\"map\",\"width\":2,\"height\":2,\"tileheight\":16,\"layers\":[]}", KCC_LEVEL_ERROR_INVALID,
	  { "'tilewidth' is missing", "(at tilewidth)" } },
	{ "{\"type\":\"map\",\"orientation\":\"isometric\",\"width\":2,\"height\":2,\"tilewidth\":16,\"tileheight\":16,"
	  "\"layers\":[]}",
	  KCC_LEVEL_ERROR_UNSUPPORTED, { "the map is isometric", NULL } },
	{ "{\"type\":\"tileset\",\"name\":\"t\",\"tilewidth\":16,\"tileheight\":16}", KCC_LEVEL_ERROR_INVALID,
	  { "is a Tiled tileset, not a map", NULL } },
	{ MAP( TILES( "[1, 1, 1]" ) ), KCC_LEVEL_ERROR_INVALID,
	  { "layer 'ground': tile data has 3 gids, expected 4", "(at layers[0].data)" } },
	{ MAP( TILES( "[0, 0, 0, 5]" ) ), KCC_LEVEL_ERROR_INVALID,
	  { "layer 'ground', cell (1, 1), gid 5: gid 5 is past the end of tileset 't'", "(at layers[0].data[3])" } },
	{ HEAD "\"layers\":[" TILES( "[0, 1, 0, 0]" ) "]}", KCC_LEVEL_ERROR_INVALID,
	  { "gid 1 is in no tileset (the map has no tilesets)", "cell (1, 0)" } },
	{ MAP( TILES( "[0, -1, 0, 0]" ) ), KCC_LEVEL_ERROR_INVALID, { "a gid must be a whole number", "data[1]" } },
	{ MAP( "{\"type\":\"tilelayer\",\"name\":\"z\",\"width\":2,\"height\":2,\"encoding\":\"base64\","
		   "\"compression\":\"zlib\",\"data\":\"eJxjYGBgAAAABAAB\"}" ),
	  KCC_LEVEL_ERROR_INVALID, { "layer 'z': zlib tile data holds less than the 16 bytes", "(at layers[0].data)" } },
	{ MAP( "{\"type\":\"tilelayer\",\"name\":\"z\",\"width\":2,\"height\":2,\"encoding\":\"base64\","
		   "\"compression\":\"zstd\",\"data\":\"AAAA\"}" ),
	  KCC_LEVEL_ERROR_INVALID, { "layer 'z': tile data is not valid zstd data", "(at layers[0].data)" } },
	{ MAP( "{\"type\":\"tilelayer\",\"name\":\"z\",\"width\":2,\"height\":2,\"encoding\":\"base64\","
		   "\"compression\":\"lzma\",\"data\":\"AAAA\"}" ),
	  KCC_LEVEL_ERROR_UNSUPPORTED, { "layer 'z': tile data compression 'lzma' is not zlib, gzip or zstd", NULL } },
	{ MAP( "{\"type\":\"tilelayer\",\"name\":\"c\",\"width\":2,\"height\":2,\"encoding\":\"csv\","
		   "\"data\":\"1,0,\\n0,x\"}" ),
	  KCC_LEVEL_ERROR_INVALID, { "layer 'c': CSV tile data: gid 3 is not a whole number", "(at layers[0].data)" } },
	{ MAP( "{\"type\":\"tilelayer\",\"name\":\"c\",\"width\":2,\"height\":2,\"encoding\":\"csv\","
		   "\"data\":\"1,0,0,0,1\"}" ),
	  KCC_LEVEL_ERROR_INVALID, { "CSV tile data has more than 4 gids", NULL } },
	{ MAP( "{\"type\":\"tilelayer\",\"name\":\"c\",\"width\":2,\"height\":2,\"encoding\":\"csv\","
		   "\"data\":\"1,0 0\"}" ),
	  KCC_LEVEL_ERROR_INVALID, { "CSV tile data: '0' after gid 1 is not a comma", NULL } },
	{ MAP( "{\"type\":\"tilelayer\",\"name\":\"z\",\"width\":2,\"height\":2,\"encoding\":\"xml\",\"data\":\"\"}" ),
	  KCC_LEVEL_ERROR_UNSUPPORTED, { "encoding 'xml' is not csv or base64", NULL } },
	{ MAP( "{\"type\":\"tilelayer\",\"name\":\"b\",\"width\":2,\"height\":2,\"encoding\":\"base64\",\"data\":\"@@@@\"}" ),
	  KCC_LEVEL_ERROR_INVALID, { "layer 'b': tile data is not valid base64", "(at layers[0].data)" } },
	{ MAP( "{\"type\":\"tilelayer\",\"name\":\"b\",\"width\":2,\"height\":2,\"encoding\":\"base64\",\"data\":\"AQAAAA==\"}" ),
	  KCC_LEVEL_ERROR_INVALID, { "holds 4 bytes, expected 16", NULL } },
	{ HEAD "\"tilesets\":[{\"firstgid\":1,\"source\":\"tiles.tsx\"}],\"layers\":[]}", KCC_LEVEL_ERROR_SYNTAX,
	  { "dir/tiles.tsx: not valid XML at line 2, column 3: mismatched tag", NULL } },
	{ HEAD "\"tilesets\":[{\"firstgid\":1,\"source\":\"number.tsx\"}],\"layers\":[]}", KCC_LEVEL_ERROR_INVALID,
	  { "dir/number.tsx: line 1: <tileset> attribute 'tilewidth' must be a number (is 'wide')", NULL } },
	{ HEAD "\"tilesets\":[{\"firstgid\":1,\"source\":\"missing.tsj\"}],\"layers\":[]}", KCC_LEVEL_ERROR_IO,
	  { "cannot read file 'dir/missing.tsj'", NULL } },
	{ HEAD "\"tilesets\":[{\"firstgid\":1,\"source\":\"xml.tsj\"}],\"layers\":[]}", KCC_LEVEL_ERROR_INVALID,
	  { "dir/xml.tsj: tileset '': 'tilewidth' is missing", NULL } },
	{ HEAD "\"tilesets\":[{\"firstgid\":1,\"source\":\"broken.tsj\"}],\"layers\":[]}", KCC_LEVEL_ERROR_INVALID,
	  { "dir/broken.tsj: tileset 'broken', tile 1, collision object 0: a polygon needs at least 3 points (has 2)",
		"(at tiles[0].objectgroup.objects[0].polygon)" } },
	{ HEAD "\"tilesets\":[{\"firstgid\":1,\"name\":\"a\",\"tilewidth\":16,\"tileheight\":16},{\"firstgid\":1,\"name\":"
		   "\"b\",\"tilewidth\":16,\"tileheight\":16}],\"layers\":[]}",
	  KCC_LEVEL_ERROR_INVALID, { "tilesets 'a' and 'b' have the same firstgid 1", NULL } },
	{ HEAD "\"tilesets\":[{\"firstgid\":1,\"name\":\"t\",\"tilewidth\":16,\"tileheight\":16,\"tiles\":[{\"id\":0},{"
		   "\"id\":0}]}],\"layers\":[]}",
	  KCC_LEVEL_ERROR_INVALID, { "tileset 't': tile 0 is listed twice", "(at tilesets[0].tiles[1])" } },
	{ HEAD "\"tilesets\":[{\"firstgid\":1,\"name\":\"t\",\"tilewidth\":16,\"tileheight\":16,\"tiles\":[{\"id\":0,"
		   "\"properties\":[{\"name\":\"solid\",\"type\":\"string\",\"value\":\"yes\"}]}]}],\"layers\":[]}",
	  KCC_LEVEL_ERROR_INVALID, { "tileset 't', tile 0: property 'solid' must be a bool", NULL } },
	{ MAP( OBJECTS( "{\"id\":7,\"name\":\"thing\",\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":5,\"y\":0}]}" ) ),
	  KCC_LEVEL_ERROR_INVALID,
	  { "bad.tmj: layer 'things', object 7 'thing': a polygon needs at least 3 points (has 2)",
		"(at layers[0].objects[0].polygon)" } },
	{ MAP( OBJECTS( "{\"id\":8,\"name\":\"bow\",\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":10,\"y\":10},"
					"{\"x\":10,\"y\":0},{\"x\":0,\"y\":10}]}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "object 8 'bow': polygon crosses or touches itself", "(at layers[0].objects[0])" } },
	{ MAP( OBJECTS( "{\"id\":3,\"name\":\"z\",\"type\":\"zone\",\"x\":0,\"y\":0,\"polyline\":[{\"x\":0,\"y\":0},{\"x\":5,"
					"\"y\":0}]}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "object 3 'z': class 'zone' needs an area (a polyline", NULL } },
	{ MAP( OBJECTS( "{\"id\":3,\"name\":\"lift\",\"class\":\"platform\",\"x\":0,\"y\":0,\"width\":16,\"height\":4}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "object 3 'lift': a platform needs a property 'path'", NULL } },
	{ MAP( OBJECTS( "{\"id\":3,\"name\":\"lift\",\"class\":\"platform\",\"x\":0,\"y\":0,\"width\":16,\"height\":4,"
					"\"properties\":[{\"name\":\"path\",\"type\":\"object\",\"value\":99},{\"name\":\"speed\",\"type\":"
					"\"float\",\"value\":2}]}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "refers to object 99, which is not in the map", NULL } },
	{ MAP( OBJECTS( "{\"id\":3,\"name\":\"lift\",\"class\":\"platform\",\"x\":0,\"y\":0,\"width\":16,\"height\":4,"
					"\"properties\":[{\"name\":\"path\",\"type\":\"object\",\"value\":4},{\"name\":\"speed\",\"type\":"
					"\"float\",\"value\":0}]},{\"id\":4,\"x\":0,\"y\":0,\"polyline\":[{\"x\":0,\"y\":0},{\"x\":5,\"y\":0}]}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "a platform needs a property 'speed'", NULL } },
	{ MAP( OBJECTS( "{\"id\":3,\"name\":\"lift\",\"class\":\"platform\",\"x\":0,\"y\":0,\"width\":16,\"height\":4,"
					"\"properties\":[{\"name\":\"path\",\"type\":\"object\",\"value\":4},{\"name\":\"speed\",\"type\":"
					"\"float\",\"value\":2}]},{\"id\":4,\"name\":\"o\",\"x\":0,\"y\":0,\"width\":8,\"height\":8,"
					"\"ellipse\":true}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "its path, object 4 'o', must be a polyline or polygon", NULL } },
	{ MAP( OBJECTS( "{\"id\":3,\"name\":\"lift\",\"class\":\"platform\",\"x\":0,\"y\":0,\"width\":16,\"height\":4,"
					"\"properties\":[{\"name\":\"path\",\"type\":\"object\",\"value\":4},{\"name\":\"speed\",\"type\":"
					"\"float\",\"value\":2},{\"name\":\"mode\",\"type\":\"string\",\"value\":\"bounce\"}]},{\"id\":4,"
					"\"x\":0,\"y\":0,\"polyline\":[{\"x\":0,\"y\":0},{\"x\":5,\"y\":0}]}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "property 'mode' must be the string loop or ping_pong", NULL } },
	{ MAP( OBJECTS( "{\"id\":3,\"name\":\"lift\",\"class\":\"platform\",\"x\":0,\"y\":0,\"width\":16,\"height\":4,"
					"\"properties\":[{\"name\":\"path\",\"type\":\"object\",\"value\":4},{\"name\":\"speed\",\"type\":"
					"\"float\",\"value\":2}]},{\"id\":4,\"x\":0,\"y\":0,\"polyline\":[{\"x\":0,\"y\":0},{\"x\":5,\"y\":0}]},"
					"{\"id\":4,\"x\":0,\"y\":0,\"polyline\":[{\"x\":0,\"y\":0},{\"x\":5,\"y\":0}]}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "refers to object 4, and two objects have that id", NULL } },
	{ MAP( OBJECTS( "{\"id\":5,\"name\":\"t\",\"template\":\"crate.tx\",\"x\":0,\"y\":0}" ) ), KCC_LEVEL_ERROR_INVALID,
	  { "dir/crate.tx: layer 'things', object 5: line 2: <object> attribute 'rotation' must be a number (is 'x')",
		NULL } },
	{ MAP( OBJECTS( "{\"id\":5,\"template\":\"gone.tj\",\"x\":0,\"y\":0}" ) ), KCC_LEVEL_ERROR_IO,
	  { "object 5: cannot read file 'dir/gone.tj'", "(at layers[0].objects[0])" } },
	{ MAP( OBJECTS( "{\"id\":5,\"template\":\"empty.tj\",\"x\":0,\"y\":0}" ) ), KCC_LEVEL_ERROR_INVALID,
	  { "dir/empty.tj: layer 'things', object 5: a template must hold an 'object'", NULL } },
	{ MAP( OBJECTS( "{\"id\":5,\"template\":\"sub/crate.tj\",\"x\":0,\"y\":0}" ) ), KCC_LEVEL_ERROR_INVALID,
	  { "object 5: template uses tileset '../tiles.tsj' (dir/tiles.tsj), which the map does not load", NULL } },
	{ MAP( OBJECTS( "{\"id\":5,\"name\":\"p\",\"class\":\"solid\",\"point\":true,\"x\":0,\"y\":0}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "object 5 'p': class 'solid' needs a shape", NULL } },
	{ MAP( OBJECTS( "{\"id\":5,\"x\":1e999,\"y\":0,\"width\":4,\"height\":4}" ) ), KCC_LEVEL_ERROR_INVALID,
	  { "'x' is not a finite number", "(at layers[0].objects[0].x)" } },
	{ MAP( OBJECTS( "{\"id\":5,\"x\":1e12,\"y\":0,\"width\":4,\"height\":4}" ) ), KCC_LEVEL_ERROR_LIMIT,
	  { "object 5: a point at", "beyond max_coordinate" } },
	{ MAP( OBJECTS( "{\"id\":5,\"x\":0,\"y\":0,\"width\":4,\"height\":4,\"properties\":[{\"name\":\"v\",\"type\":"
					"\"int\",\"value\":1.5}]}" ) ),
	  KCC_LEVEL_ERROR_INVALID,
	  { "object 5, property 'v': 'value' must be a whole number", "(at layers[0].objects[0].properties[0].value)" } },
	{ MAP( OBJECTS( "{\"id\":5,\"x\":0,\"y\":0,\"polygon\":[{\"x\":1,\"y\":1},{\"x\":1,\"y\":1},{\"x\":1,"
					"\"y\":1}]}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "object 5: polygon has no size (its points are all at one place)", NULL } },
	{ MAP( OBJECTS( "{\"id\":5,\"class\":\"zone\",\"x\":0,\"y\":0,\"width\":4,\"height\":0}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "object 5: class 'zone' needs an area (a polyline, or a rectangle of zero", NULL } },
	{ MAP( OBJECTS( "{\"id\":6,\"class\":\"zone\",\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":4,\"y\":4},{"
					"\"x\":8,\"y\":8}]}" ) ),
	  KCC_LEVEL_ERROR_INVALID, { "object 6: a zone needs an area: its polygon's points are on one line", NULL } },
	{ MAP( OBJECTS( "{\"id\":5,\"x\":0,\"y\":0,\"width\":4,\"height\":-4}" ) ), KCC_LEVEL_ERROR_INVALID,
	  { "width and height must not be negative", NULL } },
	{ MAP( "{\"type\":\"vectorlayer\",\"name\":\"v\"}" ), KCC_LEVEL_ERROR_INVALID,
	  { "layer 'v': layer type 'vectorlayer' is not", "(at layers[0])" } },
	{ MAP( "42" ), KCC_LEVEL_ERROR_INVALID, { "a layer must be an object", "(at layers[0])" } },
	{ MAP( "{\"type\":\"group\",\"name\":\"g\",\"layers\":[" TILES( "[1]" ) "]}" ), KCC_LEVEL_ERROR_INVALID,
	  { "layer 'g' > layer 'ground': tile data has 1 gids", "(at layers[0].layers[0].data)" } },
	{ HEAD TILESET ",\"layers\":[{\"type\":\"tilelayer\",\"name\":\"huge\",\"width\":5000,\"height\":5000,\"data\":[]}]}",
	  KCC_LEVEL_ERROR_LIMIT, { "layer 'huge': 5000 x 5000 cells is more than max_cells", NULL } },
};

// A file reader for the external tileset cases: the map is "dir/bad.tmj", so its tilesets are "dir/...".
static bool read_from_memory( const char* path, void* user, char** data, size_t* size )
{
	(void)user;
	static const struct
	{
		const char* path;
		const char* text;
	} files[] = {
		{ "dir/xml.tsj", "<?xml version=\"1.0\"?><tileset/>" },
		{ "dir/tiles.tsx", "<tileset name=\"t\" tilewidth=\"16\" tileheight=\"16\"><tile id=\"1\">\n</tileset>" },
		{ "dir/crate.tx", "<template>\n<object name=\"c\" width=\"16\" height=\"16\" rotation=\"x\"/></template>" },
		{ "dir/number.tsx", "<tileset name=\"t\" tilewidth=\"wide\" tileheight=\"16\"/>" },
		{ "dir/empty.tj", "{\"type\":\"template\"}" },
		{ "dir/box.tj", "{\"type\":\"template\",\"object\":{\"name\":\"box\",\"type\":\"solid\",\"width\":16,"
						"\"height\":16,\"properties\":[{\"name\":\"a\",\"type\":\"int\",\"value\":1},{\"name\":\"b\","
						"\"type\":\"int\",\"value\":2}]}}" },
		{ "dir/sub/crate.tj", "{\"type\":\"template\",\"tileset\":{\"firstgid\":1,\"source\":\"../tiles.tsj\"},"
							  "\"object\":{\"name\":\"crate\",\"gid\":2,\"width\":16,\"height\":16}}" },
		{ "dir/tiles.tsj", "{\"name\":\"tiles\",\"tilewidth\":16,\"tileheight\":16,\"tilecount\":2,\"tiles\":[{\"id\":1,"
						   "\"properties\":[{\"name\":\"solid\",\"type\":\"bool\",\"value\":true}]}]}" },
		{ "dir/broken.tsj", "{\"name\":\"broken\",\"tilewidth\":16,\"tileheight\":16,\"tiles\":[{\"id\":1,"
							"\"objectgroup\":{\"objects\":[{\"id\":1,\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},"
							"{\"x\":4,\"y\":4}]}]}}]}" },
	};
	for ( size_t i = 0; i < sizeof( files ) / sizeof( files[0] ); ++i )
	{
		if ( strcmp( path, files[i].path ) == 0 )
		{
			*size = strlen( files[i].text );
			*data = malloc( *size );
			memcpy( *data, files[i].text, *size );
			return true;
		}
	}
	return false;
}

// A space holding something of the game's already: a static shape and a kinematic body with a shape.
typedef struct world
{
	cpSpace* space;
	cpShape* ground;
	cpBody* mover;
	cpShape* mover_shape;
} world;

static world world_create( void )
{
	world w;
	w.space = cpSpaceNew();
	w.ground = cpSpaceAddShape( w.space, cpBoxShapeNew2( cpSpaceGetStaticBody( w.space ), cpBBNew( 0, 0, 4, 1 ), 0 ) );
	w.mover = cpSpaceAddBody( w.space, cpBodyNewKinematic() );
	w.mover_shape = cpSpaceAddShape( w.space, cpCircleShapeNew( w.mover, 0.5, cpvzero ) );
	return w;
}

static void world_assert_untouched( world* w )
{
	assert_int_equal( space_shape_count( w->space ), 2 );
	assert_int_equal( space_body_count( w->space ), 1 );
}

static void world_destroy( world* w )
{
	cpSpaceRemoveShape( w->space, w->ground );
	cpSpaceRemoveShape( w->space, w->mover_shape );
	cpSpaceRemoveBody( w->space, w->mover );
	cpShapeFree( w->ground );
	cpShapeFree( w->mover_shape );
	cpBodyFree( w->mover );
	cpSpaceFree( w->space );
}

static void test_each_malformed_map_is_refused_with_where( void** state )
{
	(void)state;
	kcc_level_def def = kcc_default_level_def();
	def.read_file = read_from_memory;
	for ( size_t i = 0; i < sizeof( s_cases ) / sizeof( s_cases[0] ); ++i )
	{
		const error_case* c = s_cases + i;
		world w = world_create();
		kcc_level* level = (kcc_level*)&w; // must come back NULL
		kcc_level_error error;
		kcc_level_status status = kcc_level_load_memory( w.space, c->json, strlen( c->json ), "dir/bad.tmj", &def,
														 &level, &error );
		bool ok = status == c->status && error.status == status && level == NULL;
		for ( int k = 0; k < 3 && c->expect[k] != NULL; ++k )
		{
			ok = ok && strstr( error.message, c->expect[k] ) != NULL;
		}
		// Every message starts with the file it is about.
		ok = ok && ( strncmp( error.message, "dir/bad.tmj: ", 13 ) == 0 || strncmp( error.message, "dir/", 4 ) == 0 );
		if ( ok == false )
		{
			fprintf( stderr, "case %zu: status %d (expected %d), message \"%s\"\n", i, status, c->status, error.message );
		}
		assert_true( ok );
		world_assert_untouched( &w );
		world_destroy( &w );
	}
}

static void test_a_map_with_nothing_loads( void** state )
{
	(void)state;
	world w = world_create();
	kcc_level* level = NULL;
	const char* json = HEAD "\"layers\":[]}";
	assert_int_equal( kcc_level_load_memory( w.space, json, strlen( json ), "empty.tmj", NULL, &level, NULL ),
					  KCC_LEVEL_OK );
	assert_int_equal( kcc_level_object_count( level ), 0 );
	assert_int_equal( kcc_level_get_info( level ).shape_count, 0 );
	kcc_level_destroy( level );
	world_assert_untouched( &w );
	world_destroy( &w );
}

static void test_limits_of_the_def( void** state )
{
	(void)state;
	world w = world_create();
	kcc_level_def def = kcc_default_level_def();
	def.max_polygon_points = 4;
	kcc_level* level = NULL;
	kcc_level_error error;
	const char* json = MAP( OBJECTS( "{\"id\":5,\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":4,\"y\":0},{\"x\":"
									 "4,\"y\":4},{\"x\":2,\"y\":6},{\"x\":0,\"y\":4}]}" ) );
	assert_int_equal( kcc_level_load_memory( w.space, json, strlen( json ), "m.tmj", &def, &level, &error ),
					  KCC_LEVEL_ERROR_LIMIT );
	assert_non_null( strstr( error.message, "a polygon of 5 points is more than max_polygon_points (4)" ) );
	def.max_polygon_points = 5;
	assert_int_equal( kcc_level_load_memory( w.space, json, strlen( json ), "m.tmj", &def, &level, &error ),
					  KCC_LEVEL_OK );
	kcc_level_destroy( level );
	def = kcc_default_level_def();
	def.max_coordinate = 0.5f; // the 2 x 2 map's tiles reach 2 units
	json = MAP( TILES( "[0, 0, 1, 1]" ) );
	assert_int_equal( kcc_level_load_memory( w.space, json, strlen( json ), "m.tmj", &def, &level, &error ),
					  KCC_LEVEL_ERROR_LIMIT );
	assert_non_null( strstr( error.message, "layer 'ground', cells (0, 1) to (1, 1): a point at" ) );
	world_assert_untouched( &w );
	world_destroy( &w );
}

static void test_bad_arguments_and_defs( void** state )
{
	(void)state;
	world w = world_create();
	kcc_level* level = NULL;
	kcc_level_error error;
	const char* json = HEAD "\"layers\":[]}";
	size_t n = strlen( json );
	assert_int_equal( kcc_level_load_memory( NULL, json, n, "m.tmj", NULL, &level, &error ), KCC_LEVEL_ERROR_ARGUMENT );
	assert_int_equal( kcc_level_load_memory( w.space, NULL, n, "m.tmj", NULL, &level, &error ), KCC_LEVEL_ERROR_ARGUMENT );
	assert_int_equal( kcc_level_load_memory( w.space, json, n, NULL, NULL, &level, &error ), KCC_LEVEL_ERROR_ARGUMENT );
	assert_int_equal( kcc_level_load_memory( w.space, json, n, "m.tmj", NULL, NULL, &error ), KCC_LEVEL_ERROR_ARGUMENT );
	assert_int_equal( kcc_level_load_file( w.space, NULL, NULL, &level, &error ), KCC_LEVEL_ERROR_ARGUMENT );
	kcc_level_def def;
	memset( &def, 0, sizeof( def ) );
	assert_int_equal( kcc_level_load_memory( w.space, json, n, "m.tmj", &def, &level, &error ), KCC_LEVEL_ERROR_ARGUMENT );
	assert_non_null( strstr( error.message, "kcc_default_level_def" ) );
	def = kcc_default_level_def();
	def.one_way_category = def.solid_category | 4u;
	assert_int_equal( kcc_level_load_memory( w.space, json, n, "m.tmj", &def, &level, &error ), KCC_LEVEL_ERROR_ARGUMENT );
	assert_non_null( strstr( error.message, "must not share bits" ) );
	def = kcc_default_level_def();
	def.pixels_per_unit = -1.0f;
	assert_int_equal( kcc_level_load_memory( w.space, json, n, "m.tmj", &def, &level, &error ), KCC_LEVEL_ERROR_ARGUMENT );
	def = kcc_default_level_def();
	def.zone_category = 0;
	assert_int_equal( kcc_level_load_memory( w.space, json, n, "m.tmj", &def, &level, &error ), KCC_LEVEL_ERROR_ARGUMENT );
	assert_null( level );
	assert_int_equal( kcc_level_load_file( w.space, level_path( "no such map.tmj" ), NULL, &level, &error ),
					  KCC_LEVEL_ERROR_IO );
	assert_non_null( strstr( error.message, "no such map.tmj: cannot read file" ) );
	// The error is optional.
	assert_int_equal( kcc_level_load_memory( w.space, "{", 1, "m.tmj", NULL, &level, NULL ), KCC_LEVEL_ERROR_SYNTAX );
	world_assert_untouched( &w );
	world_destroy( &w );
	for ( int s = KCC_LEVEL_ERROR_MEMORY; s <= KCC_LEVEL_OK; ++s )
	{
		assert_string_not_equal( kcc_level_status_string( (kcc_level_status)s ), "unknown status" );
	}
	assert_string_equal( kcc_level_status_string( (kcc_level_status)-100 ), "unknown status" );
}

typedef struct locked_load
{
	kcc_level_status status;
	kcc_level_error error;
} locked_load;

static void load_while_locked( cpShape* shape, void* data )
{
	locked_load* l = data;
	kcc_level* level = NULL;
	const char* json = HEAD "\"layers\":[]}";
	l->status = kcc_level_load_memory( cpShapeGetSpace( shape ), json, strlen( json ), "m.tmj", NULL, &level, &l->error );
}

static void test_a_locked_space_is_refused( void** state )
{
	(void)state;
	world w = world_create();
	locked_load l = { KCC_LEVEL_OK, { KCC_LEVEL_OK, "" } };
	// Chipmunk locks the space during its queries: a load from a query callback must not touch it.
	cpSpaceBBQuery( w.space, cpBBNew( 0, 0, 1, 1 ), CP_SHAPE_FILTER_ALL, load_while_locked, &l );
	assert_int_equal( l.status, KCC_LEVEL_ERROR_ARGUMENT );
	assert_non_null( strstr( l.error.message, "locked" ) );
	world_assert_untouched( &w );
	world_destroy( &w );
}

static void test_older_json_forms_load( void** state )
{
	(void)state;
	// Tiled < 1.2: tiles keyed by id, tile properties apart, properties as name -> value objects.
	const char* json =
		HEAD "\"properties\":{\"title\":\"old\",\"lives\":3},\"tilesets\":[{\"firstgid\":1,\"name\":\"old\","
			 "\"tilewidth\":16,\"tileheight\":16,\"tilecount\":4,\"tiles\":{\"1\":{\"objectgroup\":{\"objects\":[{\"id\":1,"
			 "\"x\":0,\"y\":8,\"width\":16,\"height\":8}]}}},\"tileproperties\":{\"0\":{\"solid\":true},\"3\":{\"one_way\":"
			 "true}}}],\"layers\":[" TILES( "[4, 0, 1, 2]" ) "]}";
	cpSpace* space = cpSpaceNew();
	kcc_level* level = NULL;
	kcc_level_error error;
	kcc_level_status status = kcc_level_load_memory( space, json, strlen( json ), "old.tmj", NULL, &level, &error );
	if ( status != KCC_LEVEL_OK )
	{
		fprintf( stderr, "%s\n", error.message );
	}
	assert_int_equal( status, KCC_LEVEL_OK );
	assert_string_equal( kcc_level_get_map_property( level, "title" )->string, "old" );
	assert_int_equal( kcc_level_get_map_property( level, "lives" )->type, KCC_PROPERTY_INT );
	// gid 1 (solid) at (0, 0) in the bottom row; gid 2 (a bottom half) at (1, 1); gid 4 (one-way) at the top left.
	assert_shape_box( space_shape_at( space, 0.5, 0.5 ), 0.0, 0.0, 1.0, 1.0, 0.0 );
	assert_shape_box( space_shape_at( space, 1.5, 0.25 ), 1.0, 0.0, 2.0, 0.5, 0.0 );
	cpShape* top = space_shape_at( space, 0.5, 1.5 );
	assert_true( cpShapeGetFilter( top ).categories == ( (cpBitmask)1 << 1 ) );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

// The shapes one tileset gives in the space: gid 1 (a bottom half, solid: false) top left, gid 2 (a bottom half)
// top right, gid 3 (no shape, one_way) bottom left.
static int tile_rule_shapes( const char* json, cpSpace* space )
{
	kcc_level* level = NULL;
	kcc_level_error error;
	kcc_level_status status = kcc_level_load_memory( space, json, strlen( json ), "rule.tmj", NULL, &level, &error );
	if ( status != KCC_LEVEL_OK )
	{
		fprintf( stderr, "%s\n", error.message );
	}
	assert_int_equal( status, KCC_LEVEL_OK );
	assert_int_equal( space_shapes_at( space, 0.5, 1.25 ).count, 0 );
	assert_shape_box( space_shape_at( space, 1.5, 1.25 ), 1.0, 1.0, 2.0, 1.5, 0.0 );
	cpShape* one_way = space_shape_at( space, 0.5, 0.5 );
	assert_true( cpShapeGetFilter( one_way ).categories == ( (cpBitmask)1 << 1 ) );
	int count = space_shape_count( space );
	kcc_level_destroy( level );
	return count;
}

static void test_tile_properties_mean_the_same_in_both_forms( void** state )
{
	(void)state;
	// solid = false turns a tile's collision off whatever shapes it has, whether the property sits in the tile
	// (Tiled >= 1.2) or in the older tileproperties beside the tiles.
#define HALF "{\"objectgroup\":{\"objects\":[{\"id\":1,\"x\":0,\"y\":8,\"width\":16,\"height\":8}]}"
#define SET_HEAD "\"tilesets\":[{\"firstgid\":1,\"name\":\"t\",\"tilewidth\":16,\"tileheight\":16,\"tilecount\":4,"
	const char* newer = HEAD SET_HEAD "\"tiles\":[" HALF ",\"id\":0,\"properties\":[{\"name\":\"solid\",\"type\":\"bool\","
							   "\"value\":false}]}," HALF ",\"id\":1},{\"id\":2,\"properties\":[{\"name\":\"one_way\","
							   "\"type\":\"bool\",\"value\":true}]}]}],\"layers\":[" TILES( "[1, 2, 3, 0]" ) "]}";
	const char* older = HEAD SET_HEAD "\"tiles\":{\"0\":" HALF "},\"1\":" HALF "}},\"tileproperties\":{\"0\":{"
							   "\"solid\":false},\"2\":{\"one_way\":true}}}],\"layers\":[" TILES( "[1, 2, 3, 0]" ) "]}";
#undef HALF
#undef SET_HEAD
	cpSpace* space = cpSpaceNew();
	assert_int_equal( tile_rule_shapes( newer, space ), 2 );
	assert_int_equal( tile_rule_shapes( older, space ), 2 );
	cpSpaceFree( space );
}

static void test_lenient_forms_load( void** state )
{
	(void)state;
	// What real maps hold that is not an error: a tile's collision rectangle of zero height (its top edge), a
	// polygon drawn on one line, a property type from a newer Tiled, a tilecount of 0 for an image of tiles, and
	// the tile property Phaser maps use for collision ("collides", through solid_property).
	const char* json =
		HEAD "\"tilesets\":[{\"firstgid\":1,\"name\":\"t\",\"tilewidth\":16,\"tileheight\":16,\"tilecount\":0,"
			 "\"image\":\"t.png\",\"imagewidth\":64,\"imageheight\":16,\"tiles\":[{\"id\":0,\"objectgroup\":{"
			 "\"objects\":[{\"id\":1,\"x\":0,\"y\":0,\"width\":16,\"height\":0}]}},{\"id\":3,\"properties\":[{"
			 "\"name\":\"collides\",\"type\":\"bool\",\"value\":true}]}]}],\"layers\":[" TILES( "[1, 0, 4, 4]" ) ","
		OBJECTS( "{\"id\":5,\"name\":\"line\",\"x\":0,\"y\":8,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":32,\"y\":0},"
				 "{\"x\":16,\"y\":0}],\"properties\":[{\"name\":\"tags\",\"type\":\"list\",\"value\":[\"a\",\"b\"]}]}" ) "]}";
	cpSpace* space = cpSpaceNew();
	kcc_level_def def = kcc_default_level_def();
	def.solid_property = "collides";
	kcc_level* level = NULL;
	kcc_level_error error;
	kcc_level_status status = kcc_level_load_memory( space, json, strlen( json ), "lenient.tmj", &def, &level, &error );
	if ( status != KCC_LEVEL_OK )
	{
		fprintf( stderr, "%s\n", error.message );
	}
	assert_int_equal( status, KCC_LEVEL_OK );
	// gid 1's collision is its top edge: a segment from (0, 2) to (1, 2).
	cpShape* edge = space_shape_at( space, 0.5, 2.0 );
	assert_float_equal( cpSegmentShapeGetA( edge ).y, 2.0, 0.0 );
	assert_float_equal( cpSegmentShapeGetB( edge ).x - cpSegmentShapeGetA( edge ).x, 1.0, 0.0 );
	// gid 4 (the image's fourth tile, "collides"): the bottom row, one box.
	assert_shape_box( space_shape_at( space, 1.0, 0.5 ), 0.0, 0.0, 2.0, 1.0, 0.0 );
	// The flat polygon: one segment from end to end (its middle point dropped, its far end kept).
	const kcc_level_object* line = kcc_level_find_object( level, "line" );
	assert_int_equal( line->shape_count, 1 );
	assert_float_equal( fabs( cpSegmentShapeGetB( line->shapes[0] ).x - cpSegmentShapeGetA( line->shapes[0] ).x ), 2.0, 0.0 );
	const kcc_level_property* tags = kcc_level_get_object_property( line, "tags" );
	assert_int_equal( tags->type, KCC_PROPERTY_OTHER );
	assert_string_equal( tags->string, "[\"a\",\"b\"]" );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

static void test_json_templates( void** state )
{
	(void)state;
	// A template's object with the instance's members over it (its properties merged by name), and a tile
	// template whose gid counts in its own tileset, moved to where the map loads that tileset (firstgid 5).
	const char* json =
		HEAD "\"tilesets\":[{\"firstgid\":5,\"source\":\"tiles.tsj\"}],\"layers\":[" OBJECTS(
			"{\"id\":1,\"template\":\"box.tj\",\"x\":16,\"y\":0,\"properties\":[{\"name\":\"b\",\"type\":\"int\","
			"\"value\":7}]},{\"id\":2,\"template\":\"sub/../sub/crate.tj\",\"x\":0,\"y\":32},{\"id\":3,"
			"\"template\":\"box.tj\",\"name\":\"other box\",\"x\":0,\"y\":0,\"width\":8}" ) "]}";
	cpSpace* space = cpSpaceNew();
	kcc_level_def def = kcc_default_level_def();
	def.read_file = read_from_memory;
	kcc_level* level = NULL;
	kcc_level_error error;
	kcc_level_status status = kcc_level_load_memory( space, json, strlen( json ), "dir/t.tmj", &def, &level, &error );
	if ( status != KCC_LEVEL_OK )
	{
		fprintf( stderr, "%s\n", error.message );
	}
	assert_int_equal( status, KCC_LEVEL_OK );
	const kcc_level_object* box = kcc_level_find_object( level, "box" );
	assert_non_null( box );
	assert_int_equal( box->id, 1 );
	assert_int_equal( box->kind, KCC_LEVEL_SOLID );
	assert_string_equal( box->class_name, "solid" );
	assert_shape_box( box->shapes[0], 1.0, 1.0, 2.0, 2.0, 0.0 );
	assert_float_equal( kcc_level_get_object_property( box, "a" )->number, 1.0, 0.0 );
	assert_float_equal( kcc_level_get_object_property( box, "b" )->number, 7.0, 0.0 );
	const kcc_level_object* crate = kcc_level_find_object( level, "crate" );
	assert_non_null( crate );
	assert_int_equal( crate->kind, KCC_LEVEL_SOLID ); // the tile (gid 6: tiles.tsj's tile 1) is solid
	assert_shape_box( crate->shapes[0], 0.0, 0.0, 1.0, 1.0, 0.0 );
	const kcc_level_object* other = kcc_level_find_object( level, "other box" );
	assert_non_null( other );
	assert_shape_box( other->shapes[0], 0.0, 1.0, 0.5, 2.0, 0.0 );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_each_malformed_map_is_refused_with_where ),
		cmocka_unit_test( test_a_map_with_nothing_loads ),
		cmocka_unit_test( test_limits_of_the_def ),
		cmocka_unit_test( test_bad_arguments_and_defs ),
		cmocka_unit_test( test_a_locked_space_is_refused ),
		cmocka_unit_test( test_older_json_forms_load ),
		cmocka_unit_test( test_tile_properties_mean_the_same_in_both_forms ),
		cmocka_unit_test( test_lenient_forms_load ),
		cmocka_unit_test( test_json_templates ),
	};
	return cmocka_run_group_tests_name( "level errors", tests, NULL, NULL );
}
