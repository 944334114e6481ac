// SPDX-License-Identifier: MIT
// Object templates (Tiled's .tj JSON or .tx XML templates): an object with a "template" member is the template's
// object with the instance's own members over it (properties merged by name). A tile template's gid is counted in
// the template's own tileset: it is moved to where the map loads that same tileset file. Each template file is
// read once per load.
#include "internal.h"

#include <string.h>

typedef struct kcc_template
{
	const char* path; // resolved, in the arena
	cJSON* json;      // owned
} kcc_template;

// The parsed template file (read and cached on first use), or NULL with an error.
static const cJSON* kcc_template_file( kcc_loader* L, const char* path )
{
	for ( int i = 0; i < L->templates.count; ++i )
	{
		const kcc_template* t = KCC_LIST_AT( L->templates, kcc_template, i );
		if ( strcmp( t->path, path ) == 0 )
		{
			return t->json;
		}
	}
	kcc_file_context saved;
	cJSON* json = NULL;
	if ( kcc_open_json_file( L, path, "template", &json, &saved ) == KCC_LEVEL_OK &&
		 cJSON_IsObject( cJSON_GetObjectItemCaseSensitive( json, "object" ) ) == false )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a template must hold an 'object'" );
	}
	kcc_close_json_file( L, &saved );
	kcc_template* slot = L->status == KCC_LEVEL_OK ? kcc_list_push( &L->templates, sizeof( kcc_template ), 1 ) : NULL;
	if ( slot == NULL )
	{
		if ( L->status == KCC_LEVEL_OK )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
		cJSON_Delete( json );
		return NULL;
	}
	slot->path = path;
	slot->json = json;
	return json;
}

// Instance properties over the template's, by name.
static bool kcc_merge_properties( cJSON* merged, const cJSON* own )
{
	cJSON* base = cJSON_GetObjectItemCaseSensitive( merged, "properties" );
	if ( cJSON_IsArray( base ) == false || cJSON_IsArray( own ) == false )
	{
		cJSON_DeleteItemFromObjectCaseSensitive( merged, "properties" );
		return cJSON_AddItemToObject( merged, "properties", cJSON_Duplicate( own, true ) );
	}
	for ( const cJSON* p = own->child; p != NULL; p = p->next )
	{
		const cJSON* name = cJSON_GetObjectItemCaseSensitive( p, "name" );
		int index = 0;
		cJSON* match = NULL;
		for ( cJSON* q = base->child; q != NULL && cJSON_IsString( name ); q = q->next, ++index )
		{
			const cJSON* other = cJSON_GetObjectItemCaseSensitive( q, "name" );
			if ( cJSON_IsString( other ) && strcmp( other->valuestring, name->valuestring ) == 0 )
			{
				match = q;
				break;
			}
		}
		cJSON* copy = cJSON_Duplicate( p, true );
		bool ok = copy != NULL && ( match != NULL ? cJSON_ReplaceItemInArray( base, index, copy )
												  : cJSON_AddItemToArray( base, copy ) );
		if ( ok == false )
		{
			cJSON_Delete( copy );
			return false;
		}
	}
	return true;
}

// A gid counted in the template's tileset, moved to the map's copy of that tileset.
static kcc_level_status kcc_move_template_gid( kcc_loader* L, const cJSON* file, const char* path, cJSON* merged )
{
	const cJSON* tileset = cJSON_GetObjectItemCaseSensitive( file, "tileset" );
	cJSON* gid = cJSON_GetObjectItemCaseSensitive( merged, "gid" );
	if ( tileset == NULL || gid == NULL )
	{
		return KCC_LEVEL_OK;
	}
	double first = 0.0, value = 0.0;
	const char* source = "";
	if ( cJSON_IsObject( tileset ) == false ||
		 kcc_json_int( L, tileset, "firstgid", true, 0.0, 1.0, (double)KCC_GID_MASK, &first ) != KCC_LEVEL_OK ||
		 kcc_json_string( L, tileset, "source", true, &source ) != KCC_LEVEL_OK ||
		 kcc_json_int( L, merged, "gid", true, 0.0, 0.0, 4294967295.0, &value ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	const char* wanted = kcc_resolve_path( L, kcc_directory_of( L->arena, path ), source );
	if ( wanted == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	uint32_t raw = (uint32_t)value;
	for ( int i = 0; i < L->tilesets.count; ++i )
	{
		const kcc_tileset* set = KCC_LIST_AT( L->tilesets, kcc_tileset, i );
		if ( set->external && strcmp( set->file, wanted ) == 0 )
		{
			uint32_t local = ( raw & KCC_GID_MASK ) - (uint32_t)first;
			if ( ( raw & KCC_GID_MASK ) < (uint32_t)first || local > KCC_GID_MASK - set->first_gid )
			{
				return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "template's gid %u is not in its tileset '%s'",
								 (unsigned)( raw & KCC_GID_MASK ), source );
			}
			cJSON_SetNumberValue( gid, (double)( ( raw & ~KCC_GID_MASK ) | ( set->first_gid + local ) ) );
			return KCC_LEVEL_OK;
		}
	}
	return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "template uses tileset '%s' (%s), which the map does not load", source,
					 wanted );
}

cJSON* kcc_instantiate_template( kcc_loader* L, const cJSON* instance )
{
	const char* name = "";
	if ( kcc_json_string( L, instance, "template", true, &name ) != KCC_LEVEL_OK )
	{
		return NULL;
	}
	const char* path = kcc_resolve_path( L, L->base_dir, name );
	if ( path == NULL )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		return NULL;
	}
	const cJSON* file = kcc_template_file( L, path );
	if ( file == NULL )
	{
		return NULL;
	}
	cJSON* merged = cJSON_Duplicate( cJSON_GetObjectItemCaseSensitive( file, "object" ), true );
	bool ok = merged != NULL;
	bool own_gid = cJSON_GetObjectItemCaseSensitive( instance, "gid" ) != NULL;
	for ( const cJSON* item = instance->child; item != NULL && ok; item = item->next )
	{
		if ( item->string == NULL || strcmp( item->string, "template" ) == 0 )
		{
			continue;
		}
		if ( strcmp( item->string, "properties" ) == 0 )
		{
			ok = kcc_merge_properties( merged, item );
			continue;
		}
		cJSON* copy = cJSON_Duplicate( item, true );
		cJSON_DeleteItemFromObjectCaseSensitive( merged, item->string );
		ok = copy != NULL && cJSON_AddItemToObject( merged, item->string, copy );
		if ( ok == false )
		{
			cJSON_Delete( copy );
		}
	}
	if ( ok == false )
	{
		cJSON_Delete( merged );
		kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		return NULL;
	}
	if ( own_gid == false && kcc_move_template_gid( L, file, path, merged ) != KCC_LEVEL_OK )
	{
		cJSON_Delete( merged );
		return NULL;
	}
	return merged;
}

void kcc_free_templates( kcc_loader* L )
{
	for ( int i = 0; i < L->templates.count; ++i )
	{
		cJSON_Delete( KCC_LIST_AT( L->templates, kcc_template, i )->json );
	}
	kcc_list_free( &L->templates );
}
