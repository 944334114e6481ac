// SPDX-License-Identifier: MIT
// Tilesets: embedded in the map or external JSON files (.tsj / .json, relative to the map), each tile's
// collision (the collision objects Tiled's collision editor stores in the tile's objectgroup, or the solid
// property / class), and the lookup from a gid to its tileset and tile.
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Largest tile id table a tileset may need (image collections can have sparse ids).
#define KCC_MAX_TILES_PER_TILESET ( 1 << 20 )

static bool kcc_ends_with( const char* text, const char* suffix )
{
	size_t n = strlen( text ), k = strlen( suffix );
	if ( n < k )
	{
		return false;
	}
	for ( size_t i = 0; i < k; ++i )
	{
		char c = text[n - k + i];
		c = c >= 'A' && c <= 'Z' ? (char)( c - 'A' + 'a' ) : c;
		if ( c != suffix[i] )
		{
			return false;
		}
	}
	return true;
}

static kcc_dvec2 kcc_anchor_of( const char* alignment )
{
	static const struct
	{
		const char* name;
		double x, y;
	} anchors[] = { { "topleft", 0.0, 0.0 },  { "top", 0.5, 0.0 },    { "topright", 1.0, 0.0 },
					{ "left", 0.0, 0.5 },     { "center", 0.5, 0.5 }, { "right", 1.0, 0.5 },
					{ "bottomleft", 0.0, 1.0 }, { "bottom", 0.5, 1.0 }, { "bottomright", 1.0, 1.0 } };
	for ( size_t i = 0; i < sizeof( anchors ) / sizeof( anchors[0] ); ++i )
	{
		if ( strcmp( alignment, anchors[i].name ) == 0 )
		{
			kcc_dvec2 a = { anchors[i].x, anchors[i].y };
			return a;
		}
	}
	kcc_dvec2 bottom_left = { 0.0, 1.0 }; // "unspecified": orthogonal maps anchor tile objects bottom-left
	return bottom_left;
}

kcc_dvec2 kcc_flip_point( kcc_dvec2 p, double w, double h, uint32_t flags )
{
	if ( flags & KCC_GID_FLIP_D )
	{
		double t = p.x;
		p.x = p.y;
		p.y = t;
		t = w;
		w = h;
		h = t;
	}
	if ( flags & KCC_GID_FLIP_H )
	{
		p.x = w - p.x;
	}
	if ( flags & KCC_GID_FLIP_V )
	{
		p.y = h - p.y;
	}
	return p;
}

// Is the tile's collision exactly one unrotated rectangle over its whole image?
static bool kcc_tile_is_full( const kcc_loader* L, const kcc_tile_info* tile )
{
	if ( tile->piece_count != 1 )
	{
		return false;
	}
	const kcc_piece* piece = KCC_LIST_AT( L->tile_pieces, kcc_piece, tile->first_piece );
	if ( piece->is_rect == false )
	{
		return false;
	}
	const kcc_dvec2* p = KCC_LIST_AT( L->tile_points, kcc_dvec2, piece->first );
	return p[0].x == 0.0 && p[0].y == 0.0 && p[2].x == tile->width && p[2].y == tile->height;
}

// One tile entry of the tileset: size, properties, class and collision objects.
static kcc_level_status kcc_read_tile( kcc_loader* L, const cJSON* entry, int id, kcc_tile_info* tile )
{
	int what_mark = kcc_what_push( L, ", tile %d", id );
	double w = tile->width, h = tile->height;
	const char* class_name = "";
	kcc_level_property* properties = NULL;
	int property_count = 0;
	if ( kcc_json_number( L, entry, "imagewidth", false, w, &w ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, entry, "imageheight", false, h, &h ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, entry, "width", false, w, &w ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, entry, "height", false, h, &h ) != KCC_LEVEL_OK ||
		 kcc_json_class( L, entry, &class_name ) != KCC_LEVEL_OK ||
		 kcc_json_properties( L, entry, &properties, &property_count ) != KCC_LEVEL_OK )
	{
		kcc_what_pop( L, what_mark );
		return L->status;
	}
	tile->width = w;
	tile->height = h;
	tile->present = true;
	bool solid = strcmp( class_name, "solid" ) == 0;
	bool one_way = strcmp( class_name, "one_way" ) == 0;
	const char* solid_name = L->def->solid_property;
	const kcc_level_property* solid_property = kcc_find_property( properties, property_count, solid_name );
	if ( kcc_property_bool( L, properties, property_count, solid_name, solid, &solid ) != KCC_LEVEL_OK ||
		 kcc_property_bool( L, properties, property_count, "one_way", one_way, &one_way ) != KCC_LEVEL_OK )
	{
		kcc_what_pop( L, what_mark );
		return L->status;
	}
	tile->one_way = one_way;
	const cJSON* group = cJSON_GetObjectItemCaseSensitive( entry, "objectgroup" );
	const cJSON* objects = NULL;
	if ( group != NULL )
	{
		int mark = kcc_path_push( L, ".objectgroup" );
		if ( cJSON_IsObject( group ) == false )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a tile's objectgroup must be an object layer" );
		}
		else
		{
			kcc_json_array( L, group, "objects", false, &objects );
		}
		kcc_path_pop( L, mark );
	}
	tile->first_piece = L->tile_pieces.count;
	int index = 0;
	for ( const cJSON* object = objects != NULL ? objects->child : NULL; object != NULL && L->status == KCC_LEVEL_OK;
		  object = object->next, ++index )
	{
		int mark = kcc_path_push( L, ".objectgroup.objects[%d]", index );
		int object_what = kcc_what_push( L, ", collision object %d", index );
		const char* object_class = "";
		kcc_geometry_info info;
		kcc_affine identity = kcc_affine_identity( false );
		int before = L->tile_pieces.count;
		if ( cJSON_IsObject( object ) == false )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a collision object must be an object" );
		}
		else if ( kcc_json_class( L, object, &object_class ) == KCC_LEVEL_OK )
		{
			kcc_read_geometry( L, object, &identity, &L->tile_pieces, &L->tile_points, &info );
		}
		for ( int k = before; k < L->tile_pieces.count; ++k )
		{
			KCC_LIST_AT( L->tile_pieces, kcc_piece, k )->one_way = one_way || strcmp( object_class, "one_way" ) == 0;
		}
		kcc_what_pop( L, object_what );
		kcc_path_pop( L, mark );
	}
	tile->piece_count = L->tile_pieces.count - tile->first_piece;
	// The solid property set to false turns the tile's collision off; set to true (or the class) with no
	// collision objects, the whole tile collides.
	if ( solid_property != NULL && solid == false )
	{
		tile->piece_count = 0;
	}
	tile->full = tile->piece_count == 0 ? ( solid || one_way ) : kcc_tile_is_full( L, tile );
	kcc_what_pop( L, what_mark );
	return L->status;
}

static kcc_level_status kcc_read_tileset( kcc_loader* L, const cJSON* json, uint32_t first_gid, kcc_tileset* set )
{
	double tile_width, tile_height, tile_count;
	const char* name = "";
	const char* alignment = "";
	const cJSON* tiles = NULL;
	if ( cJSON_IsObject( json ) == false )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a tileset must be an object" );
	}
	if ( kcc_json_string( L, json, "name", false, &name ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	int what_mark = kcc_what_push( L, "%stileset '%s'", L->what_length > 0 ? ", " : "", name );
	if ( kcc_json_int( L, json, "tilewidth", true, 0.0, 1.0, 65536.0, &tile_width ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, json, "tileheight", true, 0.0, 1.0, 65536.0, &tile_height ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, json, "tilecount", false, -1.0, 0.0, (double)KCC_MAX_TILES_PER_TILESET, &tile_count ) !=
			 KCC_LEVEL_OK ||
		 kcc_json_string( L, json, "objectalignment", false, &alignment ) != KCC_LEVEL_OK )
	{
		kcc_what_pop( L, what_mark );
		return L->status;
	}
	// A tileset made from one image holds as many tiles as the image's grid, whatever tilecount says (some files
	// carry a tilecount of 0 for an image of many tiles).
	double image_width, image_height, margin, spacing;
	if ( kcc_json_number( L, json, "imagewidth", false, 0.0, &image_width ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, json, "imageheight", false, 0.0, &image_height ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, json, "margin", false, 0.0, &margin ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, json, "spacing", false, 0.0, &spacing ) != KCC_LEVEL_OK )
	{
		kcc_what_pop( L, what_mark );
		return L->status;
	}
	if ( image_width > 0.0 && image_height > 0.0 && spacing >= 0.0 && margin >= 0.0 )
	{
		double columns = floor( ( image_width - 2.0 * margin + spacing ) / ( tile_width + spacing ) );
		double rows = floor( ( image_height - 2.0 * margin + spacing ) / ( tile_height + spacing ) );
		double grid = columns > 0.0 && rows > 0.0 ? fmin( columns * rows, (double)KCC_MAX_TILES_PER_TILESET ) : 0.0;
		tile_count = grid > tile_count ? grid : tile_count;
	}
	set->first_gid = first_gid;
	set->tile_width = tile_width;
	set->tile_height = tile_height;
	set->anchor = kcc_anchor_of( alignment );
	set->name = kcc_arena_strdup( L->arena, name );
	set->file = L->file;
	set->external = L->file != L->map_file;
	const cJSON* offset = cJSON_GetObjectItemCaseSensitive( json, "tileoffset" );
	if ( offset != NULL )
	{
		int mark = kcc_path_push( L, L->path_length > 0 ? ".tileoffset" : "tileoffset" );
		if ( cJSON_IsObject( offset ) == false )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tileoffset must be an object with x and y" );
		}
		else if ( kcc_json_number( L, offset, "x", false, 0.0, &set->offset_x ) == KCC_LEVEL_OK )
		{
			kcc_json_number( L, offset, "y", false, 0.0, &set->offset_y );
		}
		kcc_path_pop( L, mark );
	}
	// Tiles: an array of { id, ... } since Tiled 1.2, an object keyed by id before.
	tiles = cJSON_GetObjectItemCaseSensitive( json, "tiles" );
	if ( L->status == KCC_LEVEL_OK && tiles != NULL && cJSON_IsArray( tiles ) == false &&
		 cJSON_IsObject( tiles ) == false )
	{
		int mark = kcc_path_push( L, L->path_length > 0 ? ".tiles" : "tiles" );
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "'tiles' must be an array" );
		kcc_path_pop( L, mark );
	}
	int size = 0; // the table covers the tiles the set lists (max id + 1); tile_count bounds the gids
	set->tile_count = tile_count >= 0.0 ? (int)tile_count : -1; // -1: not given, any gid up to the next set
	int index = 0;
	for ( const cJSON* t = tiles != NULL ? tiles->child : NULL; t != NULL && L->status == KCC_LEVEL_OK;
		  t = t->next, ++index )
	{
		int mark = kcc_path_push( L, "%stiles[%d]", L->path_length > 0 ? "." : "", index );
		double id = 0.0;
		if ( cJSON_IsObject( t ) == false )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a tile must be an object" );
		}
		else if ( cJSON_IsArray( tiles ) )
		{
			kcc_json_int( L, t, "id", true, 0.0, 0.0, (double)KCC_MAX_TILES_PER_TILESET - 1.0, &id );
		}
		else
		{
			char* end = NULL;
			long key = strtol( t->string != NULL ? t->string : "", &end, 10 );
			if ( end == t->string || *end != '\0' || key < 0 || key >= KCC_MAX_TILES_PER_TILESET )
			{
				kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile key '%s' is not a tile id", t->string );
			}
			id = (double)key;
		}
		size = (int)id + 1 > size ? (int)id + 1 : size;
		kcc_path_pop( L, mark );
	}
	// Tiled < 1.2 kept tile properties apart: "tileproperties": { "id": { "name": value } }.
	const cJSON* old_properties = cJSON_GetObjectItemCaseSensitive( json, "tileproperties" );
	for ( const cJSON* t = old_properties != NULL ? old_properties->child : NULL; t != NULL && L->status == KCC_LEVEL_OK;
		  t = t->next )
	{
		char* end = NULL;
		long id = strtol( t->string != NULL ? t->string : "", &end, 10 );
		if ( end == t->string || *end != '\0' || id < 0 || id >= KCC_MAX_TILES_PER_TILESET )
		{
			int mark = kcc_path_push( L, "%stileproperties", L->path_length > 0 ? "." : "" );
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile key '%s' is not a tile id", t->string );
			kcc_path_pop( L, mark );
		}
		size = (int)id + 1 > size ? (int)id + 1 : size;
	}
	if ( L->status != KCC_LEVEL_OK )
	{
		kcc_what_pop( L, what_mark );
		return L->status;
	}
	if ( set->tile_count >= 0 && size > set->tile_count )
	{
		set->tile_count = size; // image collections: ids may pass tilecount (removed tiles leave gaps)
	}
	set->table_size = size;
	set->tiles = malloc( (size_t)( size > 0 ? size : 1 ) * sizeof( kcc_tile_info ) );
	if ( set->tiles == NULL )
	{
		kcc_what_pop( L, what_mark );
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	for ( int i = 0; i < size; ++i )
	{
		kcc_tile_info empty = { 0, 0, tile_width, tile_height, false, false, false };
		set->tiles[i] = empty;
	}
	index = 0;
	for ( const cJSON* t = tiles != NULL ? tiles->child : NULL; t != NULL && L->status == KCC_LEVEL_OK;
		  t = t->next, ++index )
	{
		int mark = kcc_path_push( L, "%stiles[%d]", L->path_length > 0 ? "." : "", index );
		int id = cJSON_IsArray( tiles ) ? (int)cJSON_GetObjectItemCaseSensitive( t, "id" )->valuedouble
										: (int)strtol( t->string, NULL, 10 );
		if ( set->tiles[id].present )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile %d is listed twice", id );
		}
		else
		{
			kcc_read_tile( L, t, id, set->tiles + id );
		}
		kcc_path_pop( L, mark );
	}
	for ( const cJSON* t = old_properties != NULL ? old_properties->child : NULL; t != NULL && L->status == KCC_LEVEL_OK;
		  t = t->next )
	{
		int mark = kcc_path_push( L, "%stileproperties.%s", L->path_length > 0 ? "." : "", t->string );
		kcc_level_property* properties = NULL;
		int count = 0;
		bool solid = false, one_way = false;
		if ( kcc_json_property_list( L, t, &properties, &count ) == KCC_LEVEL_OK &&
			 kcc_property_bool( L, properties, count, L->def->solid_property, false, &solid ) == KCC_LEVEL_OK &&
			 kcc_property_bool( L, properties, count, "one_way", false, &one_way ) == KCC_LEVEL_OK )
		{
			kcc_tile_info* tile = set->tiles + strtol( t->string, NULL, 10 );
			tile->one_way = tile->one_way || one_way;
			if ( tile->piece_count == 0 )
			{
				tile->full = tile->full || solid || one_way;
			}
		}
		kcc_path_pop( L, mark );
	}
	kcc_what_pop( L, what_mark );
	return L->status;
}

static int kcc_compare_tilesets( const void* a, const void* b )
{
	uint32_t x = ( (const kcc_tileset*)a )->first_gid, y = ( (const kcc_tileset*)b )->first_gid;
	return x < y ? -1 : x > y;
}

static kcc_level_status kcc_load_external_tileset( kcc_loader* L, const char* source, uint32_t first_gid,
												   kcc_tileset* set )
{
	if ( kcc_ends_with( source, ".tsx" ) || kcc_ends_with( source, ".xml" ) )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_UNSUPPORTED,
						 "external tileset '%s' is TMX/XML: open it in Tiled, export it as JSON (File > Export As, "
						 "*.tsj) and point the map at the .tsj",
						 source );
	}
	char* file = kcc_resolve_path( L, L->base_dir, source );
	if ( file == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	kcc_file_context saved;
	cJSON* json = NULL;
	if ( kcc_open_json_file( L, file, "open it in Tiled and export it as JSON (File > Export As, *.tsj)", &json,
							 &saved ) == KCC_LEVEL_OK )
	{
		kcc_read_tileset( L, json, first_gid, set );
	}
	cJSON_Delete( json );
	kcc_close_json_file( L, &saved );
	return L->status;
}

kcc_level_status kcc_load_tilesets( kcc_loader* L, const cJSON* map )
{
	const cJSON* list = NULL;
	if ( kcc_json_array( L, map, "tilesets", false, &list ) != KCC_LEVEL_OK || list == NULL )
	{
		return L->status;
	}
	int index = 0;
	for ( const cJSON* entry = list->child; entry != NULL && L->status == KCC_LEVEL_OK; entry = entry->next, ++index )
	{
		int mark = kcc_path_push( L, "tilesets[%d]", index );
		double first_gid = 0.0;
		const char* source = "";
		kcc_tileset* set = kcc_list_push( &L->tilesets, sizeof( kcc_tileset ), 1 );
		if ( set == NULL )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
		else if ( cJSON_IsObject( entry ) == false )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a tileset must be an object" );
		}
		else if ( kcc_json_int( L, entry, "firstgid", true, 0.0, 1.0, (double)KCC_GID_MASK, &first_gid ) ==
					  KCC_LEVEL_OK &&
				  kcc_json_string( L, entry, "source", false, &source ) == KCC_LEVEL_OK )
		{
			if ( source[0] != '\0' )
			{
				kcc_load_external_tileset( L, source, (uint32_t)first_gid, set );
			}
			else
			{
				kcc_read_tileset( L, entry, (uint32_t)first_gid, set );
			}
		}
		kcc_path_pop( L, mark );
	}
	if ( L->status != KCC_LEVEL_OK )
	{
		return L->status;
	}
	kcc_tileset* sets = L->tilesets.items;
	if ( L->tilesets.count > 1 )
	{
		qsort( sets, (size_t)L->tilesets.count, sizeof( kcc_tileset ), kcc_compare_tilesets );
	}
	for ( int i = 1; i < L->tilesets.count; ++i )
	{
		if ( sets[i].first_gid == sets[i - 1].first_gid )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tilesets '%s' and '%s' have the same firstgid %u",
							 sets[i - 1].name, sets[i].name, (unsigned)sets[i].first_gid );
		}
	}
	return KCC_LEVEL_OK;
}

const kcc_tileset* kcc_find_tileset( kcc_loader* L, uint32_t gid, int* local_id )
{
	const kcc_tileset* sets = L->tilesets.items;
	int lo = 0, hi = L->tilesets.count - 1, found = -1;
	while ( lo <= hi )
	{
		int mid = ( lo + hi ) / 2;
		if ( sets[mid].first_gid <= gid )
		{
			found = mid;
			lo = mid + 1;
		}
		else
		{
			hi = mid - 1;
		}
	}
	if ( found < 0 )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "gid %u is in no tileset%s", (unsigned)gid,
				  L->tilesets.count == 0 ? " (the map has no tilesets)" : "" );
		return NULL;
	}
	const kcc_tileset* set = sets + found;
	uint32_t local = gid - set->first_gid;
	if ( set->tile_count >= 0 && local >= (uint32_t)set->tile_count )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "gid %u is past the end of tileset '%s' (firstgid %u, %d tiles)",
				  (unsigned)gid, set->name, (unsigned)set->first_gid, set->tile_count );
		return NULL;
	}
	*local_id = (int)local;
	return set;
}

const kcc_tile_info* kcc_tile_of( const kcc_tileset* set, int local_id )
{
	return local_id >= 0 && local_id < set->table_size ? set->tiles + local_id : NULL;
}

void kcc_free_tilesets( kcc_loader* L )
{
	for ( int i = 0; i < L->tilesets.count; ++i )
	{
		free( KCC_LIST_AT( L->tilesets, kcc_tileset, i )->tiles );
	}
	kcc_list_free( &L->tilesets );
}
