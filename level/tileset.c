// SPDX-License-Identifier: MIT
// Tilesets: embedded in the map or external files (.tsj / .json, or .tsx, relative to the map), each tile's
// collision (the collision objects Tiled's collision editor stores in the tile's objectgroup, or the solid
// property / class), and the lookup from a gid to its tileset and tile.
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Largest tile id table a tileset may need (image collections can have sparse ids).
#define KCC_MAX_TILES_PER_TILESET ( 1 << 20 )

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

static kcc_dvec2 kcc_flip_point( kcc_dvec2 p, double w, double h, uint32_t flags )
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

kcc_tile_frame kcc_tile_frame_of( const kcc_tileset* set, const kcc_tile_info* tile, uint32_t flags )
{
	kcc_tile_frame f;
	f.w = tile != NULL ? tile->width : set->tile_width;
	f.h = tile != NULL ? tile->height : set->tile_height;
	bool swapped = ( flags & KCC_GID_FLIP_D ) != 0;
	f.box_w = swapped ? f.h : f.w;
	f.box_h = swapped ? f.w : f.h;
	// The flips are affine: the images of the origin and the two unit vectors give the map.
	kcc_dvec2 o = kcc_flip_point( ( kcc_dvec2 ){ 0.0, 0.0 }, f.w, f.h, flags );
	kcc_dvec2 ex = kcc_flip_point( ( kcc_dvec2 ){ 1.0, 0.0 }, f.w, f.h, flags );
	kcc_dvec2 ey = kcc_flip_point( ( kcc_dvec2 ){ 0.0, 1.0 }, f.w, f.h, flags );
	f.flip = ( kcc_affine ){ ex.x - o.x, ey.x - o.x, ex.y - o.y, ey.y - o.y, o.x, o.y, false };
	return f;
}

kcc_level_status kcc_place_tile( kcc_loader* L, const kcc_tile_info* tile, const kcc_tile_frame* frame,
								 const kcc_affine* m, kcc_list* pieces, kcc_list* points )
{
	if ( tile != NULL && tile->piece_count > 0 )
	{
		return kcc_copy_pieces( L, m, KCC_LIST_AT( L->tile_pieces, kcc_piece, tile->first_piece ), tile->piece_count,
								L->tile_points.items, pieces, points );
	}
	kcc_piece rect = { KCC_PIECE_POLYGON, false, false, 0, 4, { 0.0, 0.0 }, 0.0 };
	kcc_dvec2 corners[4] = { { 0.0, 0.0 }, { frame->w, 0.0 }, { frame->w, frame->h }, { 0.0, frame->h } };
	return kcc_copy_pieces( L, m, &rect, 1, corners, pieces, points );
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

// Tile properties kept apart from the tiles (Tiled < 1.2's "tileproperties": { "id": { "name": value } }).
typedef struct kcc_old_properties
{
	kcc_level_property* items;
	int count;
	bool given;
} kcc_old_properties;

// One tile of the tileset (entry: its entry in "tiles", NULL when only tileproperties lists it): size, class,
// properties (its own, then the older tileproperties) and collision objects.
static kcc_level_status kcc_read_tile( kcc_loader* L, const cJSON* entry, const kcc_old_properties* old, int id,
									   kcc_tile_info* tile )
{
	int what_mark = kcc_text_push( &L->what, ", ", "tile %d", id );
	double w = tile->width, h = tile->height;
	const char* class_name = "";
	kcc_level_property* own = NULL;
	int own_count = 0;
	if ( kcc_json_number( L, entry, "imagewidth", false, w, &w ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, entry, "imageheight", false, h, &h ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, entry, "width", false, w, &w ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, entry, "height", false, h, &h ) != KCC_LEVEL_OK ||
		 kcc_json_class( L, entry, &class_name ) != KCC_LEVEL_OK ||
		 kcc_json_properties( L, entry, &own, &own_count ) != KCC_LEVEL_OK )
	{
		kcc_text_pop( &L->what, what_mark );
		return L->status;
	}
	kcc_level_property* properties = own;
	int property_count = own_count;
	if ( old->count > 0 )
	{
		// The tile's own properties first: kcc_find_property takes the first of a name.
		property_count = own_count + old->count;
		properties = kcc_arena_alloc( L->arena, (size_t)property_count * sizeof( kcc_level_property ) );
		if ( properties == NULL )
		{
			kcc_text_pop( &L->what, what_mark );
			return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
		if ( own_count > 0 )
		{
			memcpy( properties, own, (size_t)own_count * sizeof( kcc_level_property ) );
		}
		memcpy( properties + own_count, old->items, (size_t)old->count * sizeof( kcc_level_property ) );
	}
	tile->width = w;
	tile->height = h;
	tile->present = true;
	tile->class_name = kcc_arena_strdup( L->arena, class_name );
	tile->properties = properties;
	tile->property_count = property_count;
	if ( tile->class_name == NULL )
	{
		kcc_text_pop( &L->what, what_mark );
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	bool solid = strcmp( class_name, "solid" ) == 0;
	bool one_way = strcmp( class_name, "one_way" ) == 0;
	const char* solid_name = L->def->solid_property;
	bool solid_given = kcc_find_property( properties, property_count, solid_name ) != NULL;
	if ( kcc_property_bool( L, properties, property_count, solid_name, solid, &solid ) != KCC_LEVEL_OK ||
		 kcc_property_bool( L, properties, property_count, "one_way", one_way, &one_way ) != KCC_LEVEL_OK )
	{
		kcc_text_pop( &L->what, what_mark );
		return L->status;
	}
	tile->one_way = one_way;
	const cJSON* group = cJSON_GetObjectItemCaseSensitive( entry, "objectgroup" );
	const cJSON* objects = NULL;
	if ( group != NULL )
	{
		int mark = kcc_text_push( &L->path, ".", "objectgroup" );
		if ( cJSON_IsObject( group ) == false )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a tile's objectgroup must be an object layer" );
		}
		else
		{
			kcc_json_array( L, group, "objects", false, &objects );
		}
		kcc_text_pop( &L->path, mark );
	}
	tile->first_piece = L->tile_pieces.count;
	int index = 0;
	for ( const cJSON* object = objects != NULL ? objects->child : NULL; object != NULL && L->status == KCC_LEVEL_OK;
		  object = object->next, ++index )
	{
		int mark = kcc_text_push( &L->path, ".", "objectgroup.objects[%d]", index );
		int object_what = kcc_text_push( &L->what, ", ", "collision object %d", index );
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
		kcc_text_pop( &L->what, object_what );
		kcc_text_pop( &L->path, mark );
	}
	tile->piece_count = L->tile_pieces.count - tile->first_piece;
	// The solid property set to false turns the tile's collision off; set to true (or the class) with no
	// collision objects, the whole tile collides.
	if ( solid_given && solid == false )
	{
		tile->piece_count = 0;
	}
	tile->full = tile->piece_count == 0 ? ( solid || one_way ) : kcc_tile_is_full( L, tile );
	kcc_text_pop( &L->what, what_mark );
	return L->status;
}

// The id of an entry of "tiles" (its "id" member) or of an object keyed by id (the older "tiles", tileproperties),
// or -1 with an error.
static int kcc_tile_id( kcc_loader* L, const cJSON* t, bool keyed )
{
	if ( cJSON_IsObject( t ) == false )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a tile must be an object" );
		return -1;
	}
	if ( keyed == false )
	{
		double id = 0.0;
		return kcc_json_int( L, t, "id", true, 0.0, 0.0, (double)KCC_MAX_TILES_PER_TILESET - 1.0, &id ) ==
					   KCC_LEVEL_OK
				   ? (int)id
				   : -1;
	}
	char* end = NULL;
	long key = strtol( t->string != NULL ? t->string : "", &end, 10 );
	if ( end == t->string || *end != '\0' || key < 0 || key >= KCC_MAX_TILES_PER_TILESET )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile key '%s' is not a tile id", t->string );
		return -1;
	}
	return (int)key;
}

// The path of an entry of "tiles" or "tileproperties": tiles[3] in an array, tiles.3 in an object keyed by id.
static int kcc_push_entry_path( kcc_loader* L, const char* list, const cJSON* entry, int index )
{
	return entry->string != NULL ? kcc_text_push( &L->path, ".", "%s.%s", list, entry->string )
								 : kcc_text_push( &L->path, ".", "%s[%d]", list, index );
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
	int what_mark = kcc_text_push( &L->what, ", ", "tileset '%s'", name );
	if ( kcc_json_int( L, json, "tilewidth", true, 0.0, 1.0, 65536.0, &tile_width ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, json, "tileheight", true, 0.0, 1.0, 65536.0, &tile_height ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, json, "tilecount", false, -1.0, 0.0, (double)KCC_MAX_TILES_PER_TILESET, &tile_count ) !=
			 KCC_LEVEL_OK ||
		 kcc_json_string( L, json, "objectalignment", false, &alignment ) != KCC_LEVEL_OK )
	{
		kcc_text_pop( &L->what, what_mark );
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
		kcc_text_pop( &L->what, what_mark );
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
		int mark = kcc_text_push( &L->path, ".", "tileoffset" );
		if ( cJSON_IsObject( offset ) == false )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tileoffset must be an object with x and y" );
		}
		else if ( kcc_json_number( L, offset, "x", false, 0.0, &set->offset_x ) == KCC_LEVEL_OK )
		{
			kcc_json_number( L, offset, "y", false, 0.0, &set->offset_y );
		}
		kcc_text_pop( &L->path, mark );
	}
	// Tiles: an array of { id, ... } since Tiled 1.2, an object keyed by id before, when tile properties were
	// kept apart in "tileproperties" (an object keyed by id).
	tiles = cJSON_GetObjectItemCaseSensitive( json, "tiles" );
	const cJSON* old_properties = cJSON_GetObjectItemCaseSensitive( json, "tileproperties" );
	if ( tiles != NULL && cJSON_IsArray( tiles ) == false && cJSON_IsObject( tiles ) == false )
	{
		int mark = kcc_text_push( &L->path, ".", "tiles" );
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "'tiles' must be an array (or an object keyed by tile id)" );
		kcc_text_pop( &L->path, mark );
	}
	if ( old_properties != NULL && cJSON_IsObject( old_properties ) == false )
	{
		int mark = kcc_text_push( &L->path, ".", "tileproperties" );
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "'tileproperties' must be an object keyed by tile id" );
		kcc_text_pop( &L->path, mark );
	}
	int tile_entries = tiles != NULL ? cJSON_GetArraySize( tiles ) : 0;
	int entry_count = tile_entries + ( old_properties != NULL ? cJSON_GetArraySize( old_properties ) : 0 );
	// Each entry's id, read once: the tiles' entries, then tileproperties'.
	int* ids = malloc( (size_t)( entry_count > 0 ? entry_count : 1 ) * sizeof( int ) );
	if ( ids == NULL )
	{
		kcc_text_pop( &L->what, what_mark );
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	int size = 0; // the table covers the tiles the set lists (max id + 1); tile_count bounds the gids
	set->tile_count = tile_count >= 0.0 ? (int)tile_count : -1; // -1: not given, any gid up to the next set
	const cJSON* lists[2] = { tiles, old_properties };
	const char* list_names[2] = { "tiles", "tileproperties" };
	for ( int k = 0, n = 0; k < 2; ++k )
	{
		for ( const cJSON* t = lists[k] != NULL ? lists[k]->child : NULL; t != NULL && L->status == KCC_LEVEL_OK;
			  t = t->next, ++n )
		{
			int mark = kcc_push_entry_path( L, list_names[k], t, n );
			ids[n] = kcc_tile_id( L, t, cJSON_IsObject( lists[k] ) != 0 );
			size = ids[n] + 1 > size ? ids[n] + 1 : size;
			kcc_text_pop( &L->path, mark );
		}
	}
	if ( L->status != KCC_LEVEL_OK )
	{
		free( ids );
		kcc_text_pop( &L->what, what_mark );
		return L->status;
	}
	if ( set->tile_count >= 0 && size > set->tile_count )
	{
		set->tile_count = size; // image collections: ids may pass tilecount (removed tiles leave gaps)
	}
	set->table_size = size;
	set->tiles = malloc( (size_t)( size > 0 ? size : 1 ) * sizeof( kcc_tile_info ) );
	kcc_old_properties* old = calloc( (size_t)( old_properties != NULL && size > 0 ? size : 1 ),
									  sizeof( kcc_old_properties ) );
	if ( set->tiles == NULL || old == NULL )
	{
		free( ids );
		free( old );
		kcc_text_pop( &L->what, what_mark );
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	for ( int i = 0; i < size; ++i )
	{
		kcc_tile_info empty = { 0, 0, tile_width, tile_height, false, false, false, "", NULL, 0 };
		set->tiles[i] = empty;
	}
	int at = tile_entries;
	for ( const cJSON* t = old_properties != NULL ? old_properties->child : NULL; t != NULL && L->status == KCC_LEVEL_OK;
		  t = t->next, ++at )
	{
		int mark = kcc_push_entry_path( L, "tileproperties", t, at );
		kcc_old_properties* o = old + ids[at];
		if ( o->given )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile %d is listed twice", ids[at] );
		}
		else
		{
			o->given = true;
			kcc_json_property_list( L, t, &o->items, &o->count );
		}
		kcc_text_pop( &L->path, mark );
	}
	// Every tile read once, its older properties with it: first the tiles listed in "tiles", then those only
	// tileproperties lists (with no entry of their own).
	for ( int k = 0, n = 0; k < 2; ++k )
	{
		for ( const cJSON* t = lists[k] != NULL ? lists[k]->child : NULL; t != NULL && L->status == KCC_LEVEL_OK;
			  t = t->next, ++n )
		{
			kcc_tile_info* tile = set->tiles + ids[n];
			if ( k == 1 && tile->present )
			{
				continue; // read with its entry in "tiles"
			}
			int mark = kcc_push_entry_path( L, list_names[k], t, n );
			if ( tile->present )
			{
				kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile %d is listed twice", ids[n] );
			}
			else
			{
				kcc_read_tile( L, k == 0 ? t : NULL, old_properties != NULL ? old + ids[n] : old, ids[n], tile );
			}
			kcc_text_pop( &L->path, mark );
		}
	}
	free( ids );
	free( old );
	kcc_text_pop( &L->what, what_mark );
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
	char* file = kcc_resolve_path( L, L->base_dir, source );
	if ( file == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	kcc_file_context saved;
	cJSON* json = NULL;
	if ( kcc_open_json_file( L, file, "tileset", &json, &saved ) == KCC_LEVEL_OK )
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
		int mark = kcc_text_push( &L->path, ".", "tilesets[%d]", index );
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
		kcc_text_pop( &L->path, mark );
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
