// SPDX-License-Identifier: MIT
// LDtk projects (.ldtk, and a level saved apart, .ldtkl) read into the tree of the Tiled map they stand for, so one
// reader makes shapes of both: the chosen level (def.ldtk_level, or the first) is the map, its first IntGrid layer's
// grid the map's tile size; an IntGrid layer is a tile layer of its own grid over a tileset with one full tile per
// value, the value's identifier its class; an Entities layer is an object layer, each entity a rectangle (its pivot
// undone) with its identifier as class and its fields as properties; Tiles and pure auto-layers are pictures, kept as
// image layers so that layers[i] stays the level's layerInstances[i]. Messages name LDtk's own members (the loader's
// keys).
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool kcc_is_ldtk( const cJSON* root )
{
	const cJSON* header = cJSON_GetObjectItemCaseSensitive( root, "__header__" );
	const char* app = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( header, "app" ) );
	if ( app != NULL && strcmp( app, "LDtk" ) == 0 )
	{
		return true;
	}
	// Older projects (and hand-made ones) without the header: the version, the definitions and the levels.
	return cJSON_IsString( cJSON_GetObjectItemCaseSensitive( root, "jsonVersion" ) ) &&
		   cJSON_IsObject( cJSON_GetObjectItemCaseSensitive( root, "defs" ) ) &&
		   cJSON_IsArray( cJSON_GetObjectItemCaseSensitive( root, "levels" ) );
}

static cJSON* kcc_ldtk_memory( kcc_loader* L )
{
	kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	return NULL;
}

// Adds item to object (false, and the item deleted, when out of memory).
static bool kcc_ldtk_add( kcc_loader* L, cJSON* object, const char* key, cJSON* item )
{
	if ( item == NULL || cJSON_AddItemToObject( object, key, item ) == false )
	{
		cJSON_Delete( item );
		kcc_ldtk_memory( L );
		return false;
	}
	return true;
}

static bool kcc_ldtk_append( kcc_loader* L, cJSON* array, cJSON* item )
{
	if ( item == NULL || cJSON_AddItemToArray( array, item ) == false )
	{
		cJSON_Delete( item );
		kcc_ldtk_memory( L );
		return false;
	}
	return true;
}

/// Entities by iid, for EntityRef fields: the object id each one gets.
typedef struct kcc_ldtk_ref
{
	const char* iid;
	int id;
} kcc_ldtk_ref;

static int kcc_ldtk_find_ref( const kcc_list* refs, const char* iid )
{
	for ( int i = 0; i < refs->count; ++i )
	{
		const kcc_ldtk_ref* r = KCC_LIST_AT( *refs, kcc_ldtk_ref, i );
		if ( strcmp( r->iid, iid ) == 0 )
		{
			return r->id;
		}
	}
	return 0;
}

// One field instance as a Tiled property (the Tiled reader then checks the value against the type).
static cJSON* kcc_ldtk_property( kcc_loader* L, const cJSON* field, const kcc_list* refs )
{
	const char* name = "";
	const char* type = "";
	if ( cJSON_IsObject( field ) == false )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a field instance must be an object" );
		return NULL;
	}
	if ( kcc_json_string( L, field, "__identifier", true, &name ) != KCC_LEVEL_OK ||
		 kcc_json_string( L, field, "__type", true, &type ) != KCC_LEVEL_OK )
	{
		return NULL;
	}
	const cJSON* value = cJSON_GetObjectItemCaseSensitive( field, "__value" );
	const char* tiled = type; // a type Tiled does not have: kept as JSON text (KCC_PROPERTY_OTHER)
	cJSON* copy = NULL;
	if ( value == NULL || cJSON_IsNull( value ) )
	{
		tiled = "null";
	}
	else if ( strcmp( type, "Int" ) == 0 || strcmp( type, "Float" ) == 0 || strcmp( type, "Bool" ) == 0 )
	{
		tiled = type[0] == 'I' ? "int" : type[0] == 'F' ? "float" : "bool";
	}
	else if ( strcmp( type, "String" ) == 0 || strcmp( type, "Multilines" ) == 0 || strcmp( type, "Color" ) == 0 ||
			  strcmp( type, "FilePath" ) == 0 || strncmp( type, "LocalEnum.", 10 ) == 0 ||
			  strncmp( type, "ExternEnum.", 11 ) == 0 || strncmp( type, "Enum(", 5 ) == 0 )
	{
		tiled = "string";
	}
	else if ( strcmp( type, "EntityRef" ) == 0 )
	{
		// A reference to an entity of this level is an object property (a platform's path); others stay text.
		const char* iid = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( value, "entityIid" ) );
		int id = iid != NULL ? kcc_ldtk_find_ref( refs, iid ) : 0;
		if ( id > 0 )
		{
			tiled = "object";
			copy = cJSON_CreateNumber( id );
		}
	}
	if ( copy == NULL && value != NULL && ( copy = cJSON_Duplicate( value, true ) ) == NULL )
	{
		return kcc_ldtk_memory( L );
	}
	cJSON* p = cJSON_CreateObject();
	if ( p == NULL || kcc_ldtk_add( L, p, "name", cJSON_CreateString( name ) ) == false ||
		 kcc_ldtk_add( L, p, "type", cJSON_CreateString( tiled ) ) == false )
	{
		cJSON_Delete( copy );
		cJSON_Delete( p );
		return kcc_ldtk_memory( L );
	}
	if ( copy != NULL && kcc_ldtk_add( L, p, "value", copy ) == false ) // copy deleted with the failure
	{
		cJSON_Delete( p );
		return NULL;
	}
	return p;
}

// The fieldInstances of owner as Tiled's properties array on out.
static kcc_level_status kcc_ldtk_properties( kcc_loader* L, const cJSON* owner, cJSON* out, const kcc_list* refs )
{
	const cJSON* fields = NULL;
	if ( kcc_json_array( L, owner, "fieldInstances", false, &fields ) != KCC_LEVEL_OK || fields == NULL )
	{
		return L->status;
	}
	cJSON* list = cJSON_CreateArray();
	if ( kcc_ldtk_add( L, out, "properties", list ) == false )
	{
		return L->status;
	}
	int index = 0;
	for ( const cJSON* f = fields->child; f != NULL && L->status == KCC_LEVEL_OK; f = f->next, ++index )
	{
		int mark = kcc_text_push( &L->path, ".", "fieldInstances[%d]", index );
		kcc_ldtk_append( L, list, kcc_ldtk_property( L, f, refs ) );
		kcc_text_pop( &L->path, mark );
	}
	return L->status;
}

// Every entity's iid with the object id it gets (1, 2, ... in the level's order).
static kcc_level_status kcc_ldtk_collect_refs( kcc_loader* L, const cJSON* layers, kcc_list* refs )
{
	int id = 0;
	for ( const cJSON* layer = layers->child; layer != NULL; layer = layer->next )
	{
		const cJSON* entities = cJSON_GetObjectItemCaseSensitive( layer, "entityInstances" );
		for ( const cJSON* e = cJSON_IsArray( entities ) ? entities->child : NULL; e != NULL; e = e->next )
		{
			++id;
			const char* iid = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( e, "iid" ) );
			kcc_ldtk_ref* r = iid != NULL ? kcc_list_push( refs, sizeof( kcc_ldtk_ref ), 1 ) : NULL;
			if ( iid != NULL && r == NULL )
			{
				return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
			}
			if ( r != NULL )
			{
				*r = ( kcc_ldtk_ref ){ iid, id };
			}
		}
	}
	return KCC_LEVEL_OK;
}

// An entity as a Tiled rectangle object: its top-left is its position less the pivot's share of its size.
static cJSON* kcc_ldtk_entity( kcc_loader* L, const cJSON* e, int id, const kcc_list* refs )
{
	const char* identifier = "";
	const cJSON* px = NULL;
	const cJSON* pivot = NULL;
	double w = 0.0, h = 0.0;
	if ( cJSON_IsObject( e ) == false )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "an entity instance must be an object" );
		return NULL;
	}
	if ( kcc_json_string( L, e, "__identifier", true, &identifier ) != KCC_LEVEL_OK ||
		 kcc_json_array( L, e, "px", true, &px ) != KCC_LEVEL_OK ||
		 kcc_json_array( L, e, "__pivot", false, &pivot ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, e, "width", true, 0.0, &w ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, e, "height", true, 0.0, &h ) != KCC_LEVEL_OK )
	{
		return NULL;
	}
	double p[2] = { 0.0, 0.0 }, pv[2] = { 0.0, 0.0 };
	for ( int k = 0; k < 2; ++k )
	{
		const cJSON* a = cJSON_GetArrayItem( px, k );
		const cJSON* b = pivot != NULL ? cJSON_GetArrayItem( pivot, k ) : NULL;
		if ( cJSON_IsNumber( a ) == false || isfinite( a->valuedouble ) == 0 ||
			 ( pivot != NULL && ( cJSON_IsNumber( b ) == false || isfinite( b->valuedouble ) == 0 ) ) )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "'px' and '__pivot' must be two finite numbers each" );
			return NULL;
		}
		p[k] = a->valuedouble;
		pv[k] = b != NULL ? b->valuedouble : 0.0;
	}
	if ( w < 0.0 || h < 0.0 )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "an entity's width and height must not be negative" );
		return NULL;
	}
	// The entity's name: a String field called name, else its identifier (so a game finds "Player").
	const char* name = identifier;
	const cJSON* fields = cJSON_GetObjectItemCaseSensitive( e, "fieldInstances" );
	for ( const cJSON* f = cJSON_IsArray( fields ) ? fields->child : NULL; f != NULL; f = f->next )
	{
		const char* field = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( f, "__identifier" ) );
		const char* value = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( f, "__value" ) );
		if ( field != NULL && value != NULL && ( strcmp( field, "name" ) == 0 || strcmp( field, "Name" ) == 0 ) )
		{
			name = value;
		}
	}
	cJSON* o = cJSON_CreateObject();
	if ( o == NULL || kcc_ldtk_add( L, o, "id", cJSON_CreateNumber( id ) ) == false ||
		 kcc_ldtk_add( L, o, "name", cJSON_CreateString( name ) ) == false ||
		 kcc_ldtk_add( L, o, "type", cJSON_CreateString( identifier ) ) == false ||
		 kcc_ldtk_add( L, o, "x", cJSON_CreateNumber( p[0] - pv[0] * w ) ) == false ||
		 kcc_ldtk_add( L, o, "y", cJSON_CreateNumber( p[1] - pv[1] * h ) ) == false ||
		 kcc_ldtk_add( L, o, "width", cJSON_CreateNumber( w ) ) == false ||
		 kcc_ldtk_add( L, o, "height", cJSON_CreateNumber( h ) ) == false ||
		 kcc_ldtk_properties( L, e, o, refs ) != KCC_LEVEL_OK )
	{
		cJSON_Delete( o );
		return L->status == KCC_LEVEL_OK ? kcc_ldtk_memory( L ) : NULL;
	}
	return o;
}

// The layer definition with this uid, or NULL.
static const cJSON* kcc_ldtk_layer_def( const cJSON* project, double uid )
{
	const cJSON* defs = cJSON_GetObjectItemCaseSensitive( cJSON_GetObjectItemCaseSensitive( project, "defs" ), "layers" );
	for ( const cJSON* d = cJSON_IsArray( defs ) ? defs->child : NULL; d != NULL; d = d->next )
	{
		const cJSON* u = cJSON_GetObjectItemCaseSensitive( d, "uid" );
		if ( cJSON_IsNumber( u ) && u->valuedouble == uid )
		{
			return d;
		}
	}
	return NULL;
}

typedef struct kcc_ldtk_map
{
	cJSON* map;
	cJSON* tilesets;
	cJSON* layers;
	double grid;
	uint32_t next_gid;
} kcc_ldtk_map;

// An IntGrid layer: a tileset of one full tile per value (its identifier the tile's class), the cells as CSV.
static cJSON* kcc_ldtk_intgrid( kcc_loader* L, const cJSON* project, const cJSON* layer, kcc_ldtk_map* m,
								const char* name )
{
	double grid = 0.0, w = 0.0, h = 0.0, uid = 0.0;
	const cJSON* csv = NULL;
	if ( kcc_json_number( L, layer, "__gridSize", true, 0.0, &grid ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, layer, "__cWid", true, 0.0, 0.0, 16777216.0, &w ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, layer, "__cHei", true, 0.0, 0.0, 16777216.0, &h ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, layer, "layerDefUid", true, 0.0, &uid ) != KCC_LEVEL_OK ||
		 kcc_json_array( L, layer, "intGridCsv", true, &csv ) != KCC_LEVEL_OK )
	{
		return NULL;
	}
	if ( grid < 1.0 || grid > 65536.0 || grid != floor( grid ) )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "'__gridSize' must be a whole number in [1, 65536] (is %g)", grid );
		return NULL;
	}
	if ( w * h > (double)L->def->max_cells )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_LIMIT, "%.0f x %.0f cells is more than max_cells (%d)", w, h, L->def->max_cells );
		return NULL;
	}
	const cJSON* def = kcc_ldtk_layer_def( project, uid );
	const cJSON* values = cJSON_GetObjectItemCaseSensitive( def, "intGridValues" );
	if ( cJSON_IsArray( values ) == false )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "layerDefUid %.0f is no IntGrid layer definition of defs.layers", uid );
		return NULL;
	}
	// The tileset: tile k is the definition's value k.
	int value_count = cJSON_GetArraySize( values );
	cJSON* set = cJSON_CreateObject();
	if ( kcc_ldtk_append( L, m->tilesets, set ) == false )
	{
		return NULL;
	}
	cJSON* tiles = cJSON_CreateArray();
	if ( kcc_ldtk_add( L, set, "tiles", tiles ) == false ||
		 kcc_ldtk_add( L, set, "firstgid", cJSON_CreateNumber( m->next_gid ) ) == false ||
		 kcc_ldtk_add( L, set, "name", cJSON_CreateString( name ) ) == false ||
		 kcc_ldtk_add( L, set, "tilewidth", cJSON_CreateNumber( grid ) ) == false ||
		 kcc_ldtk_add( L, set, "tileheight", cJSON_CreateNumber( grid ) ) == false ||
		 kcc_ldtk_add( L, set, "tilecount", cJSON_CreateNumber( value_count ) ) == false )
	{
		return NULL;
	}
	int k = 0;
	for ( const cJSON* v = values->child; v != NULL; v = v->next, ++k )
	{
		// Each item belongs to the tree as soon as it is made (a failed add deletes it).
		const char* identifier = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( v, "identifier" ) );
		cJSON* tile = cJSON_CreateObject();
		if ( kcc_ldtk_append( L, tiles, tile ) == false )
		{
			return NULL;
		}
		cJSON* props = cJSON_CreateArray();
		if ( kcc_ldtk_add( L, tile, "properties", props ) == false )
		{
			return NULL;
		}
		cJSON* solid = cJSON_CreateObject();
		if ( kcc_ldtk_append( L, props, solid ) == false || kcc_ldtk_add( L, tile, "id", cJSON_CreateNumber( k ) ) == false ||
			 kcc_ldtk_add( L, tile, "type", cJSON_CreateString( identifier != NULL ? identifier : "" ) ) == false ||
			 kcc_ldtk_add( L, solid, "name", cJSON_CreateString( L->def->solid_property ) ) == false ||
			 kcc_ldtk_add( L, solid, "type", cJSON_CreateString( "bool" ) ) == false ||
			 kcc_ldtk_add( L, solid, "value", cJSON_CreateTrue() ) == false )
		{
			return NULL;
		}
	}
	size_t cells = (size_t)w * (size_t)h;
	if ( (size_t)cJSON_GetArraySize( csv ) != cells )
	{
		int mark = kcc_text_push( &L->path, ".", "intGridCsv" );
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "intGridCsv has %d values, expected %zu (%.0f x %.0f)",
				  cJSON_GetArraySize( csv ), cells, w, h );
		kcc_text_pop( &L->path, mark );
		return NULL;
	}
	// gids as CSV text (11 bytes a cell at most): no tree of a million numbers. The values looked up in an array.
	char* text = malloc( cells * 11 + 1 );
	double* numbers = malloc( (size_t)( value_count > 0 ? value_count : 1 ) * sizeof( double ) );
	if ( text == NULL || numbers == NULL )
	{
		free( text );
		free( numbers );
		return kcc_ldtk_memory( L );
	}
	k = 0;
	for ( const cJSON* v = values->child; v != NULL; v = v->next, ++k )
	{
		const cJSON* number = cJSON_GetObjectItemCaseSensitive( v, "value" );
		numbers[k] = cJSON_IsNumber( number ) && number->valuedouble != 0.0 ? number->valuedouble : NAN;
	}
	size_t used = 0, i = 0;
	int last = -1; // the last value's index: runs of one value skip the search
	for ( const cJSON* c = csv->child; c != NULL; c = c->next, ++i )
	{
		int value_index = -1;
		if ( cJSON_IsNumber( c ) && c->valuedouble != 0.0 )
		{
			value_index = last >= 0 && numbers[last] == c->valuedouble ? last : -1;
			for ( int n = 0; value_index < 0 && n < value_count; ++n )
			{
				value_index = numbers[n] == c->valuedouble ? n : -1;
			}
			last = value_index >= 0 ? value_index : last;
		}
		if ( cJSON_IsNumber( c ) == false || ( c->valuedouble != 0.0 && value_index < 0 ) )
		{
			int mark = kcc_text_push( &L->path, ".", "intGridCsv[%zu]", i );
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "cell (%zu, %zu): %s is not one of the layer's IntGrid values",
					  i % (size_t)w, i / (size_t)w, cJSON_IsNumber( c ) ? "the value" : "a non-number" );
			kcc_text_pop( &L->path, mark );
			free( text );
			free( numbers );
			return NULL;
		}
		// The gid's digits, then a comma (no printf: a million cells).
		uint32_t gid = value_index >= 0 ? m->next_gid + (uint32_t)value_index : 0;
		char digits[10];
		int n = 0;
		do
		{
			digits[n++] = (char)( '0' + gid % 10u );
			gid /= 10u;
		} while ( gid > 0 );
		while ( n > 0 )
		{
			text[used++] = digits[--n];
		}
		text[used++] = ',';
	}
	text[used] = '\0';
	free( numbers );
	m->next_gid += (uint32_t)( value_count > 0 ? value_count : 1 );
	cJSON* out = cJSON_CreateObject();
	cJSON* data = cJSON_CreateString( text );
	free( text );
	if ( out == NULL || kcc_ldtk_add( L, out, "data", data ) == false ||
		 kcc_ldtk_add( L, out, "type", cJSON_CreateString( "tilelayer" ) ) == false ||
		 kcc_ldtk_add( L, out, "encoding", cJSON_CreateString( "csv" ) ) == false ||
		 kcc_ldtk_add( L, out, "width", cJSON_CreateNumber( w ) ) == false ||
		 kcc_ldtk_add( L, out, "tilewidth", cJSON_CreateNumber( grid ) ) == false ||
		 kcc_ldtk_add( L, out, "tileheight", cJSON_CreateNumber( grid ) ) == false ||
		 kcc_ldtk_add( L, out, "height", cJSON_CreateNumber( h ) ) == false )
	{
		cJSON_Delete( out );
		return L->status == KCC_LEVEL_OK ? kcc_ldtk_memory( L ) : NULL;
	}
	return out;
}

// One layer instance as a Tiled layer (an image layer for pictures).
static kcc_level_status kcc_ldtk_layer( kcc_loader* L, const cJSON* project, const cJSON* layer, kcc_ldtk_map* m,
										int* next_id, const kcc_list* refs )
{
	const char* name = "";
	const char* type = "";
	double dx = 0.0, dy = 0.0;
	bool visible = true;
	if ( cJSON_IsObject( layer ) == false )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a layer instance must be an object" );
	}
	if ( kcc_json_string( L, layer, "__identifier", true, &name ) != KCC_LEVEL_OK ||
		 kcc_json_string( L, layer, "__type", true, &type ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, layer, "__pxTotalOffsetX", false, 0.0, &dx ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, layer, "__pxTotalOffsetY", false, 0.0, &dy ) != KCC_LEVEL_OK ||
		 kcc_json_bool( L, layer, "visible", true, &visible ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	int what_mark = kcc_text_push( &L->what, " > ", "layer '%s'", name );
	cJSON* out = NULL;
	if ( strcmp( type, "IntGrid" ) == 0 )
	{
		out = kcc_ldtk_intgrid( L, project, layer, m, name );
	}
	else if ( strcmp( type, "Entities" ) == 0 )
	{
		const cJSON* entities = NULL;
		cJSON* objects = NULL;
		out = cJSON_CreateObject();
		if ( kcc_json_array( L, layer, "entityInstances", true, &entities ) == KCC_LEVEL_OK &&
			 ( out == NULL || kcc_ldtk_add( L, out, "type", cJSON_CreateString( "objectgroup" ) ) == false ||
			   kcc_ldtk_add( L, out, "objects", objects = cJSON_CreateArray() ) == false ) )
		{
			kcc_ldtk_memory( L );
		}
		int index = 0;
		for ( const cJSON* e = entities != NULL ? entities->child : NULL; e != NULL && L->status == KCC_LEVEL_OK;
			  e = e->next, ++index )
		{
			int mark = kcc_text_push( &L->path, ".", "entityInstances[%d]", index );
			*next_id += 1;
			kcc_ldtk_append( L, objects, kcc_ldtk_entity( L, e, *next_id, refs ) );
			kcc_text_pop( &L->path, mark );
		}
	}
	else
	{
		// Tiles and auto-layers: pictures.
		out = cJSON_CreateObject();
		if ( out == NULL || kcc_ldtk_add( L, out, "type", cJSON_CreateString( "imagelayer" ) ) == false )
		{
			kcc_ldtk_memory( L );
		}
	}
	kcc_text_pop( &L->what, what_mark );
	if ( L->status != KCC_LEVEL_OK || out == NULL )
	{
		cJSON_Delete( out );
		return L->status;
	}
	if ( kcc_ldtk_append( L, m->layers, out ) && kcc_ldtk_add( L, out, "name", cJSON_CreateString( name ) ) &&
		 kcc_ldtk_add( L, out, "offsetx", cJSON_CreateNumber( dx ) ) )
	{
		if ( kcc_ldtk_add( L, out, "offsety", cJSON_CreateNumber( dy ) ) )
		{
			kcc_ldtk_add( L, out, "visible", cJSON_CreateBool( visible ) );
		}
	}
	return L->status;
}

// The level's identifiers, for the message when the wanted one is not there.
static void kcc_ldtk_level_names( const cJSON* const* lists, int list_count, char* out, size_t size )
{
	size_t used = 0;
	out[0] = '\0';
	for ( int k = 0; k < list_count; ++k )
	{
		for ( const cJSON* lv = lists[k] != NULL ? lists[k]->child : NULL; lv != NULL && used + 1 < size; lv = lv->next )
		{
			const char* id = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( lv, "identifier" ) );
			int n = snprintf( out + used, size - used, "%s%s", used > 0 ? ", " : "", id != NULL ? id : "?" );
			used = n > 0 && (size_t)n < size - used ? used + (size_t)n : size - 1;
		}
	}
}

// The level: def->ldtk_level by identifier, or the first; in "levels", or in "worlds"[w]."levels" (multi-world
// projects). Its path goes in path.
static const cJSON* kcc_ldtk_find_level( kcc_loader* L, const cJSON* project, char* path, size_t path_size )
{
	const cJSON* lists[64];
	int list_count = 0;
	const cJSON* levels = cJSON_GetObjectItemCaseSensitive( project, "levels" );
	const cJSON* worlds = cJSON_GetObjectItemCaseSensitive( project, "worlds" );
	if ( cJSON_IsArray( levels ) )
	{
		lists[list_count++] = levels;
	}
	for ( const cJSON* w = cJSON_IsArray( worlds ) ? worlds->child : NULL; w != NULL && list_count < 64; w = w->next )
	{
		const cJSON* more = cJSON_GetObjectItemCaseSensitive( w, "levels" );
		lists[list_count++] = cJSON_IsArray( more ) ? more : NULL;
	}
	const char* wanted = L->def->ldtk_level;
	for ( int k = 0; k < list_count; ++k )
	{
		int index = 0;
		for ( const cJSON* lv = lists[k] != NULL ? lists[k]->child : NULL; lv != NULL; lv = lv->next, ++index )
		{
			const char* id = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( lv, "identifier" ) );
			if ( wanted == NULL || ( id != NULL && strcmp( id, wanted ) == 0 ) )
			{
				if ( lists[k] == levels )
				{
					snprintf( path, path_size, "levels[%d]", index );
				}
				else
				{
					snprintf( path, path_size, "worlds[%d].levels[%d]", k - ( cJSON_IsArray( levels ) ? 1 : 0 ), index );
				}
				return lv;
			}
		}
	}
	char names[256];
	kcc_ldtk_level_names( lists, list_count, names, sizeof( names ) );
	if ( wanted == NULL )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "the LDtk project has no level" );
	}
	else
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "the LDtk project has no level '%s' (def.ldtk_level; its levels: %s)",
				  wanted, names );
	}
	return NULL;
}

static kcc_level_status kcc_ldtk_build( kcc_loader* L, const cJSON* project, const cJSON* level, kcc_ldtk_map* m )
{
	const char* identifier = "";
	double width = 0.0, height = 0.0, world_x = 0.0, world_y = 0.0, grid = m->grid;
	const cJSON* layers = NULL;
	if ( cJSON_IsObject( level ) == false )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a level must be an object" );
	}
	if ( kcc_json_string( L, level, "identifier", false, &identifier ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, level, "pxWid", true, 0.0, 0.0, 16777216.0, &width ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, level, "pxHei", true, 0.0, 0.0, 16777216.0, &height ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, level, "worldX", false, 0.0, &world_x ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, level, "worldY", false, 0.0, &world_y ) != KCC_LEVEL_OK ||
		 kcc_json_array( L, level, "layerInstances", true, &layers ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	// The tile size: the first IntGrid layer's grid, else the project's default.
	for ( const cJSON* layer = layers->child; layer != NULL; layer = layer->next )
	{
		const char* type = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( layer, "__type" ) );
		const cJSON* size = cJSON_GetObjectItemCaseSensitive( layer, "__gridSize" );
		if ( type != NULL && strcmp( type, "IntGrid" ) == 0 && cJSON_IsNumber( size ) && size->valuedouble >= 1.0 &&
			 size->valuedouble <= 65536.0 && size->valuedouble == floor( size->valuedouble ) )
		{
			grid = size->valuedouble;
			break;
		}
	}
	m->grid = grid;
	m->next_gid = 1;
	cJSON* map = m->map = cJSON_CreateObject();
	if ( map == NULL || kcc_ldtk_add( L, map, "tilesets", m->tilesets = cJSON_CreateArray() ) == false ||
		 kcc_ldtk_add( L, map, "layers", m->layers = cJSON_CreateArray() ) == false ||
		 kcc_ldtk_add( L, map, "type", cJSON_CreateString( "map" ) ) == false ||
		 kcc_ldtk_add( L, map, "tilewidth", cJSON_CreateNumber( grid ) ) == false ||
		 kcc_ldtk_add( L, map, "tileheight", cJSON_CreateNumber( grid ) ) == false ||
		 kcc_ldtk_add( L, map, "width", cJSON_CreateNumber( ceil( width / grid ) ) ) == false ||
		 kcc_ldtk_add( L, map, "height", cJSON_CreateNumber( ceil( height / grid ) ) ) == false )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	kcc_list refs = { NULL, 0, 0 };
	if ( kcc_ldtk_collect_refs( L, layers, &refs ) == KCC_LEVEL_OK &&
		 kcc_ldtk_properties( L, level, map, &refs ) == KCC_LEVEL_OK )
	{
		// The level's place in the world, in pixels, with its identifier: map properties a game can read.
		cJSON* props = cJSON_GetObjectItemCaseSensitive( map, "properties" );
		if ( props == NULL && kcc_ldtk_add( L, map, "properties", props = cJSON_CreateArray() ) == false )
		{
			props = NULL;
		}
		const char* names[3] = { "ldtk_world_x", "ldtk_world_y", "ldtk_level" };
		for ( int k = 0; k < 3 && props != NULL && L->status == KCC_LEVEL_OK; ++k )
		{
			cJSON* p = cJSON_CreateObject();
			if ( kcc_ldtk_append( L, props, p ) && kcc_ldtk_add( L, p, "name", cJSON_CreateString( names[k] ) ) )
			{
				if ( kcc_ldtk_add( L, p, "type", cJSON_CreateString( k < 2 ? "float" : "string" ) ) )
				{
					kcc_ldtk_add( L, p, "value", k == 0	  ? cJSON_CreateNumber( world_x )
												 : k == 1 ? cJSON_CreateNumber( world_y )
														  : cJSON_CreateString( identifier ) );
				}
			}
		}
	}
	int index = 0, next_id = 0;
	for ( const cJSON* layer = layers->child; layer != NULL && L->status == KCC_LEVEL_OK; layer = layer->next, ++index )
	{
		int mark = kcc_text_push( &L->path, ".", "layerInstances[%d]", index );
		kcc_ldtk_layer( L, project, layer, m, &next_id, &refs );
		kcc_text_pop( &L->path, mark );
	}
	kcc_list_free( &refs );
	return L->status;
}

kcc_level_status kcc_ldtk_to_tiled( kcc_loader* L, const cJSON* project, cJSON** out )
{
	*out = NULL;
	kcc_ldtk_map m;
	memset( &m, 0, sizeof( m ) );
	double grid = 16.0;
	char level_path[64];
	if ( kcc_json_int( L, project, "defaultGridSize", false, 16.0, 1.0, 65536.0, &grid ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	m.grid = grid;
	const cJSON* level = kcc_ldtk_find_level( L, project, level_path, sizeof( level_path ) );
	if ( level == NULL )
	{
		return L->status;
	}
	kcc_text_push( &L->path, "", "%s", level_path );
	// A level saved apart (externalLevels): its layers are in the .ldtkl file it names, relative to the project;
	// from then on messages name that file (L->file), and paths in it.
	cJSON* external = NULL;
	const cJSON* instances = cJSON_GetObjectItemCaseSensitive( level, "layerInstances" );
	const char* rel = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( level, "externalRelPath" ) );
	bool apart = ( instances == NULL || cJSON_IsNull( instances ) ) && rel != NULL;
	if ( apart )
	{
		kcc_file_context saved;
		char* file = kcc_resolve_path( L, L->base_dir, rel );
		if ( file == NULL )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
		else if ( kcc_open_json_file( L, file, "level", &external, &saved ) == KCC_LEVEL_OK )
		{
			level = external;
			L->map_file = file;
		}
	}
	if ( L->status == KCC_LEVEL_OK )
	{
		kcc_ldtk_build( L, project, level, &m );
	}
	if ( L->status == KCC_LEVEL_OK )
	{
		// The loader's messages name LDtk's members for what the map's layers and objects came from.
		L->path_prefix = kcc_arena_strdup( L->arena, apart ? "" : level_path );
		L->key_layers = "layerInstances";
		L->key_objects = "entityInstances";
		L->key_data = "intGridCsv";
		L->key_properties = "fieldInstances";
		if ( L->path_prefix == NULL )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
	}
	cJSON_Delete( external );
	kcc_text_pop( &L->path, 0 );
	if ( L->status != KCC_LEVEL_OK )
	{
		cJSON_Delete( m.map );
		return L->status;
	}
	*out = m.map;
	return KCC_LEVEL_OK;
}
