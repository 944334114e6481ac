// SPDX-License-Identifier: MIT
// The def's rules: a map's own conventions (a layer's name, a class, an object's name, a bool property) mapped to
// kcc2d's kinds, first match wins, tried before the built-in classes.
#include "internal.h"

#include <string.h>

const char* kcc_kind_name( kcc_level_object_kind kind )
{
	static const char* names[] = { "solid", "one_way", "platform", "zone", "spawn", "crate", "path", "other" };
	return (int)kind >= 0 && (int)kind < (int)( sizeof( names ) / sizeof( names[0] ) ) ? names[kind] : "?";
}

// A tile can only be made solid, one-way, a sensor or nothing: rules of other kinds are for objects.
static bool kcc_tile_kind( kcc_level_object_kind kind )
{
	return kind == KCC_LEVEL_SOLID || kind == KCC_LEVEL_ONE_WAY || kind == KCC_LEVEL_ZONE || kind == KCC_LEVEL_OTHER;
}

const kcc_level_rule* kcc_match_rule( const kcc_loader* L, const char* layer, const char* class_name,
									  const char* name, const kcc_level_property* properties, int property_count,
									  bool tile )
{
	for ( int i = 0; i < L->def->rule_count; ++i )
	{
		const kcc_level_rule* r = L->def->rules + i;
		if ( tile && ( r->name != NULL || kcc_tile_kind( r->kind ) == false ) )
		{
			continue;
		}
		if ( ( r->layer != NULL && strcmp( r->layer, layer ) != 0 ) ||
			 ( r->class_name != NULL && strcmp( r->class_name, class_name ) != 0 ) ||
			 ( r->name != NULL && ( name == NULL || strcmp( r->name, name ) != 0 ) ) )
		{
			continue;
		}
		if ( r->property != NULL )
		{
			const kcc_level_property* p = kcc_find_property( properties, property_count, r->property );
			if ( p == NULL || p->type != KCC_PROPERTY_BOOL || p->boolean == false )
			{
				continue;
			}
		}
		return r;
	}
	return NULL;
}
