// SPDX-License-Identifier: MIT
// Tile layers: the gids (a JSON array, CSV text, or base64, uncompressed or with zlib, gzip or zstd; fixed-size layers
// or the chunks of an infinite map), each non-empty cell's collision, and the merge of full tiles into boxes. A full
// tile (its collision covers exactly one map cell) goes into the merge grid; any other tile's collision pieces are
// flipped as the gid says and placed where Tiled draws the tile (its image's bottom-left on the cell's).
#include "internal.h"

#include <stdio.h>
#include <string.h>

// Merge grid kinds (bit k of the vertical mask lets kind k span rows).
#define KCC_CELL_SOLID 1
#define KCC_CELL_ONE_WAY 2
#define KCC_CELL_ZONE 3

typedef struct kcc_grid
{
	int x, y, w, h; // in cells, map coordinates (infinite maps may start at negative cells)
	uint32_t* gids;
} kcc_grid;

static void kcc_put_gid( kcc_grid* grid, int x, int y, int w, size_t i, uint32_t gid )
{
	int cx = x + (int)( i % (size_t)w ) - grid->x, cy = y + (int)( i / (size_t)w ) - grid->y;
	grid->gids[(size_t)cy * (size_t)grid->w + (size_t)cx] = gid;
}

// Base64 text, compressed or not: 4 little-endian bytes a cell.
static kcc_level_status kcc_read_base64( kcc_loader* L, const char* text, const char* compression, kcc_grid* grid,
										 int x, int y, int w, size_t cells )
{
	size_t length = strlen( text );
	size_t capacity = kcc_base64_capacity( length );
	uint8_t* bytes = malloc( capacity > 0 ? capacity : 1 );
	uint8_t* raw = compression[0] != '\0' ? malloc( 4 * cells > 0 ? 4 * cells : 1 ) : NULL;
	long n = bytes != NULL ? kcc_base64_decode( text, length, bytes, capacity ) : -2;
	const uint8_t* gids = bytes;
	if ( n == -2 || ( compression[0] != '\0' && raw == NULL ) )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	else if ( n < 0 )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile data is not valid base64" );
	}
	else if ( compression[0] != '\0' )
	{
		kcc_decompress( L, compression, bytes, (size_t)n, raw, 4 * cells );
		gids = raw;
	}
	else if ( (size_t)n != 4 * cells )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID,
				  "base64 tile data holds %ld bytes, expected %zu (4 per cell, %d x %zu cells); compressed data needs "
				  "'compression' set",
				  n, 4 * cells, w, cells / (size_t)( w > 0 ? w : 1 ) );
	}
	for ( size_t i = 0; i < cells && L->status == KCC_LEVEL_OK; ++i )
	{
		const uint8_t* b = gids + 4 * i;
		kcc_put_gid( grid, x, y, w, i, (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 );
	}
	free( raw );
	free( bytes );
	return L->status;
}

// CSV text (TMX's csv encoding): gids separated by commas and white space.
static kcc_level_status kcc_read_csv( kcc_loader* L, const char* text, kcc_grid* grid, int x, int y, int w,
									  size_t cells )
{
	size_t i = 0;
	const char* p = text;
	for ( ;; )
	{
		while ( *p == ' ' || *p == '\n' || *p == '\r' || *p == '\t' )
		{
			++p;
		}
		if ( *p == '\0' )
		{
			break;
		}
		uint64_t gid = 0;
		const char* digits = p;
		while ( *p >= '0' && *p <= '9' && gid <= 0xffffffffu )
		{
			gid = gid * 10u + (uint64_t)( *p++ - '0' );
		}
		if ( p == digits || gid > 0xffffffffu || i == cells )
		{
			return i == cells ? kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "CSV tile data has more than %zu gids (%d x %zu)",
										  cells, w, cells / (size_t)( w > 0 ? w : 1 ) )
							  : kcc_fail( L, KCC_LEVEL_ERROR_INVALID,
										  "CSV tile data: gid %zu is not a whole number in [0, 4294967295]", i );
		}
		kcc_put_gid( grid, x, y, w, i++, (uint32_t)gid );
		while ( *p == ' ' || *p == '\n' || *p == '\r' || *p == '\t' )
		{
			++p;
		}
		if ( *p == ',' )
		{
			++p;
		}
		else if ( *p != '\0' )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "CSV tile data: '%c' after gid %zu is not a comma", *p, i - 1 );
		}
	}
	if ( i != cells )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile data has %zu gids, expected %zu (%d x %zu)", i, cells, w,
						 cells / (size_t)( w > 0 ? w : 1 ) );
	}
	return KCC_LEVEL_OK;
}

// The gids of one data block (a layer's or a chunk's) into the grid at (x, y).
static kcc_level_status kcc_read_gids( kcc_loader* L, const cJSON* owner, const char* encoding,
									   const char* compression, kcc_grid* grid, int x, int y, int w, int h )
{
	const cJSON* data = cJSON_GetObjectItemCaseSensitive( owner, "data" );
	int mark = kcc_text_push( &L->path, ".", "%s", L->key_data );
	size_t cells = (size_t)w * (size_t)h;
	bool text = cJSON_IsString( data ) && data->valuestring != NULL;
	if ( data == NULL )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile data is missing" );
	}
	else if ( strcmp( encoding, "base64" ) == 0 )
	{
		if ( text == false )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "base64 tile data must be a string" );
		}
		else
		{
			kcc_read_base64( L, data->valuestring, compression, grid, x, y, w, cells );
		}
	}
	else if ( text && strcmp( encoding, "csv" ) == 0 )
	{
		kcc_read_csv( L, data->valuestring, grid, x, y, w, cells );
	}
	else if ( cJSON_IsArray( data ) == false )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile data must be an array of gids (or a base64 string with "
											  "encoding base64)" );
	}
	else if ( (size_t)cJSON_GetArraySize( data ) != cells )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile data has %d gids, expected %zu (%d x %d)", cJSON_GetArraySize( data ),
				  cells, w, h );
	}
	else
	{
		size_t i = 0;
		for ( const cJSON* item = data->child; item != NULL; item = item->next, ++i )
		{
			if ( cJSON_IsNumber( item ) == false || item->valuedouble < 0.0 || item->valuedouble > 4294967295.0 ||
				 item->valuedouble != (double)(uint32_t)item->valuedouble )
			{
				int item_mark = kcc_text_push( &L->path, "", "[%zu]", i );
				kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a gid must be a whole number in [0, 4294967295]" );
				kcc_text_pop( &L->path, item_mark );
				break;
			}
			kcc_put_gid( grid, x, y, w, i, (uint32_t)item->valuedouble );
		}
	}
	kcc_text_pop( &L->path, mark );
	return L->status;
}

// A chunk's or a layer's rectangle in cells.
static kcc_level_status kcc_read_cell_rect( kcc_loader* L, const cJSON* owner, bool chunk, int* x, int* y, int* w,
											int* h )
{
	// Cell coordinates are kept within +-2^24 so every product and sum below fits an int.
	const double limit = 16777216.0;
	double v[4] = { 0.0, 0.0, 0.0, 0.0 };
	if ( ( chunk && ( kcc_json_int( L, owner, "x", true, 0.0, -limit, limit, v + 0 ) != KCC_LEVEL_OK ||
					  kcc_json_int( L, owner, "y", true, 0.0, -limit, limit, v + 1 ) != KCC_LEVEL_OK ) ) ||
		 kcc_json_int( L, owner, "width", true, 0.0, 0.0, limit, v + 2 ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, owner, "height", true, 0.0, 0.0, limit, v + 3 ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	*x = (int)v[0];
	*y = (int)v[1];
	*w = (int)v[2];
	*h = (int)v[3];
	return KCC_LEVEL_OK;
}

static kcc_level_status kcc_check_cells( kcc_loader* L, double w, double h )
{
	if ( w * h > (double)L->def->max_cells )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_LIMIT, "%.0f x %.0f cells is more than max_cells (%d)", w, h,
						 L->def->max_cells );
	}
	return KCC_LEVEL_OK;
}

static kcc_level_status kcc_read_grid( kcc_loader* L, const cJSON* layer, const char* encoding, const char* compression,
									   kcc_grid* grid )
{
	const cJSON* chunks = NULL;
	if ( kcc_json_array( L, layer, "chunks", false, &chunks ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	if ( chunks == NULL )
	{
		if ( kcc_read_cell_rect( L, layer, false, &grid->x, &grid->y, &grid->w, &grid->h ) != KCC_LEVEL_OK ||
			 kcc_check_cells( L, grid->w, grid->h ) != KCC_LEVEL_OK )
		{
			return L->status;
		}
		grid->x = 0;
		grid->y = 0;
	}
	else
	{
		// The grid spans every chunk, so full tiles merge across chunk borders.
		int index = 0;
		int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
		for ( const cJSON* c = chunks->child; c != NULL; c = c->next, ++index )
		{
			int mark = kcc_text_push( &L->path, ".", "chunks[%d]", index );
			int x, y, w, h;
			if ( cJSON_IsObject( c ) == false )
			{
				kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a chunk must be an object" );
			}
			else if ( kcc_read_cell_rect( L, c, true, &x, &y, &w, &h ) == KCC_LEVEL_OK && w > 0 && h > 0 )
			{
				bool first = x1 == x0;
				x0 = first || x < x0 ? x : x0;
				y0 = first || y < y0 ? y : y0;
				x1 = first || x + w > x1 ? x + w : x1;
				y1 = first || y + h > y1 ? y + h : y1;
			}
			kcc_text_pop( &L->path, mark );
			if ( L->status != KCC_LEVEL_OK )
			{
				return L->status;
			}
		}
		if ( kcc_check_cells( L, (double)x1 - x0, (double)y1 - y0 ) != KCC_LEVEL_OK )
		{
			return L->status;
		}
		grid->x = x0;
		grid->y = y0;
		grid->w = x1 - x0;
		grid->h = y1 - y0;
	}
	size_t cells = (size_t)grid->w * (size_t)grid->h;
	grid->gids = malloc( ( cells > 0 ? cells : 1 ) * sizeof( uint32_t ) );
	if ( grid->gids == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory (%zu cells)", cells );
	}
	memset( grid->gids, 0, ( cells > 0 ? cells : 1 ) * sizeof( uint32_t ) );
	if ( chunks == NULL )
	{
		return kcc_read_gids( L, layer, encoding, compression, grid, 0, 0, grid->w, grid->h );
	}
	int index = 0;
	for ( const cJSON* c = chunks->child; c != NULL && L->status == KCC_LEVEL_OK; c = c->next, ++index )
	{
		int mark = kcc_text_push( &L->path, ".", "chunks[%d]", index );
		int x, y, w, h;
		kcc_read_cell_rect( L, c, true, &x, &y, &w, &h );
		if ( w > 0 && h > 0 )
		{
			kcc_read_gids( L, c, encoding, compression, grid, x, y, w, h );
		}
		kcc_text_pop( &L->path, mark );
	}
	return L->status;
}

// An axis-aligned rectangle in map pixels as a polygon piece in the scratch lists.
static kcc_piece kcc_rect_piece( kcc_loader* L, kcc_list* points, double x0, double y0, double x1, double y1 )
{
	kcc_piece piece;
	memset( &piece, 0, sizeof( piece ) );
	piece.kind = KCC_PIECE_POLYGON;
	piece.first = points->count;
	piece.count = 4;
	piece.is_rect = true;
	kcc_dvec2* p = kcc_list_push( points, sizeof( kcc_dvec2 ), 4 );
	if ( p == NULL )
	{
		piece.count = 0;
		kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		return piece;
	}
	kcc_dvec2 corners[4] = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } };
	for ( int i = 0; i < 4; ++i )
	{
		p[i] = kcc_to_world( L, corners[i] );
	}
	return piece;
}

// A tile that is not a full cell: its pieces (or its rectangle when it has none), flipped and placed where Tiled
// draws it. category 0: each piece's own (one-way pieces and tiles one-way, the rest solid).
static kcc_level_status kcc_emit_tile( kcc_loader* L, const kcc_tileset* set, const kcc_tile_info* tile,
									   uint32_t flags, double cell_x, double cell_y, double cell_h, int layer,
									   cpBitmask category,
									   bool sensor, kcc_list* scratch_pieces, kcc_list* scratch_points )
{
	kcc_tile_frame frame = kcc_tile_frame_of( set, tile, flags );
	// The image's top-left in map pixels: bottom-left on the cell's bottom-left, plus the tileset's offset.
	double left = cell_x + set->offset_x, top = cell_y + cell_h - frame.box_h + set->offset_y;
	kcc_affine place = { 1.0, 0.0, 0.0, 1.0, left, top, true };
	kcc_affine m = kcc_affine_compose( &place, &frame.flip );
	scratch_pieces->count = 0;
	scratch_points->count = 0;
	if ( kcc_place_tile( L, tile, &frame, &m, scratch_pieces, scratch_points ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	for ( int i = 0; i < scratch_pieces->count; ++i )
	{
		const kcc_piece* piece = KCC_LIST_AT( *scratch_pieces, kcc_piece, i );
		bool one_way = piece->one_way || ( tile != NULL && tile->one_way );
		cpBitmask c = category != 0 ? category : one_way ? L->def->one_way_category : L->def->solid_category;
		if ( kcc_emit_piece( L, piece, scratch_points->items, -1, -1, layer, c, sensor ) != KCC_LEVEL_OK )
		{
			return L->status;
		}
	}
	return KCC_LEVEL_OK;
}

// The merge grid's kind for a rule's kind (0: no shape).
static uint8_t kcc_cell_kind( kcc_level_object_kind kind )
{
	return kind == KCC_LEVEL_SOLID ? KCC_CELL_SOLID
		   : kind == KCC_LEVEL_ONE_WAY ? KCC_CELL_ONE_WAY
		   : kind == KCC_LEVEL_ZONE	   ? KCC_CELL_ZONE
									   : 0;
}

static cpBitmask kcc_cell_category( const kcc_loader* L, uint8_t kind )
{
	return kind == KCC_CELL_ONE_WAY ? L->def->one_way_category
		   : kind == KCC_CELL_ZONE	? L->def->zone_category
									: L->def->solid_category;
}

kcc_level_status kcc_load_tile_layer( kcc_loader* L, const cJSON* layer, int layer_index, double offset_x,
									  double offset_y, const kcc_level_property* properties, int property_count )
{
	const char* encoding = "";
	const char* compression = "";
	bool collision, layer_solid, layer_one_way;
	// A layer's cells are the map's tiles; an LDtk level's IntGrid layers may each have their own grid.
	double cw = L->tile_width, ch = L->tile_height;
	if ( kcc_json_int( L, layer, "tilewidth", false, cw, 1.0, 65536.0, &cw ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, layer, "tileheight", false, ch, 1.0, 65536.0, &ch ) != KCC_LEVEL_OK ||
		 kcc_json_string( L, layer, "encoding", false, &encoding ) != KCC_LEVEL_OK ||
		 kcc_json_string( L, layer, "compression", false, &compression ) != KCC_LEVEL_OK ||
		 kcc_property_bool( L, properties, property_count, "collision", true, &collision ) != KCC_LEVEL_OK ||
		 kcc_property_bool( L, properties, property_count, "solid", false, &layer_solid ) != KCC_LEVEL_OK ||
		 kcc_property_bool( L, properties, property_count, "one_way", false, &layer_one_way ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	if ( encoding[0] != '\0' && strcmp( encoding, "csv" ) != 0 && strcmp( encoding, "base64" ) != 0 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_UNSUPPORTED, "tile data encoding '%s' is not csv or base64", encoding );
	}
	if ( compression[0] != '\0' && strcmp( compression, "zlib" ) != 0 && strcmp( compression, "gzip" ) != 0 &&
		 strcmp( compression, "zstd" ) != 0 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_UNSUPPORTED, "tile data compression '%s' is not zlib, gzip or zstd",
						 compression );
	}
	if ( compression[0] != '\0' && strcmp( encoding, "base64" ) != 0 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "compressed tile data must have encoding base64" );
	}
	if ( collision == false )
	{
		return KCC_LEVEL_OK;
	}
	kcc_grid grid = { 0, 0, 0, 0, NULL };
	if ( kcc_read_grid( L, layer, encoding, compression, &grid ) != KCC_LEVEL_OK )
	{
		free( grid.gids );
		return L->status;
	}
	size_t cells = (size_t)grid.w * (size_t)grid.h;
	uint8_t* kinds = malloc( cells > 0 ? cells : 1 );
	kcc_list scratch_pieces = { NULL, 0, 0 }, scratch_points = { NULL, 0, 0 }, rects = { NULL, 0, 0 };
	if ( kinds == NULL )
	{
		free( grid.gids );
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory (%zu cells)", cells );
	}
	memset( kinds, 0, cells > 0 ? cells : 1 );
	int shapes_before = L->shapes.count;
	int tile_cells = 0, ruled_nothing = 0; // non-empty cells; of them, those a rule made nothing
	const char* layer_name = *KCC_LIST_AT( L->layer_names, const char*, layer_index );
	// What the last gid made when it depends on the gid alone (a cell kind, or nothing): runs of one tile skip the
	// lookups and the messages' context.
	uint32_t cached_raw = 0;
	int cached_kind = -1;
	bool cached_ruled = false;
	for ( size_t i = 0; i < cells && L->status == KCC_LEVEL_OK; ++i )
	{
		uint32_t raw = grid.gids[i];
		uint32_t gid = raw & KCC_GID_MASK;
		if ( gid == 0 )
		{
			continue;
		}
		if ( raw == cached_raw && cached_kind >= 0 )
		{
			kinds[i] = (uint8_t)cached_kind;
			tile_cells += 1;
			L->info.tile_count += cached_kind != 0;
			ruled_nothing += cached_kind == 0 && cached_ruled;
			continue;
		}
		int outcome = -1; // the cell's kind (0: nothing) when the gid alone decides it; -1 when it made shapes
		bool ruled = false;
		int cx = grid.x + (int)( i % (size_t)grid.w ), cy = grid.y + (int)( i / (size_t)grid.w );
		int what_mark = kcc_text_push( &L->what, ", ", "cell (%d, %d), gid %u", cx, cy, (unsigned)gid );
		int path_mark = grid.x == 0 && grid.y == 0 && cJSON_GetObjectItemCaseSensitive( layer, "chunks" ) == NULL
							? kcc_text_push( &L->path, ".", "%s[%zu]", L->key_data, i )
							: kcc_text_push( &L->path, ".", "chunks" );
		int local = 0;
		const kcc_tileset* set = kcc_find_tileset( L, gid, &local );
		if ( set != NULL )
		{
			const kcc_tile_info* tile = kcc_tile_of( set, local );
			const char* class_name = tile != NULL ? tile->class_name : "";
			const kcc_level_rule* rule =
				kcc_match_rule( L, layer_name, class_name, NULL, tile != NULL ? tile->properties : NULL,
								tile != NULL ? tile->property_count : 0, true );
			bool fits_cell = ( tile == NULL || ( tile->width == cw && tile->height == ch ) ) &&
							 set->offset_x == 0.0 && set->offset_y == 0.0;
			bool tile_full = tile != NULL && tile->full && fits_cell;
			bool has_pieces = tile != NULL && tile->piece_count > 0;
			double px = (double)cx * cw + offset_x, py = (double)cy * ch + offset_y;
			tile_cells += 1;
			if ( rule != NULL )
			{
				// The rule decides: the tile's own collision shapes when it has some, else its whole cell.
				uint8_t kind = kcc_cell_kind( rule->kind );
				ruled_nothing += kind == 0;
				ruled = true;
				outcome = kind == 0 ? 0 : -1;
				if ( kind != 0 && ( tile_full || ( has_pieces == false && fits_cell ) ) )
				{
					kinds[i] = kind;
					outcome = kind;
				}
				else if ( kind != 0 )
				{
					kcc_emit_tile( L, set, tile, raw, px, py, ch, layer_index, kcc_cell_category( L, kind ),
								   kind == KCC_CELL_ZONE, &scratch_pieces, &scratch_points );
				}
				L->info.tile_count += kind != 0;
			}
			else
			{
				if ( class_name[0] != '\0' && strcmp( class_name, "solid" ) != 0 && strcmp( class_name, "one_way" ) != 0 )
				{
					char what[160];
					snprintf( what, sizeof( what ), "tile %d of tileset '%s' keeps the collision it has", local,
							  set->name );
					kcc_warn_unknown_class( L, class_name, what );
				}
				// The layer's solid or one_way makes every tile a full cell; a one-way tile stays one-way.
				bool layer_full = layer_solid || layer_one_way;
				if ( layer_full || tile_full )
				{
					bool one_way = layer_one_way || ( tile != NULL && tile->one_way );
					kinds[i] = one_way ? KCC_CELL_ONE_WAY : KCC_CELL_SOLID;
					L->info.tile_count += 1;
					outcome = kinds[i];
				}
				else if ( tile != NULL && ( tile->piece_count > 0 || tile->full ) )
				{
					kcc_emit_tile( L, set, tile, raw, px, py, ch, layer_index, 0, false, &scratch_pieces,
								   &scratch_points );
					L->info.tile_count += 1;
				}
				else
				{
					outcome = 0;
				}
			}
		}
		kcc_text_pop( &L->path, path_mark );
		kcc_text_pop( &L->what, what_mark );
		cached_raw = raw;
		cached_kind = outcome;
		cached_ruled = ruled;
	}
	if ( L->status == KCC_LEVEL_OK )
	{
		if ( L->def->merge_tiles )
		{
			if ( kcc_merge_cells( kinds, grid.w, grid.h, 1u << KCC_CELL_SOLID | 1u << KCC_CELL_ZONE, &rects ) == false )
			{
				kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
			}
		}
		else
		{
			for ( size_t i = 0; i < cells && L->status == KCC_LEVEL_OK; ++i )
			{
				kcc_cell_rect* r = kinds[i] != 0 ? kcc_list_push( &rects, sizeof( kcc_cell_rect ), 1 ) : NULL;
				if ( kinds[i] != 0 && r == NULL )
				{
					kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
				}
				else if ( r != NULL )
				{
					*r = ( kcc_cell_rect ){ (int)( i % (size_t)grid.w ), (int)( i / (size_t)grid.w ), 1, 1, kinds[i] };
				}
			}
		}
	}
	for ( int i = 0; i < rects.count && L->status == KCC_LEVEL_OK; ++i )
	{
		const kcc_cell_rect* r = KCC_LIST_AT( rects, kcc_cell_rect, i );
		double x0 = (double)( grid.x + r->x ) * cw + offset_x;
		double y0 = (double)( grid.y + r->y ) * ch + offset_y;
		scratch_points.count = 0;
		kcc_piece piece = kcc_rect_piece( L, &scratch_points, x0, y0, x0 + r->w * cw, y0 + r->h * ch );
		cpBitmask category = kcc_cell_category( L, r->kind );
		if ( L->status == KCC_LEVEL_OK )
		{
			int what_mark = kcc_text_push( &L->what, ", ", "cells (%d, %d) to (%d, %d)", grid.x + r->x, grid.y + r->y,
										   grid.x + r->x + r->w - 1, grid.y + r->y + r->h - 1 );
			kcc_emit_piece( L, &piece, scratch_points.items, -1, -1, layer_index, category,
							r->kind == KCC_CELL_ZONE );
			kcc_text_pop( &L->what, what_mark );
		}
		if ( L->def->merge_tiles )
		{
			L->info.merged_tile_count += r->w * r->h;
		}
	}
	L->info.tile_shape_count += L->shapes.count - shapes_before;
	if ( L->status == KCC_LEVEL_OK && tile_cells > 0 && ruled_nothing == 0 && L->shapes.count == shapes_before )
	{
		kcc_warn( L, "its %d tiles made no shape: no tile has collision (in Tiled: collision shapes in the tile "
					 "collision editor, the bool property %s, or class solid), set the layer's property solid, add "
					 "a rule for the layer, or give it the property collision = false",
				  tile_cells, L->def->solid_property );
	}
	kcc_list_free( &rects );
	kcc_list_free( &scratch_pieces );
	kcc_list_free( &scratch_points );
	free( kinds );
	free( grid.gids );
	return L->status;
}
