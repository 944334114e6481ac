// SPDX-License-Identifier: MIT
// Fuzz target for the LDtk reader (libFuzzer with clang; tests/fuzz_driver.c feeds it with GCC). The first byte
// picks how the input is used: as the project's JSON text itself (an input starting with '{', such as the seed
// projects of tests/levels/ldtk, or the rest of one starting with a byte below 32), or as choices for a project
// written from LDtk's layout: IntGrid layers (values with and without identifiers, grids of several sizes, cells
// holding values the layer does not have), Entities layers (pivots, sizes, fields of every type, EntityRefs to
// entities here and elsewhere), Tiles layers, levels chosen by identifier, a level saved apart (.ldtkl), with
// extreme numbers and occasional damage (cut short, a byte changed). The JSON reader's limits apply. What is
// checked: fuzz_level_check.h.
#include "fuzz_level_check.h"
#include "fuzz_level_text.h"

#include <stdarg.h>
#include <stdint.h>

/// The libFuzzer entry point (also called by fuzz_driver.c).
int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );

// A JSON number: mostly small whole numbers, sometimes extremes, fractions, or not a number at all.
static const char* number( reader* r )
{
	static const char* odd[] = { "0", "-1", "1e308", "-1e308", "0.5", "\"7\"", "null", "1e-320", "4294967295",
								 "2147483648", "16777217", "-16", "true", "[]", "{}" };
	static char buffer[32];
	uint8_t b = next( r );
	if ( b < 200 )
	{
		snprintf( buffer, sizeof( buffer ), "%d", b % 40 );
		return buffer;
	}
	return odd[b % ( sizeof( odd ) / sizeof( odd[0] ) )];
}

static void put_fields( writer* w, reader* r )
{
	static const char* types[] = { "Int", "Float", "Bool", "String", "Multilines", "Color", "FilePath",
								   "LocalEnum.Item", "EntityRef", "Point", "Array<Int>", "Tile" };
	put( w, "\"fieldInstances\":[" );
	int n = next( r ) % 4;
	for ( int i = 0; i < n; ++i )
	{
		const char* type = types[next( r ) % ( sizeof( types ) / sizeof( types[0] ) )];
		static const char* names[] = { "name", "speed", "path", "hp", "note" };
		put( w, "%s{\"__identifier\":\"%s\",\"__type\":\"%s\",\"__value\":", i > 0 ? "," : "",
			 names[next( r ) % ( sizeof( names ) / sizeof( names[0] ) )], type );
		uint8_t v = next( r ) % 6;
		if ( strcmp( type, "EntityRef" ) == 0 && v < 4 )
		{
			put( w, "{\"entityIid\":\"e%d\",\"layerIid\":\"l\",\"levelIid\":\"v\",\"worldIid\":\"w\"}", next( r ) % 6 );
		}
		else if ( v == 0 )
		{
			put( w, "\"text\"" );
		}
		else if ( v == 1 )
		{
			put( w, "null" );
		}
		else if ( v == 2 )
		{
			put( w, "[1,2,{\"cx\":3,\"cy\":4}]" );
		}
		else
		{
			put( w, "%s", number( r ) );
		}
		put( w, "}" );
	}
	put( w, "]" );
}

static void put_level( writer* w, reader* r, int index, bool apart )
{
	int grid = next( r ) % 8 == 0 ? 8 : 16;
	int cw = 1 + next( r ) % 8, ch = 1 + next( r ) % 6;
	put( w, "{\"identifier\":\"L%d\",\"iid\":\"v%d\",\"uid\":%d,\"worldX\":%s,", index, index, index, number( r ) );
	put( w, "\"worldY\":0,\"pxWid\":%s,\"pxHei\":%d,", next( r ) % 8 == 0 ? number( r ) : "64", ch * grid );
	put_fields( w, r );
	if ( apart )
	{
		put( w, ",\"layerInstances\":null,\"externalRelPath\":\"apart/L%d.ldtkl\"}", index );
		return;
	}
	put( w, ",\"externalRelPath\":null,\"layerInstances\":[" );
	int layers = 1 + next( r ) % 3;
	int entity = 0;
	for ( int l = 0; l < layers; ++l )
	{
		uint8_t kind = next( r ) % 3;
		const char* type = kind == 0 ? "IntGrid" : kind == 1 ? "Entities" : "Tiles";
		int layer_grid = next( r ) % 6 == 0 ? 8 : grid;
		put( w, "%s{\"__identifier\":\"%s%d\",\"__type\":\"%s\",", l > 0 ? "," : "", type, l, type );
		put( w, "\"__cWid\":%d,\"__cHei\":%d,\"__gridSize\":%d,", cw, ch, layer_grid );
		put( w, "\"__pxTotalOffsetX\":%s,\"__pxTotalOffsetY\":0,\"layerDefUid\":%d,\"visible\":%s,", number( r ),
			 next( r ) % 8 == 0 ? 99 : 1, next( r ) % 5 == 0 ? "false" : "true" );
		put( w, "\"intGridCsv\":[" );
		int cells = kind == 0 ? cw * ch + ( next( r ) % 16 == 0 ? 1 : 0 ) : 0;
		for ( int i = 0; i < cells; ++i )
		{
			uint8_t b = next( r );
			put( w, "%s%d", i > 0 ? "," : "", b < 250 ? b % 4 : b );
		}
		put( w, "],\"entityInstances\":[" );
		int n = kind == 1 ? next( r ) % 5 : 0;
		for ( int i = 0; i < n; ++i )
		{
			static const char* classes[] = { "Player", "spawn", "solid", "zone", "platform", "path", "crate", "Coin" };
			put( w, "%s{\"__identifier\":\"%s\",\"iid\":\"e%d\",\"px\":[%s,", i > 0 ? "," : "",
				 classes[next( r ) % ( sizeof( classes ) / sizeof( classes[0] ) )], entity++, number( r ) );
			put( w, "%s],\"__pivot\":[%s,1],", number( r ), next( r ) % 2 == 0 ? "0.5" : number( r ) );
			put( w, "\"width\":%s,\"height\":16,", number( r ) );
			put_fields( w, r );
			put( w, "}" );
		}
		put( w, "],\"gridTiles\":[],\"autoLayerTiles\":[]}" );
	}
	put( w, "]}" );
}

static void write_project( reader* r, writer* project, writer* apart )
{
	put( project, "{\"__header__\":{\"app\":\"LDtk\",\"fileType\":\"LDtk Project JSON\"},\"jsonVersion\":\"1.5.3\","
				  "\"defaultGridSize\":%s,",
		 next( r ) % 8 == 0 ? number( r ) : "16" );
	put( project, "\"defs\":{\"layers\":[{\"identifier\":\"IntGrid\",\"type\":\"IntGrid\",\"uid\":1,\"gridSize\":16,"
				  "\"intGridValues\":[{\"value\":1,\"identifier\":\"walls\"},{\"value\":2,\"identifier\":\"%s\"},"
				  "{\"value\":3,\"identifier\":null}]}],\"entities\":[]},\"levels\":[",
		 next( r ) % 2 == 0 ? "one_way" : "ladder" );
	int levels = 1 + next( r ) % 3;
	for ( int i = 0; i < levels; ++i )
	{
		put( project, "%s", i > 0 ? "," : "" );
		put_level( project, r, i, next( r ) % 6 == 0 );
	}
	put( project, "]}" );
	put_level( apart, r, 0, false );
	uint8_t damage = next( r );
	if ( damage % 8 == 0 && project->length > 0 )
	{
		project->length = next( r ) * project->length / 256;
	}
	else if ( damage % 8 == 1 && project->length > 0 )
	{
		project->text[( (size_t)next( r ) * 131 ) % project->length] = (char)next( r );
	}
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	static writer project, apart;
	project.length = 0;
	apart.length = 0;
	reader r = { data, size, 0 };
	uint8_t mode = next( &r );
	const char* text;
	size_t text_size;
	if ( mode == '{' || mode < 32 )
	{
		size_t skip = mode == '{' ? 0 : 1; // the bytes themselves as the project's text
		text = (const char*)data + skip;
		text_size = size > skip ? size - skip : 0;
		put( &apart, "{\"identifier\":\"A\",\"pxWid\":16,\"pxHei\":16,\"layerInstances\":[]}" );
	}
	else
	{
		write_project( &r, &project, &apart );
		text = project.text;
		text_size = project.length;
	}
	fuzz_file files[] = { { "fuzz/apart/", &apart }, { NULL, NULL } };
	kcc_level_def def = kcc_default_level_def();
	def.read_file = fuzz_read_file;
	def.read_user = files;
	def.merge_tiles = ( mode & 1 ) == 0;
	def.ldtk_level = ( mode & 6 ) == 2 ? "L1" : ( mode & 6 ) == 4 ? "L9" : NULL;
	def.max_cells = 1 << 16;
	def.max_objects = 64;
	def.max_file_size = TEXT_CAPACITY;
	fuzz_load_and_check( text, text_size, "fuzz/project.ldtk", &def );
	return 0;
}
