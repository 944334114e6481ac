// SPDX-License-Identifier: MIT
// Fuzz target for the Tiled loader (libFuzzer with clang; tests/fuzz_driver.c feeds it with GCC). The first byte
// picks how the input is used: as the map's JSON text itself (an input starting with '{', such as the seed maps of
// tests/levels, or the rest of one starting with a byte below 32), or as choices for a map written from Tiled's
// grammar (tilesets embedded and external, tile layers in CSV, base64 and chunks, object layers with every shape
// and class, groups, properties, paths, template instances) with extreme numbers and occasional damage (cut short,
// a byte changed).
// What is checked: fuzz_level_check.h (shared with the TMX and LDtk targets).
#include "fuzz_level_check.h"
#include "fuzz_level_text.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The libFuzzer entry point (also called by fuzz_driver.c).
int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );

// A number as JSON text: mostly ordinary pixel values, sometimes the edges.
static void put_number( writer* w, reader* r )
{
	static const char* edges[] = { "0",   "-0",   "1",   "-1",       "0.5",        "16",    "1e-300",    "1e300",
								   "1e999", "-1e999", "3e38", "4294967295", "2147483648", "-16.25", "1e6",  "123456789" };
	uint8_t mode = next( r );
	if ( mode < 200 )
	{
		put( w, "%d", (int)( next( r ) % 96 ) - 16 );
	}
	else if ( mode < 230 )
	{
		put( w, "%s", edges[next( r ) % ( sizeof( edges ) / sizeof( edges[0] ) )] );
	}
	else
	{
		put( w, "%d.%d", (int)( next( r ) % 64 ), (int)next( r ) );
	}
}

static void put_points( writer* w, reader* r, const char* key )
{
	int n = next( r ) % 9;
	put( w, ",\"%s\":[", key );
	for ( int i = 0; i < n; ++i )
	{
		put( w, "%s{\"x\":", i > 0 ? "," : "" );
		put_number( w, r );
		put( w, ",\"y\":" );
		put_number( w, r );
		put( w, "}" );
	}
	put( w, "]" );
}

static void put_properties( writer* w, reader* r )
{
	static const char* names[] = { "solid", "one_way", "collision", "path", "speed", "mode", "x", "class" };
	static const char* types[] = { "bool", "int", "float", "string", "object", "color", "file", "class" };
	int n = next( r ) % 4;
	if ( n == 0 )
	{
		return;
	}
	put( w, ",\"properties\":[" );
	for ( int i = 0; i < n; ++i )
	{
		int type = next( r ) % 8;
		bool foreign = next( r ) % 32 == 31; // a type Tiled does not have
		put( w, "%s{\"name\":\"%s\",\"type\":\"%s\",\"value\":", i > 0 ? "," : "", names[next( r ) % 8],
			 foreign ? "vector" : types[type] );
		// Mostly a value of the declared type, sometimes any value.
		int value = next( r ) % 8 == 0 ? next( r ) % 4 : type == 0 ? 0 : type == 3 || type == 5 || type == 6 ? 1 : type == 7 ? 2 : 3;
		switch ( value )
		{
			case 0:
				put( w, "%s", next( r ) & 1 ? "true" : "false" );
				break;
			case 1:
				put( w, "\"%s\"", next( r ) & 1 ? "loop" : "ping_pong" );
				break;
			case 2:
				put( w, "{\"a\":1}" );
				break;
			default:
				put_number( w, r );
				break;
		}
		put( w, "}" );
	}
	put( w, "]" );
}

static void put_object( writer* w, reader* r, int id )
{
	static const char* classes[] = { "", "", "", "solid", "one_way", "platform", "zone", "spawn", "crate", "path", "enemy" };
	put( w, "{\"id\":%d,\"name\":\"o%d\",\"%s\":\"%s\",\"x\":", id, id, next( r ) & 1 ? "class" : "type",
		 classes[next( r ) % ( sizeof( classes ) / sizeof( classes[0] ) )] );
	put_number( w, r );
	put( w, ",\"y\":" );
	put_number( w, r );
	put( w, ",\"width\":" );
	put_number( w, r );
	put( w, ",\"height\":" );
	put_number( w, r );
	put( w, ",\"rotation\":" );
	put_number( w, r );
	switch ( next( r ) % 8 )
	{
		case 0:
			put_points( w, r, "polygon" );
			break;
		case 1:
			put_points( w, r, "polyline" );
			break;
		case 2:
			put( w, ",\"ellipse\":true" );
			break;
		case 3:
			put( w, ",\"point\":true" );
			break;
		case 4:
			put( w, ",\"gid\":%u", (unsigned)next( r ) % 6 | ( (unsigned)( next( r ) & 0xf0 ) << 24 ) );
			break;
		case 5:
			put( w, ",\"text\":{\"text\":\"hi\"}" );
			break;
		default:
			break; // a rectangle
	}
	put_properties( w, r );
	if ( next( r ) % 16 == 15 )
	{
		put( w, ",\"template\":\"%s\"", next( r ) % 4 == 0 ? "t.tx" : "t.tj" ); // an instance of fuzz/t.tj
	}
	put( w, "}" );
}

static void put_tileset_body( writer* w, reader* r )
{
	put( w, "\"name\":\"t\",\"tilewidth\":%d,\"tileheight\":%d,\"tilecount\":%d", 16 - ( next( r ) % 4 == 0 ) * 8,
		 16 - ( next( r ) % 4 == 0 ) * 8, (int)( next( r ) % 6 ) - ( next( r ) % 16 == 0 ) );
	int tiles = next( r ) % 4;
	put( w, ",\"tiles\":[" );
	for ( int i = 0; i < tiles; ++i )
	{
		put( w, "%s{\"id\":%d", i > 0 ? "," : "", (int)( next( r ) % 6 ) );
		put_properties( w, r );
		if ( next( r ) & 1 )
		{
			put( w, ",\"objectgroup\":{\"type\":\"objectgroup\",\"objects\":[" );
			int n = next( r ) % 3;
			for ( int k = 0; k < n; ++k )
			{
				put( w, "%s", k > 0 ? "," : "" );
				put_object( w, r, k + 1 );
			}
			put( w, "]}" );
		}
		put( w, "}" );
	}
	put( w, "]" );
}

static void put_gids( writer* w, reader* r, int cells, bool base64 )
{
	if ( base64 )
	{
		static const char* blobs[] = { "AQAAAAEAAAABAAAAAQAAAA==", "AQAAAA==", "@@@@", "", "AAAAgAIAAEADAAAg" };
		put( w, ",\"encoding\":\"base64\",\"data\":\"%s\"", blobs[next( r ) % 5] );
		return;
	}
	int n = cells + ( next( r ) % 16 == 0 ? (int)( next( r ) % 3 ) - 1 : 0 );
	put( w, ",\"data\":[" );
	for ( int i = 0; i < n; ++i )
	{
		uint8_t v = next( r );
		unsigned gid = v < 128 ? 0u : ( v % 7 ) | ( (unsigned)( next( r ) & 0xe0 ) << 24 );
		put( w, "%s%u", i > 0 ? "," : "", gid );
	}
	put( w, "]" );
}

static void put_layer( writer* w, reader* r, int depth, int* next_id )
{
	int width = next( r ) % 6, height = next( r ) % 6;
	switch ( next( r ) % 5 )
	{
		case 0:
		case 1:
			put( w, "{\"type\":\"tilelayer\",\"name\":\"tiles\",\"width\":%d,\"height\":%d,\"offsetx\":", width, height );
			put_number( w, r );
			put_properties( w, r );
			if ( next( r ) % 6 == 0 )
			{
				put( w, ",\"chunks\":[{\"x\":%d,\"y\":%d,\"width\":2,\"height\":2", (int)( next( r ) % 5 ) - 2,
					 (int)( next( r ) % 5 ) - 2 );
				put_gids( w, r, 4, false );
				put( w, "}]" );
			}
			else
			{
				put_gids( w, r, width * height, next( r ) % 5 == 0 );
			}
			put( w, "}" );
			break;
		case 2:
		case 3:
		{
			put( w, "{\"type\":\"objectgroup\",\"name\":\"objects\",\"visible\":%s", next( r ) & 1 ? "true" : "false" );
			put_properties( w, r );
			put( w, ",\"objects\":[" );
			int n = next( r ) % 6;
			for ( int i = 0; i < n; ++i )
			{
				put( w, "%s", i > 0 ? "," : "" );
				// Ids repeat now and then: references to them must be resolved or refused, never guessed.
				put_object( w, r, next( r ) % 8 == 0 ? 1 : ( *next_id )++ );
			}
			put( w, "]}" );
			break;
		}
		default:
			if ( depth < 3 )
			{
				put( w, "{\"type\":\"group\",\"name\":\"g\",\"offsety\":-8,\"layers\":[" );
				put_layer( w, r, depth + 1, next_id );
				put( w, "]}" );
			}
			else
			{
				put( w, "{\"type\":\"imagelayer\",\"name\":\"i\"}" );
			}
			break;
	}
}

// The map (and, into tileset and template, an external tileset and an object template) written from the choices
// in r.
static void write_map( reader* r, writer* map, writer* tileset, writer* template_file )
{
	put( map, "{\"type\":\"map\",\"orientation\":\"%s\",\"width\":%d,\"height\":%d,\"tilewidth\":%d,\"tileheight\":%d",
		 next( r ) % 32 == 31 ? "isometric" : "orthogonal", next( r ) % 8, next( r ) % 8, 16 + ( next( r ) % 8 == 7 ) * 16,
		 16 - ( next( r ) % 32 == 31 ) * 16 );
	put_properties( map, r );
	put( map, ",\"tilesets\":[" );
	int sets = next( r ) % 3;
	for ( int i = 0; i < sets; ++i )
	{
		if ( next( r ) % 3 == 0 )
		{
			put( map, "%s{\"firstgid\":%d,\"source\":\"%s\"}", i > 0 ? "," : "", 1 + 3 * i,
				 next( r ) % 4 == 0 ? "ext.tsx" : "ext.tsj" );
		}
		else
		{
			put( map, "%s{\"firstgid\":%d,", i > 0 ? "," : "", 1 + 3 * i );
			put_tileset_body( map, r );
			put( map, "}" );
		}
	}
	put( map, "],\"layers\":[" );
	int layers = next( r ) % 4;
	int next_id = 1;
	for ( int i = 0; i < layers; ++i )
	{
		put( map, "%s", i > 0 ? "," : "" );
		put_layer( map, r, 0, &next_id );
	}
	put( map, "]}" );
	put( tileset, "{" );
	put_tileset_body( tileset, r );
	put( tileset, "}" );
	put( template_file, "{\"type\":\"template\",%s\"object\":",
		 next( r ) & 1 ? "\"tileset\":{\"firstgid\":1,\"source\":\"ext.tsj\"}," : "" );
	put_object( template_file, r, 0 );
	put( template_file, "}" );
	// Damage now and then: cut short, or one byte changed (an input that ran out reads 0s: no damage).
	uint8_t damage = next( r );
	if ( damage >= 240 && map->length > 0 )
	{
		map->length = (size_t)next( r ) * map->length / 256;
	}
	else if ( damage >= 224 && map->length > 0 )
	{
		map->text[( (size_t)next( r ) << 8 | next( r ) ) % map->length] = (char)next( r );
	}
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	static writer map, tileset, template_file;
	map.length = 0;
	tileset.length = 0;
	template_file.length = 0;
	reader r = { data, size, 0 };
	uint8_t mode = next( &r );
	const char* json;
	size_t json_size;
	if ( mode == '{' || mode < 32 )
	{
		size_t skip = mode == '{' ? 0 : 1; // the bytes themselves as the map's text
		json = (const char*)data + skip;
		json_size = size > skip ? size - skip : 0;
		put( &tileset, "{\"name\":\"e\",\"tilewidth\":8,\"tileheight\":8}" );
		put( &template_file, "{\"type\":\"template\",\"object\":{\"width\":8,\"height\":8}}" );
	}
	else
	{
		write_map( &r, &map, &tileset, &template_file );
		json = map.text;
		json_size = map.length;
	}
	fuzz_file files[] = { { "fuzz/ext.tsj", &tileset }, { "fuzz/t.tj", &template_file }, { NULL, NULL } };
	kcc_level_def def = kcc_default_level_def();
	def.read_file = fuzz_read_file;
	def.read_user = files;
	def.merge_tiles = ( mode & 1 ) == 0;
	def.skip_invisible_layers = ( mode & 2 ) != 0;
	def.max_cells = 1 << 16;

	fuzz_load_and_check( json, json_size, "fuzz/map.tmj", &def );
	return 0;
}
