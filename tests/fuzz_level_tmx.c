// SPDX-License-Identifier: MIT
// Fuzz target for the Tiled XML reader (libFuzzer with clang; tests/fuzz_driver.c feeds it with GCC). The first
// byte picks how the input is used: as the TMX text itself (an input starting with '<', such as the seed maps of
// tests/levels/formats, or the rest of one starting with a byte below 32), or as choices for a map written from
// TMX's grammar: embedded and external (.tsx) tilesets with collision objects, tile layers as CSV, base64 and
// base64 compressed with zlib, gzip or zstd (compressed here), <tile> elements, infinite maps' chunks, object
// layers with every shape, text, properties (class values among them), template instances (.tx), groups nested
// up to past the reader's depth, with extreme numbers and occasional damage (cut short, a byte changed). The
// JSON reader's limits apply (max_cells, max_objects, max_file_size). What is checked: fuzz_level_check.h.
#include "fuzz_level_check.h"
#include "fuzz_level_text.h"

#include <zlib.h>
#include <zstd.h>

#include <stdarg.h>
#include <stdint.h>

/// The libFuzzer entry point (also called by fuzz_driver.c).
int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );

// A number attribute's text: mostly small whole numbers, sometimes extremes and things that are no number.
static const char* number( reader* r )
{
	static const char* odd[] = { "0", "-1", "1e308", "-1e308", "nan", "inf", "0.5", "abc", "", "1e-320",
								 "4294967295", "2147483648", "16777217", "-16", "1,2" };
	static char buffer[32];
	uint8_t b = next( r );
	if ( b < 200 )
	{
		snprintf( buffer, sizeof( buffer ), "%d", b % 40 );
		return buffer;
	}
	return odd[b % ( sizeof( odd ) / sizeof( odd[0] ) )];
}

static void put_properties( writer* w, reader* r )
{
	static const char* types[] = { "string", "int", "float", "bool", "color", "file", "object", "class", "newtype" };
	int n = next( r ) % 3;
	if ( n == 0 )
	{
		return;
	}
	put( w, "<properties>" );
	for ( int i = 0; i < n; ++i )
	{
		const char* type = types[next( r ) % ( sizeof( types ) / sizeof( types[0] ) )];
		static const char* names[] = { "solid", "one_way", "collision", "path", "speed", "mode", "note" };
		const char* name = names[next( r ) % ( sizeof( names ) / sizeof( names[0] ) )];
		if ( strcmp( type, "class" ) == 0 )
		{
			put( w, "<property name=\"%s\" type=\"class\"><properties><property name=\"a\" type=\"int\" value=\"%s\"/>"
					"</properties></property>",
				 name, number( r ) );
		}
		else if ( next( r ) % 4 == 0 )
		{
			put( w, "<property name=\"%s\" type=\"%s\">two\nlines</property>", name, type );
		}
		else
		{
			const char* value = strcmp( type, "bool" ) == 0 ? ( next( r ) % 3 == 0 ? "maybe" : "true" ) : number( r );
			put( w, "<property name=\"%s\" type=\"%s\" value=\"%s\"/>", name, type, value );
		}
	}
	put( w, "</properties>" );
}

static void put_object( writer* w, reader* r, int id, bool in_tile )
{
	static const char* classes[] = { "", "solid", "one_way", "platform", "zone", "spawn", "crate", "path", "enemy" };
	put( w, "<object id=\"%d\" name=\"o%d\" type=\"%s\" x=\"%s\"", id, id,
		 classes[next( r ) % ( sizeof( classes ) / sizeof( classes[0] ) )], number( r ) );
	put( w, " y=\"%s\" width=\"%s\"", number( r ), number( r ) );
	put( w, " height=\"%s\"", number( r ) );
	uint8_t shape = next( r ) % 9;
	if ( next( r ) % 4 == 0 )
	{
		put( w, " rotation=\"%s\"", number( r ) );
	}
	if ( in_tile == false && shape == 7 )
	{
		put( w, " gid=\"%s\"", number( r ) );
	}
	if ( in_tile == false && shape == 8 )
	{
		put( w, " template=\"t.tx\"" );
	}
	put( w, ">" );
	if ( shape == 1 )
	{
		put( w, "<ellipse/>" );
	}
	else if ( shape == 2 )
	{
		put( w, "<point/>" );
	}
	else if ( shape == 3 || shape == 4 )
	{
		put( w, "<%s points=\"", shape == 3 ? "polygon" : "polyline" );
		int n = next( r ) % 6;
		for ( int i = 0; i < n; ++i )
		{
			put( w, "%s%s,", i > 0 ? " " : "", number( r ) );
			put( w, "%s", number( r ) );
		}
		put( w, "\"/>" );
	}
	else if ( shape == 5 )
	{
		put( w, "<text wrap=\"1\">hello</text>" );
	}
	put_properties( w, r );
	put( w, "</object>" );
}

static void put_tileset_body( writer* w, reader* r )
{
	put( w, " tilewidth=\"%s\" tileheight=\"16\" tilecount=\"%s\">", next( r ) % 8 == 0 ? number( r ) : "16",
		 number( r ) );
	if ( next( r ) % 2 == 0 )
	{
		put( w, "<tileoffset x=\"%s\" y=\"0\"/>", number( r ) );
	}
	put( w, "<image source=\"t.png\" width=\"%s\" height=\"32\"/>", number( r ) );
	int tiles = next( r ) % 4;
	for ( int i = 0; i < tiles; ++i )
	{
		put( w, "<tile id=\"%s\" type=\"%s\">", number( r ), next( r ) % 2 == 0 ? "one_way" : "" );
		put_properties( w, r );
		if ( next( r ) % 2 == 0 )
		{
			put( w, "<objectgroup>" );
			put_object( w, r, i + 1, true );
			put( w, "</objectgroup>" );
		}
		put( w, "<animation><frame tileid=\"0\" duration=\"100\"/></animation></tile>" );
	}
	put( w, "</tileset>" );
}

// The gids of w x h cells in one of TMX's encodings (compressed here with zlib, gzip or zstd).
static void put_data_body( writer* w, reader* r, int cells, int encoding )
{
	uint32_t gids[256];
	cells = cells < 256 ? cells : 256;
	for ( int i = 0; i < cells; ++i )
	{
		uint8_t b = next( r );
		gids[i] = b < 240 ? (uint32_t)( b % 6 ) : b == 255 ? 0xE0000002u : (uint32_t)b * 1000u;
	}
	if ( encoding == 0 )
	{
		for ( int i = 0; i < cells; ++i )
		{
			put( w, "%s%u", i > 0 ? ( i % 8 == 0 ? ",\n" : "," ) : "", gids[i] );
		}
		return;
	}
	if ( encoding == 5 )
	{
		for ( int i = 0; i < cells; ++i )
		{
			put( w, "<tile gid=\"%u\"/>", gids[i] );
		}
		return;
	}
	uint8_t raw[1024], packed[2048];
	size_t n = (size_t)cells * 4;
	for ( int i = 0; i < cells; ++i )
	{
		for ( int k = 0; k < 4; ++k )
		{
			raw[4 * i + k] = (uint8_t)( gids[i] >> ( 8 * k ) );
		}
	}
	const uint8_t* bytes = raw;
	if ( encoding == 2 || encoding == 3 )
	{
		z_stream z;
		memset( &z, 0, sizeof( z ) );
		if ( deflateInit2( &z, 6, Z_DEFLATED, encoding == 2 ? 15 : 31, 8, Z_DEFAULT_STRATEGY ) != Z_OK )
		{
			return;
		}
		z.next_in = raw;
		z.avail_in = (uInt)n;
		z.next_out = packed;
		z.avail_out = sizeof( packed );
		deflate( &z, Z_FINISH );
		n = sizeof( packed ) - z.avail_out;
		deflateEnd( &z );
		bytes = packed;
	}
	else if ( encoding == 4 )
	{
		size_t made = ZSTD_compress( packed, sizeof( packed ), raw, n, 1 );
		n = ZSTD_isError( made ) ? 0 : made;
		bytes = packed;
	}
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	for ( size_t i = 0; i < n; i += 3 )
	{
		uint32_t v = (uint32_t)bytes[i] << 16 | ( i + 1 < n ? (uint32_t)bytes[i + 1] << 8 : 0 ) |
					 ( i + 2 < n ? bytes[i + 2] : 0 );
		put( w, "%c%c%c%c", alphabet[v >> 18 & 63], alphabet[v >> 12 & 63], i + 1 < n ? alphabet[v >> 6 & 63] : '=',
			 i + 2 < n ? alphabet[v & 63] : '=' );
	}
}

static void put_layers( writer* w, reader* r, int depth, bool infinite, int* next_id )
{
	static const char* encodings[] = { "encoding=\"csv\"", "encoding=\"base64\"",
									   "encoding=\"base64\" compression=\"zlib\"",
									   "encoding=\"base64\" compression=\"gzip\"",
									   "encoding=\"base64\" compression=\"zstd\"", "" };
	int layers = 1 + next( r ) % 3;
	for ( int l = 0; l < layers; ++l )
	{
		uint8_t kind = next( r ) % 5;
		const char* hidden = next( r ) % 5 == 0 ? " visible=\"0\"" : "";
		if ( kind <= 1 )
		{
			int lw = 1 + next( r ) % 8, lh = 1 + next( r ) % 6;
			int encoding = next( r ) % 6;
			put( w, "<layer name=\"l%d\" width=\"%d\" height=\"%d\"%s>", l, lw, lh, hidden );
			put_properties( w, r );
			put( w, "<data %s>", encodings[encoding] );
			if ( infinite )
			{
				for ( int c = 0; c < 1 + next( r ) % 2; ++c )
				{
					put( w, "<chunk x=\"%s\" y=\"0\" width=\"%d\" height=\"%d\">", number( r ), lw, lh );
					put_data_body( w, r, lw * lh, encoding );
					put( w, "</chunk>" );
				}
			}
			else
			{
				put_data_body( w, r, lw * lh + ( next( r ) % 16 == 0 ? 1 : 0 ), encoding );
			}
			put( w, "</data></layer>" );
		}
		else if ( kind <= 3 )
		{
			put( w, "<objectgroup name=\"g%d\"%s offsetx=\"%s\">", l, hidden, number( r ) );
			put_properties( w, r );
			int n = next( r ) % 5;
			for ( int i = 0; i < n; ++i )
			{
				put_object( w, r, ( *next_id )++, false );
			}
			put( w, "</objectgroup>" );
		}
		else if ( depth < 70 )
		{
			// Groups, sometimes nested deeper than the reader's depth limit.
			put( w, "<group name=\"group%d\" offsety=\"%s\">", depth, number( r ) );
			put_layers( w, r, depth + ( next( r ) % 8 == 0 ? 30 : 1 ), infinite, next_id );
			put( w, "</group>" );
		}
		put( w, "<imagelayer name=\"sky\"><image source=\"sky.png\"/></imagelayer>" );
	}
}

static void write_map( reader* r, writer* map, writer* tileset, writer* template_file )
{
	bool infinite = next( r ) % 4 == 0;
	put( map, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map version=\"1.10\" orientation=\"%s\" width=\"%s\" "
			  "height=\"%s\"",
		 next( r ) % 16 == 0 ? "isometric" : "orthogonal", number( r ), number( r ) );
	put( map, " tilewidth=\"16\" tileheight=\"%s\" infinite=\"%d\">", next( r ) % 8 == 0 ? number( r ) : "16",
		 infinite );
	put_properties( map, r );
	if ( next( r ) % 2 == 0 )
	{
		put( map, "<tileset firstgid=\"1\" source=\"ext.tsx\"/>" );
	}
	else
	{
		put( map, "<tileset firstgid=\"1\" name=\"embedded\"" );
		put_tileset_body( map, r );
	}
	put( tileset, "<?xml version=\"1.0\"?><tileset name=\"external\"" );
	put_tileset_body( tileset, r );
	put( template_file, "<template><tileset firstgid=\"1\" source=\"ext.tsx\"/>" );
	put_object( template_file, r, 0, next( r ) % 2 == 0 );
	put( template_file, "</template>" );
	int next_id = 1;
	put_layers( map, r, 0, infinite, &next_id );
	put( map, "</map>" );
	// Damage: cut short, or a byte changed.
	uint8_t damage = next( r );
	if ( damage % 8 == 0 && map->length > 0 )
	{
		map->length = next( r ) * map->length / 256;
	}
	else if ( damage % 8 == 1 && map->length > 0 )
	{
		map->text[( (size_t)next( r ) * 131 ) % map->length] = (char)next( r );
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
	const char* text;
	size_t text_size;
	if ( mode == '<' || mode < 32 )
	{
		size_t skip = mode == '<' ? 0 : 1; // the bytes themselves as the map's text
		text = (const char*)data + skip;
		text_size = size > skip ? size - skip : 0;
		put( &tileset, "<tileset name=\"e\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"8\"/>" );
		put( &template_file, "<template><object width=\"8\" height=\"8\"/></template>" );
	}
	else
	{
		write_map( &r, &map, &tileset, &template_file );
		text = map.text;
		text_size = map.length;
	}
	fuzz_file files[] = { { "fuzz/ext.tsx", &tileset }, { "fuzz/t.tx", &template_file }, { NULL, NULL } };
	kcc_level_def def = kcc_default_level_def();
	def.read_file = fuzz_read_file;
	def.read_user = files;
	def.merge_tiles = ( mode & 1 ) == 0;
	def.max_cells = 1 << 16;
	def.max_objects = 64;
	def.max_file_size = TEXT_CAPACITY;
	fuzz_load_and_check( text, text_size, "fuzz/map.tmx", &def );
	return 0;
}
