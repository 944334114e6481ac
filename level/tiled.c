// SPDX-License-Identifier: MIT
// Loading a map (Tiled JSON or XML, or an LDtk level read as the Tiled map it stands for), top-down: check the
// arguments, parse, read the map's header and tilesets, walk the layers (group layers recursively, offsets added up),
// resolve the objects, note the warnings, then build the world into the space in one go. Nothing reaches the space
// until everything has been read and checked: an error at any point leaves it unchanged.
#include "internal.h"

#include <stdio.h>
#include <string.h>

kcc_level_def kcc_default_level_def( void )
{
	kcc_level_def def;
	memset( &def, 0, sizeof( def ) );
	def.pixels_per_unit = 0.0f;
	def.solid_category = (cpBitmask)1 << 0;
	def.one_way_category = (cpBitmask)1 << 1;
	def.pushable_category = (cpBitmask)1 << 2;
	def.zone_category = (cpBitmask)1 << 3;
	def.solid_property = "solid";
	def.skip_invisible_layers = false;
	def.merge_tiles = true;
	def.max_cells = 1 << 24;
	def.max_polygon_points = 1024;
	def.max_coordinate = 1.0e6f;
	def.max_objects = 100000;
	def.max_file_size = (size_t)64 << 20;
	def.read_file = NULL;
	def.read_user = NULL;
	def.internal_cookie = KCC_LEVEL_COOKIE;
	return def;
}

const char* kcc_level_status_string( kcc_level_status status )
{
	switch ( status )
	{
		case KCC_LEVEL_OK:
			return "ok";
		case KCC_LEVEL_ERROR_ARGUMENT:
			return "bad argument";
		case KCC_LEVEL_ERROR_IO:
			return "file could not be read";
		case KCC_LEVEL_ERROR_SYNTAX:
			return "not valid JSON or XML";
		case KCC_LEVEL_ERROR_UNSUPPORTED:
			return "a map feature kcc2d does not load";
		case KCC_LEVEL_ERROR_INVALID:
			return "invalid map data";
		case KCC_LEVEL_ERROR_LIMIT:
			return "beyond a limit of the level def";
		case KCC_LEVEL_ERROR_MEMORY:
			return "out of memory";
	}
	return "unknown status";
}

static const char* kcc_def_problem( const kcc_level_def* def )
{
	if ( def->internal_cookie != KCC_LEVEL_COOKIE )
	{
		return "the def was not made by kcc_default_level_def";
	}
	if ( !( def->pixels_per_unit >= 0.0f ) || def->pixels_per_unit > 1.0e6f )
	{
		return "pixels_per_unit must be 0 (the tile height) or a positive number";
	}
	if ( def->solid_category == 0 || def->one_way_category == 0 || def->pushable_category == 0 ||
		 def->zone_category == 0 )
	{
		return "every category must have a bit";
	}
	cpBitmask seen = 0;
	const cpBitmask roles[] = { def->solid_category, def->one_way_category, def->pushable_category,
								def->zone_category };
	for ( int i = 0; i < 4; ++i )
	{
		if ( ( roles[i] & seen ) != 0 )
		{
			return "solid_category, one_way_category, pushable_category and zone_category must not share bits (a "
				   "shape's role is found from its category bits)";
		}
		seen |= roles[i];
	}
	if ( def->solid_property == NULL || def->solid_property[0] == '\0' )
	{
		return "solid_property must name a tile property";
	}
	if ( def->rule_count < 0 || def->rule_count > KCC_LEVEL_MAX_RULES || ( def->rule_count > 0 && def->rules == NULL ) )
	{
		return "rule_count must be in [0, KCC_LEVEL_MAX_RULES] and rules set when it is not 0";
	}
	for ( int i = 0; i < def->rule_count; ++i )
	{
		if ( (int)def->rules[i].kind < (int)KCC_LEVEL_SOLID || (int)def->rules[i].kind > (int)KCC_LEVEL_OTHER )
		{
			return "a rule's kind must be a kcc_level_object_kind";
		}
	}
	if ( def->max_objects <= 0 || def->max_file_size == 0 )
	{
		return "max_objects and max_file_size must be positive";
	}
	if ( def->max_cells <= 0 || def->max_polygon_points < 3 || !( def->max_coordinate > 0.0f ) ||
		 def->max_coordinate > 1.0e7f )
	{
		return "max_cells, max_polygon_points (>= 3) and max_coordinate (<= 1e7) must be positive";
	}
	return NULL;
}

static kcc_level_status kcc_load_layers( kcc_loader* L, const cJSON* layers, double offset_x, double offset_y );

static kcc_level_status kcc_load_layer( kcc_loader* L, const cJSON* layer, double offset_x, double offset_y )
{
	const char* type = "";
	const char* name = "";
	const char* layer_class = "";
	double dx = 0.0, dy = 0.0;
	bool visible = true;
	kcc_level_property* properties = NULL;
	int property_count = 0;
	if ( cJSON_IsObject( layer ) == false )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a layer must be an object" );
	}
	if ( kcc_json_string( L, layer, "type", true, &type ) != KCC_LEVEL_OK ||
		 kcc_json_string( L, layer, "name", false, &name ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	int what_mark = kcc_text_push( &L->what, " > ", "layer '%s'", name );
	// A layer's "type" is its kind of layer; its class is only "class" (Tiled >= 1.9).
	if ( kcc_json_string( L, layer, "class", false, &layer_class ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, layer, "offsetx", false, 0.0, &dx ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, layer, "offsety", false, 0.0, &dy ) != KCC_LEVEL_OK ||
		 kcc_json_bool( L, layer, "visible", true, &visible ) != KCC_LEVEL_OK ||
		 kcc_json_properties( L, layer, &properties, &property_count ) != KCC_LEVEL_OK )
	{
		kcc_text_pop( &L->what, what_mark );
		return L->status;
	}
	L->info.layer_count += 1;
	if ( visible == false && L->def->skip_invisible_layers )
	{
		kcc_text_pop( &L->what, what_mark );
		return KCC_LEVEL_OK;
	}
	offset_x += dx;
	offset_y += dy;
	if ( strcmp( type, "group" ) == 0 )
	{
		const cJSON* children = NULL;
		if ( kcc_json_array( L, layer, "layers", false, &children ) == KCC_LEVEL_OK && children != NULL )
		{
			int mark = kcc_text_push( &L->path, ".", "%s", L->key_layers );
			kcc_load_layers( L, children, offset_x, offset_y );
			kcc_text_pop( &L->path, mark );
		}
		kcc_text_pop( &L->what, what_mark );
		return L->status;
	}
	if ( strcmp( type, "tilelayer" ) != 0 && strcmp( type, "objectgroup" ) != 0 )
	{
		if ( strcmp( type, "imagelayer" ) != 0 ) // image layers are pictures only
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "layer type '%s' is not tilelayer, objectgroup, imagelayer or group",
					  type );
		}
		kcc_text_pop( &L->what, what_mark );
		return L->status;
	}
	const char** slot = kcc_list_push( &L->layer_names, sizeof( const char* ), 1 );
	const char* copy = kcc_arena_strdup( L->arena, name );
	if ( slot == NULL || copy == NULL )
	{
		kcc_text_pop( &L->what, what_mark );
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	*slot = copy;
	int layer_index = L->layer_names.count - 1;
	if ( strcmp( type, "tilelayer" ) == 0 )
	{
		kcc_load_tile_layer( L, layer, layer_index, offset_x, offset_y, properties, property_count );
	}
	else
	{
		// A hidden object layer holds helpers (paths, notes, markers): its objects without a class make no shape
		// unless the layer says collision = true.
		bool collision = true;
		if ( kcc_property_bool( L, properties, property_count, "collision", visible, &collision ) == KCC_LEVEL_OK )
		{
			kcc_load_object_layer( L, layer, layer_index, layer_class, offset_x, offset_y, collision );
		}
	}
	kcc_text_pop( &L->what, what_mark );
	return L->status;
}

static kcc_level_status kcc_load_layers( kcc_loader* L, const cJSON* layers, double offset_x, double offset_y )
{
	int index = 0;
	for ( const cJSON* layer = layers->child; layer != NULL && L->status == KCC_LEVEL_OK; layer = layer->next, ++index )
	{
		int mark = kcc_text_push( &L->path, "", "[%d]", index );
		kcc_load_layer( L, layer, offset_x, offset_y );
		kcc_text_pop( &L->path, mark );
	}
	return L->status;
}

static kcc_level_status kcc_load_map( kcc_loader* L, const cJSON* map )
{
	const char* orientation = "orthogonal";
	const char* type = "";
	double tile_width, tile_height, width, height;
	const cJSON* layers = NULL;
	if ( cJSON_IsObject( map ) == false )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a map must be a JSON object" );
	}
	if ( kcc_json_string( L, map, "type", false, &type ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	if ( strcmp( type, "tileset" ) == 0 || strcmp( type, "template" ) == 0 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "this file is a Tiled %s, not a map", type );
	}
	if ( kcc_json_string( L, map, "orientation", false, &orientation ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	if ( orientation[0] != '\0' && strcmp( orientation, "orthogonal" ) != 0 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_UNSUPPORTED, "the map is %s: kcc2d loads orthogonal maps", orientation );
	}
	if ( kcc_json_int( L, map, "tilewidth", true, 0.0, 1.0, 65536.0, &tile_width ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, map, "tileheight", true, 0.0, 1.0, 65536.0, &tile_height ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, map, "width", true, 0.0, 0.0, 16777216.0, &width ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, map, "height", true, 0.0, 0.0, 16777216.0, &height ) != KCC_LEVEL_OK ||
		 kcc_json_array( L, map, "layers", true, &layers ) != KCC_LEVEL_OK ||
		 kcc_json_properties( L, map, &L->map_properties, &L->map_property_count ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	if ( kcc_json_bool( L, map, "infinite", false, &L->infinite ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	L->tile_width = tile_width;
	L->tile_height = tile_height;
	L->map_width_tiles = (int)width;
	L->map_height_tiles = (int)height;
	L->pixels_per_unit = L->def->pixels_per_unit > 0.0f ? (double)L->def->pixels_per_unit : tile_height;
	L->map_height_px = height * tile_height;
	if ( kcc_load_tilesets( L, map ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	int mark = kcc_text_push( &L->path, ".", "%s", L->key_layers );
	kcc_load_layers( L, layers, 0.0, 0.0 );
	kcc_text_pop( &L->path, mark );
	if ( L->status == KCC_LEVEL_OK )
	{
		kcc_resolve_objects( L );
	}
	return L->status;
}

static void kcc_loader_free( kcc_loader* L )
{
	kcc_free_tilesets( L );
	kcc_list_free( &L->tile_pieces );
	kcc_list_free( &L->tile_points );
	kcc_list_free( &L->layer_names );
	kcc_list_free( &L->objects );
	kcc_list_free( &L->pieces );
	kcc_list_free( &L->points );
	kcc_list_free( &L->shapes );
	kcc_list_free( &L->shape_points );
	kcc_list_free( &L->bodies );
	kcc_list_free( &L->platforms );
	kcc_free_templates( L );
	kcc_list_free( &L->warnings );
	kcc_list_free( &L->unknown_classes );
}

// The last warning, about the whole map: nothing it made blocks a character.
static void kcc_warn_no_collision( kcc_loader* L )
{
	for ( int i = 0; i < L->shapes.count; ++i )
	{
		if ( KCC_LIST_AT( L->shapes, kcc_shape_desc, i )->sensor == false )
		{
			return;
		}
	}
	kcc_text_pop( &L->path, 0 );
	kcc_text_pop( &L->what, 0 );
	L->file = L->map_file;
	kcc_warn( L, "the map made no collision at all: no tile or object made a solid or one-way shape, so characters "
				 "fall through (see the warnings before this one; rules in the def map a map's own classes and "
				 "layers to kcc2d's kinds)" );
}

// The warnings into the level's arena, for kcc_level_get_warning.
static kcc_level_status kcc_keep_warnings( kcc_loader* L, kcc_level* level )
{
	int n = L->warnings.count;
	const char** list = kcc_arena_alloc( L->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( const char* ) );
	if ( list == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	if ( n > 0 )
	{
		memcpy( list, L->warnings.items, (size_t)n * sizeof( const char* ) );
	}
	level->warnings = list;
	level->warning_count = n;
	return KCC_LEVEL_OK;
}

int kcc_level_warning_count( const kcc_level* level )
{
	return level != NULL ? level->warning_count : 0;
}

const char* kcc_level_get_warning( const kcc_level* level, int index )
{
	return level != NULL && index >= 0 && index < level->warning_count ? level->warnings[index] : NULL;
}

static kcc_level_status kcc_argument_error( kcc_level_error* error, const char* message )
{
	if ( error != NULL )
	{
		error->status = KCC_LEVEL_ERROR_ARGUMENT;
		snprintf( error->message, sizeof( error->message ), "%s", message );
	}
	return KCC_LEVEL_ERROR_ARGUMENT;
}

static kcc_level_status kcc_load( cpSpace* space, const char* json, size_t size, const char* name, bool from_file,
								  const kcc_level_def* user_def, kcc_level** out, kcc_level_error* error )
{
	if ( out != NULL )
	{
		*out = NULL;
	}
	if ( error != NULL )
	{
		error->status = KCC_LEVEL_OK;
		error->message[0] = '\0';
	}
	kcc_level_def defaults = kcc_default_level_def();
	const kcc_level_def* def = user_def != NULL ? user_def : &defaults;
	if ( space == NULL || out == NULL || name == NULL || ( from_file == false && json == NULL ) )
	{
		return kcc_argument_error( error, "kcc_level_load: space, the map, its name and out must not be NULL" );
	}
	const char* problem = kcc_def_problem( def );
	if ( problem != NULL )
	{
		return kcc_argument_error( error, problem );
	}
	if ( cpSpaceIsLocked( space ) )
	{
		return kcc_argument_error( error, "kcc_level_load: the space is locked (called from a Chipmunk callback)" );
	}
	kcc_level* level = malloc( sizeof( kcc_level ) );
	if ( level == NULL )
	{
		if ( error != NULL )
		{
			error->status = KCC_LEVEL_ERROR_MEMORY;
			snprintf( error->message, sizeof( error->message ), "%s: out of memory", name );
		}
		return KCC_LEVEL_ERROR_MEMORY;
	}
	memset( level, 0, sizeof( *level ) );
	kcc_loader loader;
	memset( &loader, 0, sizeof( loader ) );
	kcc_loader* L = &loader;
	L->def = def;
	L->error = error;
	L->path_prefix = "";
	L->key_layers = "layers";
	L->key_objects = "objects";
	L->key_data = "data";
	L->key_properties = "properties";
	L->arena = &level->arena;
	L->map_file = kcc_arena_strdup( L->arena, name );
	L->file = L->map_file;
	L->base_dir = kcc_directory_of( L->arena, name );
	if ( L->map_file == NULL || L->base_dir == NULL )
	{
		L->file = name;
		kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	char* text = NULL;
	if ( L->status == KCC_LEVEL_OK && from_file && kcc_read_file( L, name, &text, &size ) == KCC_LEVEL_OK )
	{
		json = text;
	}
	cJSON* map = NULL;
	if ( L->status == KCC_LEVEL_OK && kcc_parse_document( L, json, size, &map ) == KCC_LEVEL_OK && kcc_is_ldtk( map ) )
	{
		cJSON* project = map;
		map = NULL;
		kcc_ldtk_to_tiled( L, project, &map );
		cJSON_Delete( project );
	}
	if ( L->status == KCC_LEVEL_OK )
	{
		int mark = kcc_text_push( &L->path, "", "%s", L->path_prefix );
		kcc_load_map( L, map );
		kcc_text_pop( &L->path, mark );
	}
	cJSON_Delete( map );
	free( text );
	if ( L->status == KCC_LEVEL_OK )
	{
		kcc_warn_no_collision( L );
		kcc_keep_warnings( L, level );
	}
	if ( L->status == KCC_LEVEL_OK )
	{
		level->space = space;
		kcc_level_build( L, level );
	}
	kcc_level_status status = L->status;
	kcc_loader_free( L );
	if ( status != KCC_LEVEL_OK )
	{
		kcc_level_destroy( level );
		return status;
	}
	*out = level;
	return KCC_LEVEL_OK;
}

kcc_level_status kcc_level_load_file( cpSpace* space, const char* path, const kcc_level_def* def, kcc_level** out,
									  kcc_level_error* error )
{
	return kcc_load( space, NULL, 0, path, true, def, out, error );
}

kcc_level_status kcc_level_load_memory( cpSpace* space, const char* json, size_t size, const char* name,
										const kcc_level_def* def, kcc_level** out, kcc_level_error* error )
{
	return kcc_load( space, json, size, name, false, def, out, error );
}
